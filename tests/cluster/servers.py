"""Real servers for the cluster tests (#27): PostgreSQL and HAProxy, as Debian installs
them, started on a temporary folder and a free port of 127.0.0.1 and stopped again.

PostgreSQL's ``initdb`` refuses to run as root: as root the server runs as the
``postgres`` user (Debian's package makes it), its folder handed to that user; as
anyone else, as that user.  Every command that stops it runs with ``cwd="/"`` (the
postgres user may not enter the test's working directory).  What is missing is said
by :func:`missing`: the tests that need it skip with that reason, and only then.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

from ..waiting import until

__all__ = ["pg_bin", "missing", "Postgres", "HAProxy", "free_port", "HAPROXY"]

HAPROXY = shutil.which("haproxy") or ("/usr/sbin/haproxy" if os.path.exists("/usr/sbin/haproxy")
                                      else None)


def pg_bin() -> Path | None:
    """The folder of the newest PostgreSQL's server programs (Debian:
    /usr/lib/postgresql/N/bin), or of ``initdb`` on the PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def _runs_as() -> str | None:
    """The user PostgreSQL runs as: ``postgres`` for root, else ourselves (None: root
    and no postgres user)."""
    if os.getuid() != 0:
        return None
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        return "missing"
    return "postgres"


def missing(haproxy: bool = False) -> str | None:
    """Why these tests cannot run here (None: they can)."""
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        return "psycopg / psycopg_pool are not installed (pip install -e '.[test]')"
    if pg_bin() is None:
        return "PostgreSQL's initdb and pg_ctl are not installed (apt-get install postgresql)"
    if _runs_as() == "missing":
        return "running as root and there is no postgres user to run PostgreSQL as"
    if haproxy and HAPROXY is None:
        return "haproxy is not installed (apt-get install haproxy)"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Postgres:
    """One PostgreSQL server: :meth:`start`, :meth:`url` of a database, :meth:`new_db`,
    :meth:`restart`, :meth:`stop`."""

    def __init__(self, fsync: bool = False) -> None:
        bindir = pg_bin()
        #: the tests' server skips fsync (it dies with the test); a benchmark's does not
        self.options = (f"-c listen_addresses=127.0.0.1 -c unix_socket_directories='' "
                        f"-c fsync={'on' if fsync else 'off'} -c max_connections=200")
        assert bindir is not None
        self.bin = bindir
        self.user = _runs_as()
        self.root = Path(tempfile.mkdtemp(prefix="udpg", dir="/tmp"))
        self.data = self.root / "data"
        self.log = self.root / "log"
        self.port = 0
        self._n = 0
        if self.user is not None:
            shutil.chown(self.root, self.user)

    def _run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.bin / argv[0]), *argv[1:]], cwd="/", user=self.user,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              check=check, timeout=120)

    def start(self) -> "Postgres":
        if not self.data.exists():
            self._run("initdb", "-D", str(self.data), "-U", "unoduo", "--auth=trust",
                      "-E", "UTF8", "--no-sync")
        for _ in range(5):
            self.port = free_port()
            done = self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w",
                             "-t", "60", "-o", f"-p {self.port} {self.options}", "start",
                             check=False)
            if done.returncode == 0:
                return self
        raise RuntimeError(f"PostgreSQL did not start: {done.stderr}\n"
                           f"{self.log.read_text() if self.log.exists() else ''}")

    def url(self, db: str = "postgres") -> str:
        return f"postgresql://unoduo@127.0.0.1:{self.port}/{db}"

    def new_db(self) -> str:
        """A new, empty database's URL (a database per test: cheap, and isolated)."""
        import psycopg

        self._n += 1
        name = f"t{os.getpid()}_{self._n}_{os.urandom(2).hex()}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def halt(self) -> None:
        """Stop it (fast: every connection cut)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start it again, on the same port."""
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60",
                  "-o", f"-p {self.port} {self.options}", "start")

    def stop(self) -> None:
        if self.data.exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop",
                      check=False)
        shutil.rmtree(self.root, ignore_errors=True)


class HAProxy:
    """HAProxy in TCP mode on 127.0.0.1 in front of ``backends`` (host, port, health
    port), sending the PROXY v2 header, from ``source`` (the balancer's own address)."""

    def __init__(self, backends: list[tuple[str, int, int]], source: str = "127.0.0.1") -> None:
        assert HAPROXY is not None
        self.root = Path(tempfile.mkdtemp(prefix="udha", dir="/tmp"))
        self.port = free_port()
        self.cfg = self.root / "haproxy.cfg"
        self.stats = self.root / "stats.sock"
        servers = "\n".join(
            f"    server node{i} {h}:{p} send-proxy-v2 source {source} check port {health} "
            f"inter 500 fall 1 rise 1" for i, (h, p, health) in enumerate(backends))
        self.cfg.write_text(f"""global
    maxconn 2000
    stats socket {self.stats} mode 600 level user
defaults
    mode tcp
    timeout connect 2s
    timeout client 1h
    timeout server 1h
    retries 3
    option redispatch
frontend ssh
    bind 127.0.0.1:{self.port}
    default_backend nodes
backend nodes
    balance roundrobin
    option httpchk GET /
{servers}
""")
        self.proc: subprocess.Popen | None = None

    def start(self) -> "HAProxy":
        self.proc = subprocess.Popen([HAPROXY, "-db", "-f", str(self.cfg)],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=open(self.root / "log", "wb"))

        def listening() -> bool:
            if self.proc.poll() is not None:
                raise RuntimeError(f"haproxy exited: {(self.root / 'log').read_text()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
            except OSError:
                return False
            return True
        until(listening, "haproxy to listen", 30, poll=0.05)
        return self

    def up(self) -> set[str]:
        """The servers HAProxy sends connections to now (its stats socket: ``node0``
        …), by what its health checks found."""
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(5)
            s.connect(str(self.stats))
            s.sendall(b"show stat\n")
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        rows = [line.split(",") for line in data.decode().splitlines() if line and
                not line.startswith("#")]
        return {r[1] for r in rows if len(r) > 17 and r[0] == "nodes" and
                r[1].startswith("node") and r[17] == "UP"}

    def wait_up(self, count: int, timeout: float = 60) -> None:
        """Until HAProxy sends connections to ``count`` servers (checks every 0.5 s)."""
        until(lambda: len(self.up()) >= count,
              lambda: f"haproxy to see {count} up (only {sorted(self.up())})", timeout,
              poll=0.1)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.root, ignore_errors=True)
