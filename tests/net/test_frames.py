"""The wire format (#15): length-prefixed msgpack frames, and what a hostile peer can
send them."""

from __future__ import annotations

import struct

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unoduo_tui.net.frames import MAX_FRAME, PROTOCOL, BadFrame, FrameReader, encode

json_like = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=5),
    max_leaves=20)
messages = st.builds(lambda t, body: {**body, "t": t}, st.text(min_size=1, max_size=10),
                     st.dictionaries(st.text(max_size=8).filter(lambda k: k not in "tv"),
                                     json_like, max_size=5))


@given(st.lists(messages, min_size=1, max_size=5), st.data())
@settings(max_examples=200, deadline=None)
def test_messages_arrive_whole_whatever_the_chunking(sent, data):
    stream = b"".join(encode(m) for m in sent)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=8)))
    reader, got, start = FrameReader(), [], 0
    for cut in [*cuts, len(stream)]:
        got += reader.feed(stream[start:cut])
        start = cut
    assert got == [{**m, "v": PROTOCOL} for m in sent]
    assert reader.pending == 0


@given(st.binary(max_size=300))
@settings(max_examples=2000, deadline=None)
def test_any_bytes_give_messages_or_bad_frame_never_another_error(junk):
    reader = FrameReader()
    try:
        for message in reader.feed(junk):
            assert isinstance(message, dict) and message["v"] == PROTOCOL
    except BadFrame:
        with pytest.raises(BadFrame):  # a broken stream stays broken: drop the peer
            reader.feed(encode({"t": "hello"}))


def _frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


@pytest.mark.parametrize("body, why", [
    (msgpack.packb([1, 2]), "a map"),
    (msgpack.packb({"t": "x"}), "version"),
    (msgpack.packb({"t": "x", "v": PROTOCOL + 1}), "version"),
    (msgpack.packb({"v": PROTOCOL}), "type"),
    (msgpack.packb({"v": PROTOCOL, "t": 5}), "type"),
    (msgpack.packb({1: 2, "v": PROTOCOL, "t": "x"}), "msgpack"),
    (msgpack.packb({"v": PROTOCOL, "t": "x", "e": msgpack.ExtType(1, b"a")}), "msgpack"),
    (msgpack.packb({"v": PROTOCOL, "t": "x"}) + b"\x00", "msgpack"),
    (b"\x91" * 5000 + b"\x00", "msgpack"),  # nested 5,000 deep
    (b"\xdd\xff\xff\xff\xff", "msgpack"),  # an array claiming 4 G items
])
def test_malformed_frames_are_refused_with_a_reason(body, why):
    with pytest.raises(BadFrame, match=why):
        FrameReader().feed(_frame(body))


def test_an_oversized_length_is_refused_before_its_bytes_arrive():
    reader = FrameReader()
    with pytest.raises(BadFrame, match="limit"):
        reader.feed(struct.pack(">I", MAX_FRAME + 1))
    assert reader.pending == 0


def test_a_megabyte_of_junk_is_refused_at_once():
    with pytest.raises(BadFrame):
        FrameReader().feed(b"\xff" * (1 << 20))


def test_the_sender_refuses_what_the_reader_would():
    with pytest.raises(ValueError):
        encode({"t": "x", "blob": b"\0" * MAX_FRAME})
    with pytest.raises(ValueError):
        encode({"no": "type"})
