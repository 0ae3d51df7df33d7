"""The replay viewer's review (#25): ``a`` turns it on (and, while it is still being
computed, off: the computation stops); ``m`` / ``M`` go to the next / previous mistake
or blunder (of the perspective's seat; all hands: any seat's).

The review is computed off the event loop (a thread worker running
:func:`~unoduo_tui.review.run.run_review`, its seats in processes) with a progress bar;
each decision is shown as it comes.  The status line says the label of the decision
at the cursor, its loss and the best move; a curve of the bottom seat's win chance
runs under the timeline, drawn on an absolute 0–100 scale (Textual's ``Sparkline``
scales each curve to its own minimum and maximum, so 48 → 52 would look like a
collapse) and, spoiler-free, only up to the cursor.  A mixin of
:class:`~unoduo_tui.screens.replay.ReplayScreen`: it reads its cursor, perspective
and spoiler-free flag.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.containers import Horizontal
from textual.widgets import ProgressBar, Static
from textual.worker import Worker, get_current_worker

from engine.replay import ALL
from engine.review import Decision, curves
from engine.review_words import action_words

from .run import Cancelled, run_review

if TYPE_CHECKING:  # pragma: no cover
    from textual.app import ComposeResult
    from textual.screen import Screen

    from engine.replay import ReplayCursor

    from ..store import Loaded

    _Screen = Screen[None]  # what ReviewPane is mixed into
else:
    _Screen = object

__all__ = ["ReviewPane", "curve_text", "MISTAKES"]

#: the labels ``m`` / ``M`` stop at
MISTAKES = ("mistake", "blunder")
_BARS = "▁▂▃▄▅▆▇█"


def curve_text(values_at: list[float | None], width: int, here: int | None) -> Text:
    """A win-chance curve as bars (0–100 on an absolute scale), one cell per column
    (``None``: nothing reviewed yet there), the cursor's column reversed."""
    text = Text("▕")
    for col in range(width):
        v = values_at[col] if col < len(values_at) else None
        cell = " " if v is None else _BARS[min(7, int(v * 8 / 100.0001))]
        text.append(cell, "reverse bold" if col == here else "")
    text.append("▏")
    return text


class ReviewPane(_Screen):
    """The review's state and keys for the replay screen (see the module doc)."""

    if TYPE_CHECKING:  # the replay screen's, used here
        loaded: Loaded
        names: tuple[str, ...]
        cursor: ReplayCursor
        perspective: int | str
        locked: int | None
        spoiler_free: bool

        @property
        def bottom(self) -> int: ...
        def show(self) -> None: ...
        def _stop(self) -> None: ...

    review_on: bool = False
    #: reviewed decisions by their step (the cursor position before them)
    reviewed: dict[int, Decision]
    review_total: int | None = None
    review_done: bool = False
    _review_worker: Worker | None = None
    _note: str | None  # the replay screen's note on its status line, set here too

    @property
    def review_running(self) -> bool:
        """The review is working out decisions now (a worker runs)."""
        return self._review_worker is not None

    def compose_review(self) -> "ComposeResult":
        with Horizontal(id="review-row"):
            yield Static(id="review-curve")
            yield ProgressBar(id="review-progress", show_eta=False)

    # -- keys ------------------------------------------------------------------------

    def action_review(self) -> None:
        if self.review_on and self._review_worker is not None and not self.review_done:
            self._review_worker.cancel()
            self._review_worker = None
            self.review_on = False
            self._note = "review stopped"
        else:
            self.review_on = not self.review_on
            if self.review_on and not self.review_done and self._review_worker is None:
                self._start_review()
        self.show()

    def action_mistake(self, direction: int) -> None:
        pos = self.cursor.position
        marks = self.mistake_positions()
        ahead = [p for p in marks if p > pos] if direction > 0 else [p for p in marks if p < pos]
        if not ahead:
            self.app.bell()
            self._note = f"no {'later' if direction > 0 else 'earlier'} mistake" + (
                "" if self.review_done else " reviewed yet")
        else:
            self._stop()
            self.cursor.goto(ahead[0] if direction > 0 else ahead[-1])
        self.show()

    def mistake_positions(self) -> list[int]:
        """The cursor positions just after each mistake or blunder of the seat shown."""
        seat = None if self.perspective == ALL else self.perspective
        return sorted(d.step + 1 for d in self.reviewed.values()
                      if d.label in MISTAKES and (seat is None or d.seat == seat))

    # -- the computation -----------------------------------------------------------------

    def review_seats(self) -> tuple[int, ...]:
        return ((self.locked,) if self.locked is not None
                else tuple(range(len(self.names))))

    def _start_review(self) -> None:
        self.reviewed = {}
        self.review_total = None
        self._review_worker = self.run_worker(self._compute, thread=True, group="review",
                                              exclusive=True, exit_on_error=False)

    def _compute(self) -> None:
        worker = get_current_worker()
        app = self.app

        def progress(done: int, total: int, d: Decision | None) -> None:
            if not worker.is_cancelled:
                app.call_from_thread(self._reviewed_one, done, total, d)

        try:
            run_review(self.loaded, self.review_seats(), progress=progress,
                       cancelled=lambda: worker.is_cancelled)
        except Cancelled:
            return
        except (RuntimeError, ValueError, OSError) as exc:  # said, not a traceback
            if not worker.is_cancelled:
                app.call_from_thread(self._review_failed, str(exc))
            return
        if not worker.is_cancelled:
            app.call_from_thread(self._review_finished)

    def _review_failed(self, why: str) -> None:
        self._review_worker = None
        self.review_on = False
        self.notify(f"The review stopped: {why}", title="Review", severity="error",
                    timeout=8)
        self.show()

    def _reviewed_one(self, done: int, total: int, d: Decision | None) -> None:
        self.review_total = total
        if d is not None:
            self.reviewed[d.step] = d
        self._progress()
        if self.review_on:
            self.show()

    def _progress(self) -> None:
        """The progress bar: done of the total — spoiler-free, without a total (it is
        the match's length): only that the review is working."""
        bar = self.query_one("#review-progress", ProgressBar)
        if self.spoiler_free:
            bar.update(total=None)
        else:
            bar.update(total=max(1, self.review_total or 1), progress=len(self.reviewed))

    def _review_finished(self) -> None:
        self.review_done = True
        self._review_worker = None
        self.show()

    def stop_review(self) -> None:
        if self._review_worker is not None:
            self._review_worker.cancel()
            self._review_worker = None

    # -- what is shown ---------------------------------------------------------------

    def show_review(self) -> None:
        """The curve row: shown while the review is on (the timeline's place)."""
        row = self.query_one("#review-row")
        row.display = self.review_on
        self.query_one("#review-progress").display = self.review_on and not self.review_done
        if not self.review_on:
            return
        if not self.review_done:
            self._progress()  # spoiler-free may have been turned on or off
        cursor = self.cursor
        width = max(10, self.size.width - 2 - (0 if self.review_done else 22))
        count = max(1, cursor.count)
        if self.spoiler_free:  # the past only, to scale (as the timeline)
            count = max(1, cursor.position)
        seat = self.bottom
        ds = sorted(self.reviewed.values(), key=lambda d: d.step)
        curve = curves(ds, len(self.names))[seat] if ds else ()
        at: list[float | None] = [None] * width
        k = 0
        last: float | None = None
        # still computing: nothing drawn past the last decision reviewed so far
        reach = count if self.review_done or not ds else ds[-1].step + 1
        for col in range(width):
            end = (col + 1) * count // width  # positions up to here
            if (self.spoiler_free and end > cursor.position) or col * count // width >= reach:
                break
            while k < len(ds) and ds[k].step + 1 <= end:
                last = curve[k]
                k += 1
            at[col] = last
        here = min(width - 1, cursor.position * width // count) if cursor.count else 0
        self.query_one("#review-curve", Static).update(curve_text(at, width, here))

    def review_words(self) -> str:
        """The status line's review part for the decision at the cursor."""
        if not self.review_on:
            return ""
        pos = self.cursor.position
        d = self.reviewed.get(pos - 1) if pos else None
        if d is None:
            if not self.review_done:  # spoiler-free: the total is the match's length
                return (" · reviewing…" if self.spoiler_free else
                        f" · reviewing {len(self.reviewed)}/{self.review_total or '…'}")
            return " · not reviewed"
        if d.label in ("best", "forced"):
            return f" · {d.label}"
        return f" · {d.label} −{d.loss:.0f}, best: {action_words(d.best)}"
