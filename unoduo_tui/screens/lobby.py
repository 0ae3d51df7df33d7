"""The lobby (``unoduo lobby``; what an SSH player sees first, #16).

"Signed in as NAME" (and the key's short fingerprint), then one list, in order:

1. **Resume** this player's unfinished matches, newest first (at most
   :data:`MAX_RESUME`): local ones, tables they host (their authority brought back if
   it ended) and tables they joined (rejoined with their seat token).  ``r``: the
   first, which is also the highlighted entry — reconnect, Enter, and they are back.
2. **Quick match** (``m``): pairs the next two waiting players (:func:`.net.lobby.quick_match`).
3. **New match vs bots** (``n``): the new-match form, played in this process.
4. **Open a table** (``o``): the host form; the table is listed in the lobby.
5. **Join / Watch** the tables others listed (``j`` / ``w``: the first), refreshed
   every second from the listing.
6. Saved matches, Replays, Stats (the record, the ratings and their plots),
   Rules, Change your name (kept in ``identity.json``), Quit (``q``).

Below the list, the leaderboard (:class:`~unoduo_tui.widgets.leaderboard.Leaderboard`):
each game's top 20 and this player's rank, read again whenever a rated match ends.

Leaving a table comes back here; a table that vanished between listing and joining
is a toast, and the list refreshes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..app_link import unoduo
from ..net import lobby as listing
from ..text import printable
from ..widgets.footer import Footer
from .menu import SummaryPrompt

if TYPE_CHECKING:
    from ..store import Summary

__all__ = ["LobbyScreen", "LobbyPlace", "Resumable", "MAX_RESUME"]

#: unfinished matches offered at the top
MAX_RESUME = 5
#: seconds between two readings of the listing
REFRESH_SECONDS = 1.0


@dataclass(frozen=True)
class LobbyPlace:
    """Who is in the lobby, and which lobby: ``folder`` (the lobby dir), the player's
    ``name`` and, over SSH, their ``key`` fingerprint."""

    folder: Path
    name: str
    key: str | None = None

    def short_key(self) -> str:
        """``SHA256:AbCdEf12…`` (printable, 8 characters of the hash)."""
        key = printable(self.key or "")
        kind, _, digest = key.rpartition(":")
        return f"{kind + ':' if kind else ''}{digest[:8]}…" if key else ""


@dataclass(frozen=True)
class Resumable:
    """An unfinished match of this player: ``summary`` (a saved one: local, or
    ``hosted``) or ``listed`` (a table they joined), and ``when`` (for the order)."""

    when: float
    summary: Summary | None = None
    hosted: bool = False
    listed: listing.Listed | None = None

    def prompt(self) -> str | SummaryPrompt:
        if self.listed is not None:
            names = ", ".join(self.listed.names)
            return f"Rejoin   {self.listed.describe()} ({names})"
        return SummaryPrompt("Resume   " if not self.hosted else "Resume ⇄ ", self.summary)


class LobbyScreen(Screen[None]):
    DEFAULT_CSS = """
    LobbyScreen #lobby-box { align: center middle; height: 1fr; }
    LobbyScreen #lobby-who { width: 72; height: 1; color: $text-muted; }
    LobbyScreen #lobby { width: 72; height: auto; max-height: 18; }
    LobbyScreen #lobby-board { width: 72; height: 1fr; margin-top: 1; }
    """
    BINDINGS = [
        Binding("r", "pick('resume:0')", "Resume", id="lobby.resume"),
        Binding("m", "pick('quick')", "Quick match", id="lobby.quick"),
        Binding("n", "pick('new')", "Vs bots", id="lobby.new"),
        Binding("o", "pick('open')", "Open", id="lobby.open"),
        Binding("j", "pick('join')", "Join", id="lobby.join"),
        Binding("w", "pick('watch')", "Watch", id="lobby.watch"),
        Binding("q", "pick('quit')", "Quit", id="lobby.quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.saved: list[Resumable] = []  # unfinished saves (read on show)
        self.resumes: list[Resumable] = []
        self.tables: list[listing.Listed] = []  # others' tables, as listed
        #: what the lists show now: (the resumables' times and tables, others' tables)
        self._shown: tuple[list[tuple[float, listing.Listed | None]], list[listing.Listed]] | None = None

    @property
    def place(self) -> LobbyPlace:
        return unoduo(self).lobby_place

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby-box"):
            yield Static(id="lobby-who", markup=False)
            yield OptionList(id="lobby")
            store = unoduo(self).store
            if store is not None:
                from ..widgets.leaderboard import Leaderboard

                who = (f"key:{store.key}" if store.key
                       else f"name:{self.place.name.casefold()}")
                yield Leaderboard(store.data_dir, store.key, who, id="lobby-board")
        yield Footer()

    def on_mount(self) -> None:
        self.show_who()
        self.set_interval(REFRESH_SECONDS, self.refresh_tables)
        self.reload()

    def show_who(self) -> None:
        place = self.place
        who = f"Signed in as {printable(place.name)}"
        if place.key:
            who += f"  ·  key {place.short_key()}"
        self.query_one("#lobby-who", Static).update(who)

    def on_screen_resume(self) -> None:
        if self.is_mounted:
            self.reload()

    # -- what is listed ----------------------------------------------------------------

    def reload(self) -> None:
        """Read the saves again (the lobby came back), then the listing."""
        self.saved = self._saved()
        self._shown = None
        self.refresh_tables(first=True)

    def _saved(self) -> list[Resumable]:
        store = unoduo(self).store
        if store is None:
            return []
        try:
            summaries = [s for s in store.summaries() if s.status == "in progress"]
        except Exception:  # a broken data dir must not hide the lobby
            return []
        hosted = {p.stem for p in (Path(store.data_dir) / "tables").glob("*.json")}
        return [Resumable(s.created.timestamp() if s.created else 0.0, s, s.id in hosted)
                for s in summaries[:MAX_RESUME]]

    def refresh_tables(self, first: bool = False) -> None:
        """Read the listing; rebuild the list when what it shows changed."""
        store = unoduo(self).store
        tables = listing.read_listings(self.place.folder)
        own = listing.mine(store.data_dir) if store is not None else set()
        joined = dict((code, when) for when, code in listing.iter_joined(store.data_dir)
                      ) if store is not None else {}
        rejoin = [Resumable(joined[t.code], listed=t) for t in tables
                  if t.code in joined and t.code not in own and not t.over]
        self.resumes = sorted(self.saved + rejoin, key=lambda r: -r.when)[:MAX_RESUME]
        self.tables = [t for t in tables
                       if t.code not in own and t.code not in joined and not t.over]
        shown = ([(r.when, r.listed) for r in self.resumes], self.tables)
        if shown != self._shown:
            self._shown = shown
            self._fill(first)

    def _fill(self, first: bool) -> None:
        menu = self.query_one(OptionList)
        was = None
        if not first and menu.highlighted is not None:
            was = menu.get_option_at_index(menu.highlighted).id
        menu.clear_options()
        options = [Option(r.prompt(), id=f"resume:{i}") for i, r in enumerate(self.resumes)]
        options += [Option("Quick match — the next two waiting players", id="quick"),
                    Option("New match vs bots", id="new"),
                    Option("Open a table…", id="open")]
        for t in self.tables:
            if t.open:
                options.append(Option(f"Join {t.describe()}", id=f"join:{t.code}"))
            options.append(Option(f"Watch {t.describe()}", id=f"watch:{t.code}"))
        options += [Option("Saved matches…", id="saved"), Option("Replays…", id="replays"),
                    Option("Stats: your record and ratings…", id="stats"),
                    Option("Rules", id="rules"), Option("Change your name…", id="rename"),
                    Option("Quit", id="quit")]
        menu.add_options(options)
        ids = [o.id for o in options]
        menu.highlighted = ids.index(was) if was in ids else 0
        if self.app.screen is self:  # not from under a dialog
            menu.focus()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick" and parameters:
            what = parameters[0]
            if what == "resume:0" and not self.resumes:
                return None
            if what == "join" and not any(t.open for t in self.tables):
                return None
            if what == "watch" and not self.tables:
                return None
        return True

    def palette_commands(self) -> Iterable[SystemCommand]:
        """A command for every key valid now (the footer's declarations)."""
        for binding in self.BINDINGS:
            if not isinstance(binding, Binding):
                continue  # every one is declared as a Binding
            what = binding.action[len("pick('"):-len("')")]
            if self.check_action("pick", (what,)):
                yield SystemCommand(f"Lobby: {binding.description}", f"({binding.key})",
                                    partial(self.action_pick, what))

    # -- choosing ----------------------------------------------------------------------

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_pick(event.option.id or "")

    def action_pick(self, what: str) -> None:
        app = unoduo(self)
        if app.screen is not self:  # a second Enter of a paste, after the first opened it
            return
        from . import lobby_actions as act

        kind, _, arg = what.partition(":")
        if kind == "resume" and arg.isdigit() and int(arg) < len(self.resumes):
            act.resume(self, self.resumes[int(arg)])
        elif kind in ("join", "watch"):
            code = arg or next((t.code for t in self.tables if t.open or kind == "watch"),
                               None)
            if code is not None:
                act.sit(self, code, "play" if kind == "join" else "watch")
        elif kind == "quick":
            act.quick(self)
        elif kind == "new":
            from .new_match import NewMatchScreen
            app.push_screen(NewMatchScreen())
        elif kind == "open":
            act.open_table(self)
        elif kind == "saved":
            from .saved import SavedScreen
            app.push_screen(SavedScreen())
        elif kind == "replays":
            from .replay_list import ReplayListScreen
            app.push_screen(ReplayListScreen())
        elif kind == "stats":
            from .stats import StatsScreen
            app.push_screen(StatsScreen())
        elif kind == "rename":
            act.rename(self)
        elif kind == "rules":
            from .rules import RulesScreen
            app.push_screen(RulesScreen())
        elif kind == "quit":
            app.exit(0)
