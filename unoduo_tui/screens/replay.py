"""The replay viewer: a saved match, read-only, step by step on the table's widgets.

The screen owns a :class:`~engine.replay.ReplayCursor` and hands each widget a view
of the position under it: a seat's :class:`PlayerView` (what that seat knew then) or,
for "all hands", the engine's explicit :class:`~engine.replay.OmniscientView`.

An unfinished match opens locked in its human's perspective: the opponent's hand
and the draw pile stay hidden, so a replay is never a way to peek at a game still
being played.

The log is a list to pick from: a click on a line, or ``l`` (Tab, ↑) then ↑ / ↓ and
Enter, goes to the action that line tells.  Spoiler-free (``s``, ``unoduo replay
--spoiler-free``, ``s`` in the lists) hides the match's length, its future moments
and its result, and opens at the start.
"""

from __future__ import annotations

import ast
import os
from bisect import bisect_left
from functools import partial
from typing import Iterable

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Vertical
from textual.geometry import Size
from textual.screen import ModalScreen, Screen
from textual.strip import Strip
from textual.widgets import DataTable, Input, Static

from engine import describe
from engine.replay import ALL, ReplayCursor

from ..dialogs import BranchDialog, OwnKeys
from ..plan import bot_levels
from ..store import parent_of
from ..text import printable
from ..textual_compat import AnswerOnce, log_size_known
from ..widgets import Discard, Footer, GameLog, Hand, ScoreSheet, Seats, table_row
from .menu import fit, lineage, practice_mark
from .saved import MatchTable, list_bindings

__all__ = ["ReplayScreen", "ReplayListScreen", "ReplayLog", "GoToAction",
           "SPEEDS", "MOMENT_KEYS"]

#: autoplay speeds, in actions a second
SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)

#: jump key (next; the capital goes back), the moment, its timeline mark
MOMENT_KEYS = (("v", "volley", "2", "Draw 2 volley"), ("o", "dump", "R", "Reverse dump"),
               ("c", "challenge", "!", "W+4 challenge"), ("x", "catch", "x", "UNO catch"),
               ("e", "round", "|", "round end"))

#: the replay's log: events written afresh after a long jump; the rows it may grow to
#: by stepping (under RichLog's ``max_lines``, whose trimming the line-to-event map
#: does not follow); the rows a step back may leave before it rewrites
REWRITE, MAX_ROWS, MIN_ROWS = 80, 320, 24

#: keys that wait while a line of the log is picked: asking (g), moving on their own
#: (Space), rewriting the log (p)
WAIT_WHILE_PICKING = frozenset({"goto", "autoplay", "perspective"})

#: bindings that are only cursor movement: no palette entry
_QUIET = {"step", "turn", "round"}
_QUIET_IDS = {"replay.log_up"}  # the palette's "Log" entry does what ↑ does, and more


class ReplayLog(GameLog, inherit_bindings=False):
    """The replay's log, with a line picked by keyboard: focused (``l``, Tab or ↑ on
    the replay), ↑ / ↓ (PgUp / PgDn, Home / End) pick a line and Enter goes to the
    action it tells — as a click on it does (:class:`GameLog.EventClicked`).  Escape,
    Tab or ``l`` hand the keys back to the replay.

    Only these keys are bound: ← → and the rest still move the replay while the log
    has focus (the picked line stays while it is shown) — except g, Space and p
    (:data:`WAIT_WHILE_PICKING`), which wait until Done, so the footer has room for
    the log's keys at 80 columns.

    A step must stay instant on a long match, so the current action's highlight (and
    the picked line) are drawn as the lines are, never written into them: a step
    forward writes only that action's lines, a step back drops them, and only a long
    jump rewrites the last :data:`REWRITE` events."""

    COMPONENT_CLASSES = {"replay-log--picked"}

    DEFAULT_CSS = """
    ReplayLog > .replay-log--picked { background: $accent; color: $text; text-style: bold; }
    ReplayScreen ReplayLog:focus { border: round $accent; border-title-color: $accent; }
    """

    BINDINGS = [
        Binding("up", "pick(-1)", "Line", id="replay.log.up", key_display="↑↓",
                tooltip="The line before"),
        Binding("down", "pick(1)", "Next line", id="replay.log.down", show=False,
                tooltip="The line after"),
        Binding("pageup", "pick(-8)", "Earlier lines", id="replay.log.page_up", show=False),
        Binding("pagedown", "pick(8)", "Later lines", id="replay.log.page_down",
                show=False),
        Binding("home", "pick_edge(0)", "First line", id="replay.log.first", show=False),
        Binding("end", "pick_edge(1)", "Last line", id="replay.log.last", show=False),
        Binding("enter", "jump", "Go there", id="replay.log.jump", key_display="⏎",
                tooltip="Go to the action this line tells"),
        Binding("escape,tab,l", "done", "Done", id="replay.log.done", key_display="esc",
                tooltip="Back to the replay's keys"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._first = 0  # the first event written since the last rewrite
        self.can_focus = False  # until picked: its keys would take ↑ ↓ Home End
        #: the picked line's event (an index into the view's events), while focused
        self.picked: int | None = None

    # -- which lines ---------------------------------------------------------------

    def _events(self) -> list[int]:
        """The events the log shows, in order (one per sentence, however wrapped);
        empty when its lines are not mapped (before the first action, or unsized)."""
        mapping = self._line_event
        if mapping is None or self._current is None or len(mapping) != len(self.lines):
            return []
        return list(dict.fromkeys(mapping))

    def _rows(self, event: int) -> range:
        mapping = self._line_event or []
        rows = [i for i, e in enumerate(mapping) if e == event]
        return range(rows[0], rows[-1] + 1) if rows else range(0)

    @property
    def can_pick(self) -> bool:
        return bool(self._events())

    # -- picking -------------------------------------------------------------------

    def start_picking(self, delta: int = 0) -> bool:
        """Take the keys, the newest line picked (then ``delta`` lines away); False
        when there is nothing to pick."""
        events = self._events()
        if not events:
            return False
        self.can_focus = True
        self.focus()
        if self.picked not in events:
            self.picked = events[-1]
        self.action_pick(delta)
        self._reveal()
        return True

    def action_pick(self, delta: int) -> None:
        events = self._events()
        if not events:
            return
        here = events.index(self.picked) if self.picked in events else len(events) - 1
        there = max(0, min(len(events) - 1, here + delta))
        if delta and there == here:
            self.app.bell()
        self._pick(events[there])

    def action_pick_edge(self, last: int) -> None:
        events = self._events()
        if events:
            self._pick(events[-1 if last else 0])

    def _pick(self, event: int) -> None:
        self.picked = event
        self._reveal()
        self.refresh()

    def _reveal(self) -> None:
        """Scroll the picked line into sight."""
        rows = self._rows(self.picked) if self.picked is not None else range(0)
        if not rows:
            return
        top = int(self.scroll_offset.y)
        height = max(1, self.scrollable_content_region.height)
        if rows[0] < top:
            self.scroll_to(y=rows[0], animate=False)
        elif rows[-1] >= top + height:
            self.scroll_to(y=min(rows[0], rows[-1] - height + 1), animate=False)

    def action_jump(self) -> None:
        if self.picked is not None and self.picked in self._events():
            self.post_message(self.EventClicked(self, self.picked))

    def action_done(self) -> None:
        self.screen.set_focus(None)
        self.can_focus = False
        self.refresh()

    # -- drawing -------------------------------------------------------------------

    def show(self, view, current: int | None = None) -> None:
        """The events up to the cursor, the current action's from index ``current``
        on highlighted (see the class doc: only what changed is written)."""
        self._view = view
        events = view.events
        count = len(events)
        mapping = self._line_event
        width = self.scrollable_content_region.width
        steady = (log_size_known(self) and mapping is not None and view.seat == self._seat
                  and len(mapping) == len(self.lines) and width == self._width
                  and count - self._shown <= REWRITE and len(self.lines) <= MAX_ROWS)
        if steady and count < self._shown:  # back: drop the lines of what is undone
            keep = bisect_left(mapping, count)
            if keep >= MIN_ROWS or self._first == 0:
                del self.lines[keep:], mapping[keep:]
                self._shown = count
                self.virtual_size = Size(self.virtual_size.width, len(self.lines))
                self.scroll_end(animate=False, immediate=False, x_axis=False)
            else:
                steady = False
        if not steady:
            self.clear()
            self._line_event = [] if log_size_known(self) else None
            self._seat, self._width = view.seat, width
            self._shown = self._first = max(0, count - REWRITE)
        self._current = None  # GameLog writes it unhighlighted: it is drawn, below
        super().show(view, None)
        self._current = current
        self.refresh()
        if self.has_focus:  # the picked line stays while the log shows it
            events_shown = self._events()
            if self.picked not in events_shown:
                self.picked = events_shown[-1] if events_shown else None
            self._reveal()

    def on_blur(self) -> None:
        self.refresh()

    def on_focus(self) -> None:
        self.refresh()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.scrollable_content_region.width
        if row >= len(self.lines):
            return Strip.blank(width, self.rich_style)
        line = self.lines[row]
        mapping = self._line_event
        event = mapping[row] if mapping is not None and row < len(mapping) else None
        picked = (event is not None and event == self.picked and self.has_focus)
        if picked:  # a bar the whole width: not reversed, underlined
            line = line.crop_extend(scroll_x, scroll_x + width, self.rich_style)
            return _styled(line, self.get_component_rich_style("replay-log--picked")
                           + Style(reverse=False, underline=True), pad=True)
        if event is not None and self._current is not None and event >= self._current:
            line = _styled(line, Style(reverse=True), pad=False)
        return line.crop_extend(scroll_x, scroll_x + width, self.rich_style).apply_style(
            self.rich_style)


def _styled(line: Strip, style: Style, pad: bool) -> Strip:
    """``line`` with ``style`` over its own; ``pad``: its blank end too."""
    segments = list(line)
    end = len(segments)
    if not pad:  # GameLog's highlight covered the words, not the padding after them
        while end and segments[end - 1].style is None and segments[end - 1].text.isspace():
            end -= 1
    return Strip([Segment(seg.text, (seg.style or Style()) + style, seg.control) if i < end
                  else seg for i, seg in enumerate(segments)], line.cell_length)


class GoToAction(AnswerOnce, OwnKeys, ModalScreen[int | None]):
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


class ReplayScreen(AnswerOnce, Screen[None]):
    """One saved match, watched again (never written to)."""

    DEFAULT_CSS = """
    ReplayScreen {
        layout: vertical;
        #seats { background: $boost; }
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
        #replay-lineage { height: 1; background: $boost; color: $text-muted; }
        #replay-status { height: 1; background: $primary-muted; color: $foreground;
                         text-style: bold; }
    }
    GoToAction #goto-input { margin-bottom: 1; }
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
        Binding("l,tab", "log", "Log", id="replay.log", key_display="l",
                tooltip="Pick a line of the log (↑ ↓, Enter goes there; Escape: done)"),
        Binding("up", "log(-1)", "Log: the line before", id="replay.log_up", show=False,
                tooltip="Pick the log's line before this action"),
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

    def __init__(self, loaded, *, every: int = 200, lock: bool = False,
                 spoiler_free: bool = False) -> None:
        super().__init__()
        header = loaded.header
        seats = loaded.seats
        self.loaded = loaded
        self.names: tuple[str, ...] = tuple(printable(s.name) for s in seats)
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
        self._note: str | None = None  # said on the status line until the next move
        #: hide what lies ahead: the length, the future moments, the final scores
        self.spoiler_free = spoiler_free
        if spoiler_free:  # the end is the spoiler: start at the start
            self.cursor.start()
        self.branched_from = parent_of(header)

    @classmethod
    def open(cls, store, ref: "str | os.PathLike", *,
             spoiler_free: bool = False) -> "ReplayScreen":
        """Load ``ref`` read-only; a hot-seat match still being played is refused.
        ``spoiler_free``: open it spoiler-free."""
        loaded = store.open(ref, read_only=True)
        humans = [s for s in loaded.seats if not s.is_bot]
        if not loaded.match.over and len(humans) > 1:
            raise ValueError("this hot-seat match is still being played: finish it first "
                             "(a replay would show one player the other's hand)")
        return cls(loaded, lock=cls._parent_unfinished(store, loaded),
                   spoiler_free=spoiler_free)

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
        yield Static(id="replay-lineage")
        yield Seats(id="seats")
        yield Static(id="others")
        yield from table_row(ReplayLog(id="log"))
        yield Hand(id="hand")
        yield Static(id="timeline")
        yield Static(id="replay-status")
        yield Footer()

    def on_mount(self) -> None:
        for widget in (self.query_one(Discard), self.query_one(GameLog),
                       self.query_one(ScoreSheet)):
            widget.name_seats(self.names, say_you=False)
        hand = self.query_one(Hand)
        hand.read_only = True
        self.query_one("#replay-lineage").display = self.branched_from is not None
        if self.locked is not None:
            self.notify("This match is not finished: you see it as "
                        f"{self.names[self.locked]} saw it.", title="Replay", timeout=5)
        self.show()
        self.call_after_refresh(self.show)  # once the log knows its width: lines to events

    def on_game_log_event_clicked(self, message: GameLog.EventClicked) -> None:
        """A click on a line of the log, or Enter on the line picked in it: go to the
        action that line tells."""
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
        opponent = self.query_one(Seats)
        others = self.query_one("#others", Static)
        opponent.display = everything is None
        others.display = everything is not None
        if everything is None:
            opponent.name_seats(self.names, say_you=False)
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
        if self.branched_from is not None:
            self.query_one("#replay-lineage", Static).update(self.lineage())
        self.query_one("#replay-status", Static).update(
            self.status(everything, everything if everything is not None else mine))
        self._note = None  # said once: the next move says what it did
        self.refresh_bindings()

    def status(self, everything, shown=None) -> Text:
        """The status line, in the screen's width: where the cursor is, the decision
        that led here in the log's words (or a note: "no later Draw 2 volley"), then
        the marks — unfinished, practice, spoiler-free, the autoplay speed — which stay
        in sight at 80 columns: when the sentence does not fit, long names and the
        practice mark take short forms first, then the sentence is cut.
        ``shown``: the view the log shows (default: ``everything``)."""
        width = self.size.width or 80
        shown = everything if shown is None else shown
        for names, practice in ((self.names, ""),
                                (tuple(fit(n, 10) for n in self.names), "practice")):
            head, said, tail = self._status(everything, shown, names, practice)
            room = width - head.cell_len - tail.cell_len
            if cell_len(said) <= room:  # else short names and marks, for more of the sentence
                break
        text = head
        text.append(fit(said, max(1, room)) if room > 0 else "")
        text.append_text(tail)
        text.truncate(width, overflow="ellipsis")
        return text

    def _status(self, everything, shown, names: tuple[str, ...],
                practice: str = "") -> tuple[Text, str, Text]:
        """The status line's three parts: where, what happened (to be cut to the room
        left), the marks."""
        cursor = self.cursor
        pos = cursor.position
        head = Text(f" {pos}" if self.spoiler_free else f" {pos}/{cursor.count}", "bold")
        # the round the decision was made in (the one that ends a round is still in it)
        head.append(f" · round {cursor.round_at(max(0, pos - 1))} · ")
        said = self._note or (self._decision_words(shown, names) if pos else "the start")
        tail = Text()
        if everything is not None and everything.draw_pile:
            tail.append(f" · next {' '.join(c.text for c in everything.draw_pile[:3])}")
        view = ("all hands" if self.perspective == ALL
                else f"{names[self.perspective]}'s view")
        tail.append(f" · {view}")
        if self.locked is not None:
            tail.append(" (unfinished)")
        if self.undos:
            tail.append(f" · {practice or practice_mark(self.undos)}")
        if self.spoiler_free:
            tail.append(" · spoiler-free")
        if self._timer is not None:
            tail.append(f" · ▶ {SPEEDS[self.speed]:g}/s")
        return head, said, tail

    def _decision_words(self, shown, names: tuple[str, ...]) -> str:
        """The decision that led here, as the log tells it (its own event, seen as the
        log shows it), without the full stop."""
        cursor = self.cursor
        pos = cursor.position
        decision = cursor.decision()
        own = shown.events[cursor.event_count(pos - 1):cursor.event_count(pos)]
        event = next((e for e in own if e.kind == decision.kind), own[0] if own else None)
        if event is None:
            return f"{names[cursor.actor()]}: {decision}"
        return describe(event, names, None).rstrip(".")

    def lineage(self) -> Text:
        """A what-if branch's header: where it came from (the parent's short id, which
        ``unoduo replay`` takes, and the action it was branched at)."""
        label = f" What if: {lineage(self.branched_from)}"
        return Text(fit(label, self.size.width or 80), "bold")

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
        if action in WAIT_WHILE_PICKING and self.query_one(ReplayLog).has_focus:
            return False
        cursor = self.cursor
        pos, count = cursor.position, cursor.count
        forward = parameters and isinstance(parameters[-1], int) and parameters[-1] > 0
        if action in ("step", "turn", "round", "moment"):
            if action == "moment":  # always answers: a jump, or "no later …" said
                return True
            return True if (pos < count if forward else pos > 0) else None
        if action == "edge":
            return True if (pos < count if parameters[0] else pos > 0) else None
        if action == "perspective":
            return True if self.locked is None else None
        if action == "log":
            return True if self.query_one(ReplayLog).can_pick else None
        if action == "branch":  # not from a game still in play: it would show its pile
            return True if not cursor.match.over and self.locked is None else None
        if action == "speed":
            return True if self._timer is not None else None
        return True

    def _moment_there(self, kind: str, direction: int) -> bool:
        """Whether a ``kind`` moment lies that way (the palette offers only those; ahead,
        spoiler-free, always: whether one lies ahead is a spoiler — try and see)."""
        if self.spoiler_free and direction > 0:
            return True
        pos, marks = self.cursor.position, self.cursor.moments(kind)
        return any(p > pos for p in marks) if direction > 0 else any(p < pos for p in marks)

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
            label = next(label for _, k, _, label in MOMENT_KEYS if k == kind)
            self._note = f"no {'later' if direction > 0 else 'earlier'} {label}"
        self._moved()

    def action_log(self, delta: int = 0) -> None:
        """``l`` / Tab (↑: the line before too): pick a line of the log by keyboard."""
        self._stop()
        if not self.query_one(ReplayLog).start_picking(delta):
            self.app.bell()

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
                "l (or Tab, ↑) pick a log line: ↑/↓, Enter goes there, Escape done\n"
                + " · ".join(f"{k}/{k.upper()} {label}" for k, _, _, label in MOMENT_KEYS)
                + "\nq close")
        self.notify(keys, title="Replay keys", timeout=12)

    def action_close(self) -> None:
        self._stop()
        if len(self.app.screen_stack) == 1:  # `unoduo replay`: nothing under it
            self.app.exit(0)
        else:
            self.dismiss(None)

    # -- the command palette ---------------------------------------------------------

    def palette_commands(self) -> Iterable[SystemCommand]:
        for binding in self.BINDINGS:
            name = binding.action.split("(")[0]
            if name in _QUIET or binding.id in _QUIET_IDS:
                continue
            params = binding.action[len(name):].strip("()")
            args = ast.literal_eval(f"({params},)") if params else ()
            if self.check_action(name, args) and (name != "moment"
                                                  or self._moment_there(*args)):
                help_text = f"{binding.tooltip} ({binding.key_display or binding.key})"
                yield SystemCommand(f"Replay: {binding.description}", help_text,
                                    partial(self.run_action, binding.action))


class ReplayListScreen(MatchTable):
    """The menu's Replays: every saved match; Enter watches it (``s``: spoiler-free —
    the finished matches' rounds, scores and length hidden, each watched from its
    start with its end hidden)."""

    DEFAULT_CSS = """
    ReplayListScreen #replays-title { text-style: bold; color: $accent; padding: 0 1; }
    ReplayListScreen #replays-table { height: 1fr; }
    """

    BINDINGS = list_bindings("replays")

    ID = "replays"
    PALETTE = "Replays"
    TITLE_TEXT = "Replays — Enter watches a match (an unfinished one only as you saw it)"
    SPOILER_FREE_TEXT = "Replays, spoiler-free — Enter watches a match from its start"
    EMPTY_TEXT = "No saved matches to replay yet."

    def listed(self, summaries) -> list:
        return [s for s in summaries if s.status != "damaged"]

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.watch(self.summaries[int(event.row_key.value)])
