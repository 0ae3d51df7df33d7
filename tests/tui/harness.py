"""A small App that shows the table's widgets for one view, without a session: the
seats, the discard pile, the log, the score sheet, the hand and the status line, laid
out and styled as the game screen does (``app.tcss``), for any number of seats.

Positions come from :func:`position`: a classic match from a fixed deck
(``Match.new(Rules(preset="classic", seats=N), deck=…, first=…)``) played by a seeded
random chooser until a condition holds.  The widgets get a view, never the match.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Callable, Sequence

from textual.app import App, ComposeResult
from textual.screen import Screen

import unoduo_tui
from engine import Match, PlayerView, Rules
from engine.cards import deck_cards
from unoduo_tui.app import CARD_COLOURS
from unoduo_tui.widgets import (Discard, GameLog, Hand, ScoreSheet, Seats, StatusLine,
                                table_row)

__all__ = ["NAMES", "TableApp", "position", "classic_deck"]

#: ten names, long enough that 10 seats at 80 columns must cut some
NAMES = ("Ann", "Bartholomew", "Cal", "Dorothea", "Eve", "Frederika", "Gus", "Henrietta",
         "Ivo", "Josephine")


def classic_deck(seed: int) -> list:
    """The classic 108 cards in an order fixed by ``seed`` (top first)."""
    cards = deck_cards("classic108")
    random.Random(seed).shuffle(cards)
    return cards


def position(seats: int, stop: Callable[[Match], bool], *, first: int = 0,
             rules: Rules | None = None, limit: int = 3000) -> Match:
    """A classic match of ``seats`` played at random (seeded, fixed decks) until
    ``stop(match)``; the first deck/seed that gets there."""
    rules = rules or Rules(preset="classic", seats=seats)
    for seed in range(1, 200):
        m = Match.new(rules, seed=seed, deck=classic_deck(seed), first=first)
        rng = random.Random(seed)
        for _ in range(limit):
            if stop(m):
                return m
            if m.over:
                break
            legal = m.legal_actions()
            plays = [a for a in legal if a.kind == "play"]
            m.apply(rng.choice(plays) if plays and rng.random() < 0.85 else rng.choice(legal))
    raise RuntimeError("no deck reaches this position")


class GameScreen(Screen):
    """The game screen's widgets for one view.  Named ``GameScreen`` so that the
    app-wide stylesheet's ``GameScreen { … }`` rules lay it out as the table."""

    def __init__(self, view: PlayerView, names: Sequence[str], labels: Sequence[str],
                 thinking: int | None = None, say_you: bool = True) -> None:
        super().__init__()
        self.view, self.names, self.labels = view, tuple(names), tuple(labels)
        self.thinking, self.say_you = thinking, say_you

    def compose(self) -> ComposeResult:
        yield Seats(id="seats")
        yield from table_row(GameLog(id="log"))
        yield Hand(id="hand")
        yield StatusLine(id="status")

    def on_mount(self) -> None:
        self.show(self.view)

    def show(self, view: PlayerView) -> None:
        self.view = view
        seats = self.query_one(Seats)
        seats.name_seats(self.names, self.say_you, labels=self.labels)
        for widget in (self.query_one(Discard), self.query_one(GameLog),
                       self.query_one(ScoreSheet), self.query_one(StatusLine)):
            widget.name_seats(self.names, say_you=self.say_you)
        seats.thinking = self.thinking
        status = self.query_one(StatusLine)
        status.thinking = self.thinking is not None
        for widget in (seats, self.query_one(Discard), self.query_one(ScoreSheet),
                       self.query_one(Hand), status):
            widget.view = view
        self.query_one(GameLog).show(view)


class TableApp(App):
    """Shows one :class:`GameScreen` (the app's stylesheet and card colours)."""

    CSS_PATH = Path(unoduo_tui.__file__).parent / "app.tcss"
    #: what the dialogs call the screen under the table (the app's ``home_name``)
    home_name = "Menu"

    def __init__(self, view: PlayerView, names: Sequence[str], labels: Sequence[str] = (),
                 thinking: int | None = None, say_you: bool = True) -> None:
        super().__init__()
        labels = tuple(labels) or ("",) + ("Normal bot",) * (len(names) - 1)
        self.table = GameScreen(view, names, labels, thinking, say_you)

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {**super().get_theme_variable_defaults(), **CARD_COLOURS}

    def on_mount(self) -> None:
        self.push_screen(self.table)
