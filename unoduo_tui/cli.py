"""The ``unoduo`` command.

Until the Textual table lands this prints the version, or the player-facing rule
book with ``unoduo rules``.  It imports no Textual, so it starts instantly.
"""

from __future__ import annotations

import argparse
import sys
from importlib import resources

from . import __version__


def rule_book() -> str:
    """The player-facing rule book shipped inside the package."""
    return resources.files("unoduo_tui").joinpath("rules.md").read_text(encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="unoduo", description="UNO Duo in your terminal.")
    parser.add_argument("--version", action="version", version=f"unoduo {__version__}")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("rules", help="print the rule book")
    args = parser.parse_args(argv)
    if args.command == "rules":
        sys.stdout.write(rule_book())
        return 0
    print(f"unoduo {__version__} — the rules engine is in place; the game table is coming next.")
    print("Run 'unoduo rules' to read the rule book.")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
