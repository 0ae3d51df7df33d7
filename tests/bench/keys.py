"""CPU per key at the table, in one process: ``python -m tests.bench.keys
[--keys 300] [--warmup 45] [--rounds 3] [--profile 25]``.

The game app (UNO Duo against the normal bot, 80×24, its bots moving without their
pause) runs in this process with the SSH server's own driver
(:class:`~unoduo_tui.ssh.driver.ChannelDriver`): every frame is rendered to the escape
sequences a client would be sent (and dropped here), and the keys are the bytes of the
SSH benchmark's script (:data:`tests.bench.ssh.SCRIPT`: keep in the draft, a card
number and Enter, Red for a wild, draw, pass, Enter for a round's end), fed to the
driver's input parser as a client's would be.  After each key the run waits until the
table has nothing to do (the bots have replied) and the screen has taken and drawn the
table's last update — so a key's CPU is everything it causes: the key, the table's
decision and its save, the bots' replies, every redraw.

Printed: the process's CPU time (``time.process_time``: every thread, the bots' too)
per script key — the median of ``--rounds`` rounds of ``--keys`` keys, after
``--warmup`` untimed keys — and of it the bots' thinking (their thread's own CPU
time); with ``--profile N``, a further round under :mod:`cProfile` (the event loop's
thread: not the bots') and its top ``N`` functions by own time, by cumulative time,
and this project's own by cumulative time.

``--dialogs N`` also measures, at the table once the rounds are played, the CPU of a key
that only moves the selection (← / →, N of them) against that of a decision's dialog
(the colour picker, N times) put over the table and answered by its key — each waited
for as a script key is.  A dialog is a screen of its own (Textual's ``ModalScreen``):
showing it draws the whole table again under a tint, and closing it draws the table
again; this is what that costs, for a design that would draw less.

``--pace`` / ``--bot-pause`` play at the SSH benchmark's pace (a key every 0.5 s,
bots pausing 0.6 s as ``unoduo`` does): the CPU of what runs between keys (the thinking
spinner, timers) is then counted too.

The same seed gives the same match, key for key, so two checkouts can be compared side
by side.  The waiting between keys costs a little CPU of its own (a poll every few
milliseconds), counted in the figure; ``--keys 0`` is not allowed.

A benchmark, not a test: nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import os
import pstats
import statistics
import sys
import tempfile
import threading
import time
from typing import Any

os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")

__all__ = ["KeyRun", "main"]


class _ThinkClock:
    """A :data:`~unoduo_tui.table.thinking.Thinker` that thinks in the table's thread
    (as :func:`~unoduo_tui.table.thinking.think_here`) and adds up that thread's CPU."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._lock = threading.Lock()

    def __call__(self, bot: Any, view: Any) -> tuple[Any, Any]:
        start = time.thread_time()
        try:
            return bot.choose(view), bot
        finally:
            spent = time.thread_time() - start
            with self._lock:
                self.seconds += spent


#: ← (the SSH benchmark's probe is →)
_LEFT = b"\x1b[D"


class KeyRun:
    """One app at one table, fed keys through the SSH driver."""

    def __init__(self, seed: int, data_dir: str, bot_pause: float = 0.0) -> None:
        from unoduo_tui.plan import play_plan
        from unoduo_tui.ssh.driver import ChannelDriver
        from unoduo_tui.store import Store
        from unoduo_tui.table.local import LocalTable
        from unoduo_tui.app import UnoDuoApp

        self.clock = _ThinkClock()
        self.bytes_out = 0
        store = Store(data_dir)
        plan = play_plan("duo", 2, ("normal",), seed=seed, target=100_000)
        self.table = LocalTable.start(store, plan, thinker=self.clock, bot_pause=bot_pause)
        self.app = UnoDuoApp(store, table=self.table, bot_pause=bot_pause,
                             theme="textual-dark")
        self.app.driver_class = ChannelDriver.bound(self._out, lambda: None)

    def _out(self, data: bytes) -> None:
        self.bytes_out += len(data)

    def _settled(self) -> bool:
        from unoduo_tui.screens.game import GameScreen

        screen = next((s for s in reversed(self.app.screen_stack)
                       if isinstance(s, GameScreen)), None)
        if screen is None:
            return True
        latest = screen.latest
        return self.table.idle and latest is not None and latest.seq == self.table.seq

    async def settle(self, pilot: Any) -> None:
        """Until the table is idle and the screen has drawn its last update."""
        while True:
            await pilot._wait_for_screen()
            if self._settled():
                await asyncio.sleep(0)
                await pilot._wait_for_screen()
                if self._settled():
                    return
            # a bot pausing (--bot-pause) is waited for at a slower poll: the poll's
            # own CPU is counted too
            await asyncio.sleep(0.002 if self.table.idle else 0.025)

    async def keys(self, pilot: Any, script: tuple[bytes, ...], start: int, count: int,
                   pace: float = 0.0) -> None:
        """``count`` keys of ``script`` from its ``start``-th, each once the last has
        settled and (``pace``) at least ``pace`` seconds after it."""
        from unoduo_tui.ssh.driver import ChannelDriver

        driver = self.app._driver
        assert isinstance(driver, ChannelDriver)
        for step in range(start, start + count):
            sent = time.monotonic()
            driver.feed(script[step % len(script)])
            await self.settle(pilot)
            left = pace - (time.monotonic() - sent)
            if left > 0:
                await asyncio.sleep(left)

    async def dialog_costs(self, pilot: Any, count: int) -> tuple[float, float]:
        """(CPU of a ← / → key, CPU of the colour picker shown over the table and
        answered with ``r``), each the mean of ``count``, each waited for as a key is."""
        from tests.bench.ssh import RIGHT
        from unoduo_tui.dialogs.decisions import ColourPicker
        from unoduo_tui.ssh.driver import ChannelDriver

        driver = self.app._driver
        assert isinstance(driver, ChannelDriver)
        cpu = time.process_time()
        for i in range(count):
            driver.feed(RIGHT if i % 2 else _LEFT)
            await self.settle(pilot)
        arrow = (time.process_time() - cpu) / count
        answers: list[str | None] = []
        cpu = time.process_time()
        for _ in range(count):
            self.app.push_screen(ColourPicker("Name a colour"), answers.append)
            await self.settle(pilot)
            driver.feed(b"r")
            await self.settle(pilot)
        dialog = (time.process_time() - cpu) / count
        if answers != ["R"] * count:
            raise RuntimeError(f"the colour picker answered {answers[:3]}…, not R each time")
        return arrow, dialog


async def _run(args: argparse.Namespace) -> dict:
    from tests.bench.ssh import SCRIPT

    with tempfile.TemporaryDirectory() as data:
        run = KeyRun(args.seed, data, args.bot_pause)
        out: dict = {"rounds": [], "bots": []}
        async with run.app.run_test(headless=False, size=(80, 24)) as pilot:
            await run.settle(pilot)
            await run.keys(pilot, SCRIPT, 0, args.warmup)
            step = args.warmup
            for _ in range(args.rounds):
                thought = run.clock.seconds
                cpu = time.process_time()
                await run.keys(pilot, SCRIPT, step, args.keys, args.pace)
                out["rounds"].append((time.process_time() - cpu) / args.keys)
                out["bots"].append((run.clock.seconds - thought) / args.keys)
                step += args.keys
            if args.dialogs:
                out["arrow"], out["dialog"] = await run.dialog_costs(pilot, args.dialogs)
            if args.profile:
                profile = cProfile.Profile()
                profile.enable()
                await run.keys(pilot, SCRIPT, step, args.keys, args.pace)
                profile.disable()
                out["profile"] = profile
            out["log"] = run.table.match.log_length
            out["bytes"] = run.bytes_out
        return out


def _top(profile: cProfile.Profile, keys: int, count: int, sort: str,
         where: str | None = None) -> str:
    """The top ``count`` functions by ``sort`` (``where``: of the files matching it)."""
    text = io.StringIO()
    stats = pstats.Stats(profile, stream=text)
    stats.sort_stats(sort).print_stats(*([where] if where else []), count)
    lines = text.getvalue().splitlines()
    head = next(i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls"))
    return "\n".join([f"(calls are per {keys} keys)"] + lines[head:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.keys",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=300, help="script keys per timed round")
    parser.add_argument("--warmup", type=int, default=45, help="untimed keys first")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds (the median)")
    parser.add_argument("--seed", type=int, default=3, help="the match's seed")
    parser.add_argument("--pace", type=float, default=0.0,
                        help="seconds from a key to the next at least (the SSH bench's 0.5: "
                             "the idle timers' CPU counted too)")
    parser.add_argument("--bot-pause", type=float, default=0.0,
                        help="seconds a bot waits before it moves (unoduo's 0.6: the "
                             "thinking spinner's redraws counted too)")
    parser.add_argument("--dialogs", type=int, default=0, metavar="N",
                        help="also the CPU of N ← / → keys and of N colour dialogs over the "
                             "table, each answered")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="one more round under cProfile: its top N functions")
    args = parser.parse_args(argv)
    if args.keys < 1 or args.rounds < 1 or min(args.warmup, args.profile, args.dialogs) < 0:
        parser.error("--keys and --rounds at least 1; --warmup, --dialogs and --profile not "
                     "negative")
    out = asyncio.run(_run(args))
    ms = [r * 1000 for r in out["rounds"]]
    bots = [b * 1000 for b in out["bots"]]
    paced = f", a key every {args.pace:g} s, bots pausing {args.bot_pause:g} s" \
        if args.pace or args.bot_pause else ""
    print(f"CPU per script key (Duo vs the normal bot, 80x24, seed {args.seed}{paced}): "
          f"{statistics.median(ms):.2f} ms median of {args.rounds} rounds of {args.keys} "
          f"keys ({', '.join(f'{m:.2f}' for m in ms)}); of it the bots' thinking "
          f"{statistics.median(bots):.2f} ms")
    print(f"  the match reached {out['log']} log entries; {out['bytes'] / 1e6:.1f} MB of "
          f"screen output; load average {os.getloadavg()[0]:.2f}")
    if args.dialogs:
        arrow, dialog = out["arrow"] * 1000, out["dialog"] * 1000
        print(f"  a key that only moves the selection: {arrow:.2f} ms; the colour dialog "
              f"over the table, answered: {dialog:.2f} ms ({dialog / arrow:.0f} such keys), "
              f"each the mean of {args.dialogs}")
    if args.profile:
        print(f"\ntop {args.profile} by own time:")
        print(_top(out["profile"], args.keys, args.profile, "tottime"))
        print(f"\ntop {args.profile} by cumulative time:")
        print(_top(out["profile"], args.keys, args.profile, "cumulative"))
        print(f"\ntop {args.profile} of this project's by cumulative time:")
        print(_top(out["profile"], args.keys, args.profile, "cumulative",
                   r"unoduo_tui/(?!bench)|engine/"))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
