"""The replay's log: a :class:`GameLog` whose lines can be picked by keyboard, and
stepping that stays instant on a long match (see :class:`ReplayLog`)."""

from __future__ import annotations

from bisect import bisect_left

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.geometry import Size
from textual.strip import Strip

from ..textual_compat import log_size_known
from .gamelog import GameLog

__all__ = ["ReplayLog", "REWRITE", "MAX_ROWS", "MIN_ROWS"]

#: the replay's log: events written afresh after a long jump; the rows it may grow to
#: by stepping (under RichLog's ``max_lines``, whose trimming the line-to-event map
#: does not follow); the rows a step back may leave before it rewrites
REWRITE, MAX_ROWS, MIN_ROWS = 80, 320, 24


class ReplayLog(GameLog, inherit_bindings=False):
    """The replay's log, with a line picked by keyboard: focused (``l``, Tab or ↑ on
    the replay), ↑ / ↓ (PgUp / PgDn, Home / End) pick a line and Enter goes to the
    action it tells — as a click on it does (:class:`GameLog.EventClicked`).  Escape,
    Tab or ``l`` hand the keys back to the replay.

    Only these keys are bound: ← → and the rest still move the replay while the log
    has focus (the picked line stays while it is shown) — except g, Space and p
    (the replay screen's ``WAIT_WHILE_PICKING``), which wait until Done, so the footer has room for
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

    def rows_of(self, event: int) -> range:
        """The lines that tell ``event`` (empty: none shown)."""
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
        rows = self.rows_of(self.picked) if self.picked is not None else range(0)
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
        if steady and mapping is not None and count < self._shown:  # back: drop the lines of what is undone
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
