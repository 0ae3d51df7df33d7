"""The replay viewer: a saved match, read-only, step by step on the table's widgets.

The screen owns a :class:`~engine.replay.ReplayCursor` and hands each widget a view
of the position under it: a seat's :class:`PlayerView` (what that seat knew then) or,
for "all hands", the engine's explicit :class:`~engine.replay.OmniscientView`.

An unfinished match opens locked in its human's perspective: the opponent's hand
and the draw pile stay hidden, so a replay is never a way to peek at a game still
being played.
"""

from __future__ import annotations

import ast
from functools import partial
from typing import Iterable

from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Footer, Input, Static

from engine.replay import ALL, MOMENTS, ReplayCursor

from ..dialogs import BranchDialog
from ..session import bot_levels
from ..store import parent_of
from ..widgets import Discard, GameLog, Hand, Opponent, ScoreSheet
from .menu import practice_mark, summary_line

__all__ = ["ReplayScreen", "ReplayListScreen", "GoToAction", "SPEEDS", "MOMENT_KEYS"]

#: autoplay speeds, in actions a second
SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)

#: jump key (next; the capital goes back), the moment, its timeline mark
MOMENT_KEYS = (("v", "volley", "2", "Draw 2 volley"), ("o", "dump", "R", "Reverse dump"),
               ("c", "challenge", "!", "W+4 challenge"), ("x", "catch", "x", "UNO catch"),
               ("e", "round", "|", "round end"))

#: bindings that are only cursor movement: no palette entry
_QUIET = {"step", "turn", "round"}


class GoToAction(ModalScreen[int | None]):
    """``g``: ask for an action number (0 … count)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="goto.cancel")]

    def __init__(self, count: int, here: int) -> None:
        super().__init__()
        self.count, self.here = count, here

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(f"Go to action (0–{self.count}; now {self.here})",
                         classes="dialog-title")
            yield Input(placeholder=str(self.here), type="integer", id="goto-input")
            yield Static("Enter: go · Escape: cancel", classes="dialog-help")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            self.dismiss(int(event.value))
        except ValueError:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ReplayScreen(Screen[None]):
    """One saved match, watched again (never written to)."""

    DEFAULT_CSS = """
    ReplayScreen {
        layout: vertical;
        #opponent { height: 1; background: $boost; }
        #others { height: 1; background: $boost; }
        #table { height: 1fr; }
        #discard { width: 21; height: 1fr; }
        #log {
            width: 1fr; height: 1fr;
            border: round $panel-lighten-2; border-title-color: $text-muted;
            scrollbar-size-vertical: 1; background: $surface;
        }
        #scores {
            width: 24; height: 1fr;
            border: round $panel-lighten-2; border-title-color: $text-muted; padding: 0 1;
        }
        #hand { height: 6; }
        #timeline { height: 1; color: $text-muted; }
        #replay-status { height: 1; background: $primary-muted; color: $foreground;
                         text-style: bold; }
    }
    GoToAction #goto-input { margin-bottom: 1; }
    ReplayListScreen #replays-title { text-style: bold; color: $accent; padding: 0 1; }
    """

    BINDINGS = [
        Binding("right", "step(1)", "Step", id="replay.next", key_display="←→",
                tooltip="One action forward"),
        Binding("left", "step(-1)", "Back", id="replay.back", show=False,
                tooltip="One action back"),
        Binding("shift+right", "turn(1)", "Next turn", id="replay.next_turn", show=False,
                tooltip="To the next turn"),
        Binding("shift+left", "turn(-1)", "Previous turn", id="replay.prev_turn", show=False,
                tooltip="Back to the turn before"),
        Binding("pagedown", "round(1)", "Next round", id="replay.next_round", show=False,
                tooltip="To the next round"),
        Binding("pageup", "round(-1)", "Previous round", id="replay.prev_round", show=False,
                tooltip="Back to the round before"),
        Binding("home", "edge(0)", "Start", id="replay.start", show=False,
                tooltip="To the start of the match"),
        Binding("end", "edge(1)", "End", id="replay.end", show=False,
                tooltip="To the last action"),
        Binding("g", "goto", "Go to", id="replay.goto", tooltip="Go to an action number"),
        Binding("space", "autoplay", "Play", id="replay.autoplay", key_display="␣",
                tooltip="Play the actions one by one (again: pause)"),
        Binding("plus,equals_sign", "speed(1)", "Faster", id="replay.faster", show=False,
                tooltip="Autoplay faster"),
        Binding("minus", "speed(-1)", "Slower", id="replay.slower", show=False,
                tooltip="Autoplay slower"),
        *[b for key, kind, _, label in MOMENT_KEYS for b in (
            Binding(key, f"moment('{kind}', 1)", f"Next {label}", id=f"replay.next_{kind}",
                    show=False, tooltip=f"To the next {label} ({key})"),
            Binding(key.upper(), f"moment('{kind}', -1)", f"Previous {label}",
                    id=f"replay.prev_{kind}", show=False,
                    tooltip=f"Back to the previous {label} ({key.upper()})"))],
        Binding("p", "perspective", "View", id="replay.perspective",
                tooltip="All hands / seat 1's view / seat 2's view"),
        Binding("s", "spoilers", "Spoiler-free", id="replay.spoilers", show=False,
                tooltip="Hide the match's length, its future moments and the final scores"),
        Binding("b", "branch", "What if", id="replay.branch", show=False,
                tooltip="A new practice match from this position, against a bot"),
        Binding("question_mark", "help", "Help", id="replay.help", key_display="?",
                tooltip="Every key"),
        Binding("q,escape", "close", "Close", id="replay.close", tooltip="Leave the replay"),
    ]

    def __init__(self, loaded, *, every: int = 200, lock: bool = False) -> None:
        super().__init__()
        header = loaded.header
        seats = loaded.seats
        self.loaded = loaded
        self.names: tuple[str, ...] = tuple(s.name for s in seats)
        self.kinds: tuple[str, ...] = tuple(s.kind for s in seats)
        self.cursor = ReplayCursor(header.rules, loaded.match.actions, header.seed, every=every)
        self.finished = loaded.match.over
        humans = [i for i, s in enumerate(seats) if not s.is_bot]
        #: the one seat an unfinished match may be seen from (None: any perspective)
        self.locked: int | None = None
        self.undos = getattr(loaded, "undos", 0)
        if not self.finished and humans and (lock or not self.undos):  # practice: no secrets
            self.locked = humans[0]
        self.perspective: int | str = ALL if self.locked is None else self.locked
        self.speed = 2
        self._timer = None
        #: hide what lies ahead: the length, the future moments, the final scores
        self.spoiler_free = False

    @classmethod
    def open(cls, store, ref: str) -> "ReplayScreen":
        """Load ``ref`` read-only; a hot-seat match still being played is refused."""
        loaded = store.open(ref, read_only=True)
        humans = [s for s in loaded.seats if not s.is_bot]
        if not loaded.match.over and len(humans) > 1:
            raise ValueError("this hot-seat match is still being played: finish it first "
                             "(a replay would show one player the other's hand)")
        return cls(loaded, lock=cls._parent_unfinished(store, loaded))

    @staticmethod
    def _parent_unfinished(store, loaded) -> bool:
        """A branch of a match still being played shows what that match hides (the
        opponent's hand, the draw pile) even once practised: keep it locked too."""
        parent = parent_of(loaded.header)
        if parent is None or loaded.match.over:
            return False
        try:
            return store.summary(store.resolve(parent[0])).status != "finished"
        except Exception:  # the parent is gone or unreadable: assume the worst
            return True

    # -- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Opponent(id="opponent")
        yield Static(id="others")
        with Horizontal(id="table"):
            yield Discard(id="discard")
            log = GameLog(id="log")
            log.can_focus = False  # its scroll keys would take ← → Home End PgUp PgDn
            yield log
            yield ScoreSheet(id="scores")
        yield Hand(id="hand")
        yield Static(id="timeline")
        yield Static(id="replay-status")
        yield Footer()

    def on_mount(self) -> None:
        for widget in (self.query_one(Discard), self.query_one(GameLog),
                       self.query_one(ScoreSheet)):
            widget.names = self.names
        self.query_one(Discard).say_you = False
        self.query_one(ScoreSheet).say_you = False
        hand = self.query_one(Hand)
        hand.read_only = True
        self.query_one("#log").border_title = "Log"
        self.query_one("#scores").border_title = "Scores"
        if self.locked is not None:
            self.notify("This match is not finished: you see it as "
                        f"{self.names[self.locked]} saw it.", title="Replay", timeout=5)
        self.show()
        self.call_after_refresh(self.show)  # once the log knows its width: lines to events

    def on_game_log_event_clicked(self, message: GameLog.EventClicked) -> None:
        """A click on a line of the log: go to the action that line tells."""
        message.stop()
        self._stop()
        self.cursor.goto(self.cursor.position_of_event(message.index))
        self._moved()

    def on_unmount(self) -> None:
        self._stop()

    # -- what is shown ---------------------------------------------------------------

    @property
    def bottom(self) -> int:
        """The seat whose hand is at the bottom (the perspective's, else the first human)."""
        if isinstance(self.perspective, int):
            return self.perspective
        humans = [i for i, k in enumerate(self.kinds) if not k.startswith("bot:")]
        return humans[0] if humans else 0

    def show(self) -> None:
        """Hand every widget the view of the position under the cursor."""
        cursor = self.cursor
        seat = self.bottom
        other = (seat + 1) % 2
        mine = cursor.view(seat)
        everything = cursor.view(ALL) if self.perspective == ALL else None
        opponent = self.query_one(Opponent)
        others = self.query_one("#others", Static)
        opponent.display = everything is None
        others.display = everything is not None
        if everything is None:
            opponent.name_text = self.names[other]
            opponent.kind_text = ""
            opponent.view = mine
        else:
            cards = everything.hands[other]
            line = Text(" ")
            line.append(self.names[other], "bold")
            line.append(f" · {len(cards)} card{'s' * (len(cards) != 1)}: ")
            line.append(" ".join(c.text for c in cards))
            if everything.to_act == other:
                line.append("  ◀ to act", "italic")
            others.update(line)
        hand = self.query_one(Hand)
        hand.owner = self.names[seat]
        hand.view = mine
        self.query_one(Discard).view = mine
        self.query_one(ScoreSheet).view = mine
        pos = cursor.position
        self.query_one(GameLog).show(everything if everything is not None else mine,
                                     current=cursor.event_count(pos - 1) if pos else None)
        self.query_one("#timeline", Static).update(self.timeline())
        self.query_one("#replay-status", Static).update(self.status(everything))
        self.refresh_bindings()

    def status(self, everything) -> Text:
        cursor = self.cursor
        pos, m = cursor.position, cursor.match
        text = Text(f" {pos}" if self.spoiler_free else f" {pos}/{cursor.count}", "bold")
        text.append(f" · round {m.round}")
        decision = cursor.decision()
        if decision is not None:
            text.append(f" · {self.names[cursor.actor()]}: {decision}")
        else:
            text.append(" · the start")
        if everything is not None and everything.draw_pile:
            text.append(f" · next {' '.join(c.text for c in everything.draw_pile[:3])}")
        view = ("all hands" if self.perspective == ALL
                else f"{self.names[self.perspective]}'s view")
        text.append(f" · {view}")
        if self.locked is not None:
            text.append(" (unfinished)")
        if self.undos:
            text.append(f" · {practice_mark(self.undos)}")
        if self.spoiler_free:
            text.append(" · spoiler-free")
        if self._timer is not None:
            text.append(f" · ▶ {SPEEDS[self.speed]:g}/s")
        return text

    def timeline(self) -> Text:
        """The whole match as a bar: the moments marked, the cursor reversed."""
        cursor = self.cursor
        width = max(10, self.size.width - 2)
        count = max(1, cursor.count)
        if self.spoiler_free:  # only the past, to scale; the future is a "?"
            width -= 2
            count = max(1, cursor.position)
        cells = ["─"] * width
        for _, kind, mark, _ in MOMENT_KEYS:
            for pos in cursor.moments(kind):
                if self.spoiler_free and pos > cursor.position:
                    continue
                col = min(width - 1, (pos - 1) * width // count)
                if cells[col] == "─" or mark == "|":
                    cells[col] = mark
        here = min(width - 1, cursor.position * width // count) if cursor.count else 0
        text = Text("▕")
        for i, cell in enumerate(cells):
            text.append(cell, "reverse bold" if i == here else ("bold" if cell != "─" else ""))
        text.append(" ?" if self.spoiler_free else "▏")
        return text

    # -- what a key may do now -------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        cursor = self.cursor
        pos, count = cursor.position, cursor.count
        forward = parameters and isinstance(parameters[-1], int) and parameters[-1] > 0
        if action in ("step", "turn", "round", "moment"):
            if action == "moment":
                kind, direction = parameters
                if self.spoiler_free and direction > 0:
                    return True  # whether one lies ahead is a spoiler: try and see
                marks = cursor.moments(kind)
                ok = any(p > pos for p in marks) if direction > 0 else any(p < pos for p in marks)
                return True if ok else None
            return True if (pos < count if forward else pos > 0) else None
        if action == "edge":
            return True if (pos < count if parameters[0] else pos > 0) else None
        if action == "perspective":
            return True if self.locked is None else None
        if action == "branch":  # not from a game still in play: it would show its pile
            return True if not cursor.match.over and self.locked is None else None
        if action == "speed":
            return True if self._timer is not None else None
        return True

    # -- actions -------------------------------------------------------------------------

    def _moved(self) -> None:
        self.show()

    def action_step(self, delta: int) -> None:
        self.cursor.step(delta)
        self._moved()

    def action_turn(self, direction: int) -> None:
        (self.cursor.next_turn if direction > 0 else self.cursor.prev_turn)()
        self._moved()

    def action_round(self, direction: int) -> None:
        (self.cursor.next_round if direction > 0 else self.cursor.prev_round)()
        self._moved()

    def action_edge(self, end: int) -> None:
        (self.cursor.end if end else self.cursor.start)()
        self._moved()

    def action_moment(self, kind: str, direction: int) -> None:
        cursor = self.cursor
        moved = (cursor.next_moment if direction > 0 else cursor.prev_moment)(kind)
        if moved is None:
            self.app.bell()
        self._moved()

    def action_goto(self) -> None:
        def chosen(pos: int | None) -> None:
            if pos is not None:
                self.cursor.goto(pos)
                self._moved()

        self.app.push_screen(GoToAction(self.cursor.count, self.cursor.position), chosen)

    def action_autoplay(self) -> None:
        if self._timer is not None:
            self._stop()
        else:
            if self.cursor.position >= self.cursor.count:
                self.cursor.start()
            self._start()
        self.show()

    def _start(self) -> None:
        self._timer = self.set_interval(1 / SPEEDS[self.speed], self._tick)

    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _tick(self) -> None:
        if self.cursor.position >= self.cursor.count:
            self._stop()
        else:
            self.cursor.step(1)
        self.show()

    def action_speed(self, delta: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + delta))
        if self._timer is not None:
            self._stop()
            self._start()
        self.show()

    def action_perspective(self) -> None:
        if self.locked is not None:
            return
        order = [ALL, *range(len(self.names))]
        self.perspective = order[(order.index(self.perspective) + 1) % len(order)]
        self.show()

    def action_spoilers(self) -> None:
        """``s``: spoiler-free on / off.  Turning it on at the end of a finished match
        (where the viewer opens) goes back to the start: the end is what it hides."""
        self.spoiler_free = not self.spoiler_free
        if self.spoiler_free and self.finished and self.cursor.position == self.cursor.count:
            self._stop()
            self.cursor.start()
        self.show()

    def action_branch(self) -> None:
        """``b``: a new practice match from exactly this position (the parent's file is
        never touched); an unfinished match's human keeps their own seat."""
        cursor = self.cursor
        if cursor.match.over:
            self.notify("The match is over here: step back to branch from an earlier point.",
                        severity="warning", timeout=4)
            return
        if self.locked is not None:
            # a branch replays the recorded deck: drawing in it would show the live
            # game's draw pile, which its player must not see
            self.notify("This match is still being played: finish it (or practise it with "
                        "undo) before branching from it.", severity="warning", timeout=5)
            return
        self._stop()
        pos = cursor.position
        prefix = cursor.log_prefix(pos)
        humans = [i for i, k in enumerate(self.kinds) if not k.startswith("bot:")]
        seat = self.locked if self.locked is not None else (humans[0] if humans else 0)
        bots_now = [k[4:] for k in self.kinds if k.startswith("bot:")]

        def chosen(choice: tuple[str, int] | None) -> None:
            if choice is not None:
                level, seat = choice
                self.app.branch_match(self.loaded, prefix, pos, level, seat)

        self.app.push_screen(BranchDialog(bot_levels(), self.names, pos, seat=seat,
                                          seat_fixed=self.locked,
                                          level=bots_now[0] if bots_now else None), chosen)

    def action_help(self) -> None:
        keys = ("→/← one action · shift+→/← one turn · PgDn/PgUp one round · Home/End\n"
                "g go to action N · space autoplay, +/− speed · p all hands / seat views\n"
                "s spoiler-free · b what if: a new practice match from here\n"
                + " · ".join(f"{k}/{k.upper()} {label}" for k, _, _, label in MOMENT_KEYS)
                + "\nq close")
        self.notify(keys, title="Replay keys", timeout=12)

    def action_close(self) -> None:
        self._stop()
        below = self.app.screen_stack[-2] if len(self.app.screen_stack) > 1 else None
        if below is None or type(below) is Screen:  # `unoduo replay`: nothing under it
            self.app.exit(0)
        else:
            self.dismiss(None)

    # -- the command palette ---------------------------------------------------------

    def palette_commands(self) -> Iterable[SystemCommand]:
        for binding in self.BINDINGS:
            name = binding.action.split("(")[0]
            if name in _QUIET:
                continue
            params = binding.action[len(name):].strip("()")
            args = ast.literal_eval(f"({params},)") if params else ()
            if self.check_action(name, args):
                help_text = f"{binding.tooltip} ({binding.key_display or binding.key})"
                yield SystemCommand(f"Replay: {binding.description}", help_text,
                                    partial(self.run_action, binding.action))


class ReplayListScreen(Screen[None]):
    """The menu's Replays: every saved match; Enter watches it."""

    BINDINGS = [Binding("escape,q", "close", "Back", id="replays.back")]

    def compose(self) -> ComposeResult:
        yield Static("Replays — Enter watches a match (an unfinished one only as you saw it)",
                     id="replays-title")
        yield DataTable(id="replays-table", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Started", "Match", "Status", "Moves")
        self.summaries = []
        try:
            self.summaries = [s for s in self.app.store.list() if s.status != "damaged"]
        except Exception as exc:  # show the problem, keep the screen
            self.notify(f"Could not list saved matches: {exc}", severity="error")
        for i, s in enumerate(self.summaries):
            created = s.created.strftime("%Y-%m-%d %H:%M") if s.created else "?"
            table.add_row(created, summary_line(s), s.status, str(s.actions), key=str(i))
        if not self.summaries:
            self.query_one("#replays-title", Static).update("No saved matches to replay yet.")
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        summary = self.summaries[int(event.row_key.value)]
        self.app.open_replay(str(summary.path))

    def action_close(self) -> None:
        self.dismiss(None)
