"""The front ↔ worker relay protocol (#22): every declared message round-trips, and
the decoder, fed anything at all, returns messages or raises BadFrame — nothing else."""

from __future__ import annotations

import dataclasses
import typing

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unoduo_tui.net.frames import PROTOCOL
from unoduo_tui.ssh import relay
from unoduo_tui.ssh.relay import MESSAGES, BadFrame, Reader, encode

_WHOLE = st.integers(0, (1 << 53) - 1)
_KINDS = {int: _WHOLE, bool: st.booleans(), str: st.text(max_size=50),
          bytes: st.binary(max_size=200)}


def _strategy(cls: type) -> st.SearchStrategy:
    hints = typing.get_type_hints(cls)
    fields = {}
    for f in dataclasses.fields(cls):
        args = [a for a in typing.get_args(hints[f.name]) if a is not type(None)]
        kind = args[0] if args else hints[f.name]
        fields[f.name] = (st.none() | _KINDS[kind]) if args else _KINDS[kind]
    return st.builds(cls, **fields)


any_message = st.one_of(*(_strategy(cls) for cls in MESSAGES))


def frame(body: object) -> bytes:
    data = msgpack.packb(body, use_bin_type=True)
    return len(data).to_bytes(4, "big") + data


@given(st.lists(any_message, max_size=8), st.integers(1, 64))
@settings(max_examples=300, deadline=None)
def test_every_message_comes_back_equal_however_the_stream_is_cut(messages, cut):
    stream = b"".join(encode(m) for m in messages)
    reader, got = Reader(), []
    for i in range(0, len(stream), cut):
        got += reader.feed(stream[i:i + cut])
    assert got == messages


@given(st.binary(max_size=300))
@settings(max_examples=500, deadline=None)
def test_any_bytes_are_messages_or_bad_frame_and_nothing_else(data):
    try:
        for message in Reader().feed(data):
            assert isinstance(message, MESSAGES)
    except BadFrame:
        pass


_values = st.recursive(st.none() | st.booleans() | st.integers(-(1 << 63), (1 << 64) - 1)
                       | st.floats()
                       | st.text(max_size=10) | st.binary(max_size=10),
                       lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                       max_leaves=6)


@given(st.sampled_from([cls.__name__ for cls in MESSAGES]),
       st.dictionaries(st.sampled_from(["sid", "data", "n", "columns", "rows", "paused",
                                        "status", "message", "term", "colorterm", "key",
                                        "name", "data_dir", "lobby_dir", "extra"]),
                       _values, max_size=10))
@settings(max_examples=500, deadline=None)
def test_a_well_formed_map_of_the_wrong_shape_is_bad_frame(name, fields):
    body = {"t": name, "v": PROTOCOL, **fields}
    try:
        (message,) = Reader().feed(frame(body))
    except BadFrame:
        return
    # accepted: then it was exactly that message, every field of its declared type
    assert type(message).__name__ == name
    assert {f.name for f in dataclasses.fields(message)} == set(fields)


@pytest.mark.parametrize("body, why", [
    ({"t": "Input", "v": PROTOCOL, "sid": 1}, "missing"),
    ({"t": "Input", "v": PROTOCOL, "sid": 1, "data": b"", "more": 1}, "unknown"),
    ({"t": "Input", "v": PROTOCOL, "sid": True, "data": b""}, "not a int"),
    ({"t": "Input", "v": PROTOCOL, "sid": -1, "data": b""}, "not a int"),
    ({"t": "Input", "v": PROTOCOL, "sid": 1 << 60, "data": b""}, "not a int"),
    ({"t": "Input", "v": PROTOCOL, "sid": 1, "data": "text"}, "not a bytes"),
    ({"t": "Closed", "v": PROTOCOL, "sid": 1, "status": 0, "message": b"x"}, "not a str"),
    ({"t": "Exec", "v": PROTOCOL, "sid": 1}, "not a relay message"),
    ({"t": "Input", "v": PROTOCOL + 1, "sid": 1, "data": b""}, "protocol version"),
])
def test_a_message_that_is_not_exactly_declared_is_refused_and_says_why(body, why):
    reader = Reader()
    with pytest.raises(BadFrame, match=why):
        reader.feed(frame(body))
    with pytest.raises(BadFrame):  # and the stream is over
        reader.feed(encode(relay.Ping(1)))


def test_output_is_cut_into_chunks_a_frame_can_carry():
    data = bytes(range(256)) * 1000
    parts = relay.chunks(data)
    assert b"".join(parts) == data and max(map(len, parts)) <= relay.CHUNK
    assert all(len(encode(relay.Output(1, p))) < 1 << 20 for p in parts)
