"""The way to a table (#15, #16): start its authority, connect to it, the host's plan.
The command line (``unoduo host`` / ``join`` / ``watch``: :mod:`unoduo_tui.commands`),
the menu's forms, the lobby and a hosted match's resume all go through here.  No
Textual, no CLI: a problem is a ``ValueError``, ``RuntimeError``, ``Refused`` or
``ConnectionError``/``OSError`` for the caller to word.

The socket, the code and the tokens are described in :mod:`.codes`; the messages in
:mod:`.messages`.  Reaching a ``--listen 127.0.0.1:PORT`` table from another machine:
``ssh -L PORT:127.0.0.1:PORT host``, then ``unoduo join CODE --connect 127.0.0.1:PORT``.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
import time
from typing import TYPE_CHECKING, Any

from ..text import clip, player_name
from .codes import load_tokens, save_token

if TYPE_CHECKING:
    from pathlib import Path

    from ..plan import MatchPlan
    from ..store import Saves
    from .messages import Want
    from .remote import RemoteTable

# light at import (``unoduo --help`` imports the commands, which import this): the
# engine, the table and the remote table are imported when used

__all__ = ["host_plan", "plan_to_json", "plan_from_json", "parse_listen", "start_authority",
           "connect", "sit_host", "host_banner"]

#: seconds to wait for the authority's first line
START_SECONDS = 30.0


def host_plan(preset: str, seats: int | None, vs: str | None, name: str | None,
              **options: Any) -> MatchPlan:
    """The hosted match (a :class:`MatchPlan`): the host in seat 0, then ``vs``
    (comma-separated) in order, under the rule ``options`` given (``None``: the
    preset's); ``ValueError`` for one that is not a match."""
    from ..plan import HUMAN, MatchPlan, bot_levels, opponent_label, preset_rules

    others = [v.strip() for v in vs.split(",")] if vs else []
    count = seats or (len(others) + 1 if others else 2)
    if len(others) == 1 and count > 2:
        others = others * (count - 1)
    others += [HUMAN] * (count - 1 - len(others))
    if len(others) != count - 1:
        raise ValueError(f"--vs names {len(others)} seats, but the table has {count - 1} "
                         "besides yours")
    kinds = [HUMAN]
    for level in others:
        if level != HUMAN and level not in bot_levels():
            raise ValueError(f"{clip(level, 40)!r} is not a bot level or 'human' (one of "
                             f"{', '.join((*bot_levels(), HUMAN))})")
        kinds.append(HUMAN if level == HUMAN else f"bot:{level}")
    names = [player_name(name, "Host")]
    for seat, kind in enumerate(kinds[1:], 1):
        names.append(f"Player {seat + 1}" if kind == HUMAN else opponent_label(kind))
    try:
        return MatchPlan(tuple(names), tuple(kinds), preset_rules(preset, count, **options))
    except ValueError as exc:
        raise ValueError(str(exc)) from None


def plan_to_json(plan: MatchPlan) -> str:
    """A :class:`~unoduo_tui.plan.MatchPlan` as the authority's ``--plan`` reads it."""
    return json.dumps({"names": list(plan.names), "kinds": list(plan.kinds),
                       "rules": plan.rules.to_dict(), "seed": plan.seed})


def plan_from_json(text: str) -> MatchPlan:
    from engine import Rules

    from ..plan import MatchPlan

    raw = json.loads(text)
    return MatchPlan(tuple(raw["names"]), tuple(raw["kinds"]), Rules.from_dict(raw["rules"]),
                     raw.get("seed"))


def parse_listen(text: str) -> tuple[str, int]:
    """``127.0.0.1:PORT`` (loopback only: reach it from elsewhere with ``ssh -L``)."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise ValueError(f"--listen takes a loopback address (127.0.0.1:PORT), not {text!r}; "
                         "players elsewhere reach it through ssh -L")
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--listen: {port!r} is not a port number")
    return host, int(port)


def start_authority(data_dir: Path, *what: str, listen: str | None = None,
                    socket_dir: str | None = None, bot_pause: float | None = None,
                    idle: float | None = None, listing: str | None = None,
                    quick: bool = False, away: float | None = None,
                    key: str | None = None) -> dict:
    """Start the table's process in a session of its own; its first line (``code``,
    ``match``, ``seat``, ``token``, ``port``, ``pid``).  ``listing``: a lobby dir to
    list the table in (``quick``: as a quick-match table; :mod:`.lobby`); ``key``: the
    host's store's (:class:`~unoduo_tui.store.Store`).  ``RuntimeError`` when it could
    not.  Under ``unoduo serve`` (:func:`.codes.hall_path`) the table opens in the
    server's table service instead (:mod:`.hall`: listed there, ``pid`` None)."""
    from .codes import hall_path

    if hall_path() is not None and not listen and not socket_dir:
        from . import hall_link

        return hall_link.open_table(data_dir, *what, away=away, idle=idle, key=key)
    argv = [sys.executable, "-m", "unoduo_tui.net.serve", "--data-dir", str(data_dir), *what]
    if key:
        argv += ["--key", key]
    if listen:
        argv += ["--listen", listen]
    if socket_dir:
        argv += ["--socket-dir", str(socket_dir)]
    if bot_pause is not None:
        argv += ["--bot-pause", str(bot_pause)]
    if idle is not None:
        argv += ["--idle", str(idle)]
    if away is not None:
        argv += ["--away", str(away)]
    if listing:
        argv += ["--listing", str(listing)] + (["--quick"] if quick else [])
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + START_SECONDS
    line = b""
    while not line.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([proc.stdout], [], [], left)[0]:
            proc.kill()
            raise RuntimeError("the table did not start in time")
        chunk = os.read(proc.stdout.fileno(), 4096)
        if not chunk:
            break
        line += chunk
    proc.stdout.close()
    # reaped when it ends (a long-lived lobby starts many): a zombie would look alive
    threading.Thread(target=proc.wait, daemon=True, name="unoduo-reap").start()
    try:
        info = json.loads(line or b"{}")
    except ValueError:
        info = {}
    if "code" not in info:
        raise RuntimeError(info.get("error") or "the table did not start")
    return info


def host_banner(code: str, place: str = "terminal") -> str:
    """The line at the top of the host's screen: the code, to read out, and where the
    others join from ``place`` (:data:`..text.words.PLACES`: a lobby lists the table)."""
    how = {"lobby": "others join it in the lobby (j)",
           "web": "others: Join a table… in the menu"}.get(place,
                                                          f"others type: unoduo join {code}")
    return f"Join code: {code}  ·  {how}"


def connect(store: Saves, code: str, *, want: Want, name: str = "",
            tokens: list[str] | None = None, new_seat: bool = True, delay: int = 0,
            tcp: tuple[str, int] | None = None) -> RemoteTable:
    """A :class:`RemoteTable` at ``code`` (the CLI's, the menu's and the lobby's one way
    in).  A player offers ``tokens`` (None: the ones the data dir keeps for ``code``,
    to take a seat of theirs back; one whose connection answers is left to it) and,
    with ``new_seat``, takes a free seat otherwise; the seat's token is kept in the
    data dir.  Raises ``Refused``, ``ConnectionError``/``OSError`` (no table there) or
    ``ValueError`` (a bad code)."""
    from .remote import RemoteTable

    if tokens is None:
        tokens = load_tokens(store.data_dir, code) if want == "play" else []
    table = RemoteTable.connect(code, name=name, want=want, tokens=tokens, new_seat=new_seat,
                                delay=delay, tcp=tcp,
                                vouched=getattr(store, "vouched", None) or None)
    if want == "play" and table.token:
        try:
            save_token(store.data_dir, code, table.token)
        except OSError:
            pass  # a rejoin then needs the host's table file; the game goes on
    return table


def sit_host(store: Saves, info: dict, name: str = "") -> RemoteTable:
    """The host's own seat at the table :func:`start_authority` just started (``info``:
    its first line) — that seat only, never another."""
    return connect(store, info["code"], want="play", name=name, tokens=[info["token"]],
                   new_seat=False)
