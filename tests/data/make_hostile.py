"""Write the hostile corpus: ``python tests/data/make_hostile.py`` (from the repo root).

Small crafted save files in ``tests/data/hostile/``, one per way a hostile tester
broke the save system (issue #11).  The name says what the store must make of it:

- ``good-*``  loads, every move checks out;
- ``odd-*``   loads, but a field is odd (a naive or far-off ``created``, markup or
  control characters in a name, a renamed file): shown safely, never breaking a list;
- ``torn-*``  loads once the torn tail is dropped (read-only: nothing is cut);
- ``bad-*``   damaged: :class:`SaveFileError`, listed as damaged, hiding nothing;
- ``lie-*``   damaged, but only decoding the whole file shows it (a footer that fits
  its header and its place, and lies about the log between): load and verify refuse
  it, a listing (which reads a finished file's two ends) may show it finished.

Deterministic (fixed seeds and times): running it again writes the same bytes.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import msgpack

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from engine import Match, Rules  # noqa: E402
from engine.savefile import (MAGIC, Encoder, Footer, Header, _frame_head,  # noqa: E402
                             _tag, entry_body, magic)

OUT = HERE / "hostile"
SEATS = (("Ann", "human"), ("Bot", "bot:random"))
CREATED = "2026-11-29T12:00:00+00:00"
#: the corpus is of format 2 (written before format 3 came): it must keep loading as it is
VERSION = 2


def played(seed: int, decisions: int | None, target: int = 200) -> Match:
    rng = random.Random(seed)
    m = Match.new(Rules(target=target), seed=seed)
    while not m.over and (decisions is None or decisions > 0):
        m.apply(rng.choice(m.legal_actions()))
        decisions = None if decisions is None else decisions - 1
    return m


def header_body(m: Match, **change) -> dict:
    body = Header("20261129-120000-abcdef", m.rules, m.seed, SEATS, CREATED,
                  "0.1.0", VERSION).to_body()
    body.update(change)
    return body


class Raw:
    """Records with any body (bytes or an object to pack), chained like the real ones."""

    def __init__(self, version: int = 2) -> None:
        self.data = bytearray(magic(version))
        self.tag = bytes(self.data)

    def add(self, body) -> "Raw":
        raw = body if isinstance(body, (bytes, bytearray)) else msgpack.packb(body)
        head = _frame_head(len(raw))
        self.tag = _tag(self.tag, head, bytes(raw))
        self.data += head + raw + self.tag
        return self

    def entries(self, m: Match, upto: int | None = None) -> "Raw":
        for e in m.actions[:upto]:
            self.add(entry_body(e))
        return self

    def footer(self, m: Match, **change) -> "Raw":
        d = {"winner": m.winner, "scores": list(m.scores), "rounds": m.round}
        d.update(change)
        return self.add([-9, d])


def real_file(m: Match, footer: bool = True, header: Header | None = None) -> bytes:
    """Bytes as the store writes them (the new footer with entries / undos / offset)."""
    enc = Encoder()
    data = enc.start(header or Header("20261129-120000-abcdef", m.rules, m.seed, SEATS,
                                      CREATED, "0.1.0", VERSION))
    data += enc.entries(m.actions)
    if footer and m.over:
        data += enc.footer(Footer(m.winner, m.scores, m.round, m.log_length, 0, len(data)))
    return data


def corpus() -> dict[str, bytes]:
    short = played(1, 30)
    done = played(2, None, target=5)
    other = played(3, 30)
    files: dict[str, bytes] = {}
    files["good-in-progress"] = real_file(short)
    files["good-finished"] = real_file(done)
    files["good-finished-old-footer"] = bytes(Raw().add(header_body(done)).entries(done)
                                              .footer(done).data)
    files["good-header-only"] = bytes(Raw().add(header_body(short)).data)
    undo = Raw().add(header_body(short)).entries(short)
    back = Match.replay(short.rules, short.actions[:20], seed=short.seed)
    files["good-practice-undo"] = bytes(undo.add([-4, back.log_length]).data)
    files["good-64-char-name"] = bytes(Raw().add(header_body(
        short, seats=[["N" * 64, "human"], ["Bot", "bot:random"]])).entries(short).data)
    files["odd-markup-and-controls-in-names"] = bytes(Raw().add(header_body(
        short, seats=[["[bold red]Ann[/] \x1b[2J\x1b]0;pwned\x07", "human"],
                      ["\u202eBot[/]\x00\r\n", "bot:random"]])).entries(short).data)
    files["odd-naive-created"] = bytes(Raw().add(header_body(
        short, created="2026-11-29T12:00:00")).entries(short).data)
    files["odd-created-year-1"] = bytes(Raw().add(header_body(
        short, created="0001-01-01T00:00:00+00:00")).entries(short).data)
    files["odd-created-year-9999"] = bytes(Raw().add(header_body(
        short, created="9999-12-31T23:59:59-23:59")).entries(short).data)
    files["odd-created-garbage"] = bytes(Raw().add(header_body(
        short, created="yesterday")).entries(short).data)
    files["odd-renamed-header-id"] = bytes(Raw().add(header_body(
        short, id="20000101-000000-000000")).entries(short).data)
    files["odd-parent-of-wrong-type"] = bytes(Raw().add(header_body(
        short, parent={"x": 1})).entries(short).data)

    whole = real_file(short)
    files["torn-tail"] = whole[:-5]
    files["torn-zero-tail"] = whole + b"\x00" * 300
    files["torn-zero-filled-record"] = whole[:-9] + b"\x00" * 9

    files["bad-empty"] = b""
    files["bad-only-zeros"] = b"\x00" * 64
    files["bad-foreign"] = b"\x89PNG\r\n\x1a\n" + bytes(range(64))
    files["bad-magic-only"] = magic(VERSION)
    files["bad-format-255"] = magic(255) + whole[len(MAGIC):]
    files["bad-format-0"] = magic(0) + whole[len(MAGIC):]
    files["bad-format-field-255"] = bytes(Raw().add(header_body(short, format=255))
                                          .entries(short).data)
    edited = bytearray(whole)
    edited[len(edited) // 2] ^= 0x01
    files["bad-edited-body"] = bytes(edited)
    bad_len = bytearray(whole)
    first = len(MAGIC)
    bad_len[first:first + 3] = bytes([0xFF, 0xFF, 0xFF ^ 0xFF ^ 0x5A])
    files["bad-length-65535"] = bytes(bad_len)
    bad_check = bytearray(whole)
    bad_check[first + 2] ^= 0x01
    files["bad-length-check"] = bytes(bad_check)
    theirs = real_file(other)
    files["bad-spliced"] = whole[:len(whole) // 2] + theirs[len(theirs) // 2:]
    files["bad-records-swapped"] = _swap_last_two(whole)
    for name, body in {
        "bad-oversized-string": msgpack.packb(["x" * 4000]),
        "bad-float": [1.5],
        "bad-nil": None,
        "bad-extension-type": msgpack.packb(msgpack.ExtType(5, b"xx")),
        "bad-deep-nesting": b"\x91" * 3000 + b"\x01",
        "bad-unknown-record-type": [-7, 1, 2],
        "bad-unknown-action-code": [999],
        "bad-bin-payload": msgpack.packb([b"\x00" * 10], use_bin_type=True),
        "bad-map-body": {"a": 1},
        "bad-huge-int": [2**64 - 1],
        "bad-undo-beyond-the-log": [-4, 10_000],
        "bad-trailing-bytes-in-record": msgpack.packb([3]) + b"\x00",
    }.items():
        files[name] = bytes(Raw().add(header_body(short))
                            .add(body).data)
    files["bad-header-not-a-map"] = bytes(Raw().add([1, 2, 3]).data)
    files["bad-non-utf8-name"] = bytes(Raw().add(
        msgpack.packb(header_body(short)).replace(b"\xa3Ann", b"\xa3\xff\xfe\xfd"))
        .entries(short).data)
    files["bad-65-char-name"] = bytes(Raw().add(header_body(
        short, seats=[["N" * 65, "human"], ["Bot", "bot:random"]])).entries(short).data)
    files["bad-huge-seed"] = bytes(Raw().add(header_body(short, seed="9" * 150))
                                   .entries(short).data)
    files["good-100-digit-seed"] = real_file(played(4, 30), header=Header(
        "20261129-120000-abcdef", Rules(), 10**100 - 1, SEATS, CREATED, "0.1.0", VERSION))
    files["bad-created-too-long"] = bytes(Raw().add(header_body(short, created="2" * 65))
                                          .entries(short).data)
    files["bad-seed-not-digits"] = bytes(Raw().add(header_body(short, seed="١٢٣"))
                                         .entries(short).data)
    files["bad-three-seats-for-duo"] = bytes(Raw().add(header_body(
        short, seats=[["A", "human"], ["B", "human"], ["C", "human"]])).entries(short).data)
    files["bad-seats-not-pairs"] = bytes(Raw().add(header_body(
        short, seats=[["A"], "B"])).entries(short).data)
    files["bad-unknown-rule"] = bytes(Raw().add(header_body(
        short, rules={"preset": "duo", "colour": "R"})).entries(short).data)
    files["bad-empty-id"] = bytes(Raw().add(header_body(short, id=""))
                                              .entries(short).data)
    files["bad-illegal-move"] = _illegal(short)
    files["bad-footer-winner-7"] = bytes(Raw().add(header_body(done)).entries(done)
                                         .footer(done, winner=7).data)
    files["bad-footer-lying-0-0"] = bytes(Raw().add(header_body(short)).entries(short)
                                          .footer(short, winner=0, scores=[0, 0]).data)
    files["bad-footer-one-score"] = bytes(Raw().add(header_body(done)).entries(done)
                                          .footer(done, scores=[max(done.scores)]).data)
    files["bad-footer-wrong-winner"] = bytes(Raw().add(header_body(done)).entries(done)
                                             .footer(done, winner=1 - (done.winner or 0)).data)
    lying = Raw().add(header_body(done)).entries(done)
    files["bad-footer-wrong-offset"] = bytes(lying.footer(
        done, entries=done.log_length, undos=0, offset=len(lying.data) + 1).data)
    counted = Raw().add(header_body(done)).entries(done)
    files["lie-footer-wrong-entries"] = bytes(counted.footer(
        done, entries=done.log_length - 1, undos=0, offset=len(counted.data)).data)
    files["bad-footer-before-the-end"] = bytes(Raw().add(header_body(done)).entries(
        done, done.log_length - 5).footer(done).data)
    files["bad-data-after-footer"] = real_file(done) + Encoder(
        real_file(done)[-4:]).entry(done.actions[-1])
    return files


def _swap_last_two(data: bytes) -> bytes:
    """The last two records (both decisions of 9 bytes) in each other's place."""
    a, b = data[-18:-9], data[-9:]
    return data[:-18] + b + a


def _illegal(m: Match) -> bytes:
    from engine import Action

    raw = Raw().add(header_body(m)).entries(m, 25)
    probe = Match.replay(m.rules, m.actions[:25], seed=m.seed)
    bad = next(a for a in Action.by_code if a not in probe.legal_actions())
    return bytes(raw.add([bad.code]).data)


def main() -> None:
    OUT.mkdir(exist_ok=True)
    files = corpus()
    for old in OUT.glob("*.unoduo"):
        if old.stem not in files:
            old.unlink()
    for name, data in files.items():
        (OUT / f"{name}.unoduo").write_bytes(data)
    total = sum(map(len, files.values()))
    print(f"{len(files)} files, {total} bytes in {OUT}")


if __name__ == "__main__":
    main()
