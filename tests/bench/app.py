"""How light the app is: ``python -m tests.bench.app [--runs 5]``.

Measured side by side, each the median of ``--runs``:

- *resume*: ``Store.open`` of a saved 10,000-entry match (decode + replay + lock);
- *start*: from launching ``unoduo play`` in a pty (80×24) to its first frame
  showing the table, next to a bare Textual app composing as many widgets (both from
  compiled bytecode, see :func:`start_seconds`);
- *keypress*: from writing ← / → to the pty to the first byte of the redraw;
- *memory*: the peak RSS of the app over a long match played by keys (``--turns``, one
  match with an unreachable target so every key lands on the table; the bots move
  without their pause so 800 turns take a minute or two, not a quarter of an hour).

The table figures come side by side for each of ``--tables`` (default both): UNO
Duo against one bot (``unoduo play --vs random``) and classic UNO at
``--classic-seats`` seats (default 10: ``unoduo play --preset classic --seats 10
--vs random``, nine bots between two of your turns).  Issue #14's targets at 10
seats: start ≤ 1.3× the bare app, keypress ≤ 16 ms median, peak RSS < 100 MB.

With ``--decode`` (alone: ``python -m tests.bench.app --decode [--decisions
100000,1000000]``), the save file at scale instead: for a finished random-vs-random
match of each size, the file's size and the seconds of *decode* (``savefile.decode``),
*verify* (``Store.open`` read-only: read, decode, replay every move, as ``unoduo
verify``), *summary* (``Store.summary``: a finished file's two ends) and *list*
(``Store.summaries`` of the folder holding it).

A benchmark, not a test: nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import os
import pty
import resource
import select
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

from engine import Match, Rules, bots

from unoduo_tui.store import Seat, Store

BARE_APP = textwrap.dedent("""
    import sys
    from textual.app import App
    from textual.widgets import Static
    N = int(sys.argv[1])
    class Bare(App):
        def compose(self):
            for i in range(N):
                yield Static(f"widget {i} Draft")
    Bare().run()
""")


def _ten_thousand(store: Store) -> str:
    seed = 0
    while True:
        m = Match.new(Rules(target=5000), seed=seed)
        players = [bots.make("random", seed=1), bots.make("random", seed=2)]
        handle = store.new_match(m, (Seat("A", "human"), Seat("B", "bot:random")),
                                 durable=False)
        while not m.over and m.log_length < 10_000:
            m.apply(players[m.to_act].choose(m.view(m.to_act)))
            handle.sync(m)
        handle.close()
        if m.log_length >= 10_000:
            return handle.id
        seed += 1


def resume_ms(runs: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(tmp)
        match_id = _ten_thousand(store)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            loaded = store.open(match_id)
            times.append(time.perf_counter() - start)
            assert loaded.handle is not None  # opened for writing
            loaded.handle.close()
    return statistics.median(times) * 1000


class _Pty:
    """A child process on a pty of 80×24, as over SSH."""

    def __init__(self, argv: list[str], pycache: str | None = None) -> None:
        self.master, slave = pty.openpty()
        os.set_blocking(self.master, False)
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24",
               "TEXTUAL_ANIMATIONS": "none"}
        if pycache is not None:  # bytecode written and reused there, as in an install
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = pycache
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                                     start_new_session=True)
        os.close(slave)

    def read_until(self, needle: bytes, timeout: float = 20.0) -> float:
        """Seconds from launch until ``needle`` has been written."""
        seen = b""
        end = time.perf_counter() + timeout
        while time.perf_counter() < end:
            ready, _, _ = select.select([self.master], [], [], 0.01)
            if ready:
                try:
                    seen += os.read(self.master, 65536)
                except OSError:
                    break
                if needle in seen:
                    return time.perf_counter() - self.started
        raise TimeoutError(f"no {needle!r} within {timeout} s")

    def drain(self, quiet: float = 0.15) -> None:
        while True:
            ready, _, _ = select.select([self.master], [], [], quiet)
            if not ready:
                return
            try:
                if not os.read(self.master, 65536):
                    return
            except OSError:
                return

    def answer(self, key: bytes, wait: float = 0.05, quiet: float = 0.02) -> None:
        """Write ``key`` and read the app's answer: nothing within ``wait`` (a key that
        does nothing now), else until ``quiet`` seconds pass without output."""
        os.write(self.master, key)
        ready, _, _ = select.select([self.master], [], [], wait)
        if ready:
            self.drain(quiet)

    def key_latency(self, key: bytes) -> float:
        self.drain()
        start = time.perf_counter()
        os.write(self.master, key)
        while True:
            ready, _, _ = select.select([self.master], [], [], 2.0)
            if not ready:
                return float("nan")
            os.read(self.master, 65536)
            return time.perf_counter() - start

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)


class Table:
    """A table to measure: ``preset`` at ``seats`` seats, you against random bots;
    ``marker``: text its first frame shows (and the bare app's, which prints it too)."""

    def __init__(self, preset: str, seats: int) -> None:
        self.preset, self.seats = preset, seats
        self.marker = b"Draft" if preset == "duo" else b"Your hand"

    @property
    def title(self) -> str:
        return "duo" if self.preset == "duo" else f"{self.preset} {self.seats}"

    def argv(self, data: str) -> list[str]:
        """``unoduo play`` for this table; a target no match reaches, so the keys below
        keep playing one long match."""
        preset = [] if self.preset == "duo" else ["--preset", self.preset,
                                                  "--seats", str(self.seats)]
        return [sys.executable, "-m", "unoduo_tui.cli", "play", *preset, "--vs", "random",
                "--seed", "3", "--target", "100000", "--data-dir", data]

    def plan(self):
        from unoduo_tui.plan import play_plan

        return play_plan(self.preset, self.seats, ("random",), seed=3, target=100_000)


#: the same match as ``Table.argv``, its bots moving at once (``unoduo play`` pauses 0.6 s)
LONG_MATCH = textwrap.dedent("""
    import sys
    from unoduo_tui.app import UnoDuoApp
    from tests.bench.app import Table
    from unoduo_tui.store import Store
    plan = Table(sys.argv[2], int(sys.argv[3])).plan()
    UnoDuoApp(Store(sys.argv[1]), "play", plan=plan, bot_pause=0, handle_signals=True).run()
""")


def _peak_rss_mb(pid: int) -> float:
    """The peak resident set size of the live process ``pid`` (Linux: VmHWM)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def widget_count(table: Table) -> int:
    """How many widgets ``table`` mounts (for the like-for-like bare app)."""
    import asyncio

    from unoduo_tui.app import UnoDuoApp
    from unoduo_tui.table.local import LocalTable

    async def count() -> int:
        with tempfile.TemporaryDirectory() as tmp:
            local = LocalTable.start(Store(tmp), table.plan())
            app = UnoDuoApp(Store(tmp), table=local, bot_pause=0)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                return len(list(app.screen.query("*")))

    return asyncio.run(count())


def start_seconds(runs: int, table: Table) -> tuple[float, float, int]:
    """Medians of ``runs`` launches of each, after an untimed one that compiles the
    bytecode: an installed app starts from ``.pyc`` files, and with
    ``PYTHONDONTWRITEBYTECODE`` set (or a stale ``__pycache__``) a checkout would compile
    its ~25 modules on every launch while Textual, in site-packages, would not."""
    widgets = widget_count(table)
    ours, bare = [], []
    with tempfile.TemporaryDirectory() as pycache:
        for _run in range(runs + 1):
            with tempfile.TemporaryDirectory() as tmp:
                p = _Pty(table.argv(tmp), pycache)
                try:
                    ours.append(p.read_until(table.marker))
                finally:
                    p.close()
            p = _Pty([sys.executable, "-c", BARE_APP, str(widgets)], pycache)
            try:
                bare.append(p.read_until(b"Draft"))
            finally:
                p.close()
    return statistics.median(ours[1:]), statistics.median(bare[1:]), widgets


def keys_and_memory(turns: int, samples: int, table: Table) -> tuple[float, float, int]:
    """(median ms from a key to the redraw over ``samples`` keys, peak RSS in MB, the
    match's decisions) after ``turns`` turns of play by keys at ``table``."""
    every = max(1, turns // max(1, samples))
    with tempfile.TemporaryDirectory() as tmp:
        p = _Pty([sys.executable, "-c", LONG_MATCH, tmp, table.preset, str(table.seats)])
        latencies = []
        try:
            p.read_until(table.marker, timeout=60.0)
            for i in range(turns):
                if i % every == 0:
                    latencies.append(p.key_latency(b"\x1b[C" if i % 2 else b"\x1b[D"))
                # and play on: keep in the draft, else draw / play what is offered
                for key in (b"k", b"\r", b"d", b"p"):
                    p.answer(key)
            p.drain()
            peak_mb = _peak_rss_mb(p.proc.pid)
        finally:
            p.close()
        if peak_mb != peak_mb:  # no /proc: the largest child so far
            peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        decisions = max((s.actions for s in Store(tmp).summaries()), default=0)
    good = [x for x in latencies if x == x]
    return statistics.median(good) * 1000, peak_mb, decisions


def finished_match(decisions: int, seed: int = 1) -> Match:
    """A finished random-vs-random match of about ``decisions`` decisions: played with an
    unreachable target, then replayed up to the first round ending past ``decisions``
    with that round's top score as the target (the target changes nothing before)."""
    import random

    rng = random.Random(seed)
    m = Match.new(Rules(target=10**12), seed=seed)
    made, rounds, top = 0, 1, 0
    while True:
        m.apply(rng.choice(m.legal_actions()))
        made += 1
        if m.round != rounds:  # a round ended (and the next one's deal is logged)
            rounds = m.round
            if made >= decisions and max(m.scores) > top:
                break
            top = max(m.scores)
    log = m.actions
    while log[-1].is_chance:  # back to the decision that ended the round
        log.pop()
    return Match.replay(Rules(target=max(m.scores)), log, seed=seed)


def decode_figures(decisions: int) -> dict[str, float]:
    """Seconds to decode / verify / summarise / list one finished ``decisions`` match."""
    from engine.savefile import decode

    m = finished_match(decisions)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(tmp)
        with store.new_match(m, (Seat("A", "bot:random"), Seat("B", "bot:random")),
                             durable=False) as handle:
            path = handle.path
        data = path.read_bytes()
        out = {"decisions": sum(1 for e in m.actions if not e.is_chance),
               "mb": len(data) / 1e6}
        start = time.perf_counter()
        decode(data)
        out["decode"] = time.perf_counter() - start
        start = time.perf_counter()
        loaded = store.open(handle.id, read_only=True)
        out["verify"] = time.perf_counter() - start
        assert loaded.match.over and loaded.match.actions == m.actions
        start = time.perf_counter()
        status = store.summary(path).status
        out["summary"] = time.perf_counter() - start
        start = time.perf_counter()
        store.summaries()
        out["list"] = time.perf_counter() - start
        assert status == "finished"
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.app", description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--presses", type=int, default=100,
                        help="key-latency samples, spread over the turns")
    parser.add_argument("--turns", type=int, default=800,
                        help="turns of play for the memory figure")
    parser.add_argument("--tables", default="duo,classic",
                        help="the tables to measure, comma-separated: duo, classic")
    parser.add_argument("--classic-seats", type=int, default=10,
                        help="seats at the classic table (2–10)")
    parser.add_argument("--decode", action="store_true",
                        help="time the save file at scale instead (see --decisions)")
    parser.add_argument("--decisions", default="100000,1000000",
                        help="match sizes for --decode, comma-separated")
    args = parser.parse_args(argv)
    if args.decode:
        for n in (int(x) for x in args.decisions.split(",")):
            f = decode_figures(n)
            print(f"{f['decisions']:>9,} decisions {f['mb']:6.1f} MB   decode {f['decode']:6.2f} s"
                  f"   verify {f['verify']:6.2f} s   summary {f['summary'] * 1000:7.2f} ms"
                  f"   list {f['list'] * 1000:7.2f} ms", flush=True)
        return 0
    tables = [Table("duo", 2) if name == "duo" else Table(name, args.classic_seats)
              for name in args.tables.split(",")]
    resume = resume_ms(args.runs)
    rows: dict[str, list[str]] = {}
    for table in tables:
        ours, bare, widgets = start_seconds(args.runs, table)
        key_ms, peak_mb, decisions = keys_and_memory(args.turns, args.presses, table)
        for label, value in (
                ("start    unoduo play to the first frame", f"{ours * 1000:.1f} ms"),
                ("start    a bare Textual app, as many widgets",
                 f"{bare * 1000:.1f} ms ({widgets})"),
                ("start    ours / bare", f"{ours / bare:.2f}x"),
                ("resume   as a share of the start", f"{resume / (ours * 1000):.1%}"),
                (f"keypress ←/→ to the redraw (median of {args.presses})", f"{key_ms:.1f} ms"),
                (f"memory   peak RSS over {args.turns} turns", f"{peak_mb:.1f} MB"),
                ("memory   actions in the match's log", f"{decisions:,}")):
            rows.setdefault(label, []).append(value)
    print(f"resume   Store.open of a 10,000-entry match   {resume:8.1f} ms")
    print(f"{'':48}" + "".join(f"{t.title:>18}" for t in tables))
    for label, values in rows.items():
        print(f"{label:48}" + "".join(f"{v:>18}" for v in values))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
