"""Save-file versions: format 1 still loads; format 2 adds practice-undo records
("the log goes back to its first N entries"), applied on load, never by rewriting.

The format-2 sample is rebuilt here byte for byte from a fixed seed (to write it again
after a deliberate change: ``UNODUO_UPDATE_GOLDEN=1 pytest tests/engine/test_savefile_versions.py``).
"""

import os
import random
from pathlib import Path

import pytest

from engine import Match, Rules
from engine.savefile import FORMAT_VERSION, Encoder, Header, SaveFileError, decode, load, magic

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
    h = header()
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


def test_new_files_are_format_2():
    assert FORMAT_VERSION == 2
    data = Encoder().start(header())
    assert data[:8] == b"UNODUO\x02\n" == magic(2)
    assert decode(data).header.format_version == 2


@pytest.mark.parametrize("name,version", [("format1_sample.unoduo", 1),
                                          ("format2_sample.unoduo", 2)])
def test_each_format_version_loads(name, version):
    data = (DATA / name).read_bytes()
    decoded, m = load(data, name)
    assert data[6] == version and decoded.header.format_version == version
    assert m.actions == decoded.entries and m.log_length == len(decoded.entries)
    assert decoded.undos == (0 if version == 1 else 2)
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
