"""#22 "the wire is declared once": every network message is a frozen dataclass with
one encoder and one decoder (:mod:`unoduo_tui.net.messages`); the decoder, fuzzed, turns
a hostile frame into a clear refusal (:class:`BadMessage`) and nothing else."""

from __future__ import annotations

import dataclasses
import typing

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unoduo_tui.net import frames
from unoduo_tui.net import messages as msg
from unoduo_tui.net.messages import BadMessage

RECEIVERS = (msg.TO_AUTHORITY, msg.TO_CLIENT, msg.TO_HALL, msg.TO_LOBBY, msg.TO_PEER,
             msg.TO_JOINING_NODE)
ALL = tuple(dict.fromkeys(cls for receiver in RECEIVERS for cls in receiver.values()))


def _receiver(cls):
    return next(r for r in RECEIVERS if cls in r.values())


def _strategy(kind, limit):
    origin = typing.get_origin(kind)
    if origin in (typing.Union, __import__("types").UnionType):
        inner = [k for k in typing.get_args(kind) if k is not type(None)][0]
        return st.none() | _strategy(inner, limit)
    if origin is typing.Literal:
        return st.sampled_from(typing.get_args(kind))
    if origin is tuple:
        item = typing.get_args(kind)[0]
        return st.lists(_strategy(item, limit), max_size=min(limit["items"] or 8, 8)).map(tuple)
    if kind is bool:
        return st.booleans()
    if kind is int:
        low = limit["low"] if limit["low"] is not None else -(2**31)
        high = limit["high"] if limit["high"] is not None else 2**31
        return st.integers(low, high)
    if kind is str:
        return st.text(max_size=min(limit["chars"] or 40, 40))
    if kind is float:
        return st.floats(allow_nan=False, allow_infinity=False)
    if isinstance(kind, type) and issubclass(kind, msg.Record):
        return _messages(kind)
    if kind is dict:
        return st.dictionaries(st.text(max_size=5), st.integers(-(2**63), 2**63 - 1)
                               | st.text(max_size=5),
                               max_size=4)
    raise AssertionError(kind)


def _messages(cls):
    fields = {name: _strategy(kind, limit)
              for name, _, kind, limit, _, _ in msg.schema(cls)}
    return st.fixed_dictionaries(fields).map(lambda values: cls(**values))


def _body(frame: bytes) -> dict:
    reader = frames.FrameReader()
    (data,) = reader.feed(frame)
    return data


def test_every_message_is_a_frozen_dataclass_with_one_tag_per_direction():
    for receiver in RECEIVERS:
        for tag, cls in receiver.items():
            assert cls.TAG == tag and dataclasses.is_dataclass(cls)
            assert cls.__dataclass_params__.frozen
    # the names the issue lists are all declared
    assert {"hello", "act", "hold", "chat", "pong", "stand_in"} <= set(msg.TO_AUTHORITY)
    assert {"welcome", "update", "presence", "chat", "refused", "ping", "bye"} <= set(
        msg.TO_CLIENT)
    # a lobby and the server's table service (#22: the lobby pushed)
    assert {"hello", "follow", "open", "quick", "cancel_quick"} == set(msg.TO_HALL)
    assert {"lobby_page", "opened", "cancelled", "refused"} == set(msg.TO_LOBBY)
    # the nodes of a cluster (#27: joining a table another node holds)
    assert {"peer_join"} == set(msg.TO_PEER)
    assert {"peer_challenge", "refused"} == set(msg.TO_JOINING_NODE)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ALL).flatmap(_messages))
def test_encode_then_decode_gives_the_message_back(message):
    receiver = _receiver(type(message))
    assert msg.decode(_body(msg.encode(message)), receiver) == message


def test_update_travels_its_start_as_from():
    body = _body(msg.encode(msg.Update({"seq": 1}, 5)))
    assert body["from"] == 5 and "start" not in body


_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=20)
    | st.binary(max_size=10) | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=5),
    max_leaves=20)
_tags = st.sampled_from(sorted({tag for r in RECEIVERS for tag in r} | {"nope", ""}))
_field_names = st.sampled_from(sorted({w for cls in (*ALL, msg.TableEntry)
                                      for _, w, *_ in msg.schema(cls)}))
# a lobby page's tables: maps with a table's fields, some of them hostile
_tables = st.lists(st.dictionaries(_field_names, _values, max_size=12), max_size=3)
_hostile_maps = st.builds(
    lambda tag, known, other, tables: {**other, **known, "t": tag, **tables}, _tags,
    st.dictionaries(_field_names, _values, max_size=8),
    st.dictionaries(st.text(max_size=8), _values, max_size=3),
    st.dictionaries(st.sampled_from(["tables", "mine"]), _tables, max_size=2))


@settings(max_examples=800, deadline=None)
@given(_hostile_maps, st.sampled_from(range(len(RECEIVERS))))
def test_a_hostile_map_decodes_to_a_message_or_a_clear_refusal(data, side):
    receiver = RECEIVERS[side]
    try:
        message = msg.decode(data, receiver)
    except BadMessage as exc:
        assert str(exc) and len(str(exc)) < 200  # words for the other end, short
        return
    assert type(message) is receiver[data["t"]]
    msg.encode(message)  # what was taken is a message again, within its bounds


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=200))
def test_hostile_bytes_are_a_bad_frame_or_a_bad_message_never_anything_else(raw):
    reader = frames.FrameReader()
    try:
        for data in reader.feed(len(raw).to_bytes(4, "big") + raw):
            for receiver in RECEIVERS:
                try:
                    msg.decode(data, receiver)
                except BadMessage:
                    pass
    except (frames.BadFrame, BadMessage):
        pass


@pytest.mark.parametrize("data, words", [
    ({"t": "act", "text": 7}, "short text"),
    ({"t": "act", "text": "x" * 101}, "short text"),
    ({"t": "act"}, "short text"),
    ({"t": "hello", "code": "a-b-1234", "want": "fly"}, "want is play or watch"),
    ({"t": "hello", "code": "a-b-1234", "want": "play", "tokens": ["t"] * 9}, "tokens"),
    ({"t": "hello", "code": "a-b-1234", "want": "play", "tokens": "t"}, "tokens"),
    ({"t": "hello", "code": "a-b-1234", "want": "watch", "delay": -1}, "delay"),
    ({"t": "hello", "code": "a-b-1234", "want": "watch", "delay": True}, "delay"),
    ({"t": "hold", "on": 1}, "true or false"),
    ({"t": "welcome"}, "unknown message"),  # goes the other way
    ({"t": "nope"}, "unknown message"),
])
def test_each_refusal_says_what_is_wrong(data, words):
    with pytest.raises(BadMessage, match=words):
        msg.decode(data, msg.TO_AUTHORITY)


def test_a_huge_list_is_refused_by_its_length_before_its_items():
    # the largest array a frame may hold, of values that would each fail
    tokens = [None] * (1 << 17)
    body = msgpack.packb({"v": frames.PROTOCOL, "t": "hello", "code": "a-b-1", "want": "play",
                          "tokens": tokens})
    (data,) = frames.FrameReader().feed(len(body).to_bytes(4, "big") + body)
    with pytest.raises(BadMessage, match="tokens are at most 8"):
        msg.decode(data, msg.TO_AUTHORITY)


def test_a_table_update_is_written_and_read_from_its_one_field_declaration():
    # every declared field travels, under its own name, and comes back equal (views too)
    from engine import Match, Rules
    from unoduo_tui.table import TableUpdate

    match = Match.new(Rules(preset="classic", seats=3), seed=5)
    update = TableUpdate(seq=7, cause="move", views={1: match.view(1)}, to_act=match.to_act,
                         thinking=2, save_error="the disk is full", stand_ins={2: "bot:easy"},
                         may_stand_in=(2,), lost=None)
    plain = update.to_dict()
    assert set(plain) == {f.name for f in dataclasses.fields(TableUpdate)}
    again = TableUpdate.from_dict(msgpack.unpackb(msgpack.packb(plain), strict_map_key=False))
    assert again == update
    for name, bad in (("over", 1), ("cause", "nope"), ("stand_ins", {2: "x"}),
                      ("may_stand_in", ["2"]), ("seq", True)):
        with pytest.raises(ValueError):
            TableUpdate.from_dict({**plain, name: bad})
    with pytest.raises(ValueError, match="another seat"):
        TableUpdate.from_dict({**plain, "views": [[0, plain["views"][0][1]]]})
