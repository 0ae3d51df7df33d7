"""A hosted match, seen from the host's data dir (#21 item 5): its remote seats stay
remote however it is opened.

A match started by ``unoduo host`` (or *Host a table*, or the lobby) says in its save
file's header whose seat is the host's (``"host": seat``); every other human seat is
played from another terminal.  A match hosted before the header said so is known by
its table file (``tables/<id>.json``, :class:`.codes.TableFile`): the host's seat is
the first seat a token was given for.

- :func:`remote_seats`: the seats nothing opened here may show (a replay or a
  transcript of an unfinished match sees the host's seat only; see
  :func:`unoduo_tui.transcript.witnesses`).
- :func:`open_hosted`: Resume (the menu, the saved-matches list, ``unoduo resume``,
  the lobby) of a hosted match — its table, never hot-seat: the authority still
  running is reached with the host's token (the host's seat only: a seat whose
  connection answers is not taken), else it is started again with its code and seat
  tokens (``--resume``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from .codes import TableFile, hall_path

if TYPE_CHECKING:
    from engine.savefile import Header

    from ..store import Loaded, Saves
    from .remote import RemoteTable

__all__ = ["HOST_FIELD", "host_seat", "remote_seats", "open_hosted"]

#: the header field naming the host's seat
HOST_FIELD = "host"


def _id(ref: str | os.PathLike[str]) -> str:
    return os.path.basename(str(ref)).removesuffix(".unoduo")


def host_seat(store: Saves, header: Header, match_id: str) -> int | None:
    """The host's seat of a hosted match (``None``: the match was not hosted)."""
    seat = (header.extra or {}).get(HOST_FIELD)
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(header.seats):
        return seat
    return _kept_host(TableFile(store.data_dir, match_id).load())


def _kept_host(kept: dict | None) -> int | None:
    """The host's seat by a table file: the first seat a token was given for."""
    return min(kept["tokens"]) if kept and kept["tokens"] else None


def remote_seats(store: Saves, loaded: Loaded) -> tuple[int, ...]:
    """The human seats of ``loaded`` (a :class:`~unoduo_tui.store.Loaded`) played
    from other terminals: every human seat but the host's, if it was hosted."""
    host = host_seat(store, loaded.header, loaded.id)
    if host is None:
        return ()
    return tuple(s for s, seat in enumerate(loaded.seats) if not seat.is_bot and s != host)


def open_hosted(store: Saves, path: str | os.PathLike[str], *, name: str = "",
                listing: str | None = None, place: str = "terminal"
                ) -> tuple[RemoteTable, dict | None] | None:
    """The hosted match at ``path`` at its table (see the module doc): (a connected
    :class:`~.remote.RemoteTable` with the join code as its banner, the new
    authority's first line when it had to be started — None when it was running);
    ``None`` when the match was not hosted.  ``listing``: a lobby dir to list a
    restarted table in.  Raises ``Refused``, ``ConnectionError``, ``RuntimeError``
    (:func:`.client.start_authority`), ``SaveFileError`` or ``OSError``."""
    from ..store import SaveFileError
    from . import client

    match_id = _id(path)
    kept = TableFile(store.data_dir, match_id).load()
    if kept is None:
        try:
            header = store.open(path, read_only=True).header
        except SaveFileError:
            return None
        if host_seat(store, header, match_id) is None:
            return None
    info = None
    table = None
    host = _kept_host(kept)
    # under unoduo serve the server's table service says whether it holds the table
    # (and opens it if not): no knocking with a code that may be no table's any more
    if kept is not None and host is not None and hall_path() is None:
        try:
            table = client.connect(store, kept["code"], want="play", name=name,
                                     tokens=[kept["tokens"][host]], new_seat=False)
        except ConnectionError:
            table = None  # its table ended: start it again
    if table is None:
        info = client.start_authority(store.data_dir, "--resume", str(path), listing=listing,
                                      key=store.key)
        table = client.sit_host(store, info, name)
    table.banner = client.host_banner(table.code, place)
    return table, info
