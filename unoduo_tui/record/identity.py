"""Who a seat of a saved match is, for the record.

- A bot is its level (``bot:normal``): one player per level, whatever its seat's name.
- A human at this machine is the name at the table (``name:ann``, letter case
  folded): hot-seat players are told apart by their names.
- Under ``unoduo serve`` each player's data dir is ``<serve dir>/players/<key>/`` and
  their session knows the key's fingerprint (:class:`~unoduo_tui.sessions.SessionConfig`,
  handed on as :attr:`Store.key <unoduo_tui.store.Store>`): the player whose folder
  holds the save (its *owner*) is ``key:<fingerprint>``, shown by the name in their
  ``identity.json``; the other humans of a match they hosted are known by the names
  kept with the match (:func:`seat_names`), as ``name:…`` — unverified, so a server
  does not rate them (:mod:`.ratings`).

The index of a serve dir is shared by all its players (:func:`index_root`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from engine.savefile import Decoded, Header

from ..files import read_regular
from ..text import player_name

__all__ = ["Who", "Owner", "seat_names", "identities", "owner_of", "index_root",
           "INDEX_NAME", "bot_name"]

#: the index's file, in the data dir (a serve dir under ``unoduo serve``)
INDEX_NAME = "record.sqlite"


@dataclass(frozen=True)
class Who:
    """One seat as the record knows it: ``key`` is the identity (stable), ``name`` what
    is shown, ``kind`` ``"human"`` or ``"bot"``; ``verified``: known by an SSH key
    (or at one's own machine), not only by a name someone typed."""

    key: str
    name: str
    kind: str
    verified: bool = True


@dataclass(frozen=True)
class Owner:
    """The player whose data dir holds the saves: ``fingerprint`` under ``unoduo serve``
    (``None`` at one's own machine), with the name they go by there."""

    fingerprint: str | None = None
    name: str | None = None


def bot_name(level: str) -> str:
    return f"{level.capitalize()} bot"


def seat_names(data_dir: Path, decoded: Decoded, match_id: str) -> list[str]:
    """Every seat's name as kept with the match: the header's as the save's seat
    records (format 3: a joiner sat down, under the name they gave) renamed them —
    the footer's ``names`` agree, :func:`engine.savefile.load` checked it.  A hosted
    match saved before format 3 keeps no joiner's name itself: for it, the names in
    its table file (``<data dir>/tables/<id>.json``).  The one place the record
    reads names."""
    header = decoded.header
    assert header is not None
    kept = decoded.names()
    names = [player_name(n, f"Seat {i + 1}") for i, n in enumerate(kept)]
    if decoded.seats or (decoded.footer is not None and decoded.footer.names):
        return names
    try:
        raw = json.loads(read_regular(Path(data_dir) / "tables" / f"{match_id}.json", 1 << 16))
        table = raw.get("names", {}) if isinstance(raw, dict) else {}
        for seat, name in dict(table).items():
            s = int(seat)
            if 0 <= s < len(names) and isinstance(name, str) and not \
                    header.seats[s][1].startswith("bot:"):
                names[s] = player_name(name, names[s])
    except (OSError, ValueError, TypeError, AttributeError):
        pass
    return names


def identities(header: Header, names: list[str], owner: Owner) -> list[Who]:
    """Each seat's :class:`Who`: bots by level; under a server the first human seat
    (the host's, the player's own) by the owner's key, the others by name, unverified;
    at one's own machine every human by name."""
    out: list[Who] = []
    owner_seat = next((s for s, (_, kind) in enumerate(header.seats)
                       if not kind.startswith("bot:")), None)
    for seat, ((_, kind), name) in enumerate(zip(header.seats, names)):
        if kind.startswith("bot:"):
            level = kind[4:]
            out.append(Who(f"bot:{level}", bot_name(level), "bot"))
        elif owner.fingerprint is not None and seat == owner_seat:
            out.append(Who(f"key:{owner.fingerprint}", owner.name or name, "human"))
        else:
            out.append(Who(f"name:{name.casefold()}", name, "human",
                           verified=owner.fingerprint is None))
    return out


def owner_of(data_dir: Path) -> Owner:
    """The owner of a player's data dir: under ``unoduo serve`` (its ``identity.json``
    names a fingerprint) that key and name, else nobody in particular."""
    try:
        raw = json.loads(read_regular(Path(data_dir) / "identity.json", 1 << 12))
    except (OSError, ValueError):
        return Owner()
    if not isinstance(raw, dict) or not isinstance(raw.get("fingerprint"), str):
        return Owner()
    name = raw.get("name")
    return Owner(raw["fingerprint"][:200],
                 player_name(name, "") or None if isinstance(name, str) else None)


def index_root(data_dir: Path, key: str | None = None) -> tuple[Path, bool]:
    """Where the index lives for saves in ``data_dir``, and whether it is a serve
    dir's, shared by its players: a player's data dir under ``unoduo serve``
    (``<serve>/players/<folder>`` whose ``identity.json`` names ``key``, the SSH key
    the session plays as) uses the serve dir's; any other, its own.  ``key`` comes
    from the session, never from the environment: many sessions share one process
    under ``unoduo serve --workers N``."""
    data_dir = Path(data_dir)
    if key and data_dir.parent.name == "players":
        from ..ssh.identity import folder_name

        if data_dir.name == folder_name(key) and owner_of(data_dir).fingerprint == key:
            return data_dir.parent.parent, True
    return data_dir, False
