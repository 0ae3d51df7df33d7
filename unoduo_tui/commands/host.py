"""``unoduo host``: open a table others join from their terminals (#15).

``unoduo host [--preset P] [--seats N] [--vs LEVEL,…] [--name NAME] [--listen ADDR]``
starts the table's authority as a process of its own (its own session: closing the
host's terminal does not end the table), prints the join code, then opens the host's
screen as a client.  ``--vs`` gives the other seats in order (a bot level or
``human``; default: every other seat human).  ``--detach``: print the code and leave
the table running (no screen).  ``--resume ID``: reopen a hosted match whose
authority died, with its code and seat tokens.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .common import Subparsers, EXIT_FAIL, EXIT_OK, MAX_TARGET, UsageError, add_rule_options, clip, err, \
    need_terminal, open_store, open_table, print_code, rule_options, up_to

if TYPE_CHECKING:
    from ..store import Store

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    host = sub.add_parser("host", parents=[common],
                          help="open a table others join from their terminals")
    host.add_argument("--preset", choices=("duo", "classic"), default="duo")
    host.add_argument("--seats", type=int, help="players (classic: 2–10; duo: 2)")
    host.add_argument("--vs", metavar="LEVEL,…",
                      help="the other seats in order: a bot level or 'human' (default: human)")
    host.add_argument("--name", help="your name")
    host.add_argument("--listen", metavar="127.0.0.1:PORT",
                      help="also listen on loopback TCP (reach it with ssh -L)")
    host.add_argument("--resume", metavar="ID", help="reopen a hosted match whose table ended")
    host.add_argument("--idle", type=float, metavar="MINUTES",
                      help="end the table after this many minutes with nobody connected "
                           "(default 30; 0: never); unoduo resume ID brings it back")
    host.add_argument("--away", type=float, metavar="MINUTES",
                      help="minutes a player may be away before the others can hand their "
                           "seat to a bot until they are back (default 3)")
    host.add_argument("--detach", action="store_true",
                      help="print the code and leave the table running, without a screen")
    host.add_argument("--target", type=up_to(MAX_TARGET),
                      help="points that end the match (200; classic 500)")
    add_rule_options(host)
    host.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..net.client import host_plan, parse_listen, plan_to_json

    store = open_store(args)
    if args.listen:
        try:
            parse_listen(args.listen)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    if args.resume:
        what: tuple[str, ...] = ("--resume", args.resume)
    else:
        try:
            plan = host_plan(args.preset, args.seats, args.vs, args.name, **rule_options(args))
        except ValueError as exc:
            raise UsageError(clip(exc, 200)) from None
        what = ("--plan", plan_to_json(plan))
    if args.idle is not None and not 0 <= args.idle <= 7 * 24 * 60:
        raise UsageError("--idle is a number of minutes from 0 (never) to a week")
    if args.away is not None and not 0 <= args.away <= 7 * 24 * 60:
        raise UsageError("--away is a number of minutes from 0 (at once) to a week")
    if not args.detach:
        need_terminal()  # before the table starts: a bad terminal is a usage error
    return _run_host(store, what, listen=args.listen, detach=args.detach,
                     name=args.name or "", idle=args.idle, away=args.away)


def _run_host(store: Store, what: tuple[str, ...], *, listen: str | None, detach: bool,
              name: str, idle: float | None = None, away: float | None = None) -> int:
    from ..net.client import host_banner, start_authority

    try:
        info = start_authority(store.data_dir, *what, listen=listen, idle=idle, away=away,
                               key=store.key)
    except RuntimeError as exc:
        err(f"cannot open the table: {clip(exc, 300)}")
        return EXIT_FAIL
    print_code(info)
    if detach or info.get("seat") is None:
        return EXIT_OK
    return open_table(store, info["code"], want="play", name=name, tokens=[info["token"]],
                 new_seat=False, banner=host_banner(info["code"]))
