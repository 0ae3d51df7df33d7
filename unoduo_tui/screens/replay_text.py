"""The replay viewer's lines of text: the status line, the timeline and a branch's
lineage (a mixin of :class:`~unoduo_tui.screens.replay.ReplayScreen`, which owns the
cursor, the names, the perspective and the marks these read)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text

from engine import describe

from ..transcript import played_for
from ..text.words import fit, lineage, practice_mark
from .replay_keys import CLASSIC_LABELS, MOMENT_KEYS, SPEEDS

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.timer import Timer

    from engine.replay import ReplayCursor

    from ..store import Loaded

    _Screen = Screen[None]  # what ReplayText is mixed into
else:
    _Screen = object

__all__ = ["ReplayText"]


class ReplayText(_Screen):
    """What the replay says in words (see the module doc)."""

    if TYPE_CHECKING:  # the replay screen's, read here
        loaded: Loaded
        names: tuple[str, ...]
        cursor: ReplayCursor
        moments: tuple[str, ...]
        locked: int | None
        undos: int
        perspective: int | str
        speed: int
        _timer: Timer | None
        _note: str | None
        spoiler_free: bool
        branched_from: tuple[str, int] | None
        review_on: bool

        def review_words(self) -> str: ...

    def status(self, everything, shown=None) -> Text:
        """The status line, in the screen's width: where the cursor is, the decision
        that led here in the log's words (or a note: "no later Draw 2 volley"), then
        the marks — unfinished, practice, spoiler-free, the autoplay speed — which stay
        in sight at 80 columns: when the sentence does not fit, long names and the
        practice mark take short forms first (with the review on, the perspective
        goes next), then the sentence is cut.
        ``shown``: the view the log shows (default: ``everything``)."""
        width = self.size.width or 80
        shown = everything if shown is None else shown
        short = tuple(fit(n, 10) for n in self.names)
        for names, practice in ((self.names, ""), (short, "practice")):
            head, said, tail = self._status(everything, shown, names, practice)
            room = width - head.cell_len - tail.cell_len
            if cell_len(said) <= room:  # else short names and marks, for more of the sentence
                break
        if self.review_on and room < min(20, cell_len(said)):
            # the review's words leave the sentence little room: the perspective goes
            # (the hands on screen tell it)
            head, said, tail = self._status(everything, shown, short, "practice", False)
            room = width - head.cell_len - tail.cell_len
        text = head
        text.append(fit(said, max(1, room)) if room > 0 else "")
        text.append_text(tail)
        text.truncate(width, overflow="ellipsis")
        return text

    def _status(self, everything, shown, names: tuple[str, ...],
                practice: str = "", perspective: bool = True) -> tuple[Text, str, Text]:
        """The status line's three parts: where, what happened (to be cut to the room
        left), the marks."""
        cursor = self.cursor
        pos = cursor.position
        head = Text(f" {pos}" if self.spoiler_free else f" {pos}/{cursor.count}", "bold")
        # the round the decision was made in (the one that ends a round is still in it)
        head.append(f" · round {cursor.round_at(max(0, pos - 1))} · ")
        said = self._note or (self._decision_words(shown, names) if pos else "the start")
        # who made it, when a bot played for the seat's away player: always in sight
        tail = Text(played_for(self.loaded, cursor, pos, names, short=True) if pos and
                    not self._note else "")
        if everything is not None and everything.draw_pile and not self.review_on:
            tail.append(f" · next {' '.join(c.text for c in everything.draw_pile[:3])}")
        tail.append(self.review_words())  # the review's label (#25), when on
        if perspective:
            view = ("all hands" if not isinstance(self.perspective, int)  # ALL
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
        decision, actor = cursor.decision(), cursor.actor()
        assert decision is not None and actor is not None  # called past the start only
        own = shown.events[cursor.event_count(pos - 1):cursor.event_count(pos)]
        event = next((e for e in own if e.kind == decision.kind), own[0] if own else None)
        if event is None:
            return f"{names[actor]}: {decision}"
        return describe(event, names, None).rstrip(".")

    def lineage(self) -> Text:
        """A what-if branch's header: where it came from (the parent's short id, which
        ``unoduo replay`` takes, and the action it was branched at)."""
        assert self.branched_from is not None  # a branch's header only
        label = f" What if: {lineage(self.branched_from)}"
        return Text(fit(label, self.size.width or 80), "bold")

    @property
    def jumps(self) -> tuple[tuple[str, str, str, str], ...]:
        """:data:`MOMENT_KEYS` of the moments this match can hold, in its preset's words."""
        labels = CLASSIC_LABELS if self.cursor.rules.preset == "classic" else {}
        return tuple((key, kind, mark, labels.get(kind, label))
                     for key, kind, mark, label in MOMENT_KEYS if kind in self.moments)

    def timeline(self) -> Text:
        """The whole match as a bar: the moments marked, the cursor reversed."""
        cursor = self.cursor
        width = max(10, self.size.width - 2)
        count = max(1, cursor.count)
        if self.spoiler_free:  # only the past, to scale; the future is a "?"
            width -= 2
            count = max(1, cursor.position)
        cells = ["─"] * width
        for _, kind, mark, _ in self.jumps:
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
