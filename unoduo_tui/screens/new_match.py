"""New match: the preset (UNO Duo or classic), the number of seats, each seat's kind
(you in seat 1; a bot level or a human at this keyboard for the others) and name, the
preset's rule options and an optional seed — remembered for next time.

The option fields are generated from :data:`engine.rules.OPTIONS` (label, choices with
their labels, the default per preset; ``choices=None``: a whole number), the seat counts
from :data:`engine.rules.PRESETS`, the kinds from :func:`~unoduo_tui.plan.bot_levels`:
a choice added there shows up here.  Every field exists once; switching preset or seat
count shows and hides rows (options a preset lacks disappear) and keeps what was typed.
The form builds a :class:`~unoduo_tui.plan.MatchPlan` and hands it to
``App.new_match(plan)``.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Select, Static

from engine import Rules
from engine.rules import OPTIONS, PRESETS, Option

from ..plan import HUMAN, MatchPlan, bot_levels, opponent_label, preset_label, preset_rules
from ..plan import default_names as seat_names
from ..settings import Settings
from ..text import MAX_NAME
from ..textual_compat import AnswerOnce
from ..text.words import rules_pointer
from ..widgets.footer import Footer
from ..app_link import unoduo

__all__ = ["NewMatchScreen", "default_names", "form_options"]

#: the most seats any preset has: the form holds a row for each, showing ``seats``
MAX_SEATS = max(max(r) for r in PRESETS.values())


def default_names(opponent: str, name: str = "", opponent_name: str = "") -> tuple[str, str]:
    """Two seats' names, you against ``opponent``: the old two-seat signature of
    :func:`unoduo_tui.plan.default_names` (its home now), kept for the app's callers
    until they pass a :class:`MatchPlan`."""
    me, other = seat_names((HUMAN, opponent), (name, opponent_name))
    return me, other


def form_options(preset: str) -> tuple[Option, ...]:
    """The options the form shows for ``preset``: those of :data:`OPTIONS` the preset
    has, but the seat count (a field of its own)."""
    return tuple(o for o in OPTIONS if preset in o.default and o.name != "seats")


def _kinds() -> list[tuple[str, str]]:
    return [(opponent_label(k), k) for k in (*(f"bot:{lv}" for lv in bot_levels()), HUMAN)]


def _union_options() -> tuple[Option, ...]:
    return tuple(o for o in OPTIONS if o.name != "seats")


class NewMatchScreen(AnswerOnce, Screen[None]):
    BINDINGS = [
        # F2 as well: a browser takes Ctrl+S for "save page" while its terminal has no focus
        Binding("ctrl+s,f2", "start", "Start", id="new.start", key_display="^s/F2"),
        Binding("escape", "back", "Back", id="new.back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        #: per preset, each option's value as last shown (strings for whole numbers)
        self._values: dict[str, dict[str, Any]] = {}
        self._preset = "duo"

    # -- building -------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        settings = Settings.load(unoduo(self).store)
        self._preset = settings.preset
        for preset in PRESETS:
            rules = preset_rules(preset, PRESETS[preset][0], settings.options_for(preset))
            self._values[preset] = {o.name: getattr(rules, o.name) for o in form_options(preset)}
        kinds = _kinds()
        with VerticalScroll(id="new-form"):
            yield Static("New match", id="new-title")
            with Horizontal(classes="row"):
                yield Label("Game")
                yield Select([(preset_label(p), p) for p in PRESETS], value=self._preset,
                             allow_blank=False, id="preset", compact=True)
            with Horizontal(classes="row"):
                yield Label("Players")
                yield Select(self._seat_choices(self._preset), value=settings.seats,
                             allow_blank=False, id="seats", compact=True)
            yield Static("Seats — you are seat 1", classes="section")
            for seat in range(MAX_SEATS):
                with Horizontal(classes="row seat", id=f"seat-{seat}"):
                    yield Label(f"{seat + 1}. " + ("You" if seat == 0 else "Seat"))
                    if seat:
                        yield Select(kinds, value=settings.kind(seat), allow_blank=False,
                                     id=f"kind-{seat}", compact=True, classes="kind")
                    yield Input(settings.name(seat)[:MAX_NAME], id=f"name-{seat}",
                                compact=True, max_length=MAX_NAME, classes="name")
            yield Static(f"Rules (the rule book's section O: "
                         f"{rules_pointer(unoduo(self).place)})", classes="section")
            for opt in _union_options():
                with Horizontal(classes="row option", id=f"row-{opt.name}"):
                    yield Label(opt.label)
                    yield self._option_field(opt)
            with Horizontal(classes="row"):
                yield Label("Seed")
                yield Input("", placeholder="blank: a fresh deal", type="integer",
                            id="seed", compact=True, max_length=20)
        with Horizontal(id="new-buttons"):
            yield Button("Start (Ctrl+S or F2)", id="start", variant="primary", compact=True)
            yield Button("Back (Esc)", id="back", compact=True)
        yield Footer()

    @staticmethod
    def _seat_choices(preset: str) -> list[tuple[str, int]]:
        return [(f"{n} players", n) for n in PRESETS[preset]]

    def _field(self, name: str) -> Select | Input:
        """The field of the option ``name`` (:meth:`_option_field` made it)."""
        field = self.query_one(f"#{name}")
        assert isinstance(field, (Select, Input))
        return field

    def _option_field(self, opt: Option) -> Select | Input:
        preset = self._preset if self._preset in opt.choices else next(iter(opt.choices))
        choices = opt.choices[preset]
        value = self._values[preset][opt.name]
        if choices is None:
            return Input(str(value), type="integer", id=opt.name, compact=True, max_length=9)
        return Select([(c.label, c.value) for c in choices], value=value, allow_blank=False,
                      id=opt.name, compact=True)

    def on_mount(self) -> None:
        self._show(self._preset)
        self.query_one("#preset", Select).focus()

    # -- live updates ----------------------------------------------------------------

    def _seats(self) -> int:
        value = self.query_one("#seats", Select).value
        return value if isinstance(value, int) else PRESETS[self._preset][0]

    def _show(self, preset: str) -> None:
        """Rows for ``preset``: its options (each set to the value last shown for it)
        and as many seats as chosen."""
        shown = {o.name: o for o in form_options(preset)}
        for opt in _union_options():
            self.query_one(f"#row-{opt.name}").display = opt.name in shown
            if opt.name not in shown:
                continue
            field = self._field(opt.name)
            value = self._values[preset][opt.name]
            if isinstance(field, Select):
                choices = shown[opt.name].choices[preset]
                assert choices is not None  # a Select is made for an option with choices
                field.set_options([(c.label, c.value) for c in choices])
                field.value = value
            else:
                field.value = str(value)
        self._show_seats()

    def _show_seats(self) -> None:
        seats = self._seats()
        for seat in range(MAX_SEATS):
            self.query_one(f"#seat-{seat}").display = seat < seats
        self._name_placeholders()

    def _name_placeholders(self) -> None:
        seats = self._seats()
        kinds, _ = self._seat_values(seats)
        for seat, name in enumerate(seat_names(kinds, me=unoduo(self).you)):
            self.query_one(f"#name-{seat}", Input).placeholder = name

    def _remember_shown(self) -> None:
        for opt in form_options(self._preset):
            self._values[self._preset][opt.name] = self._field(opt.name).value

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        wid = event.select.id or ""
        if wid == "preset" and event.value in PRESETS and event.value != self._preset:
            self._remember_shown()
            self._preset = str(event.value)
            seats = self.query_one("#seats", Select)
            keep = seats.value
            choices = self._seat_choices(self._preset)
            seats.set_options(choices)
            seats.value = keep if keep in PRESETS[self._preset] else choices[0][1]
            self._show(self._preset)
        elif wid == "seats":
            self._show_seats()
        elif wid.startswith("kind-"):
            self._name_placeholders()

    # -- actions ---------------------------------------------------------------------

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

    def _seat_values(self, seats: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The kinds and the names as typed (blank: the default) of the first ``seats``
        rows."""
        kinds = [HUMAN] + [str(self.query_one(f"#kind-{s}", Select).value)
                           for s in range(1, seats)]
        names = [self.query_one(f"#name-{s}", Input).value for s in range(seats)]
        return tuple(kinds), tuple(names)

    def _options(self) -> dict[str, Any] | None:
        """The shown options, whole numbers parsed; ``None`` (said) when one is not."""
        shown = form_options(self._preset)
        values = self._typed(self._preset, {o.name: self._field(o.name).value for o in shown})
        for opt in shown:
            if opt.name not in values:
                self.notify(f"{opt.label} must be a whole number "
                            f"({opt.default[self._preset]} by default).", severity="error")
                return None
        return values

    def plan(self) -> MatchPlan | None:
        """The match as chosen, or ``None`` after saying what is wrong."""
        options = self._options()
        if options is None:
            return None
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            self.notify("Seed must be a whole number, or blank.", severity="error")
            return None
        seats = self._seats()
        kinds, names = self._seat_values(seats)
        try:
            rules = Rules(preset=self._preset, seats=seats, **options)
            return MatchPlan(seat_names(kinds, names, me=unoduo(self).you), kinds, rules, seed)
        except ValueError as exc:
            self.notify(str(exc), severity="error")
            return None

    @staticmethod
    def _typed(preset: str, values: dict[str, Any]) -> dict[str, Any]:
        """``values`` with whole numbers parsed; one that is not is left out."""
        out = {}
        for opt in form_options(preset):
            value = values.get(opt.name)
            if opt.choices[preset] is None:
                try:
                    value = int(str(value).strip())
                except ValueError:
                    continue
            out[opt.name] = value
        return out

    def _remember(self) -> None:
        store = unoduo(self).store
        self._remember_shown()
        settings = Settings.load(store)
        settings.preset, settings.seats = self._preset, self._seats()
        kinds, names = self._seat_values(MAX_SEATS)  # every row: the hidden ones too
        settings.kinds, settings.names = list(kinds), [n.strip() for n in names]
        settings.options = {p: self._typed(p, values) for p, values in self._values.items()}
        settings.save(store)  # the seed is per match: never remembered

    def action_start(self) -> None:
        if not self.on_top:  # a second Enter of a paste, after the table replaced the form
            return
        plan = self.plan()
        if plan is None:
            return
        self._remember()
        unoduo(self).new_match(plan)
