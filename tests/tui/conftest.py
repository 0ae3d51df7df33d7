"""Helpers for the app's Pilot and snapshot tests: a tmp data dir, scripted bots,
stacked tables, the screen as text, and waiting until the bots have moved."""

from __future__ import annotations

import asyncio
import io
import os
from contextlib import asynccontextmanager
from typing import Iterable, Sequence

import pytest
from rich.console import Console

os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")

from engine import Action, Match, Rules  # noqa: E402
from tests.engine.helpers import arrange, dealt  # noqa: E402
from unoduo_tui.app import UnoDuoApp  # noqa: E402
from unoduo_tui.screens.game import GameScreen  # noqa: E402
from unoduo_tui.table.local import LocalTable  # noqa: E402
from unoduo_tui.store import Store  # noqa: E402

SIZE = (80, 24)


class Scripted:
    """A bot that makes the given moves in order, then the first legal one."""

    name = "scripted"

    def __init__(self, moves: Iterable[str] = ()) -> None:
        self.moves = list(moves)

    def choose(self, view):
        legal = view.legal_actions
        if self.moves:
            return Action.parse(self.moves.pop(0))
        return legal[0]


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path)


def make_app(store=None, table: LocalTable | None = None, **kw) -> UnoDuoApp:
    kw.setdefault("bot_pause", 0)
    kw.setdefault("theme", "textual-dark")
    return UnoDuoApp(store, table=table, **kw)


@asynccontextmanager
async def seated(at: LocalTable, store=None):
    """The app at the table ``at``, 80×24, once the bots have moved: yields the
    pilot and the app."""
    app = make_app(store, table=at)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        yield pilot, app


def table(human: Sequence[str], bot: Sequence[str], start: str, draws: Sequence[str] = (),
          script: Iterable[str] = (), rules: Rules | None = None,
          hands: Sequence[Sequence[str]] | None = None, draw: Sequence[str] | None = None,
          ) -> LocalTable:
    """A table past its draft: seat 0 (the human) holds ``human`` and plays first
    (it is P2); seat 1 is a scripted bot holding ``bot``.  ``hands``/``draw`` rearrange
    the piles afterwards (``tests.engine.helpers.arrange``)."""
    m = dealt(bot, human, start, draws, first=1, rules=rules)
    if hands is not None:
        arrange(m, hands=hands, draw=draw or (), spare="under")
    return LocalTable(m, ("Ann", "Bot"), ("human", "bot:random"), bots={1: Scripted(script)})


def clipped(screen) -> list[str]:
    """The widgets of ``screen`` that reach past the 80×24 terminal or their parent's
    content (outside a scrolling view, where scrolling reaches them)."""
    w, h = SIZE
    bad = []
    for widget in screen.query("*"):
        if not widget.display or not widget.visible:
            continue
        if any(a is not screen and (a.allow_vertical_scroll or a.allow_horizontal_scroll)
               for a in widget.ancestors if hasattr(a, "allow_vertical_scroll")):
            continue  # inside a scrolling view: reachable by scrolling, not clipped
        r = widget.region
        if not r.width:
            continue
        if r.x < 0 or r.y < 0 or r.right > w or r.bottom > h:
            bad.append(f"{widget!r} at {r}")
        elif widget.parent is not screen and r not in widget.parent.content_region:
            bad.append(f"{widget!r} at {r}, past {widget.parent!r}")
    return bad


def game(app) -> GameScreen | None:
    for screen in reversed(app.screen_stack):
        if isinstance(screen, GameScreen):
            return screen
    return None


async def settle(pilot, timeout: float = 60.0) -> None:
    """Let the bots move until a human (or a dialog) is needed: the table has nothing
    to do and the screen has taken its last update (``timeout``: a safety net)."""
    app = pilot.app
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        await pilot.pause()
        g = game(app)
        if g is None:
            return
        if (g.table.idle and not g.acting and g.latest is not None
                and g.latest.seq == g.table.seq):
            await pilot.pause()
            if g.latest.seq == g.table.seq and not g.acting:
                return
    raise AssertionError("the table never settled")


async def press(pilot, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


def screen_text(app) -> str:
    """What the terminal shows now, as plain text."""
    update = app.screen._compositor.render_update(full=True,
                                                  screen_stack=app._background_screens)
    console = Console(width=app.size.width, file=io.StringIO(), record=True, color_system=None,
                      legacy_windows=False)
    console.print(update)
    return console.export_text()


def notifications(app) -> list:
    """The app's toasts that have not timed out, oldest first (Textual keeps them in a
    private collection and has no public reader: the tests read it here only)."""
    return list(app._notifications)


__all__ = ["Scripted", "make_app", "table", "game", "settle", "press", "screen_text", "notifications", "SIZE", "clipped", "seated",
           "Match"]
