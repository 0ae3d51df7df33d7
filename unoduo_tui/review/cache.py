"""A review's cache: one JSON file beside the save (``<id>.review.json``; hindsight:
``<id>.hindsight.review.json``), keyed by the SHA-256 of the save file's bytes, the
seats reviewed (a cache of more seats serves fewer), the review's budget and its
calibration, in a format (:data:`FORMAT`)
bumped whenever the values change.  A cache made from other bytes is refused (the save changed: a match
played on, a file replaced) and the review computed again; a review whose save changed
while it ran is not written.  A cache that cannot be read or written costs only the
time to compute the review again.  No Textual."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from engine.review import Decision, Review, summarise

__all__ = ["Key", "content_hash", "cache_path", "load", "save", "FORMAT"]

#: the cache's format: 2 since the values are calibrated (engine.review_calibration),
#: the draft is reviewed and UNO Duo's decisions carry the match's win chance; 3 since
#: the worlds are drawn from the review's own seed (never the match's), partners (H5)
#: win as a team and hindsight plays out many orders of the draw pile — a cache of
#: another format is refused and the review computed again
FORMAT = 3


@dataclass(frozen=True)
class Key:
    save_sha256: str
    seats: tuple[int, ...]
    hindsight: bool
    budget: int
    #: the calibration the values were mapped by (:data:`engine.review_calibration.VERSION`)
    calibration: str = ""


def content_hash(path: Path) -> str:
    """The SHA-256 of the file's bytes, in hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def cache_path(save: Path, hindsight: bool) -> Path:
    stem = save.name[:-len(".unoduo")] if save.name.endswith(".unoduo") else save.name
    return save.with_name(stem + (".hindsight" if hindsight else "") + ".review.json")


def _cached(save: Path, key: Key) -> tuple[frozenset[int], list[Decision]] | None:
    """(the seats, the decisions) of the cache beside ``save`` when it was made for
    ``key`` but perhaps for more seats; ``None``: none, another key, unreadable."""
    try:
        data = json.loads(cache_path(save, key.hindsight).read_text(encoding="utf-8"))
        seats = frozenset(int(s) for s in data.get("seats", ()))
        if (data.get("format") != FORMAT or data.get("save_sha256") != key.save_sha256
                or not seats >= set(key.seats)
                or bool(data.get("hindsight")) != key.hindsight
                or data.get("budget") != key.budget
                or data.get("calibration") != key.calibration):
            return None
        return seats, [_decision(d) for d in data["decisions"]]
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def load(save: Path, key: Key, seat_count: int) -> Review | None:
    """The cached review for ``key`` — also from a cache of more seats, of which only
    ``key``'s are kept — or ``None`` (none, another key, unreadable)."""
    found = _cached(save, key)
    if found is None:
        return None
    wanted = set(key.seats)
    return summarise([d for d in found[1] if d.seat in wanted], seat_count, key.hindsight)


def _decision(d: dict[str, Any]) -> Decision:
    values = tuple((str(a), float(v)) for a, v in d.pop("values"))
    return Decision(values=values, **d)


def save(save_path: Path, key: Key, result: Review) -> bool:
    """Write ``result`` for ``key`` unless the save's bytes changed since (then, or when
    the folder is not writable, nothing is written: False) — or a cache of more seats
    for the same key is there already (kept: True)."""
    try:
        if content_hash(save_path) != key.save_sha256:
            return False
        found = _cached(save_path, key)
        if found is not None and found[0] > set(key.seats):
            return True
        data = {"format": FORMAT, "save_sha256": key.save_sha256, "seats": list(key.seats),
                "hindsight": key.hindsight, "budget": key.budget,
                "calibration": key.calibration,
                "decisions": [asdict(d) for d in result.decisions]}
        target = cache_path(save_path, key.hindsight)
        fd, tmp = tempfile.mkstemp(prefix="." + target.name, suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f)
            os.replace(tmp, target)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        return False
    return True
