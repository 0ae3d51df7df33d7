"""The game log: the events this seat may see, as short sentences, newest at the bottom."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Self, Sequence

from rich.text import Text
from textual import events
from textual.geometry import Region
from textual.message import Message

from engine import PlayerView, describe
from engine.events import Draw, Event, Play

from ..textual_compat import log_size_known, rich_log_class, update_scrollbars
from .names import SeatNames

if TYPE_CHECKING:  # the replay viewer's: not imported for the table's first frame (#22)
    from engine.replay import OmniscientView

__all__ = ["GameLog", "effect_note", "play_goes"]

_KEEP = 200  # lines rewritten when the viewer changes (hot-seat) or a match is resumed
_KEEP_HIGHLIGHTED = 80  # a replay rewrites them each step: ~7 ms, not ~20
_QUIET = {"first"}


def _skipped(seat: int, names: Sequence[str], viewer: int | None) -> str:
    return "You are skipped." if seat == viewer else f"{names[seat]} is skipped."


def play_goes(seat: int, direction: int, names: Sequence[str], viewer: int | None,
              shown: int = 4) -> str:
    """"Ann → Dan → Cal → …": the order of play from ``seat`` in ``direction``."""
    n = len(names)
    order = [(seat + i * direction) % n for i in range(min(n, shown))]
    text = " → ".join("you" if s == viewer else names[s] for s in order)
    return text + (" → …" if n > shown else f" → {'you' if seat == viewer else names[seat]}")


def effect_note(event: Event, after: Event | None, names: Sequence[str],
                viewer: int | None, wd4_by: int | None = None, stack4: bool = False) -> str:
    """What a "next seat" card did to whom, said after the event's own sentence (three
    or more seats, C6 / C8; two seats need no telling): a Skip or a Draw 2 taken
    skips the next seat, a Reverse turns the order round, a Wild Draw 4 asks the
    next seat to draw 4 or challenge (a demand: it has not happened yet).  ``after``:
    the event that followed (none when the card went out); ``wd4_by``: who played
    the Wild Draw 4 a challenge is about; ``stack4``: a Wild Draw 4 may be stacked on
    (H2), which the demand says too."""
    n = len(names)
    if n < 3:
        return ""
    if event.kind == "challenge" and wd4_by is not None:
        whose = "your" if wd4_by == viewer else f"{names[wd4_by]}'s"
        return f"(It was {whose} Wild Draw 4.)"
    if event.seat is None:
        return ""  # a seat's move only, below
    if isinstance(event, Draw) and event.why in ("draw2", "wd4", "volley"):
        return _skipped(event.seat, names, viewer)
    if not isinstance(event, Play) or not event.cards or event.next_seat is None:
        return ""
    if after is not None and after.kind == "round_end":
        return ""  # the card went out: the round is over
    seat, nxt, rank = event.seat, event.next_seat, event.cards[0].rank
    if rank == "S":
        return _skipped(nxt, names, viewer)
    if rank == "R":
        before = 1 if (nxt - seat) % n == 1 else -1
        order = play_goes(seat, -before, names, viewer)
        return f"Reverse: play goes {order}" + ("" if order.endswith("…") else ".")
    if rank == "W+4" and event.total > 4:  # H2: stacked on a volley, never challenged
        return (f"You face +{event.total}." if nxt == viewer
                else f"{names[nxt]} faces +{event.total}.")
    if rank == "W+4":  # what is asked of them, not yet what they did
        what = "draw 4, stack a Wild Draw 4 or challenge" if stack4 else "draw 4 or challenge"
        return f"You must {what}." if nxt == viewer else f"{names[nxt]} must {what}."
    return ""


if TYPE_CHECKING:
    from textual.widgets import RichLog
else:
    RichLog = rich_log_class()


class GameLog(SeatNames, RichLog):
    """Shows ``view.events`` described for ``view.seat`` (seat names: :class:`SeatNames`).

    With a highlight (replays) it also knows which event each line tells, and a click
    on a line posts :class:`GameLog.EventClicked`.

    Its scrollbar is always shown (``overflow-y: scroll``), so new lines never change
    its layout: what :meth:`show` writes is drawn in the same screen update as the
    rest of the move, scrolled to the end at once, with no relayout of the screen
    (#22: RichLog's growing ``virtual_size`` asked for one with every line, and its
    scroll to the end came a screen update later)."""

    BORDER_TITLE = "Log"
    DEFAULT_CSS = "GameLog { overflow-y: scroll; }"

    @dataclass
    class EventClicked(Message):
        """A line of the log was clicked: ``index`` is its event's index in the view."""

        log: "GameLog"
        index: int

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, max_lines=400, auto_scroll=True,
                         min_width=10)
        self._seat: int | None = None
        self._shown = 0
        self._current: int | None = None  # the first highlighted event (replays)
        self._line_event: list[int] | None = None  # each line's event (None: not known)
        self._view: PlayerView | OmniscientView | None = None  # the view last shown
        self._width = 0  # the width its lines were wrapped to
        self._wd4_by: int | None = None  # who played the last Wild Draw 4 shown
        self._writing = False  # in show(): a relayout asked for is a scrollbar update

    @property
    def seat(self) -> int | None:
        """The seat whose view the log tells (``None``: none shown yet)."""
        return self._seat

    @property
    def highlighted(self) -> int | None:
        """The first event shown highlighted (a replay's current action), or ``None``."""
        return self._current

    @property
    def line_events(self) -> tuple[int, ...] | None:
        """Each line's event index (``None``: the lines are not mapped yet)."""
        return None if self._line_event is None else tuple(self._line_event)

    @property
    def events_shown(self) -> int:
        """How many of the view's events the log has told."""
        return self._shown

    @property
    def wrapped_to(self) -> int:
        """The width its lines were wrapped to."""
        return self._width

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> Self:
        if layout and self._writing:  # the virtual size grew: only the scrollbar moves
            update_scrollbars(self)
            layout = False
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def show(self, view: PlayerView | OmniscientView, current: int | None = None) -> None:
        """Add the events not shown yet.  ``current`` (replays): the index of the first
        event of the action under the cursor — its lines are highlighted, so the log is
        rewritten (its last ``_KEEP_HIGHLIGHTED`` lines) whenever the highlight moves."""
        self._writing = True
        try:
            wrote = self._show(view, current)
        finally:
            self._writing = False
        if wrote and log_size_known(self):
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def _show(self, view: PlayerView | OmniscientView, current: int | None) -> bool:
        events = view.events
        highlighted = self._current
        self._view = view
        width = self.scrollable_content_region.width
        if (view.seat != self._seat or len(events) < self._shown
                or log_size_known(self) and width != self._width
                or (current is not None or highlighted is not None)
                and ((current, len(events)) != (highlighted, self._shown)
                     or self._line_event is None and log_size_known(self))):
            self.clear()
            wrote = True
            self._line_event = [] if log_size_known(self) else None
            self._seat, self._width = view.seat, width
            self._shown = max(0, len(events) - (_KEEP if current is None else _KEEP_HIGHLIGHTED))
        else:
            wrote = False
        self._current = current
        viewer = view.seat if self.say_you else None
        stack4 = view.rules.stack_draw4 not in (None, "off")  # H2
        for i, event in enumerate(events[self._shown:], self._shown):
            if event.kind == "play" and event.cards:
                self._wd4_by = event.seat if event.cards[0].rank == "W+4" else self._wd4_by
            if event.kind in _QUIET:
                continue
            text = describe(event, self.names, viewer)
            note = effect_note(event, events[i + 1] if i + 1 < len(events) else None,
                               self.names, viewer, self._wd4_by, stack4)
            if note:
                text = f"{text} {note}"
            if event.kind in ("round", "round_end", "match_end"):
                line = Text(text, "bold")
            elif event.kind in ("catch", "challenge") or event.uno:
                line = Text(text, "italic")
            else:
                line = Text(text)
            if current is not None and i >= current:
                line.stylize("reverse")
            before = len(self.lines)
            # written now, scrolled once after (show); deferred until the size is
            # known, scrolled as it is written then
            self.write(line, scroll_end=None if not log_size_known(self) else False)
            wrote = True
            if self._line_event is not None:
                self._line_event.extend([i] * (len(self.lines) - before))
        self._shown = len(events)
        return wrote

    def on_resize(self, event: events.Resize) -> None:
        """Lines are wrapped as they are written: a new width writes them again, the
        newest in sight."""
        if self._view is not None and self.scrollable_content_region.width != self._width:
            self.call_after_refresh(self._rewrap)

    def _rewrap(self) -> None:
        if self._view is not None:
            self.show(self._view, self._current)
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        mapping = self._line_event
        if offset is None or mapping is None or self._current is None:
            return
        line = offset.y + int(self.scroll_offset.y)
        if 0 <= line < len(mapping) and len(mapping) == len(self.lines):
            self.post_message(self.EventClicked(self, mapping[line]))
