"""The collector paused while ``unoduo`` starts (#22: the first frame).

Starting ``unoduo play`` makes about a million objects that live as long as the
process — the engine's, Textual's and our modules, the style sheets, the first screen —
and CPython's collector, counting them, ran ~130 collections over them by the first
frame: 25–35 ms of a start of ~340 ms on this machine (``python -m
tests.bench.first_frame`` measures the start).  So the entry
point (:func:`unoduo_tui.cli.main`) pauses it while it imports the commands and parses
the command line, and a command that draws pauses it again from there to its first
frame (the app resumes it once that is on screen: :func:`resume`).  Each resume freezes
what was made so far (``gc.freeze``: long-lived, kept out of every later collection, as
a forked server does).  A pause that finds the collector already off leaves it alone:
whoever turned it off (the SSH worker, a test) turns it back on.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused", "resume"]

_paused = False


@contextmanager
def paused() -> Iterator[None]:
    """The collector off for this block, or until :func:`resume` if that comes first."""
    global _paused
    if not gc.isenabled():
        yield
        return
    gc.disable()
    _paused = True
    try:
        yield
    finally:
        resume()


def resume() -> None:
    """The collector back, what was made so far frozen — if :func:`paused` stopped it."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()
