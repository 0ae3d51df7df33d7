"""New match: the opponent (each bot level, or a second human at this keyboard), the
names, the rule options of RULES.md section O and an optional seed — remembered for
next time."""

from __future__ import annotations

import getpass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Select, Static

from engine import Rules

from ..plan import HUMAN, bot_levels, opponent_label
from ..settings import Settings
from ..text import player_name
from ..textual_compat import AnswerOnce
from ..widgets.footer import Footer

__all__ = ["NewMatchScreen", "default_names"]

_RULE_CHOICES = {
    "deck": [("duo112 — 112 cards, 8 Wilds (D1)", "duo112"),
             ("classic108 — the classic 108 cards", "classic108")],
    "refill": [("turn_over — discards flipped, not shuffled (T3)", "turn_over"),
               ("shuffle — discards shuffled", "shuffle")],
    "wd4_guilty": [("colour_match — held the active colour (A6)", "colour_match"),
                   ("any_playable — held any playable card", "any_playable")],
}


def default_names(opponent: str, name: str = "", opponent_name: str = "") -> tuple[str, str]:
    """The seats' names for a new match, cleaned at the edge (:func:`player_name`:
    printable, at most ``MAX_NAME`` characters); a blank one gets a default — "Player 1"
    and "Player 2" at one keyboard, else the login name and the bot's level."""
    if opponent == HUMAN:
        return (player_name(name, "Player 1"), player_name(opponent_name, "Player 2"))
    me = name
    if not player_name(me, ""):
        try:
            me = getpass.getuser().capitalize()
        except Exception:
            me = ""
    return (player_name(me, "You"), player_name(opponent_name, opponent_label(opponent)))


class NewMatchScreen(AnswerOnce, Screen[None]):
    BINDINGS = [
        Binding("ctrl+s", "start", "Start", id="new.start"),
        Binding("escape", "back", "Back", id="new.back"),
    ]

    def compose(self) -> ComposeResult:
        settings = Settings.load(getattr(self.app, "store", None))
        levels = bot_levels()
        opponents = [(opponent_label(f"bot:{lv}"), f"bot:{lv}") for lv in levels]
        opponents.append(("Human at this keyboard (hot-seat)", HUMAN))
        chosen = settings.opponent if settings.opponent in dict(
            (v, k) for k, v in opponents) else Settings().opponent
        base = Rules()
        saved_rules = settings.rules if isinstance(settings.rules, dict) else {}

        def rule(name: str):
            value = saved_rules.get(name, getattr(base, name))
            values = [v for _, v in _RULE_CHOICES.get(name, [])]
            return value if not values or value in values else getattr(base, name)

        with Vertical(id="new-form"):
            yield Static("New match", id="new-title")
            with Horizontal(classes="row"):
                yield Label("Opponent")
                yield Select(opponents, value=chosen, allow_blank=False, id="opponent",
                             compact=True)
            with Horizontal(classes="row"):
                yield Label("Your name")
                yield Input(settings.name, placeholder="you", id="name", compact=True,
                            max_length=20)
            with Horizontal(classes="row"):
                yield Label("Opponent name")
                yield Input(settings.opponent_name, placeholder="from the opponent",
                            id="opponent-name", compact=True, max_length=20)
            yield Static("Rules (RULES.md section O) — preset: duo", classes="section")
            with Horizontal(classes="row"):
                yield Label("Deck")
                yield Select(_RULE_CHOICES["deck"], value=rule("deck"), allow_blank=False,
                             id="deck", compact=True)
            with Horizontal(classes="row"):
                yield Label("Target")
                yield Input(str(rule("target")), type="integer", id="target", compact=True,
                            max_length=6)
            with Horizontal(classes="row"):
                yield Label("Refill")
                yield Select(_RULE_CHOICES["refill"], value=rule("refill"), allow_blank=False,
                             id="refill", compact=True)
            with Horizontal(classes="row"):
                yield Label("W+4 guilty if")
                yield Select(_RULE_CHOICES["wd4_guilty"], value=rule("wd4_guilty"),
                             allow_blank=False, id="wd4_guilty", compact=True)
            with Horizontal(classes="row"):
                yield Label("Seed")
                yield Input("", placeholder="blank: a fresh deal", type="integer",
                            id="seed", compact=True, max_length=20)
            with Horizontal(id="new-buttons"):
                yield Button("Start (Ctrl+S)", id="start", variant="primary", compact=True)
                yield Button("Back (Esc)", id="back", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#opponent", Select).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_back()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_start()

    def action_back(self) -> None:
        self.dismiss(None)

    def _value(self, wid: str) -> str:
        widget = self.query_one(f"#{wid}")
        return str(widget.value).strip()

    def action_start(self) -> None:
        if not self.on_top:  # a second Enter of a paste, after the table replaced the form
            return
        opponent = self._value("opponent")
        name, opp_name = self._value("name"), self._value("opponent-name")
        target_text, seed_text = self._value("target"), self._value("seed")
        try:
            target = int(target_text)
        except ValueError:
            self.notify("Target must be a whole number (200 by default).", severity="error")
            return
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            self.notify("Seed must be a whole number, or blank.", severity="error")
            return
        options = {"deck": self._value("deck"), "target": target,
                   "refill": self._value("refill"), "wd4_guilty": self._value("wd4_guilty")}
        try:
            rules = Rules(**options)
        except ValueError as exc:
            self.notify(str(exc), severity="error")
            return
        store = getattr(self.app, "store", None)
        settings = Settings.load(store)
        settings.opponent, settings.name, settings.opponent_name = opponent, name, opp_name
        settings.rules = options  # the seed is per match: not remembered
        settings.save(store)
        names = default_names(opponent, name, opp_name)
        kinds = (HUMAN, opponent)
        self.app.new_match(names, kinds, rules, seed)
