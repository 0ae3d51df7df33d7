"""The save-file codec: framing, chain, limits, hostile bytes (no disk involved)."""

from pathlib import Path

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Match, Rules
from engine.savefile import (FORMAT_VERSION, MAGIC, Encoder, Footer, Header, SaveFileError,
                             _frame_head, _tag, decode, entry_body, load)

from .helpers import random_match

DATA = Path(__file__).parent.parent / "data"


def _header(m: Match) -> Header:
    return Header("t-1", m.rules, m.seed, (("Ann", "human"), ("Bot", "bot:random")),
                  "2026-11-29T00:00:00+00:00", "test")


def _played(seed: int = 1, decisions: int | None = None, rules: Rules | None = None) -> Match:
    return random_match(seed, rules, decisions)


def _file(m: Match, footer: bool = True) -> bytes:
    enc = Encoder()
    data = enc.start(_header(m)) + enc.entries(m.actions)
    if footer and m.over:
        data += enc.footer(Footer(m.winner, m.scores, m.round))
    return data


def _record(prev_tag: bytes, body_obj) -> tuple[bytes, bytes]:
    body = msgpack.packb(body_obj, use_bin_type=True)
    head = _frame_head(len(body))
    tag = _tag(prev_tag, head, body)
    return head + body + tag, tag


FILE_200 = _file(_played(seed=9, decisions=200))


def test_round_trip_of_a_whole_match_replays_identically():
    m = _played(seed=3)
    decoded, again = load(_file(m))
    assert decoded.entries == m.actions and decoded.footer == Footer(m.winner, m.scores, m.round)
    assert again.scores == m.scores and again.winner == m.winner
    assert decoded.header.seats == (("Ann", "human"), ("Bot", "bot:random"))


def test_a_decision_costs_at_most_ten_bytes_framing_included():
    for action in (Match.new(seed=1).legal_actions()[0],):
        assert len(Encoder().entry(action)) == 9
    from engine import Action
    older = [a for a in Action.by_code if a.kind != "jump" and a.swap is None]
    assert max(len(Encoder().entry(a)) for a in older) == 10
    # the house rules' actions (H1, H4) have codes from 256 on: one byte more
    assert max(len(Encoder().entry(a)) for a in Action.by_code) == 11
    assert all(a.code < 256 for a in older)
    m = _played(seed=5)
    chance = sum(len(Encoder().entry(e)) for e in m.actions if e.is_chance)
    decisions = sum(1 for e in m.actions if not e.is_chance)
    per_action = (len(_file(m)) - len(Encoder().start(_header(m))) - chance) / decisions
    assert per_action <= 10


def test_entry_bodies_are_short_lists_of_ints():
    m = Match.new(seed=2)
    assert entry_body(m.legal_actions()[0]) == [m.legal_actions()[0].code]
    shuffle = next(e for e in m.actions if e.is_chance and e.kind == "shuffle")
    assert entry_body(shuffle)[0] == -3 and len(entry_body(shuffle)) == 113


def test_format_1_sample_file_still_loads():
    data = (DATA / "format1_sample.unoduo").read_bytes()
    decoded, m = load(data, "format1_sample")
    assert decoded.header.format_version == 1 and decoded.header.seed == 4242
    assert (m.round, m.scores, m.to_act, m.phase, m.log_length) == (2, (27, 0), 0, "drawn", 303)
    enc = Encoder()  # and today's encoder writes the very same bytes
    assert enc.start(decoded.header) + enc.entries(decoded.entries) == data


def test_header_only_file_starts_the_match_from_its_seed():
    m = Match.new(seed=77)
    data = Encoder().start(_header(m))
    decoded, again = load(data)
    assert decoded.entries == [] and again.actions == m.actions


@pytest.mark.parametrize("data,words", [
    (b"", "empty"),
    (b"\x00" * 40, "only zeros"),
    (MAGIC[:5], "incomplete header"),
    (b"PK\x03\x04 not a save", "not a unoduo save file"),
    (b"UNODUO" + bytes([FORMAT_VERSION + 1]) + b"\n", "newer"),
])
def test_empty_zero_and_foreign_files_each_get_their_own_message(data, words):
    with pytest.raises(SaveFileError, match=words):
        load(data, "x.unoduo")


def test_every_truncation_yields_a_clean_prefix_or_a_clear_error():
    full = decode(FILE_200)
    for cut in range(len(FILE_200)):
        data = FILE_200[:cut]
        try:
            decoded, m = load(data)
        except SaveFileError as exc:
            assert "never started" in str(exc) or "empty" in str(exc)
            continue
        assert decoded.entries == full.entries[:len(decoded.entries)]
        assert decoded.good_length + decoded.torn_bytes == cut
        # a torn tail loses at most the one record being written
        recoded = Encoder()
        prefix = recoded.start(full.header) + recoded.entries(decoded.entries)
        assert data[:decoded.good_length] == prefix
        assert decoded.torn_bytes < 130  # never more than one record (a shuffle is the longest)


def test_every_single_bit_flip_is_detected():
    silent = []
    for i in range(len(FILE_200)):
        for bit in range(8):
            data = bytearray(FILE_200)
            data[i] ^= 1 << bit
            try:
                decoded, _ = load(bytes(data))
            except SaveFileError:
                continue
            silent.append((i, bit, decoded.torn_bytes))
    assert silent == []


def test_a_damaged_record_is_named():
    data = bytearray(FILE_200)
    data[len(data) // 2] ^= 0x10
    with pytest.raises(SaveFileError, match=r"game\.unoduo: record \d+") as err:
        load(bytes(data), "game.unoduo")
    assert err.value.record > 0


def test_a_spliced_record_breaks_the_chain():
    a = _file(_played(seed=11, decisions=40))
    b = _file(_played(seed=12, decisions=40))
    spliced = a[:len(a) // 2] + b[len(b) // 2:]
    with pytest.raises(SaveFileError):
        load(spliced)


def test_an_illegal_log_names_the_first_illegal_record():
    m = _played(seed=13, decisions=30)
    entries = list(m.actions)
    i = next(i for i, e in enumerate(entries) if not e.is_chance and i > 20)
    from engine import Action
    bad = next(a for a in Action.by_code if a not in m.legal_actions() and a != entries[i])
    entries[i] = bad
    enc = Encoder()
    data = enc.start(_header(m)) + b"".join(enc.entry(e) for e in entries)
    with pytest.raises(SaveFileError, match=f"record {i + 1}: log entry {i}") as err:
        load(data)
    assert err.value.record == i + 1


def test_a_footer_that_disagrees_with_the_log_is_refused():
    m = _played(seed=14)
    enc = Encoder()
    data = enc.start(_header(m)) + enc.entries(m.actions)
    data += enc.footer(Footer(1 - m.winner, m.scores, m.round))
    with pytest.raises(SaveFileError, match="final record"):
        load(data)


@pytest.mark.parametrize("body", [
    {1: "non-string key"},
    [1.5],
    [float("nan")],
    msgpack.ExtType(5, b"xx"),
    [[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]],
    [-7, 1, 2],
    [999],
    [-3, 200],
    [-9, {"winner": "me"}],
    "just a string",
])
def test_wrong_types_and_unknown_records_are_refused(body):
    m = Match.new(seed=1)
    header = Encoder().start(_header(m))
    tag = header[-4:]
    record, _ = _record(tag, body)
    with pytest.raises(SaveFileError, match="record 1"):
        load(header + record)


@pytest.mark.parametrize("body", [b"\x91\x85", b"\x91\xe0", b"\x91\xcc", b"\x91\xcd\x00",
                                  b"\x91\xcd\xff\xff", b"\x91\xcd\x01\xa3", b"\x91"])
def test_raw_bodies_that_only_look_like_a_decision_are_refused(body):
    m = Match.new(seed=1)
    header = Encoder().start(_header(m))
    head = _frame_head(len(body))
    with pytest.raises(SaveFileError, match="record 1"):
        decode(header + head + body + _tag(header[-4:], head, body))  # not even a log


def test_trailing_bytes_inside_a_record_are_refused():
    m = Match.new(seed=1)
    header = Encoder().start(_header(m))
    body = msgpack.packb([3]) + b"\x00"
    head = _frame_head(len(body))
    data = header + head + body + _tag(header[-4:], head, body)
    with pytest.raises(SaveFileError, match="record 1"):
        load(data)


def test_a_huge_length_prefix_is_refused_without_allocating():
    m = Match.new(seed=1)
    header = Encoder().start(_header(m))
    hi, lo = 0xFF, 0xFF
    with pytest.raises(SaveFileError, match="bad length"):
        load(header + bytes([hi, lo, hi ^ lo ^ 0x5A]) + b"\x00" * 100)


def test_a_header_from_the_future_or_with_bad_fields_is_refused():
    m = Match.new(seed=1)
    good = _header(m).to_body()
    for change in ({"format": FORMAT_VERSION + 1}, {"seats": [["A", "human"]]},
                   {"rules": {"preset": "duo", "colour": "R"}}, {"seed": "abc"}, {"id": ""},
                   {"rules": {"preset": "duo", "target": 0}}):
        record, _ = _record(MAGIC, {**good, **change})
        with pytest.raises(SaveFileError, match="record 0"):
            load(MAGIC + record)


def test_data_after_the_footer_is_refused():
    m = _played(seed=15)
    enc = Encoder()
    data = enc.start(_header(m)) + enc.entries(m.actions) + enc.footer(
        Footer(m.winner, m.scores, m.round)) + enc.entry(m.actions[-1])
    with pytest.raises(SaveFileError, match="after the final record"):
        load(data)


@settings(max_examples=6000, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.binary(max_size=600))
def test_fuzz_random_bytes_only_ever_raise_save_file_error(data):
    for blob in (data, MAGIC + data):
        try:
            load(blob)
        except SaveFileError:
            pass


@settings(max_examples=4000, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(st.integers(0, len(FILE_200) - 1), st.integers(0, 255)),
                min_size=1, max_size=6),
       st.integers(0, len(FILE_200)))
def test_fuzz_mutated_files_only_ever_raise_save_file_error(edits, cut):
    data = bytearray(FILE_200)
    for at, value in edits:
        data[at] = value
    try:
        decoded, _ = load(bytes(data[:cut]))
    except SaveFileError:
        return
    assert decoded.entries == decode(FILE_200).entries[:len(decoded.entries)]


# -- one set of limits for the writer and the reader (issue #11 item 2) -------------------

def _roundtrip(header: Header) -> Header:
    return decode(Encoder().start(header)).header


def test_the_writer_refuses_every_header_the_reader_would_refuse():
    m = Match.new(seed=1)
    good = _header(m)
    from dataclasses import replace

    from engine.savefile import MAX_ID, MAX_NAME, MAX_SEED
    at_the_limits = replace(good, match_id="i" * MAX_ID, seed=-(MAX_SEED - 1),
                            seats=(("N" * MAX_NAME, "human"), ("B", "k" * MAX_NAME)),
                            created="c" * 64, app_version="a" * 64)
    assert _roundtrip(at_the_limits) == at_the_limits
    assert _roundtrip(replace(good, seed=MAX_SEED - 1)).seed == MAX_SEED - 1
    for change in ({"match_id": "i" * (MAX_ID + 1)}, {"match_id": ""},
                   {"seats": (("N" * (MAX_NAME + 1), "human"), ("B", "human"))},
                   {"seats": (("A", "human"),)}, {"seats": (("A", "human"),) * 3},
                   {"seed": MAX_SEED}, {"seed": -MAX_SEED}, {"seed": 1.5},
                   {"created": "c" * 65}, {"format_version": FORMAT_VERSION + 1},
                   {"extra": {"id": "other"}}, {"extra": {1: 2}}):
        with pytest.raises(ValueError):
            replace(good, **change)
        # and a file that says so anyway is refused by the reader, at record 0
        body = good.to_body()
        key = {"match_id": "id", "format_version": "format", "seats": "seats"}.get(
            next(iter(change)), next(iter(change)))
        if key in body and not isinstance(next(iter(change.values())), dict):
            value = next(iter(change.values()))
            body[key] = ([list(s) for s in value] if key == "seats" else
                         str(value) if key == "seed" and isinstance(value, int) else value)
            record, _ = _record(MAGIC, body)
            with pytest.raises(SaveFileError, match="record 0"):
                load(MAGIC + record)


# -- footers that can be checked, and read from the end (items 4 and 5) --------------------

def _finished_file(seed: int = 14) -> tuple[bytes, Match]:
    m = _played(seed=seed, rules=Rules(target=30))
    enc = Encoder()
    data = enc.start(_header(m)) + enc.entries(m.actions)
    data += enc.footer(Footer(m.winner, m.scores, m.round, m.log_length, 0, len(data)))
    return data, m


def _ends(data: bytes):
    from engine.savefile import HEAD_BYTES, TAIL_BYTES, read_ends
    return read_ends(data[:HEAD_BYTES], data[-TAIL_BYTES:], len(data))


def test_a_finished_file_is_summed_up_from_its_two_ends():
    data, m = _finished_file()
    header, footer = _ends(data)
    assert header == _header(m)
    assert (footer.winner, footer.scores, footer.rounds, footer.entries, footer.offset) == (
        m.winner, m.scores, m.round, m.log_length, len(data) - len(
            Encoder().footer(Footer(m.winner, m.scores, m.round, m.log_length, 0,
                                    footer.offset))))
    assert load(data)[0].footer == footer


def test_an_old_footer_a_torn_one_or_none_means_decoding_the_whole_file():
    data, m = _finished_file()
    old = _file(m)  # the footer without entries / undos / offset
    assert decode(old).footer is not None and _ends(old) is None
    assert _ends(data[:-1]) is None and _ends(data + b"\x00") is None
    assert _ends(FILE_200) is None  # not finished


@pytest.mark.parametrize("change", [
    {"winner": 7}, {"winner": None}, {"scores": [0, 0]}, {"scores": [40]},
    {"scores": [-5, 40]}, {"offset": 12}, {"rounds": 0},
])
def test_a_footer_that_disagrees_with_its_header_or_its_place_is_refused(change):
    m = _played(seed=14, rules=Rules(target=30))
    enc = Encoder()
    data = enc.start(_header(m)) + enc.entries(m.actions)
    fields = {"winner": m.winner, "scores": list(m.scores), "rounds": m.round,
              "entries": m.log_length, "undos": 0, "offset": len(data), **change}
    record, _ = _record(enc.tag, [-9, fields])
    assert _ends(data + record) is None
    with pytest.raises(SaveFileError, match="final record"):
        load(data + record)
