"""What an SSH player costs the server: ``python -m tests.bench.ssh_transport``.

Starts ``unoduo serve`` in this process (127.0.0.1, a free port, a temp serve dir),
connects ``--connections`` asyncssh clients at once, each with a key and a loopback
address of its own (:func:`.bench.source_address`) and a pty, and prints:

- the time from connecting to the first screen (the lobby's "Signed in as"; with
  ``--child cat``, the first byte of the stand-in's banner);
- a keystroke's round trip through the server and the pty (``--child cat`` echoes it
  back: the transport alone; the lobby is not measured this way, its redraws vary);
- memory: the server's RSS, and the children's (per connection).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

from tests.bench.ssh import source_address
from unoduo_tui.ssh.limits import Limits
from unoduo_tui.ssh.server import GameServer

#: a stand-in game for the transport alone: says hello, then echoes every byte raw
_CAT = [sys.executable, "-c",
        "import os, tty; tty.setraw(0); os.write(1, b'ready\\n')\n"
        "while True:\n"
        "    b = os.read(0, 4096)\n"
        "    if not b: break\n"
        "    os.write(1, b)"]


class _Client(asyncssh.SSHClientSession):
    def __init__(self) -> None:
        self.data = bytearray()
        self.changed = asyncio.Event()

    def data_received(self, data: bytes, datatype) -> None:
        self.data += data
        self.changed.set()

    async def until(self, needle: bytes, start: int = 0, timeout: float = 60) -> None:
        async def wait() -> None:
            while needle not in self.data[start:]:
                self.changed.clear()
                await self.changed.wait()
        await asyncio.wait_for(wait(), timeout)


def _rss_kib(pid: int | str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


async def _one(host: str, port: int, ready: bytes, echoes: int,
               number: int) -> tuple[float, list[float]]:
    key = asyncssh.generate_private_key("ssh-ed25519")
    start = time.perf_counter()
    conn = await asyncssh.connect(host, port, username="bench", client_keys=[key],
                                  known_hosts=None, agent_path=None, encoding=None,
                                  local_addr=(source_address(number, 1), 0))
    chan, client = await conn.create_session(_Client, term_type="xterm-256color",
                                             term_size=(80, 24), encoding=None)
    assert isinstance(client, _Client)
    await client.until(ready)
    first = time.perf_counter() - start
    trips = []
    for i in range(echoes):
        mark = len(client.data)
        token = f"<{i}>".encode()
        t = time.perf_counter()
        chan.write(token)
        await client.until(token, mark)
        trips.append(time.perf_counter() - t)
    return first, trips


async def _bench(connections: int, child: str, echoes: int) -> None:
    root = Path(tempfile.mkdtemp(prefix="udb", dir="/tmp"))
    try:
        server = GameServer(root / "serve", Limits(per_key=connections),
                            child_command=_CAT if child == "cat" else None)
        host, port = await server.start("127.0.0.1", 0, root / "serve" / "host_key")
        ready = b"ready" if child == "cat" else b"Signed in as"
        results = await asyncio.gather(*(_one(host, port, ready,
                                              echoes if child == "cat" else 0, n)
                                         for n in range(connections)))
        firsts = sorted(r[0] for r in results)
        trips = sorted(t for r in results for t in r[1])
        children = [s.proc.pid for s in server.running if s.proc is not None]
        child_rss = [_rss_kib(pid) for pid in children]
        print(f"{connections} connections, child {child}:")
        print(f"  connect to first screen: median {statistics.median(firsts) * 1000:.0f} ms, "
              f"slowest {firsts[-1] * 1000:.0f} ms")
        if trips:
            p95 = trips[int(len(trips) * 0.95)]
            print(f"  keystroke round trip: median {statistics.median(trips) * 1000:.2f} ms, "
                  f"p95 {p95 * 1000:.2f} ms ({len(trips)} trips)")
        print(f"  memory: server {_rss_kib('self') // 1024} MiB; children "
              f"{sum(child_rss) // 1024} MiB in all, "
              f"{sum(child_rss) // max(1, len(child_rss)) // 1024} MiB each")
        await server.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.ssh_transport")
    parser.add_argument("--connections", type=int, default=10)
    parser.add_argument("--child", choices=("lobby", "cat"), default="lobby",
                        help="the real lobby, or a raw echo (the transport alone)")
    parser.add_argument("--echoes", type=int, default=100,
                        help="keystroke round trips per connection (--child cat)")
    args = parser.parse_args(argv)
    asyncio.run(_bench(args.connections, args.child, args.echoes))


if __name__ == "__main__":
    main()
