"""The player-facing rule book, rendered as Markdown with its clause ids."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import MarkdownViewer

from ..text import rule_book
from ..textual_compat import AnswerOnce
from ..widgets.footer import Footer

__all__ = ["RulesScreen", "rule_book"]


class RulesScreen(AnswerOnce, Screen[None]):
    BINDINGS = [Binding("escape,q", "close", "Back", id="rules.back")]

    def compose(self) -> ComposeResult:
        yield MarkdownViewer(rule_book(), show_table_of_contents=False, id="rules-text")
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)
