"""The save-file codec: a match as bytes, and bytes back to a match's log.

Bytes in, bytes out — no files here (the store in ``unoduo_tui.store`` does the
disk).  A save file is the match's log, never a state dump; loading it replays
the log through :meth:`Match.replay`, so nothing in a file is trusted.

Layout (format 2; format 1 is the same without undo records)::

    magic      b"UNODUO" + version byte + b"\\n"           (8 bytes)
    record*    length  2 bytes, big-endian (1..MAX_BODY)
               check   1 byte: XOR of the two length bytes ^ 0x5A (a flipped
                       length bit is corruption, never mistaken for a torn tail)
               body    msgpack (see below)
               tag     4 bytes: blake2b(previous tag + length + body)[:4] — the
                       records' checksum and hash chain (the first record chains
                       from the magic), so an edited, reordered or spliced file
                       is detected

Bodies: the first record is the header (a map); then one record per log entry:
``[code]`` for a decision (``Action.code``), ``[-1, cards…]`` a cut, ``[-2, seat]``
the given first seat, ``[-3, cards…]`` a shuffle (card codes, top first); and
once the match is over, ``[-9, {"winner", "scores", "rounds", "entries", "undos",
"offset"}]``, the footer (files before it have only the first three): the log's
length and the undo records before it, and the byte offset where the footer record
starts, so a listing can read a finished file's header and footer alone and check
that they agree (:func:`read_ends`).
Format 2 adds ``[-4, n]``: practice undo — the log goes back to its first ``n``
entries (the file itself is never rewritten; loading applies it).
Format 3 adds ``[-5, seat, name, kind]``: a seat record (:class:`SeatRecord`) — from
here on ``seat`` is named ``name`` and played by ``kind`` (a joiner sat down, a bot
stands in for an away player, the player is back); and the footer's ``names`` (the
seats' names at the end, when a seat record renamed one).  Files of formats 1 and 2
load as they always did; neither may hold a seat record.
A decision costs 9 bytes (10 for codes ≥ 128, 11 for the house rules' from 256 on)
including framing.

Every limit (name and id lengths, the seed's range, the seat count, a record's size)
is checked in one place used by the writer and the reader alike
(``Header.__post_init__``): the writer refuses with ``ValueError`` what the reader
would refuse, so no file is written that cannot be read.

A torn tail (a record cut short by a crash, or zero-filled by a power loss) is
reported so the caller can cut the file back to its last whole record; any
other damage raises :class:`SaveFileError` naming the record.  Decoding uses a
fresh msgpack unpacker per record with tight size limits, so a hostile 1 KB file
cannot allocate more than a few KB, and every exception msgpack can raise
becomes :class:`SaveFileError`.  Decoding is linear in the file's size (one
memoryview, no per-record copies of the rest).
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Iterator

try:  # hashlib's BLAKE2 itself: ``import hashlib`` also loads OpenSSL (~2 ms at start-up)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b

import msgpack

from .actions import Action, ActionError, Chance
from .cards import Card
from .match import Match
from .savefile_fields import (FOOTER_CODE, FORMAT_VERSION, MAX_ID, MAX_NAME, MAX_SEED,
                              MAX_TEXT, SEAT_CODE, Footer, Header, SaveFileError, SeatRecord,
                              _is_int)

__all__ = [
    "FORMAT_VERSION", "MAGIC", "MAX_NAME", "MAX_ID", "MAX_SEED", "MAX_TEXT", "MAX_BODY", "magic",
    "SaveFileError", "Header", "Footer", "SeatRecord", "Decoded", "seat_names", "Encoder",
    "decode", "entry_body", "load", "last_tag", "split_records", "read_ends", "HEAD_BYTES", "TAIL_BYTES",
]

_MAGIC_STEM = b"UNODUO"


def magic(version: int = FORMAT_VERSION) -> bytes:
    """The first bytes of a file of format ``version`` (the chain starts from them)."""
    return _MAGIC_STEM + bytes([version]) + b"\n"


MAGIC = magic()
MAX_BODY = 4096  # a shuffle is ~117 bytes, a header a few hundred
_TAG = 4
_CUT, _FIRST, _SHUFFLE, _UNDO, _SEAT, _FOOTER = -1, -2, -3, -4, SEAT_CODE, FOOTER_CODE
_CHANCE_CODES = {"cut": _CUT, "first": _FIRST, "shuffle": _SHUFFLE}
#: where read_ends looks for a footer: ~40 bytes, up to ~2.7 KB with ten seats' names
_MAX_FOOTER = 3072
#: bytes from the front that hold any header; bytes from the end that hold any footer
HEAD_BYTES = len(MAGIC) + 3 + MAX_BODY + _TAG
TAIL_BYTES = _TAG + 3 + _MAX_FOOTER + _TAG


@dataclass
class Decoded:
    """What :func:`decode` found."""

    header: Header | None  # None: the file holds only (part of) the magic or header
    entries: "list[Action | Chance]"  # in log order
    footer: Footer | None
    good_length: int  # bytes of whole, valid records (where a torn tail starts)
    torn_bytes: int  # bytes after good_length: a record cut short (0: none)
    zero_tail: bool  # the torn bytes are all zeros (power loss on some filesystems)
    undos: int = 0  # undo records applied (format 2): the match was practice
    seats: "list[SeatRecord]" = field(default_factory=list)  # (format 3), in file order

    def names(self) -> tuple[str, ...]:
        """Each seat's name now: the header's, as the seat records renamed them."""
        assert self.header is not None
        return seat_names(self.header, self.seats)


def seat_names(header: Header, records: Iterable[SeatRecord]) -> tuple[str, ...]:
    """Each seat's name after ``records``: the header's, as they renamed them."""
    names = [name for name, _ in header.seats]
    for record in records:
        names[record.seat] = record.name
    return tuple(names)


def _frame_head(n: int) -> bytes:
    hi, lo = n >> 8, n & 0xFF
    return bytes([hi, lo, hi ^ lo ^ 0x5A])


def _tag(prev: bytes, head: bytes, body: bytes) -> bytes:
    return blake2b(prev + head + body, digest_size=_TAG).digest()


def entry_body(entry: "Action | Chance") -> list[int | None]:
    """The msgpack payload of one log entry."""
    if isinstance(entry, Action):
        return [entry.code]
    if entry.kind == "first":
        return [_FIRST, entry.seat]
    return [_CHANCE_CODES[entry.kind], *(c.code for c in entry.cards)]


class Encoder:
    """Turns a header and then log entries into framed, chained records.

    ``Encoder(header).start()`` gives the file's first bytes; each ``entry()``
    the bytes to append.  ``Encoder(tag)`` continues the chain of a loaded file;
    ``tag`` is the chain's end after the records made so far (a writer that fails
    to write them goes on from a copy: ``Encoder(old_tag)``).
    """

    def __init__(self, tag: bytes = MAGIC) -> None:
        self.tag = tag

    def _record(self, body_obj: Any) -> bytes:
        body: bytes = msgpack.packb(body_obj, use_bin_type=True)
        if len(body) > MAX_BODY:
            raise ValueError(f"record of {len(body)} bytes exceeds {MAX_BODY}")
        head = _frame_head(len(body))
        self.tag = _tag(self.tag, head, body)
        return head + body + self.tag

    def start(self, header: Header) -> bytes:
        """The magic of the header's format version, then the header record."""
        self.tag = magic(header.format_version)
        return self.tag + self._record(header.to_body())

    def entry(self, entry: "Action | Chance") -> bytes:
        return self._record(entry_body(entry))

    def entries(self, entries: "Iterable[Action | Chance]") -> bytes:
        return b"".join(self.entry(e) for e in entries)

    def footer(self, footer: Footer) -> bytes:
        return self._record(footer.to_body())

    def undo(self, length: int) -> bytes:
        """Format 2: the log goes back to its first ``length`` entries."""
        if not _is_int(length) or length < 0:
            raise ValueError(f"an undo goes back to a log length, not {length!r}")
        return self._record([_UNDO, length])

    def seat(self, record: SeatRecord) -> bytes:
        """Format 3: who a seat is, and who plays it, from here on (its ``at`` is where
        it lies: the log's length so far)."""
        return self._record(record.to_body())


def _reject_ext(code: int, data: bytes) -> None:
    raise ValueError(f"msgpack extension type {code} is not used by unoduo")


def _unpack(body: Any) -> Any:
    """One record body (at most MAX_BODY bytes: the buffer limit), unpacked by a fresh
    unpacker (msgpack's advisory on reusing one after an error) with every length
    capped; trailing bytes raise ``ExtraData``."""
    return msgpack.unpackb(
        body, raw=False, strict_map_key=True, use_list=True, ext_hook=_reject_ext,
        max_str_len=1024, max_bin_len=0, max_array_len=256, max_map_len=32, max_ext_len=0,
    )


def _entry_from(body: Any) -> "Action | Chance":
    if not isinstance(body, list) or not body or not all(_is_int(x) for x in body):
        raise ValueError("a log record must be a list of whole numbers")
    first = body[0]
    if len(body) == 1:
        if not 0 <= first < len(Action.by_code):
            raise ValueError(f"unknown action code {first}")
        return Action.by_code[first]
    if first == _FIRST and len(body) == 2:
        return Chance.first(body[1])
    if first in (_CUT, _SHUFFLE):
        if not all(0 <= c < len(Card.by_code) for c in body[1:]):
            raise ValueError("unknown card code")
        cards = [Card.by_code[c] for c in body[1:]]
        return Chance.cut(cards) if first == _CUT else Chance.shuffle(cards)
    raise ValueError(f"unknown record type {first} (written by a newer unoduo?)")


_DECODE_ERRORS = (ValueError, TypeError, msgpack.UnpackException, RecursionError,
                  OverflowError)  # ExtraData, StackError, FormatError are ValueErrors


def _start(data: bytes, name: str) -> int | Decoded:
    """The format version from the magic, or what a file too short for one holds."""
    if not data:
        raise SaveFileError(f"{name}: the file is empty — the match never started")
    if data[:len(_MAGIC_STEM)] != _MAGIC_STEM:
        if _MAGIC_STEM.startswith(bytes(data[:len(_MAGIC_STEM)])) and len(data) < len(MAGIC):
            return Decoded(None, [], None, 0, len(data), False)
        if not any(data):
            return Decoded(None, [], None, 0, len(data), True)
        raise SaveFileError(f"{name}: not a unoduo save file")
    if len(data) < len(MAGIC):
        return Decoded(None, [], None, 0, len(data), False)
    version = data[len(_MAGIC_STEM)]
    if data[len(MAGIC) - 1] != 0x0A:
        raise SaveFileError(f"{name}: not a unoduo save file (damaged signature)")
    if version > FORMAT_VERSION:
        raise SaveFileError(f"{name}: format version {version} is newer than this unoduo "
                            f"reads ({FORMAT_VERSION}): upgrade unoduo")
    if version < 1:
        raise SaveFileError(f"{name}: unknown format version {version}")
    return version


def decode(data: bytes, name: str = "save file") -> Decoded:
    """Parse a whole save file.  A torn tail is reported, not raised; anything else
    wrong raises :class:`SaveFileError` naming ``name`` and the record."""
    version = _start(data, name)
    if isinstance(version, Decoded):
        return version
    mv = memoryview(data)
    by_code, n_codes = Action.by_code, len(Action.by_code)
    fixint = min(0x80, n_codes)  # codes a positive fixint byte can hold
    pos = len(MAGIC)
    tag = bytes(mv[:pos])  # the chain starts from the file's own magic (its version)
    header: Header | None = None
    entries: "list[Action | Chance]" = []
    append = entries.append
    footer: Footer | None = None
    undos = 0
    seats: list[SeatRecord] = []
    record = 0
    end = len(data)
    while pos < end:
        start = pos
        if footer is not None:
            raise SaveFileError(f"{name}: record {record}: data after the final record",
                                record)
        if pos + 3 > end:  # the length and its check byte, cut short
            return Decoded(header, entries, footer, start, end - start,
                           not any(mv[start:]), undos, seats)
        hi, lo, check = data[pos], data[pos + 1], data[pos + 2]
        n = hi << 8 | lo
        if hi ^ lo ^ 0x5A != check or not 1 <= n <= MAX_BODY:
            if n == 0 and not any(mv[start:]):  # a zero-filled tail (checked once: it ends)
                return Decoded(header, entries, footer, start, end - start, True, undos, seats)
            raise SaveFileError(f"{name}: record {record} is damaged (bad length)", record)
        pos += 3
        if pos + n + _TAG > end:
            return Decoded(header, entries, footer, start, end - start,
                           not any(mv[start:]), undos, seats)
        h = blake2b(tag, digest_size=_TAG)
        h.update(mv[start:pos + n])
        expect = h.digest()
        if mv[pos + n:pos + n + _TAG] != expect:
            raise SaveFileError(
                f"{name}: record {record} is damaged or was edited (checksum and chain "
                "do not match)", record)
        tag = expect
        # the common case, a decision [code] packed canonically: no msgpack call
        b0 = data[pos]
        if n == 2 and b0 == 0x91 and data[pos + 1] < fixint and record:
            append(by_code[data[pos + 1]])
        elif n == 3 and b0 == 0x91 and data[pos + 1] == 0xCC and data[pos + 2] < n_codes \
                and record:
            append(by_code[data[pos + 2]])
        elif n == 4 and b0 == 0x91 and data[pos + 1] == 0xCD \
                and (data[pos + 2] << 8 | data[pos + 3]) < n_codes and record:
            append(by_code[data[pos + 2] << 8 | data[pos + 3]])  # a house rule's (H1, H4)
        else:
            try:
                obj = _unpack(mv[pos:pos + n])
                if record == 0:
                    header = Header.from_body(obj)
                elif isinstance(obj, list) and obj and obj[0] == _FOOTER:
                    assert header is not None  # record 0 is the header
                    footer = Footer.from_body(obj)
                    _check_footer(footer, header, len(entries), undos, start)
                    if footer.names is not None and footer.names != seat_names(header, seats):
                        raise ValueError("the final record names the seats otherwise than "
                                         "the seat records")
                elif isinstance(obj, list) and obj and obj[0] == _SEAT:
                    if version < 3:
                        raise ValueError(f"a seat record in a format-{version} file")
                    assert header is not None  # record 0 is the header
                    seat = SeatRecord.from_body(obj, len(entries))
                    if seat.seat >= header.rules.seats:
                        raise ValueError(f"a seat record for seat {seat.seat}, which the "
                                         "match does not have")
                    seats.append(seat)
                elif isinstance(obj, list) and obj and obj[0] == _UNDO:
                    if version < 2:
                        raise ValueError("an undo record in a format-1 file")
                    if len(obj) != 2 or not _is_int(obj[1]) or not 0 <= obj[1] <= len(entries):
                        raise ValueError("an undo to a log length the file does not have")
                    del entries[obj[1]:]
                    undos += 1
                    seats = [s if s.at <= obj[1] else replace(s, at=obj[1]) for s in seats]
                else:
                    append(_entry_from(obj))
            except _DECODE_ERRORS as exc:
                why = str(exc) or type(exc).__name__  # msgpack's StackError says nothing
                raise SaveFileError(f"{name}: record {record}: {why}", record) from None
        pos += n + _TAG
        record += 1
    return Decoded(header, entries, footer, pos, 0, False, undos, seats)


def _check_footer(footer: Footer, header: Header | None, entries: int, undos: int,
                  offset: int) -> None:
    """``ValueError`` unless ``footer`` agrees with the header and with what precedes it."""
    assert header is not None  # record 0 is always the header
    problem = footer.problem(header.rules)
    if problem is None and footer.entries is not None and footer.entries != entries:
        problem = "the final record counts another number of log entries"
    if problem is None and footer.undos is not None and footer.undos != undos:
        problem = "the final record counts another number of undos"
    if problem is None and footer.offset is not None and footer.offset != offset:
        problem = "the final record is not where it says it is"
    if problem:
        raise ValueError(problem)


def read_ends(head: bytes, tail: bytes, size: int,
              name: str = "save file") -> tuple[Header, Footer] | None:
    """A finished file's header and footer from its first :data:`HEAD_BYTES` bytes
    (``head``) and its last :data:`TAIL_BYTES` (``tail``; the file is ``size`` bytes),
    without decoding what lies between.  The header record is checked as
    :func:`decode` checks it (``SaveFileError`` if damaged); the footer only counts
    if its own check holds (the 4 bytes before a record are the tag it chains
    from), it carries ``offset`` / ``entries`` / ``undos`` and agrees with the header
    and with where it lies.  ``None``: no such footer — decode the whole file."""
    version = _start(head, name)
    if isinstance(version, Decoded):
        return None
    pos = len(MAGIC)
    if pos + 3 > len(head):
        return None
    hi, lo, check = head[pos], head[pos + 1], head[pos + 2]
    n = hi << 8 | lo
    if hi ^ lo ^ 0x5A != check or not 1 <= n <= MAX_BODY or pos + 3 + n + _TAG > len(head):
        return None  # decode says what is wrong
    if _tag(head[:pos], head[pos:pos + 3], head[pos + 3:pos + 3 + n]) != \
            head[pos + 3 + n:pos + 3 + n + _TAG]:
        return None
    try:
        header = Header.from_body(_unpack(head[pos + 3:pos + 3 + n]))
    except _DECODE_ERRORS:
        return None
    first_entry = pos + 3 + n + _TAG
    base = size - len(tail)  # the file offset of tail[0]
    for n in range(1, _MAX_FOOTER + 1):
        at = len(tail) - _TAG - n - 3  # where a footer of body length n would start
        if at < _TAG or base + at < first_entry:
            break
        hi, lo, check = tail[at], tail[at + 1], tail[at + 2]
        if hi != n >> 8 or lo != n & 0xFF or hi ^ lo ^ 0x5A != check or \
                tail[at + 3] != 0x92 or tail[at + 4] != 0xF7:  # [-9, …]
            continue
        body = tail[at + 3:at + 3 + n]
        if _tag(tail[at - _TAG:at], tail[at:at + 3], body) != tail[at + 3 + n:]:
            continue
        try:
            footer = Footer.from_body(_unpack(body))
        except _DECODE_ERRORS:
            return None
        if None in (footer.entries, footer.undos, footer.offset) or \
                footer.offset != base + at or footer.problem(header.rules) is not None:
            return None
        return header, footer
    return None


def split_records(data: bytes, length: int) -> list[bytes]:
    """The first ``length`` bytes of a decoded save (its ``good_length``: whole records)
    as one piece per record, the magic with the first: putting them end to end gives
    the bytes back.  A store that keeps a record per row (#27) keeps these."""
    out: list[bytes] = []
    pos = start = 0 if length < len(MAGIC) else len(MAGIC)
    while pos + 3 <= length:
        n = data[pos] << 8 | data[pos + 1]
        end = pos + 3 + n + _TAG
        if end > length:
            break
        out.append(bytes(data[0 if not out else pos:end]))
        pos = end
    if pos != length or start == 0:
        raise SaveFileError("the save does not end on a whole record")
    return out


def last_tag(data: bytes, length: int) -> bytes:
    """The chain tag after the first ``length`` bytes of a decoded file."""
    return bytes(data[length - _TAG:length]) if length > len(MAGIC) else bytes(data[:len(MAGIC)])


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Replaying a long log makes millions of objects and no cycles: the cyclic
    collector would walk them again and again (a 1 M-decision replay spends about a
    third of its time there).  Paused for the load, then back as it was."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def load(data: bytes, name: str = "save file") -> tuple[Decoded, Match]:
    """Decode ``data`` and rebuild its match by replaying the log (never trusting it).

    A torn tail is left out (``decoded.torn_bytes`` says so); a header-only file
    gives the match as its seed starts it.  Raises only :class:`SaveFileError`.
    """
    with _collector_paused():
        decoded = decode(data, name)
        header = decoded.header
        if header is None:
            what = "only zeros" if decoded.zero_tail else "an incomplete header"
            raise SaveFileError(f"{name}: the file holds {what} — the match never started", 0)
        try:
            match = Match.replay(header.rules, decoded.entries, seed=header.seed)
        except ActionError as exc:
            index = exc.index if exc.index is not None else 0
            raise SaveFileError(f"{name}: record {index + 1}: {exc}", index + 1) from None
        except ValueError as exc:  # e.g. rules the engine cannot play yet
            raise SaveFileError(f"{name}: {exc}") from None
    if decoded.footer is not None:
        f = decoded.footer
        if not match.over or f.winner != match.winner or f.scores != match.scores:
            raise SaveFileError(f"{name}: the final record does not agree with the log",
                                len(decoded.entries) + 1)
    return decoded, match
