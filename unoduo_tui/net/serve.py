"""The authority's process: ``python -m unoduo_tui.net.serve``.

``unoduo host`` starts it in a session of its own (closing the host's terminal does
not end the table) and reads the one JSON line it prints on stdout —
``{"code", "match", "socket", "seat", "token", "port", "pid"}`` or ``{"error"}`` — then
connects to it as the host's client.  The process ends when the match is over and no
player is connected, or on SIGTERM / SIGINT (the save file is closed, its lock and
the socket released).

``--listing LOBBY_DIR`` (and ``--quick``) lists the table in a lobby
(:mod:`.lobby`): the listing is written before the first line, rewritten whenever who
is seated changes, and removed when the table closes.

``--plan JSON`` starts a new match (:meth:`MatchPlan` as JSON: names, kinds, rules,
seed); ``--resume ID`` reopens a saved one and takes back its code and seat tokens
from its table file (:mod:`.codes`), or makes a new code when it has none.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import sys
from pathlib import Path

from ..plan import HUMAN
from ..store import Saves, Store
from ..table.local import LocalTable
from ..table.thinking import Thinker
from .authority import AWAY_SECONDS, Authority
from .client import parse_listen, plan_from_json
from .codes import TableFile, new_code, new_token, public_part, socket_dir
from .hosted import HOST_FIELD
from .lobby import Listing
from .vouch import Vouches

__all__ = ["main", "open_match"]

#: new codes tried before giving up on a free socket name
CODE_TRIES = 20
#: minutes with no client connected before a table ends by itself (``--idle``)
IDLE_MINUTES = 30.0


def _live(path: Path) -> bool:
    """Someone listens on the socket at ``path``."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(path))
        return True
    except OSError:
        return False
    finally:
        probe.close()


def _claim(folder: Path, code: str) -> Path | None:
    """The socket path for ``code``, freed of a dead table's socket of ours (None: a
    live table or another user holds the name)."""
    path = folder / f"{public_part(code)}.sock"
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return path
    if info.st_uid != os.getuid() or _live(path):
        return None
    path.unlink()
    return path


def open_match(store: Saves, plan: str | None, resume: str | None, bot_pause: float,
               thinker: Thinker | None = None
               ) -> tuple[LocalTable, str, TableFile, dict | None]:
    """A hosted table's match: a new one (``plan``, JSON) or the one saved at
    ``resume``; (its table, match id, table file, the code and tokens kept for it —
    None: new).  ``thinker``: where its bots think (:mod:`..table.thinking`).
    Blocking (the save file); raises what :class:`LocalTable` raises."""
    if resume:
        table = LocalTable.resume(store, resume, bot_pause=bot_pause, thinker=thinker)
    else:
        assert plan is not None
        match_plan = plan_from_json(plan)
        host = next((s for s, kind in enumerate(match_plan.kinds) if kind == HUMAN), None)
        # the header says whose seat is the host's: every other human seat plays from
        # elsewhere, and nothing opened here shows it (:mod:`.hosted`)
        table = LocalTable.start(store, match_plan, bot_pause=bot_pause, thinker=thinker,
                                 extra=None if host is None else {HOST_FIELD: host})
    match_id = table.handle.id if table.handle is not None else "unsaved"
    record = TableFile(store.data_dir, match_id)
    return table, match_id, record, record.load() if resume else None


async def _run(args: argparse.Namespace, out) -> int:
    store = Store(args.data_dir, args.key or None)
    table, match_id, record, kept = open_match(store, args.plan, args.resume, args.bot_pause)
    folder = socket_dir(args.socket_dir)
    code, path = None, None
    if kept is not None:
        code, path = kept["code"], _claim(folder, kept["code"])
        if path is None:
            raise ValueError(f"the socket for {code} is in use: is the table running already?")
    else:
        for _ in range(CODE_TRIES):
            code = new_code()
            path = _claim(folder, code)
            if path is not None:
                break
        else:
            raise ValueError(f"no free table name in {folder}")
    assert code is not None and path is not None
    listing = (Listing(args.listing, code, match_id, table.preset, args.quick)
               if args.listing else None)
    authority = Authority(table, code, tokens=kept["tokens"] if kept else None,
                          names=kept["names"] if kept else None,
                          on_seats=lambda tokens, names: record.save(code, tokens, names),
                          idle=args.idle * 60 if args.idle > 0 else None,
                          on_presence=listing.update if listing else None,
                          vouches=Vouches.from_environment(),
                          away=args.away * 60)
    host_seat = next(iter(authority.seating.humans), None)
    if host_seat is not None and host_seat not in authority.seating.tokens:
        authority.seating.tokens[host_seat] = new_token()  # the host's own seat, named by --name
    host_token = authority.seating.tokens.get(host_seat) if host_seat is not None else None
    record.save(code, authority.seating.tokens, authority.seating.names)
    tcp = parse_listen(args.listen) if args.listen else None
    await authority.start(str(path), tcp)
    if listing is not None:
        listing.update(authority)  # listed before the host hears the code
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(sig, authority.finished.set)
    out.write(json.dumps({"code": code, "match": match_id, "socket": str(path),
                          "seat": host_seat, "token": host_token,
                          "port": authority.tcp_port, "pid": os.getpid()}) + "\n")
    out.flush()
    _quiet()  # the host's CLI has read its line and gone: nothing more goes there
    try:
        await authority.finished.wait()
    finally:
        if listing is not None:
            listing.remove()
        await authority.close()
        try:
            if os.lstat(path).st_uid == os.getuid():
                path.unlink()
        except OSError:
            pass
    return 0


def _quiet() -> None:
    """stdout and stderr to /dev/null (a closed pipe must not end the table)."""
    null = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):
        os.dup2(null, fd)
    os.close(null)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m unoduo_tui.net.serve")
    parser.add_argument("--data-dir")
    parser.add_argument("--socket-dir")
    parser.add_argument("--listen")
    parser.add_argument("--bot-pause", type=float, default=0.6)
    parser.add_argument("--idle", type=float, default=IDLE_MINUTES,
                        help="minutes with nobody connected before the table ends (0: never)")
    parser.add_argument("--away", type=float, default=AWAY_SECONDS / 60,
                        help="minutes a player is away before the others may hand their "
                             "seat to a bot")
    parser.add_argument("--listing", metavar="LOBBY_DIR",
                        help="list the table in this lobby dir while it is open (.lobby)")
    parser.add_argument("--key", metavar="FINGERPRINT",
                        help="under unoduo serve: the SSH key the host plays as (the "
                        "record counts the match in the server's index)")
    parser.add_argument("--quick", action="store_true",
                        help="listed as a quick-match table (with --listing)")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--plan")
    what.add_argument("--resume")
    args = parser.parse_args(argv)
    out = sys.stdout
    try:
        return asyncio.run(_run(args, out))
    except Exception as exc:  # told to the host's CLI, which prints it
        out.write(json.dumps({"error": str(exc) or type(exc).__name__}) + "\n")
        out.flush()
        return 1


if __name__ == "__main__":
    sys.exit(main())
