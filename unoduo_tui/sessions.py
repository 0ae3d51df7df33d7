"""One player's app, told everything it would otherwise take from its process.

A game process of its own (``unoduo lobby`` on a pty, the old ``unoduo serve``) reads
who it is and what terminal it has from its environment: ``USER`` / ``LOGNAME`` (the
name a new match gives "you"), ``UNODUO_KEY`` (the key shown in the lobby),
``TERM`` / ``COLORTERM`` (the colours, the default theme), its ``--data-dir`` and
lobby dir.  Many apps in one process (``unoduo serve --workers N``) share one
environment, so each gets a :class:`SessionConfig` instead, and nothing an app
does at run time reads ``os.environ`` for those: :func:`session_app` builds the app
from the config alone, and the ``unoduo lobby`` command builds the config from its
arguments and environment at its edge (:meth:`SessionConfig.from_environment`).

What stays per process, and is the same for every session of one server: the
socket dir of the tables (``UNODUO_SOCKET_DIR``) and the lobby dir's default — a
worker is given those by the server that starts it, as a child process was.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    from .app import UnoDuoApp

__all__ = ["SessionConfig", "session_app", "DEFAULT_TERM"]

#: the terminal type when a client names none usable
DEFAULT_TERM = "xterm-256color"


@dataclass(frozen=True)
class SessionConfig:
    """One player's session: ``data_dir`` (their saves, settings and table tokens),
    ``name`` (shown in the lobby; "you" in a new match), ``lobby_dir`` (the listing
    and the quick-match queue every lobby of this server shares), ``key`` (their SSH
    key's fingerprint, or None) and their terminal: ``term`` and ``colorterm`` (as
    checked by the server: only ``truecolor`` / ``24bit``, or None)."""

    data_dir: Path
    name: str
    lobby_dir: Path
    key: str | None = None
    term: str = DEFAULT_TERM
    colorterm: str | None = None
    #: the server's signature for ``key`` (:mod:`~unoduo_tui.net.vouch`; a game process
    #: of its own has it in its environment instead)
    proof: str | None = None

    @classmethod
    def from_environment(cls, data_dir: Path, name: str, lobby_dir: Path,
                         environ: Mapping[str, str] = os.environ) -> "SessionConfig":
        """The config of a game process of its own: the key and terminal from its
        environment (``UNODUO_KEY``, ``TERM``, ``COLORTERM``)."""
        return cls(Path(data_dir), name, Path(lobby_dir), environ.get("UNODUO_KEY") or None,
                   environ.get("TERM") or DEFAULT_TERM, environ.get("COLORTERM") or None)

    def terminal(self) -> dict[str, str]:
        """The terminal's variables, as Rich and the app read them."""
        env = {"TERM": self.term}
        if self.colorterm:
            env["COLORTERM"] = self.colorterm
        return env


def session_app(config: SessionConfig, **options: Any) -> UnoDuoApp:
    """The lobby app of ``config``'s player: their store, their name and key, their
    terminal's colours (``options`` go to the app: ``handle_signals``…)."""
    from .apps import lobby_app
    from .screens.lobby import LobbyPlace
    from .storage import saves_for

    place = LobbyPlace(config.lobby_dir, config.name, config.key)
    store = saves_for(config.data_dir, config.key)
    if config.key and config.proof:
        store.vouched = {"key": config.key, "proof": config.proof}
    return lobby_app(store, place, terminal=config.terminal(), **options)
