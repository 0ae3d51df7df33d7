"""The ``unoduo serve`` sub-command: its options and its run.  Light at import
(``unoduo --help`` builds the parser): asyncssh is imported when it runs."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from .common import Subparsers, EXIT_OK, UsageError, clip

__all__ = ["add_parser", "run"]

_MAX = {"connections": 10_000, "per_address": 10_000, "per_key": 100, "new_keys": 10_000,
        "idle": 24 * 60, "workers": 64}


def _whole(limit: int, zero: bool = False):
    def parse(text: str) -> int:
        try:
            value = int(text.strip()) if len(text.strip()) <= 9 else -1
        except ValueError:
            value = -1
        if not (0 if zero else 1) <= value <= limit:
            raise argparse.ArgumentTypeError(f"{clip(text, 20)!r}: a whole number from "
                                             f"{0 if zero else 1} to {limit:,}")
        return value
    return parse


def add_parser(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    from ..ssh.limits import Limits

    d = Limits()
    serve = sub.add_parser(
        "serve", parents=[common], help="run an SSH server: anyone with ssh plays",
        description="Run the game as an SSH server: players connect with "
                    "'ssh -p PORT NAME@HOST' and their SSH key is who they are (no "
                    "accounts, no passwords). --data-dir is the server's folder (default: "
                    "the user data dir + /serve): its host key, each player's saves.")
    serve.add_argument("--port", type=_whole(65535, zero=True), default=2222,
                       help="the TCP port (default 2222; 0: any free one)")
    serve.add_argument("--listen", metavar="ADDR", default="127.0.0.1",
                       help="the address to listen on (default 127.0.0.1: this machine "
                            "only; 0.0.0.0 opens the game to the network)")
    serve.add_argument("--host-key", metavar="PATH",
                       help="the server's private key (default: host_key in the data "
                            "dir; made on first start, mode 0600)")
    serve.add_argument("--max-connections", type=_whole(_MAX["connections"]),
                       metavar="N", default=d.max_connections,
                       help=f"players at once, in all (default {d.max_connections})")
    serve.add_argument("--per-address", type=_whole(_MAX["per_address"]), metavar="N",
                       default=d.per_address,
                       help=f"players at once from one address (an IPv6 address: its "
                            f"/64; default {d.per_address})")
    serve.add_argument("--per-key", type=_whole(_MAX["per_key"]), metavar="N",
                       default=d.per_key,
                       help=f"players at once with one key (default {d.per_key})")
    serve.add_argument("--new-keys", type=_whole(_MAX["new_keys"]), metavar="N",
                       default=d.new_keys_per_hour,
                       help="keys this server has never seen that one address may bring "
                            f"in an hour (default {d.new_keys_per_hour}; kept across "
                            "restarts)")
    serve.add_argument("--idle", type=_whole(_MAX["idle"], zero=True), metavar="MINUTES",
                       default=int(d.idle_seconds // 60),
                       help=f"close a connection after this many minutes without input "
                            f"(default {int(d.idle_seconds // 60)}; 0: never)")
    serve.add_argument("--workers", type=_whole(_MAX["workers"], zero=True), metavar="N",
                       default=None,
                       help="run the games in N worker processes, many players each "
                            f"(default: one per core, {default_workers()} here); 0: a "
                            "process per connection")
    serve.add_argument("--child-command", help=argparse.SUPPRESS)  # the transport bench
    serve.set_defaults(run=run)


def default_workers() -> int:
    """Worker processes when ``--workers`` is not given: one per core (each runs many
    players' apps on one event loop; the bots think beside each, in a process)."""
    return max(1, min(os.cpu_count() or 1, _MAX["workers"]))


def run(args: argparse.Namespace) -> int:
    """``unoduo serve`` (see :mod:`unoduo_tui.ssh.server`); a bad folder or host key is
    one line and exit status 2."""
    from dataclasses import replace

    from ..ssh.limits import Limits
    from ..ssh.server import HostKeyError, run_serve, serve_dir_of

    limits = replace(Limits(), max_connections=args.max_connections,
                     per_address=args.per_address, per_key=args.per_key,
                     new_keys_per_hour=args.new_keys, idle_seconds=args.idle * 60.0)
    try:
        serve_dir = serve_dir_of(args.data_dir)
        return run_serve(serve_dir, args.listen, args.port,
                         Path(args.host_key).expanduser() if args.host_key else None,
                         limits, args.child_command,
                         default_workers() if args.workers is None else args.workers
                         ) or EXIT_OK
    except HostKeyError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:  # the folder, the address in use …
        raise UsageError(f"cannot serve: {clip(getattr(exc, 'strerror', None) or exc, 200)}"
                         ) from None
