"""Save-file versions: format 1 still loads; format 2 adds practice-undo records
("the log goes back to its first N entries"), applied on load, never by rewriting;
format 3 adds seat records (who a seat is and who plays it from a point of the log on:
a joiner's name, a bot standing in for an away player) and the footer's names.

The format-2 and format-3 samples are rebuilt here byte for byte from fixed seeds (to
write them again after a deliberate change:
``UNODUO_UPDATE_GOLDEN=1 pytest tests/engine/test_savefile_versions.py``).
"""

import os
import random
from pathlib import Path

import pytest

from engine import Match, Rules
from engine.savefile import (FORMAT_VERSION, Encoder, Footer, Header, SaveFileError, SeatRecord,
                             decode, load, magic, read_ends)
from engine.savefile import HEAD_BYTES, TAIL_BYTES

DATA = Path(__file__).parent.parent / "data"


def header(version: int = FORMAT_VERSION, seed: int = 4343) -> Header:
    return Header("20261129-000000-sample2", Rules(), seed, (("Ann", "human"), ("Bot", "bot:random")),
                  "2026-11-29T00:00:00+00:00", "0.1.0", format_version=version)


def play(m: Match, n: int, rng: random.Random) -> None:
    for _ in range(n):
        m.apply(rng.choice(m.legal_actions()))


def format2_sample() -> tuple[bytes, Match, int]:
    """A file with two undos; returns (bytes, the match it holds, undos)."""
    rng = random.Random(11)
    h = header(2)
    m = Match.new(h.rules, seed=h.seed)
    enc = Encoder()
    data = enc.start(h)
    play(m, 120, rng)
    data += enc.entries(m.actions)
    back = Match.replay(m.rules, m.actions[:90], seed=m.seed)  # undo to entry 90
    data += enc.undo(back.log_length)
    play(back, 60, rng)
    data += enc.entries(back.actions_from(90))
    again = Match.replay(back.rules, back.actions[:130], seed=back.seed)
    data += enc.undo(130)
    play(again, 10, rng)
    data += enc.entries(again.actions_from(130))
    return data, again, 2


def test_new_files_are_format_3():
    assert FORMAT_VERSION == 3
    data = Encoder().start(header())
    assert data[:8] == b"UNODUO\x03\n" == magic(3)
    assert decode(data).header.format_version == 3


@pytest.mark.parametrize("name,version", [("format1_sample.unoduo", 1),
                                          ("format2_sample.unoduo", 2),
                                          ("format3_sample.unoduo", 3)])
def test_each_format_version_loads(name, version):
    data = (DATA / name).read_bytes()
    decoded, m = load(data, name)
    assert data[6] == version and decoded.header.format_version == version
    assert m.actions == decoded.entries and m.log_length == len(decoded.entries)
    assert decoded.undos == {1: 0, 2: 2, 3: 0}[version]
    assert bool(decoded.seats) == (version == 3)
    enc = Encoder()  # today's encoder writes a file of the same version
    assert enc.start(decoded.header)[:8] == data[:8]


def test_the_format_2_sample_is_rebuilt_byte_for_byte():
    data, m, undos = format2_sample()
    path = DATA / "format2_sample.unoduo"
    if os.environ.get("UNODUO_UPDATE_GOLDEN"):
        path.write_bytes(data)
    assert path.read_bytes() == data
    decoded, loaded = load(data)
    assert decoded.undos == undos and loaded.actions == m.actions


def test_an_undo_goes_back_and_chance_stays_as_recorded():
    data, m, _ = format2_sample()
    decoded, loaded = load(data)
    # the surviving decisions, made afresh from the seed, meet the very same chance
    fresh = Match.new(m.rules, seed=m.seed)
    for decision in (e for e in loaded.actions if not e.is_chance):
        fresh.apply(decision)
    assert fresh.actions == loaded.actions == m.actions
    assert sum(1 for e in loaded.actions if e.is_chance and e.kind == "shuffle") >= 1


def test_an_undo_record_in_a_format_1_file_is_refused():
    h = header(version=1)
    m = Match.new(h.rules, seed=h.seed)
    play(m, 5, random.Random(1))
    enc = Encoder()
    data = enc.start(h) + enc.entries(m.actions) + enc.undo(2)
    assert data[6] == 1
    with pytest.raises(SaveFileError, match="format-1"):
        decode(data)


def test_an_undo_past_the_log_is_refused():
    h = header()
    m = Match.new(h.rules, seed=h.seed)
    enc = Encoder()
    data = enc.start(h) + enc.entries(m.actions) + enc.undo(m.log_length + 1)
    with pytest.raises(SaveFileError, match="undo"):
        decode(data)


def test_a_torn_undo_record_is_a_torn_tail_and_the_moves_stand():
    h = header()
    m = Match.new(h.rules, seed=h.seed)
    play(m, 30, random.Random(2))
    enc = Encoder()
    whole = enc.start(h) + enc.entries(m.actions)
    undo = enc.undo(10)
    for cut in range(1, len(undo)):
        decoded, loaded = load(whole + undo[:cut])
        assert decoded.torn_bytes == cut and decoded.undos == 0
        assert loaded.actions == m.actions


# -- format 3: seat records ------------------------------------------------------------

def hosted_header(seed: int = 4545) -> Header:
    return Header("20261129-000000-sample3", Rules(target=25), seed,
                  (("Hana", "human"), ("Player 2", "human")), "2026-11-29T00:00:00+00:00",
                  "0.1.0", extra={"host": 0})


def format3_sample() -> tuple[bytes, Match, list[SeatRecord]]:
    """A hosted match played to its end: Jo sits down (renamed from "Player 2"), is
    away, a normal bot plays for Jo, Jo comes back; the footer names Jo."""
    rng = random.Random(12)
    h = hosted_header()
    m = Match.new(h.rules, seed=h.seed)
    enc = Encoder()
    data = enc.start(h) + enc.entries(m.actions)
    records = []
    for at_decision, kind in ((0, "human"), (20, "bot:normal"), (35, "human")):
        while sum(1 for e in m.actions if not e.is_chance) < at_decision:
            before = m.log_length
            m.apply(rng.choice(m.legal_actions()))
            data += enc.entries(m.actions_from(before))
        record = SeatRecord(m.log_length, 1, "Jo", kind)
        records.append(record)
        data += enc.seat(record)
    before = m.log_length
    while not m.over:
        m.apply(rng.choice(m.legal_actions()))
    data += enc.entries(m.actions_from(before))
    data += enc.footer(Footer(m.winner, m.scores, m.round, m.log_length, 0, len(data),
                              ("Hana", "Jo")))
    return data, m, records


def test_the_format_3_sample_is_rebuilt_byte_for_byte_and_keeps_its_seat_records():
    data, m, records = format3_sample()
    path = DATA / "format3_sample.unoduo"
    if os.environ.get("UNODUO_UPDATE_GOLDEN"):
        path.write_bytes(data)
    assert path.read_bytes() == data
    decoded, loaded = load(data)
    assert loaded.actions == m.actions and loaded.over
    assert decoded.seats == records and decoded.names() == ("Hana", "Jo")
    assert decoded.footer.names == ("Hana", "Jo")
    # a listing reads the names from the footer alone
    header, footer = read_ends(data[:HEAD_BYTES], data[-TAIL_BYTES:], len(data))
    assert footer.names == ("Hana", "Jo") and header.extra == {"host": 0}


def test_a_seat_record_in_a_format_2_file_is_refused():
    h = header(version=2)
    enc = Encoder()
    data = enc.start(h) + enc.seat(SeatRecord(0, 1, "Jo", "human"))
    with pytest.raises(SaveFileError, match="seat record in a format-2"):
        decode(data)


@pytest.mark.parametrize("body", [[-5, 2, "Jo", "human"], [-5, 1, "Jo"], [-5, 1, "J" * 65, "human"],
                                  [-5, -1, "Jo", "human"], [-5, 1, 7, "human"]])
def test_a_malformed_seat_record_is_refused(body):
    import msgpack

    from engine.savefile import _frame_head, _tag

    enc = Encoder()
    data = enc.start(header())
    raw = msgpack.packb(body)
    head = _frame_head(len(raw))
    data += head + raw + _tag(enc.tag, head, raw)
    with pytest.raises(SaveFileError, match="record 1"):
        decode(data)


def test_a_footer_whose_names_the_seat_records_do_not_make_is_refused():
    h = hosted_header()
    m = Match.new(h.rules, seed=h.seed)
    rng = random.Random(3)
    while not m.over:
        m.apply(rng.choice(m.legal_actions()))
    enc = Encoder()
    data = enc.start(h) + enc.entries(m.actions) + enc.seat(SeatRecord(m.log_length, 1, "Jo",
                                                                        "human"))
    lie = data + enc.footer(Footer(m.winner, m.scores, m.round, m.log_length, 0, len(data),
                                   ("Hana", "Bob")))
    with pytest.raises(SaveFileError, match="names the seats"):
        decode(lie)


def test_an_undo_before_a_seat_record_keeps_it_from_where_the_log_now_ends():
    h = header()
    m = Match.new(h.rules, seed=h.seed)
    play(m, 30, random.Random(4))
    enc = Encoder()
    data = (enc.start(h) + enc.entries(m.actions) + enc.seat(SeatRecord(m.log_length, 0, "Ann",
                                                                          "bot:easy"))
            + enc.undo(10))
    decoded = decode(data)
    assert decoded.seats == [SeatRecord(10, 0, "Ann", "bot:easy")] and len(decoded.entries) == 10
