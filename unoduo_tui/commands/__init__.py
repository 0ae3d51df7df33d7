"""The ``unoduo`` sub-commands (#22): one module each, which adds its own parser
(``add_parser(sub, common)``, setting its ``run``); what they share is public in
:mod:`.common`.  Only the entry point (:mod:`unoduo_tui.cli`) imports this package.

Light at import: ``unoduo --help`` builds every parser, so a command imports what it
runs (the engine's bots, the store, Textual …) when it runs; the headless commands
never import Textual.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from types import ModuleType

from . import (delete, export, host, join, listing, lobby, play, replay, resume, review, rules,
               serve, simulate, stats, store, transcript, verify, watch, web)
from .common import run_interactive

__all__ = ["MODULES", "build_parser", "run"]

#: every sub-command's module, in the order ``unoduo --help`` lists them
MODULES = (play, resume, listing, verify, export, simulate, transcript, replay, delete, rules,
           host, join, watch, serve, lobby, web, stats, review, store)


#: the options that may come before the command, each with its value
_BEFORE_COMMAND = ("--data-dir", "--store")


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser for ``argv`` (None: every command's, as ``unoduo --help`` lists them).

    When ``argv`` names its command (after the data dir or the store, if any) only that
    command's parser is built: the others would parse nothing, and building all 19
    costs ~10 ms of every start (#22: the first frame)."""
    from .common import build_parser as parser_of

    return parser_of(MODULES if argv is None else _modules_for(argv))


def _modules_for(argv: Sequence[str]) -> tuple[ModuleType, ...]:
    i = 0
    while i < len(argv) and argv[i] in _BEFORE_COMMAND:
        i += 2
    named = next((m for m in MODULES if i < len(argv) and m.NAME == argv[i]), None)
    return MODULES if named is None else (named,)


def run(args: argparse.Namespace) -> int:
    """The sub-command ``args`` were parsed for (no command: the menu)."""
    return getattr(args, "run", run_interactive)(args)
