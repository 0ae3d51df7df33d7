"""First frame of ``unoduo`` against a bare Textual app with as many widgets:
``python -m tests.bench.first_frame [--runs 10]`` (#22: goal ≤ 1.3×).

Both launched in a pty of 80×24 from compiled bytecode, alternately, ``--runs`` times
each after an untimed launch of each (:func:`tests.bench.app.start_seconds`): from
the launch to the first frame showing the table (``unoduo play``, UNO Duo against the
random bot) or the bare app's widgets.  Printed: the median of each, their ratio, the
load average.  A benchmark, not a test: nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import os
import sys

from tests.bench.app import Table, start_seconds

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.first_frame",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="launches of each (the median)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs at least 1")
    ours, bare, widgets = start_seconds(args.runs, Table("duo", 2))
    print(f"first frame, median of {args.runs}: unoduo play {ours * 1000:.0f} ms, a bare "
          f"Textual app with {widgets} widgets {bare * 1000:.0f} ms: {ours / bare:.2f}x "
          f"(load average {os.getloadavg()[0]:.2f})")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
