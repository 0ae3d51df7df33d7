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
    cluster = serve.add_argument_group(
        "a cluster (README: Run a cluster)",
        "nodes behind a TCP balancer, sharing a PostgreSQL database (--store)")
    cluster.add_argument("--proxy-protocol", action="store_true",
                         help="read the PROXY v2 header a balancer (HAProxy's send-proxy-v2) "
                              "sends first: the limits and the log see the real client; "
                              "needs --proxy-from")
    cluster.add_argument("--proxy-from", metavar="ADDR",
                         help="the balancers' addresses or networks, comma-separated: a "
                              "connection from anywhere else, or without the header, is "
                              "refused")
    cluster.add_argument("--health", metavar="ADDR:PORT",
                         help="answer a balancer's health check here (HTTP: 200 while this "
                              "node takes players, 503 while it drains or has no database)")
    cluster.add_argument("--peer", metavar="ADDR:PORT",
                         help="where the other nodes join the tables this node holds, on "
                              "the cluster's private network (default: the --listen "
                              "address, any free port; needed with --listen 0.0.0.0)")
    cluster.add_argument("--drain", action="store_true",
                         help="tell the server running in --data-dir to drain (as SIGUSR1 "
                              "does): it takes no new players, tells each one playing to "
                              "reconnect (their match resumes on another node), and stops")
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

    from ..storage import store_url

    limits = replace(Limits(), max_connections=args.max_connections,
                     per_address=args.per_address, per_key=args.per_key,
                     new_keys_per_hour=args.new_keys, idle_seconds=args.idle * 60.0)
    serve_dir = serve_dir_of(args.data_dir)
    if args.drain:
        return _drain(serve_dir)
    try:
        store = store_url(args.store)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    proxy_from = None
    if args.proxy_protocol != (args.proxy_from is not None):
        raise UsageError("--proxy-protocol and --proxy-from go together: the header is "
                         "believed only from the balancers named")
    if args.proxy_from is not None:
        from ..ssh.proxy import allowed_sources

        try:
            proxy_from = allowed_sources(args.proxy_from)
        except ValueError as exc:
            raise UsageError(f"--proxy-from: {clip(exc, 100)}") from None
    health = _address(args.health, "--health") if args.health else None
    peer = _address(args.peer, "--peer") if args.peer else None
    if store is None and peer is not None:
        raise UsageError("--peer is for the nodes of a cluster: it needs --store")
    if store is not None and peer is None and args.listen.strip("[]") in ("0.0.0.0", "::",
                                                                          ""):
        raise UsageError("--listen on every address: give --peer ADDR:PORT, this node's "
                         "address on the cluster's private network")
    if peer is not None and peer[0] in ("0.0.0.0", "::"):
        raise UsageError("--peer names this node's own address (the other nodes connect "
                         "to it), not every address")
    try:
        return run_serve(serve_dir, args.listen, args.port,
                         Path(args.host_key).expanduser() if args.host_key else None,
                         limits, args.child_command,
                         default_workers() if args.workers is None else args.workers,
                         store=store, proxy_from=proxy_from, health=health, peer=peer
                         ) or EXIT_OK
    except HostKeyError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:  # the folder, the address in use …
        raise UsageError(f"cannot serve: {clip(getattr(exc, 'strerror', None) or exc, 200)}"
                         ) from None


def _address(text: str, option: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    try:
        number = int(port)
    except ValueError:
        number = -1
    if not host or not 0 <= number <= 65535:
        raise UsageError(f"{option} takes ADDR:PORT, such as 127.0.0.1:8022")
    return host.strip("[]"), number


def _drain(serve_dir: Path) -> int:
    """``serve --drain``: SIGUSR1 to the server whose pid is in the serve dir."""
    import os
    import signal

    from ..ssh.server import PID_FILE

    try:
        pid = int((serve_dir / PID_FILE).read_text().split()[0])
        os.kill(pid, signal.SIGUSR1)
    except (OSError, ValueError, IndexError):
        raise UsageError(f"no unoduo serve is running in {clip(serve_dir, 100)}") from None
    print(f"unoduo serve (pid {pid}) is draining")
    return EXIT_OK
