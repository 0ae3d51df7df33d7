"""The ``unoduo`` sub-commands (#22): one module each, which adds its own parser
(``add_parser(sub, common)``, setting its ``run``); what they share is public in
:mod:`.common`.  Only the entry point (:mod:`unoduo_tui.cli`) imports this package.

Light at import: ``unoduo --help`` builds every parser, so a command imports what it
runs (the engine's bots, the store, Textual …) when it runs; the headless commands
never import Textual.
"""

from __future__ import annotations

import argparse

from . import (delete, export, host, join, listing, lobby, play, replay, resume, review, rules,
               serve, simulate, stats, store, transcript, verify, watch, web)
from .common import run_interactive

__all__ = ["MODULES", "build_parser", "run"]

#: every sub-command's module, in the order ``unoduo --help`` lists them
MODULES = (play, resume, listing, verify, export, simulate, transcript, replay, delete, rules,
           host, join, watch, serve, lobby, web, stats, review, store)


def build_parser() -> argparse.ArgumentParser:
    from .common import build_parser as parser_of

    return parser_of(MODULES)


def run(args: argparse.Namespace) -> int:
    """The sub-command ``args`` were parsed for (no command: the menu)."""
    return getattr(args, "run", run_interactive)(args)
