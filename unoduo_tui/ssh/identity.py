"""A client's public key is who they are: its SHA256 fingerprint names their folder
under the serve dir (their saves, settings and table tokens) and keys their name.

``<serve dir>/players/<fingerprint, filename-safe>/identity.json`` (0600, in a 0700
folder) holds ``{"fingerprint": …, "name": …}``: the SSH username, cleaned by
:func:`~unoduo_tui.text.player_name`, the first time the key is seen; kept after that
(the lobby may rewrite it when a player renames themselves).  No asyncssh here."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..files import FileProblem, private_dir, read_regular, replace_private
from ..text import player_name

__all__ = ["Identity", "folder_name", "identify", "IDENTITY_FILE"]

IDENTITY_FILE = "identity.json"
_SAFE = re.compile(r"[^A-Za-z0-9_-]")


@dataclass(frozen=True)
class Identity:
    fingerprint: str
    name: str
    folder: Path


def folder_name(fingerprint: str) -> str:
    """``SHA256:ab+c/d`` → ``SHA256_ab-c_d``: one path segment, the same for a key
    always, different for different keys (base64's ``+`` and ``/`` become ``-`` and
    ``_``, which base64 never uses); anything else but letters and digits (a ``.``)
    becomes ``_``."""
    text = fingerprint.replace(":", "_", 1).replace("+", "-").replace("/", "_")
    return _SAFE.sub("_", text)[:100]


def _stored_name(path: Path) -> str | None:
    try:
        data = json.loads(read_regular(path, limit=4096))
    except (OSError, ValueError):  # missing, damaged, not ours: start afresh
        return None
    name = data.get("name") if isinstance(data, dict) else None
    if not isinstance(name, str):
        return None
    return player_name(name, fallback="") or None


def identify(serve_dir: Path, fingerprint: str, username: str) -> Identity:
    """The player this key is: their folder made (0700) and their name, kept in
    :data:`IDENTITY_FILE` (written the first time, from ``username``).  ``OSError``
    (a :class:`FileProblem`) when the folder cannot be used."""
    players = serve_dir / "players"
    private_dir(players)
    folder = players / folder_name(fingerprint)
    private_dir(folder)
    path = folder / IDENTITY_FILE
    name = _stored_name(path)
    if name is None:
        name = player_name(username)
        data = json.dumps({"fingerprint": fingerprint, "name": name}) + "\n"
        replace_private(path, data.encode("utf-8"))
    if not folder.is_dir() or folder.is_symlink():  # pragma: no cover - made just now
        raise FileProblem(f"{folder}: not a folder")
    return Identity(fingerprint, name, folder)
