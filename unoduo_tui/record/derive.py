"""One save file, as the record's index keeps it: replayed, never taken at its word.

:func:`derive` reads a save (through :mod:`unoduo_tui.files`: no symlinks, a bounded
size), decodes and replays its whole log (:func:`engine.savefile.load` — a footer
that does not agree with the moves is refused, as ``unoduo verify`` refuses it) and
counts the finished match with :func:`engine.tally.tally`.  What it returns is plain
data, so a pool of processes can derive many saves at once (``unoduo stats
--rebuild``).  It never raises for a bad file: the file is ``damaged``, with why.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from engine import Match
from engine.savefile import HEAD_BYTES, TAIL_BYTES, SaveFileError, decode, load, read_ends
from engine.tally import tally

from ..files import open_regular, read_all
from ..savehandle import parent_of
from ..text import printable
from .identity import Owner, identities, seat_names

__all__ = ["Derived", "SeatRow", "derive", "derive_image", "STATUSES"]

#: what a save can be to the index: counted once it is ``finished``; an ``open`` match
#: can still be played; a ``bot-only`` one (``unoduo simulate``) is nobody's record
STATUSES = ("finished", "open", "bot-only", "damaged")

#: the counts of :class:`engine.tally.SeatTally` the index keeps, one column each
COUNTS = ("rounds_won", "action_outs", "challenges", "challenges_won", "catches", "caught",
          "volley_taken", "volley_dealt", "dumps", "dumped", "biggest_dump")


@dataclass(frozen=True)
class SeatRow:
    seat: int
    who: str
    name: str
    kind: str  # "human" | "bot"
    verified: bool
    place: int
    won: bool
    score: int
    points: tuple[int, ...]
    counts: tuple[int, ...]  # COUNTS, in order


@dataclass(frozen=True)
class Derived:
    """A save as the index records it (``match``/``seats`` only when ``finished``)."""

    source: str
    size: int
    mtime_ns: int
    status: str
    problem: str | None = None
    match_id: str = ""
    preset: str = ""
    rounds: int = 0
    practice: bool = False
    branch: bool = False
    winner: int | None = None
    seats: tuple[SeatRow, ...] = field(default_factory=tuple)

    @property
    def day(self) -> str:
        """The UTC day the match ended (its save's last write)."""
        return datetime.fromtimestamp(self.mtime_ns / 1e9, timezone.utc).strftime("%Y-%m-%d")


def won(match: Match, seat: int) -> bool:
    """``seat`` won the finished ``match``: it went out first or, with partners (H5),
    its team did — both partners of the winning team are winners."""
    winner = match.winner
    return winner is not None and match.rules.team(seat) == match.rules.team(winner)


def derive(root: Path, source: str, owner: Owner, data_dir: Path) -> Derived:
    """The save ``root / source`` (a player's ``data_dir`` holds it; ``owner`` is whose
    it is), as the index records it."""
    path = Path(root) / source
    size = mtime = 0
    try:
        fd = open_regular(path, os.O_RDONLY)
        try:
            st = os.fstat(fd)
            size, mtime = st.st_size, st.st_mtime_ns
            data = read_all(fd, path)
        finally:
            os.close(fd)
    except (SaveFileError, OSError) as exc:
        why = str(exc) if isinstance(exc, SaveFileError) else (exc.strerror or str(exc))
        return Derived(source, size, mtime, "damaged", printable(why)[:300])
    match_id = path.name[:-len(".unoduo")] if path.name.endswith(".unoduo") else path.name
    return derive_image(source, match_id, data, mtime, owner, data_dir)


def derive_image(source: str, match_id: str, data: bytes, mtime: int, owner: Owner,
                 data_dir: Path) -> Derived:
    """A save's bytes (a file's, or a database's rows end to end: :mod:`..storage.pg`)
    as the index records it; ``mtime``: when it was last written (ns)."""
    size = len(data)
    try:
        # the header alone (a finished file's, from its ends: one record parsed, not
        # the 4 KiB of moves a decode of HEAD_BYTES would take — 10% of a rebuild)
        ends = read_ends(data[:HEAD_BYTES], data[-TAIL_BYTES:], len(data), source)
        header = ends[0] if ends is not None else decode(data[:HEAD_BYTES], source).header

        if header is None:
            raise SaveFileError(f"{source}: the match never started")
        if all(kind.startswith("bot:") for _, kind in header.seats):
            return Derived(source, size, mtime, "bot-only")
        decoded, match = load(data, source)
        if not match.over:
            return Derived(source, size, mtime, "open")
        t = tally(match)
        who = identities(header, seat_names(data_dir, decoded, match_id), owner)
        seats = tuple(
            SeatRow(s, w.key, w.name, w.kind, w.verified, t.places[s], won(match, s),
                    t.scores[s], st_.points, tuple(getattr(st_, c) for c in COUNTS))
            for s, (w, st_) in enumerate(zip(who, t.seats)))
        return Derived(source, size, mtime, "finished", None, match_id, header.rules.preset,
                       t.rounds, decoded.undos > 0, parent_of(header) is not None,
                       match.winner, seats)
    except SaveFileError as exc:
        return Derived(source, size, mtime, "damaged", printable(str(exc))[:300])
    except Exception as exc:  # noqa: BLE001 - one odd file must never stop the others
        return Derived(source, size, mtime, "damaged",
                       f"{printable(source)}: cannot be read ({type(exc).__name__})")
