"""The save file's header and footer: their fields, and the limits the writer and the
reader share (``Header.__post_init__`` checks every one, so the writer refuses with
``ValueError`` what the reader would refuse).  Part of :mod:`engine.savefile`, which
re-exports all of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeGuard

from .rules import Rules
from .scoring import match_result

__all__ = ["FORMAT_VERSION", "MAX_NAME", "MAX_ID", "MAX_TEXT", "MAX_SEED", "SaveFileError",
           "Header", "Footer", "SeatRecord"]

FORMAT_VERSION = 3
FOOTER_CODE = -9  # a footer record's body: [FOOTER_CODE, {...}]
SEAT_CODE = -5  # a seat record's body (format 3): [SEAT_CODE, seat, name, kind]
# the limits the writer and the reader share (Header.__post_init__ checks them all)
MAX_NAME = 64  # a seat's name and kind, in characters
MAX_ID = 100  # a match id, in characters
MAX_TEXT = 64  # the header's "created" and "app" strings
MAX_SEED = 10**100  # |seed| < MAX_SEED (seeds beyond 64 bits are written as text)
_CORE = ("format", "id", "rules", "seed", "seats", "created", "app")


class SaveFileError(ValueError):
    """A save file that cannot be loaded; the message names the file and the record.

    ``record`` is the 0-based record number (0 is the header) when one is to blame.
    """

    def __init__(self, message: str, record: int | None = None) -> None:
        super().__init__(message)
        self.record = record


@dataclass(frozen=True)
class Header:
    """Everything a save file knows before its first action.  Constructing one checks
    every limit (``ValueError``), so the writer and the reader share them."""

    match_id: str
    rules: Rules
    seed: int
    seats: tuple[tuple[str, str], ...]  # (name, kind): kind "human" or "bot:<level>"
    created: str  # ISO 8601, UTC
    app_version: str
    format_version: int = FORMAT_VERSION
    extra: dict[str, Any] = field(default_factory=dict)  # later versions' fields (e.g. a branch's parent)

    def __post_init__(self) -> None:
        if not _is_int(self.format_version) or not 1 <= self.format_version <= FORMAT_VERSION:
            raise ValueError(f"format version {self.format_version!r} is not one this "
                             f"unoduo writes or reads (1 to {FORMAT_VERSION})")
        if not isinstance(self.match_id, str) or not 0 < len(self.match_id) <= MAX_ID:
            raise ValueError(f"a match id is 1 to {MAX_ID} characters")
        if not isinstance(self.rules, Rules):
            raise ValueError("the header's rules are not Rules")
        if not _is_int(self.seed) or not -MAX_SEED < self.seed < MAX_SEED:
            raise ValueError(f"a seed is a whole number of at most {len(str(MAX_SEED)) - 1} "
                             "digits")
        seats = self.seats
        if (not isinstance(seats, tuple) or not all(
                isinstance(s, tuple) and len(s) == 2
                and all(isinstance(x, str) and len(x) <= MAX_NAME for x in s) for s in seats)):
            raise ValueError(f"seats are (name, kind) pairs of at most {MAX_NAME} characters "
                             "each")
        if len(seats) != self.rules.seats:
            raise ValueError(f"{len(seats)} seats for a {self.rules.seats}-seat game")
        for key in ("created", "app_version"):
            value = getattr(self, key)
            if not isinstance(value, str) or len(value) > MAX_TEXT:
                raise ValueError(f"header field {key!r} is text of at most {MAX_TEXT} "
                                 "characters")
        if not isinstance(self.extra, dict) or any(
                not isinstance(k, str) or k in _CORE for k in self.extra):
            raise ValueError("the header's extra fields must have names of their own")

    def to_body(self) -> dict[str, Any]:
        seed: int | str = self.seed if -(2**63) <= self.seed < 2**64 else str(self.seed)
        body = {
            "format": self.format_version, "id": self.match_id, "rules": self.rules.to_dict(),
            "seed": seed, "seats": [list(s) for s in self.seats], "created": self.created,
            "app": self.app_version,
        }
        body.update(self.extra)
        return body

    @classmethod
    def from_body(cls, body: Any) -> "Header":
        if not isinstance(body, dict):
            raise ValueError("the header is not a map")
        need: dict[str, type | tuple[type, ...]] = {"format": int, "id": str, "rules": dict, "seed": (int, str), "seats": list,
                "created": str, "app": str}
        for key, kind in need.items():
            if not isinstance(body.get(key), kind) or isinstance(body.get(key), bool):
                raise ValueError(f"header field {key!r} is missing or of the wrong type")
        if body["format"] > FORMAT_VERSION:
            raise ValueError(f"format version {body['format']} is newer than this unoduo "
                             f"reads ({FORMAT_VERSION}): upgrade unoduo")
        seed = body["seed"]
        if isinstance(seed, str):
            digits = seed[1:] if seed[:1] == "-" else seed
            if not (digits.isascii() and digits.isdigit()) or len(digits) > 100:
                raise ValueError("header field 'seed' is not a whole number")
            seed = int(seed)
        seats = []
        for seat in body["seats"]:
            if not isinstance(seat, list) or len(seat) != 2:
                raise ValueError("header field 'seats' must list [name, kind] pairs")
            seats.append(tuple(seat))
        rules = Rules.from_dict(body["rules"])
        extra = {k: v for k, v in body.items() if k not in need}
        return cls(body["id"], rules, seed, tuple(seats), body["created"], body["app"],
                   body["format"], extra)


@dataclass(frozen=True)
class SeatRecord:
    """Format 3: from log entry ``at`` on (the log's length when it was written),
    ``seat`` is named ``name`` and its decisions are made by ``kind`` — ``"human"``
    (its player: a joiner who sat down, or one back from away) or ``"bot:<level>"``
    (a bot standing in for an away player).  The header's seats say who the seats
    were at the start; these say who came and who played later."""

    at: int
    seat: int
    name: str
    kind: str

    def __post_init__(self) -> None:
        if not _is_int(self.at) or self.at < 0 or not _is_int(self.seat) or self.seat < 0:
            raise ValueError("a seat record names a seat and a log length")
        if not all(isinstance(x, str) and len(x) <= MAX_NAME for x in (self.name, self.kind)):
            raise ValueError(f"a seat record's name and kind are at most {MAX_NAME} "
                             "characters")

    def to_body(self) -> list[Any]:
        return [SEAT_CODE, self.seat, self.name, self.kind]

    @classmethod
    def from_body(cls, body: list[Any], at: int) -> "SeatRecord":
        if len(body) != 4:
            raise ValueError("malformed seat record")
        return cls(at, *body[1:])


@dataclass(frozen=True)
class Footer:
    """The result, written once a match is over, so listing need not replay.

    ``entries``, ``undos`` and ``offset`` (the log's length, the undo records before
    the footer, where the footer record starts) are ``None`` in older files;
    ``names`` (format 3): each seat's name at the end, when a seat record renamed
    one (else ``None``: the header's)."""

    winner: int | None
    scores: tuple[int, ...]
    rounds: int
    entries: int | None = None
    undos: int | None = None
    offset: int | None = None
    names: tuple[str, ...] | None = None

    def to_body(self) -> list[Any]:
        d: dict[str, Any] = {"winner": self.winner, "scores": list(self.scores),
                             "rounds": self.rounds}
        for key in ("entries", "undos", "offset"):
            if getattr(self, key) is not None:
                d[key] = getattr(self, key)
        if self.names is not None:
            d["names"] = list(self.names)
        return [FOOTER_CODE, d]

    @classmethod
    def from_body(cls, body: list[Any]) -> "Footer":
        if len(body) != 2 or not isinstance(body[1], dict):
            raise ValueError("malformed footer")
        d = body[1]
        winner, scores, rounds = d.get("winner"), d.get("scores"), d.get("rounds")
        entries, undos, offset = more = [d.get(k) for k in ("entries", "undos", "offset")]
        names = d.get("names")
        if not (winner is None or _is_int(winner)) or not _is_int(rounds) or \
                not isinstance(scores, list) or not all(_is_int(x) for x in scores) or \
                not all(x is None or (_is_int(x) and x >= 0) for x in more) or \
                not (names is None or (isinstance(names, list) and all(
                    isinstance(n, str) and len(n) <= MAX_NAME for n in names))):
            raise ValueError("malformed footer")
        return cls(winner, tuple(scores), rounds, entries, undos, offset,
                   None if names is None else tuple(names))

    def problem(self, rules: Rules) -> str | None:
        """Why this footer cannot end a match under ``rules`` (None: it can): one score
        per seat, none negative, a total at the target and the winner the rules make."""
        scores = self.scores
        if len(scores) != rules.seats or any(x < 0 for x in scores) or self.rounds < 1 or \
                (self.names is not None and len(self.names) != rules.seats):
            return "the final record does not fit the header (seats, scores or rounds)"
        over, winner = match_result(rules, scores)
        if not over:
            return "the final record claims a result before the target was reached"
        if winner != self.winner:
            return "the final record names a winner the scores do not make"
        return None


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)

