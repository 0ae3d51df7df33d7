"""A cluster for the SSH benchmark (#27): ``python -m tests.bench.cluster --nodes 2
[--workers W] [--max-connections N] [--folder DIR]``.

Starts, as its own children (so the benchmark measures the tree: this process, the
nodes and their workers, HAProxy — PostgreSQL's ``pg_ctl`` makes it a daemon, outside
the tree): a PostgreSQL on a temporary folder
and a free port of 127.0.0.1 with ``fsync`` on, ``--nodes`` ``unoduo serve`` nodes
sharing it (one host key, ``--proxy-protocol`` from the balancer's address, health
checks, ``--workers W``), and HAProxy in TCP mode in front of them (round robin,
PROXY v2, from :data:`BALANCER`).  Prints one line like ``unoduo serve``'s, with the
balancer's port and the database's URL, then waits; SIGTERM stops everything."""

from __future__ import annotations

import argparse
import re
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["main", "BALANCER"]

#: where HAProxy connects to the nodes from (the benchmark's players come from
#: 127.0.0.2 … 127.0.0.40)
BALANCER = "127.0.1.1"


def main(argv: list[str] | None = None) -> int:
    import asyncssh

    from ..cluster.servers import HAProxy, Postgres, free_port, missing

    parser = argparse.ArgumentParser(prog="python -m tests.bench.cluster")
    parser.add_argument("--nodes", type=int, default=2)
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--max-connections", type=int, default=200)
    parser.add_argument("--folder", default=None)
    args = parser.parse_args(argv)
    why = missing(haproxy=True)
    if why:
        print(f"cannot start a cluster: {why}", flush=True)
        return 2
    root = Path(args.folder or tempfile.mkdtemp(prefix="unoduo-clusterbench-"))
    host_key = root / "host_key"
    host_key.write_bytes(asyncssh.generate_private_key("ssh-ed25519").export_private_key())
    host_key.chmod(0o600)
    postgres = Postgres(fsync=True).start()
    url = postgres.new_db()
    nodes: list[subprocess.Popen] = []
    haproxy = None
    stop = False

    def stopping(*_: object) -> None:
        nonlocal stop
        stop = True
    signal.signal(signal.SIGTERM, stopping)
    try:
        backends = []
        for n in range(args.nodes):
            health = free_port()
            node = subprocess.Popen(
                [sys.executable, "-m", "unoduo_tui.cli", "serve", "--port", "0",
                 "--data-dir", str(root / f"node{n}"), "--host-key", str(host_key),
                 "--store", url, "--proxy-protocol", "--proxy-from", BALANCER,
                 "--health", f"127.0.0.1:{health}", "--idle", "0",
                 "--max-connections", str(args.max_connections),
                 "--workers", str(args.workers)],
                stdout=subprocess.PIPE, stderr=open(root / f"node{n}.log", "wb"), text=True)
            nodes.append(node)
            assert node.stdout is not None
            found = re.search(r"port (\d+)", node.stdout.readline())
            if not found:
                raise RuntimeError(f"node {n} did not start: {(root / f'node{n}.log').read_text()}")
            backends.append(("127.0.0.1", int(found.group(1)), health))
        haproxy = HAProxy(backends, source=BALANCER).start()
        haproxy.wait_up(args.nodes)
        print(f"cluster of {args.nodes}: listening on 127.0.0.1 port {haproxy.port} "
              f"store {url}", flush=True)
        # until SIGTERM (one that came before the mask went up was noted by ``stopping``)
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
        if not stop:
            signal.sigwait({signal.SIGTERM})
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
        return 0
    finally:
        if haproxy is not None:
            haproxy.stop()
        for node in nodes:
            node.terminate()
        for node in nodes:
            try:
                node.wait(60)
            except subprocess.TimeoutExpired:
                node.kill()
        postgres.stop()
        if not args.folder:
            subprocess.run(["rm", "-rf", str(root)], check=False)


if __name__ == "__main__":
    sys.exit(main())
