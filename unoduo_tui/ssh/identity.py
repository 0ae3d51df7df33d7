"""A client's public key is who they are: its SHA256 fingerprint names their folder
under the serve dir (their saves, settings and table tokens) and keys their name.

``<serve dir>/players/<fingerprint, filename-safe>/identity.json`` (0600, in a 0700
folder) holds ``{"fingerprint": …, "name": …}``: the SSH username, cleaned by
:func:`~unoduo_tui.text.player_name`, the first time the key is seen; kept after that
(the lobby may rewrite it when a player renames themselves).  ``players`` and the
key's folder are opened without following a symlink, and the file is read and
written inside the folder so opened (:func:`~unoduo_tui.files.open_folder`): a
``players/<fingerprint>`` that is a symlink is refused before anything is written.

Keys are free to make, so the server lets one address bring only so many keys it has
never seen an hour (:class:`NewKeys`).  No asyncssh here."""

from __future__ import annotations

import json
import os
import re
import time
from collections import Counter, deque
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..files import (open_folder, open_regular, read_all, replace_in,
                     replace_private, read_regular)
from ..text import player_name

__all__ = ["Identity", "folder_name", "identify", "known", "IDENTITY_FILE", "NewKeys",
           "NEW_KEYS_FILE"]

IDENTITY_FILE = "identity.json"
NEW_KEYS_FILE = "new_keys.log"
_SAFE = re.compile(r"[^A-Za-z0-9_-]")


@dataclass(frozen=True)
class Identity:
    fingerprint: str
    name: str
    folder: Path
    #: the key was not known to this server until now (its folder was made)
    new: bool = False


def folder_name(fingerprint: str) -> str:
    """``SHA256:ab+c/d`` → ``SHA256_ab-c_d``: one path segment, the same for a key
    always, different for different keys (base64's ``+`` and ``/`` become ``-`` and
    ``_``, which base64 never uses); anything else but letters and digits (a ``.``)
    becomes ``_``."""
    text = fingerprint.replace(":", "_", 1).replace("+", "-").replace("/", "_")
    return _SAFE.sub("_", text)[:100]


def known(serve_dir: Path, fingerprint: str) -> bool:
    """This server has seen the key before (its folder, or anything by that name, is
    there)."""
    return os.path.lexists(serve_dir / "players" / folder_name(fingerprint))


def _stored_name(folder: int) -> str | None:
    try:
        fd = open_regular(Path(IDENTITY_FILE), os.O_RDONLY, dir_fd=folder)
        try:
            data = json.loads(read_all(fd, Path(IDENTITY_FILE), limit=4096))
        finally:
            os.close(fd)
    except (OSError, ValueError):  # missing, damaged, not ours: start afresh
        return None
    name = data.get("name") if isinstance(data, dict) else None
    if not isinstance(name, str):
        return None
    return player_name(name, fallback="") or None


def identify(serve_dir: Path, fingerprint: str, username: str,
             known_name: str | None = None) -> Identity:
    """The player this key is: their folder made (0700) and their name, kept in
    :data:`IDENTITY_FILE` (written the first time, from ``username``; ``known_name``: the name a
    cluster's database knows the key by, written over another).  ``OSError``
    (a :class:`FileProblem`) when a folder cannot be used — a symlink among them too,
    before anything is written."""
    players_path = serve_dir / "players"
    folder_path = players_path / folder_name(fingerprint)
    players = open_folder(players_path, make=True)
    try:
        new = not os.path.lexists(folder_path)
        folder = open_folder(folder_name(fingerprint), dir_fd=players, make=True)
    finally:
        os.close(players)
    try:
        name = _stored_name(folder)
        if known_name is not None and name != known_name:  # the cluster's word (#27)
            name = None
            username = known_name
        if name is None:
            name = player_name(username)
            data = json.dumps({"fingerprint": fingerprint, "name": name}) + "\n"
            replace_in(folder, IDENTITY_FILE, data.encode("utf-8"))
    finally:
        os.close(folder)
    return Identity(fingerprint, name, folder_path, new)


class NewKeys:
    """The keys never seen before that each address brought in the last hour, at most
    ``per_hour`` (:meth:`refusal`, :meth:`add`).

    Kept across restarts in ``path`` (:data:`NEW_KEYS_FILE` in the serve dir, 0600):
    one line per new key, ``<unix time> <address>``, appended as it comes (a key a
    minute from 1,000 addresses is a few bytes each, not a file rewritten) and
    rewritten with only the last hour's lines when the server starts or the file has
    grown to four times that.  Wall-clock time, so a restart — or a crash — does not
    give an address a fresh hour; a damaged line is skipped.  At most
    :attr:`MAX_KEPT` keys are remembered (the oldest go first): bounded memory
    whatever the number of addresses."""

    MAX_KEPT = 50_000
    HOUR = 3600.0

    def __init__(self, path: Path | None, per_hour: int,
                 clock: Callable[[], float] = time.time) -> None:
        self.path, self.per_hour, self.clock = path, per_hour, clock
        self._seen: deque[tuple[float, str]] = deque()
        self._counts: Counter[str] = Counter()
        self._lines = 0  # lines in the file since it was last rewritten
        if path is not None:
            self._load(path)

    def _load(self, path: Path) -> None:
        try:
            raw = read_regular(path, limit=16 * 1024 * 1024)
        except OSError:  # none yet (or not a file, or huge): nothing to go on
            raw = b""
        since = self.clock() - self.HOUR
        for line in raw.decode("ascii", "replace").splitlines():
            at, _, address = line.partition(" ")
            try:
                when = float(at)
            except ValueError:
                continue
            if when > since and address and " " not in address:
                self._remember(when, address)
        self._rewrite()

    def _remember(self, when: float, address: str) -> None:
        self._seen.append((when, address))
        self._counts[address] += 1
        if len(self._seen) > self.MAX_KEPT:
            self._forget()

    def _forget(self) -> None:
        _, address = self._seen.popleft()
        self._counts[address] -= 1
        if self._counts[address] <= 0:
            del self._counts[address]

    def _expire(self) -> float:
        now = self.clock()
        while self._seen and self._seen[0][0] <= now - self.HOUR:
            self._forget()
        return now

    def __len__(self) -> int:
        """The new keys remembered now, of every address (at most :attr:`MAX_KEPT`)."""
        return len(self._seen)

    def count(self, address: str) -> int:
        self._expire()
        return self._counts[address]

    def refusal(self, address: str) -> str | None:
        """Why ``address`` may not bring a new key now (None: it may)."""
        now = self._expire()
        if self._counts[address] < self.per_hour:
            return None
        oldest = next(t for t, a in self._seen if a == address)
        minutes = max(1, round((oldest + self.HOUR - now) / 60))
        return (f"{self._counts[address]} keys new to this server came from your address "
                f"in the last hour: connect with a key it knows, or try again in "
                f"{minutes} min")

    def add(self, address: str) -> None:
        """A new key from ``address``: remembered, and on file."""
        now = self._expire()
        self._remember(now, address)
        if self.path is None:
            return
        if self._lines > 4 * len(self._seen) + 1000:
            self._rewrite()
            return
        try:
            fd = open_regular(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
            try:
                os.write(fd, f"{now:.0f} {address}\n".encode("ascii", "replace"))
            finally:
                os.close(fd)
            self._lines += 1
        except OSError:
            pass  # the cap holds in memory; the file catches up when it next can

    def _rewrite(self) -> None:
        if self.path is None:
            return
        data = "".join(f"{t:.0f} {a}\n" for t, a in self._seen).encode("ascii", "replace")
        try:
            replace_private(self.path, data)
            self._lines = len(self._seen)
        except OSError:
            pass
