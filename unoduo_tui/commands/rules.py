"""``unoduo rules``: the rule book, rendered for the terminal and paged."""

from __future__ import annotations

import argparse
import os
import sys

from ..text import rule_book
from .common import Subparsers, EXIT_OK

__all__ = ["add_parser", "run"]


def add_parser(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    sub.add_parser("rules", parents=[common], help="print the rule book").set_defaults(run=run)


def _width() -> int:
    """The width to wrap to: ``$COLUMNS``, else the terminal's, else 80 (piped)."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
        if columns > 0:
            return columns
    except ValueError:
        pass
    if sys.stdout.isatty():
        import shutil

        return shutil.get_terminal_size().columns
    return 80


def run(args: argparse.Namespace) -> int:
    """The rule book rendered for the terminal (Rich's Markdown, wrapped to the width),
    paged through ``$PAGER`` (else ``less``) when stdout is a terminal."""
    from rich.console import Console
    from rich.markdown import Markdown

    book = Markdown(rule_book())
    if not (sys.stdout.isatty() and sys.stdin.isatty()):  # plain text, no trailing blanks
        import io

        text = io.StringIO()
        console = Console(file=text, width=_width(), color_system=None)
        console.print(book)
        sys.stdout.writelines(line.rstrip() + "\n" for line in text.getvalue().splitlines())
        return EXIT_OK
    console = Console(width=_width())
    # pydoc's choice: $MANPAGER, $PAGER, else less; less shows colours given -R (or -r),
    # which it gets unless $LESS says otherwise (git does the same)
    pager = (os.environ.get("MANPAGER") or os.environ.get("PAGER") or "less").split()
    if pager and pager[0].endswith("less"):
        flags = os.environ.setdefault("LESS", "-R")
        styles = "R" in flags or "r" in flags
    else:
        styles = True
    with console.pager(styles=styles):
        console.print(book)
    return EXIT_OK
