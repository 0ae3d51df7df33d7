"""The ``unoduo`` sub-commands (#22): one module each, named as the command is typed,
which adds its own parser (``add_parser(sub, common)``, setting its ``run``); what
they share is public in :mod:`.common`.  Only the entry point (:mod:`unoduo_tui.cli`)
imports this package.

Light at import: a command's module is imported when its parser is built — only the
named command's when the command line names one, every one for ``unoduo --help`` —
and a command imports what it runs (the engine's bots, the store, Textual …) when it
runs; the headless commands never import Textual.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence
from types import ModuleType

from .common import run_interactive

__all__ = ["COMMANDS", "build_parser", "module", "run"]

#: every sub-command as typed — its module's name — in the order ``unoduo --help``
#: lists them
COMMANDS = ("play", "resume", "list", "verify", "export", "simulate", "transcript", "replay",
            "delete", "rules", "host", "join", "watch", "serve", "lobby", "web", "stats",
            "review", "store")

#: the options that may come before the command, each with its value
_BEFORE_COMMAND = ("--data-dir", "--store")


def module(command: str) -> ModuleType:
    """The module of ``command`` (one of :data:`COMMANDS`)."""
    return importlib.import_module(f".{command}", __name__)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser for ``argv`` (None: every command's, as ``unoduo --help`` lists them).

    When ``argv`` names its command (after the data dir or the store, if any) only that
    command's module is imported and its parser built: the others would parse nothing,
    and importing and building all 19 costs ~12 ms of every start (#22: the first
    frame)."""
    from .common import build_parser as parser_of

    return parser_of([module(c) for c in _commands_for(argv)])


def _commands_for(argv: Sequence[str] | None) -> Sequence[str]:
    if argv is None:
        return COMMANDS
    i = 0
    while i < len(argv) and argv[i] in _BEFORE_COMMAND:
        i += 2
    return (argv[i],) if i < len(argv) and argv[i] in COMMANDS else COMMANDS


def run(args: argparse.Namespace) -> int:
    """The sub-command ``args`` were parsed for (no command: the menu)."""
    return getattr(args, "run", run_interactive)(args)
