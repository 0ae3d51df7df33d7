"""Stats: a player's record at a glance, their rating over time, their points per round
and their record against each opponent — one tab each, readable at 80×24.

Under ``unoduo serve`` the index is the server's: the screen shows the player's own
record (their key's), the lobby's leaderboard where they stand among the others.

The record is read in a worker thread (the index is refreshed from the saves first,
which after a lost index may take a while: "Counting your matches…").  The plots are
textual-plotext's (plotext draws with block characters, so they read the same with
``NO_COLOR``).  ``p`` goes to the next player (every human of the index, per game).
"""

from __future__ import annotations

import os

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static, TabbedContent, TabPane

from ..app_link import unoduo
from ..textual_compat import AnswerOnce
from ..widgets.footer import Footer
from .saved import MatchTable

__all__ = ["StatsScreen", "TABS", "histogram_bins"]

#: the tabs, in order: (id, title)
TABS = (("record", "Record"), ("rating", "Rating"), ("points", "Points"),
        ("opponents", "Opponents"))


_NO_RATING = "No rated match yet (practice matches and what-if branches are not rated)."
_NO_ROUND = "No round played yet."


def histogram_bins(values: list[int], most: int = 10) -> tuple[list[str], list[int], int]:
    """Rounds by their points: ``0`` on its own (a round the player went out, or won
    nothing), then ranges of a round width (5, 10, 20, 25, 50…) — at most ``most``
    bars in all, each labelled by its lowest points (short labels: plotext drops
    labels that would touch); and the width."""
    top = max(values)
    width = next((w for w in (5, 10, 20, 25, 50, 100, 200, 500) if top / w <= most - 1),
                 max(1, -(-top // (most - 1))))
    bins = [0] * (1 + -(-top // width) if top else 1)
    for v in values:
        bins[0 if v <= 0 else 1 + (v - 1) // width] += 1
    labels = ["0"] + [str(1 + i * width) for i in range(len(bins) - 1)]
    return labels, bins, width


class StatsScreen(AnswerOnce, Screen[None]):
    BINDINGS = [
        Binding("right,l", "tab(1)", "Next tab", id="stats.next-tab", key_display="→",
                tooltip="The next tab: record, rating, points, opponents"),
        Binding("left,h", "tab(-1)", "Previous tab", id="stats.previous-tab",
                key_display="←", tooltip="The previous tab"),
        Binding("p", "player", "Next player", id="stats.player",
                tooltip="The next player's record (each game apart)"),
        Binding("escape,q", "close", "Back", id="stats.back", tooltip="Back to the menu (or the lobby)"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.records: list = []
        self.shown = 0

    def compose(self) -> ComposeResult:
        yield Static("Counting your matches…", id="stats-title")
        with TabbedContent(id="stats-tabs"):
            for tab, title in TABS:
                with TabPane(title, id=f"stats-{tab}"):
                    if tab in ("rating", "points"):
                        from textual_plotext import PlotextPlot

                        yield PlotextPlot(id=f"stats-{tab}-plot")
                        yield Static("", id=f"stats-{tab}-none")
                    else:
                        with VerticalScroll():
                            yield Static("", id=f"stats-{tab}-text")
        yield Footer()

    def on_mount(self) -> None:
        self.load()

    @work(thread=True, exclusive=True)
    def load(self) -> None:
        store = unoduo(self).store
        found: list = []
        problem = None
        if store is not None and store.data_dir.is_dir():
            from ..record.index import Index
            from ..record.stats import records

            try:
                index = Index.of(store.data_dir, store.key)
                index.refresh(jobs=min(os.cpu_count() or 1, 8))  # after a lost index: long
                found = [r for r in index.read(records, fresh=False) if r.kind == "human"
                         and (not index.shared or r.who == f"key:{store.key}")]
            except Exception as exc:  # noqa: BLE001 - the screen shows why, never a traceback
                problem = f"The record cannot be read: {exc}"
        self.app.call_from_thread(self.show, found, problem)

    def show(self, found: list, problem: str | None = None) -> None:
        self.records = found
        self.shown = min(self.shown, max(0, len(found) - 1))
        self.fill()
        if problem:
            self.query_one("#stats-title", Static).update(problem)
        self.refresh_bindings()

    def fill(self) -> None:
        from ..record.words import moment_lines, opponent_lines, record_lines
        from ..text.words import game_name

        title = self.query_one("#stats-title", Static)
        texts = {tab: self.query_one(f"#stats-{tab}-text", Static)
                 for tab in ("record", "opponents")}
        if not self.records:
            title.update("No finished matches yet: your record starts with your first.")
            for text in texts.values():
                text.update("")
            self._plot("rating", [], "", _NO_RATING)
            self._plot("points", [], "", _NO_ROUND)
            return
        rec = self.records[self.shown]
        more = (f" ({self.shown + 1} of {len(self.records)}: p for the next)"
                if len(self.records) > 1 else "")
        title.update(f"{rec.name} · {game_name(rec.preset)}{more}")
        texts["record"].update("\n".join(
            record_lines(rec)[1:] + [""] + ["  " + line for line in moment_lines(rec)]))
        texts["opponents"].update("\n".join("  " + line for line in opponent_lines(rec)))
        values = [v for _, v, _ in rec.history]
        now = (f"now {rec.rating.value} ± {rec.rating.uncertainty}"
               + (", provisional" if rec.rating.provisional else "")) if rec.rating else ""
        self._plot("rating", values, f"Rating after each rated match ({now})", _NO_RATING)
        self._plot("points", rec.points, f"Rounds by the points scored in them (mean "
                   f"{rec.points_per_round:.1f} a round)", _NO_ROUND,
                   histogram=True)

    def _plot(self, tab: str, values: list, title: str, empty: str = "",
              histogram: bool = False) -> None:
        from textual_plotext import PlotextPlot

        plot = self.query_one(f"#stats-{tab}-plot", PlotextPlot)
        none = self.query_one(f"#stats-{tab}-none", Static)
        plt = plot.plt
        plt.clear_figure()
        plot.display = bool(values)
        none.display = not values
        none.update(empty)
        if not values:
            return
        plt.title(title)
        if histogram:
            labels, counts, width = histogram_bins(values)
            plt.bar(labels, counts)
            step = max(1, -(-max(counts) // 5))
            plt.yticks(list(range(0, max(counts) + 1, step)))
            plt.xlabel(f"points in a round (a bar: 0, or from its number, {width} wide)")
        else:
            n = len(values)
            plt.plot(list(range(1, n + 1)), values)
            plt.xticks(list(range(1, n + 1, max(1, -(-n // 6)))))
            plt.xlabel("rated match")
        plot.refresh()

    # -- keys --------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "player":
            return True if len(self.records) > 1 else None
        return True

    def action_tab(self, step: int) -> None:
        tabs = self.query_one(TabbedContent)
        ids = [f"stats-{tab}" for tab, _ in TABS]
        at = ids.index(tabs.active) if tabs.active in ids else 0
        tabs.active = ids[(at + step) % len(ids)]

    def action_player(self) -> None:
        if len(self.records) > 1:
            self.shown = (self.shown + 1) % len(self.records)
            self.fill()

    def action_close(self) -> None:
        self.dismiss(None)

    PALETTE = "Stats"  # its commands' prefix in the command palette
    palette_commands = MatchTable.palette_commands  # a command for every key valid now
