"""Which store this process keeps its saves in (#27): the files, or the PostgreSQL
database a ``postgresql://`` URL names (``--store``, else ``$UNODUO_STORE``).  Plain
Python, importing nothing of unoduo's: whatever needs to know (the saves, the
record's index) asks here."""

from __future__ import annotations

import os

__all__ = ["STORE_ENV", "store_url", "is_database"]

#: the environment variable that names the store when ``--store`` is not given
STORE_ENV = "UNODUO_STORE"
_SCHEMES = ("postgresql://", "postgres://")


def is_database(where: str | os.PathLike[str] | None) -> bool:
    """``where`` names a PostgreSQL database (a ``postgresql://`` URL), not a folder."""
    return isinstance(where, str) and where.startswith(_SCHEMES)


def store_url(explicit: str | None = None) -> str | None:
    """The database this process keeps its saves in: ``explicit`` (``--store``), else
    ``$UNODUO_STORE``; None: the files (the default).  ``ValueError`` for a store that
    is not a ``postgresql://`` URL."""
    url = explicit if explicit is not None else os.environ.get(STORE_ENV) or None
    if url is None or url == "files":
        return None
    if not is_database(url):
        raise ValueError("--store takes a postgresql:// URL (or 'files', the default)")
    return url
