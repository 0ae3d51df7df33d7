"""Where ``unoduo`` keeps what lasts (#27): one storage interface, two backends.

- **files** (the default, behaviour exactly as before): each save a file in a data
  dir (:class:`~unoduo_tui.store.Store`), the record an SQLite index beside them,
  identities and the new-keys log in the serve dir, the lobby the server's own table
  service;
- **PostgreSQL** (``--store postgresql://…`` or ``$UNODUO_STORE``): the same saves as
  rows, one per record, the hash chain kept (:mod:`.pg`), so every node of a cluster
  reads and writes the same matches.

The interface of the saves is :class:`~unoduo_tui.store.Saves`; :func:`saves_for`
gives a player's, from whichever backend this process was started with.
Nothing here imports psycopg until a ``postgresql://`` store is used.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..backend import STORE_ENV, is_database, store_url

if TYPE_CHECKING:
    from ..store import Saves

__all__ = ["STORE_ENV", "store_url", "is_database", "saves_for", "describe", "folder_for"]

def saves_for(data_dir: str | os.PathLike[str] | None, key: str | None = None,
              url: str | None = None) -> "Saves":
    """A player's saves: in the database ``url`` (else ``$UNODUO_STORE``'s) as the
    player ``key`` (their SSH key's fingerprint under ``unoduo serve``), else the
    files of ``data_dir`` — exactly :class:`~unoduo_tui.store.Store` as before."""
    url = store_url(url)
    if url is None:
        from ..store import Store

        return Store(data_dir, key)
    from ..store import data_dir as default_dir
    from .pg import PgStore

    return PgStore(url, default_dir(data_dir), key=key, owner=key or "")


def describe(url: str) -> str:
    """A database URL as a log line shows it: without its password."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    user = f"{parts.username}:***@" if parts.username else ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=f"{user}{host}{port}"))


def folder_for(root: Path, owner: str) -> Path:
    """Where a save of ``owner`` lives among files copied from (or to) a database: the
    data dir itself for the operator's own (``''``), else that player's folder of a
    serve dir (``players/<fingerprint, filename-safe>``)."""
    if not owner:
        return root
    from ..ssh.identity import folder_name

    return root / "players" / folder_name(owner)
