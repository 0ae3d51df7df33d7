"""The ``unoduo`` command: its entry point.

    unoduo                      the menu            unoduo list       saved matches
    unoduo play [--vs LEVEL]    a new match         unoduo verify X   check a save file
    unoduo resume [ID|PATH]     carry on            unoduo export X   its log as JSON lines
    unoduo rules                the rule book       unoduo simulate --bots a,b --matches N
    unoduo replay X             watch a match again unoduo transcript X
    unoduo replay --spoiler-free X   … from the start, its length and result hidden
    unoduo delete X [--yes]     remove a saved match for good
    unoduo play --preset classic --seats N --vs LEVEL[,LEVEL…]|human   classic, 2–10 seats
    unoduo host / join CODE / watch CODE   a table shared between terminals
    unoduo serve [--port 2222] [--listen ADDR]   an SSH server: anyone with ssh plays
    unoduo lobby                the lobby an SSH player sees (resume, quick match, tables)
    unoduo web [--port 8000]    the app in a web browser (textual-serve)
    unoduo stats [--player NAME] [--json]   your record: wins, ratings, moments

Each sub-command is a module of :mod:`unoduo_tui.commands`, which adds its own parser;
this module only parses and runs.  Non-interactive commands never import Textual.  A
bad argument is one line on stderr and exit status 2, before anything full-screen: the
interactive commands check their arguments (the opponent, the match to resume or
replay, the data dir) and then refuse a ``TERM=dumb`` terminal in plain text, all
before Textual starts.  Everything printed from a save file or the command line goes
through :func:`~unoduo_tui.text.printable`.
"""

from __future__ import annotations

import sys
from typing import Sequence

from . import startup

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    with startup.paused():  # the commands' imports and the parse (a module of its own)
        from .commands import build_parser, run
        from .commands.common import EXIT_OK, EXIT_USAGE, UsageError, err

        if argv is None:
            argv = sys.argv[1:]
        args = build_parser(argv).parse_args(argv)
    try:
        return run(args)
    except UsageError as exc:
        err(exc)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `unoduo export … | head`
        sys.stderr.close()
        return EXIT_OK

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
