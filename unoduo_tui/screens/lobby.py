"""The lobby (``unoduo lobby``; what an SSH player sees first, #16).

"Signed in as NAME" (and the key's short fingerprint), then one list, in order:

1. **Resume** this player's unfinished matches, newest first (at most
   :data:`MAX_RESUME`): local ones, tables they host (their authority brought back if
   it ended) and tables they joined (rejoined with their seat token).  ``r``: the
   first, which is also the highlighted entry — reconnect, Enter, and they are back.
2. **Quick match** (``m``): pairs the next two waiting players (:func:`.net.lobby.quick_match`).
3. **New match vs bots** (``n``): the new-match form, played in this process.
4. **Open a table** (``o``): the host form; the table is listed in the lobby.
5. **Join / Watch** the tables others listed (``j`` / ``w``: the first), a page of
   them at a time (``[`` / ``]``; ``/`` searches by host, game or code).  Under
   ``unoduo serve`` the server pushes each change of the page
   (:mod:`unoduo_tui.net.hall`): an idle lobby does nothing; a plain terminal's lobby
   reads its lobby dir's listing every second (:func:`.net.lobby.feed`).
6. Saved matches, Replays, Stats (the record, the ratings and their plots),
   Rules, Change your name (kept in ``identity.json``), Quit (``q``).

Below the list, the leaderboard (:class:`~unoduo_tui.widgets.leaderboard.Leaderboard`):
each game's top 20 and this player's rank, read again whenever a rated match ends.

Leaving a table comes back here; a table that vanished between listing and joining
is a toast, and the list refreshes.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..app_link import unoduo
from ..net import lobby as listing
from ..net.messages import Follow, LobbyPage, TableEntry
from ..text import printable
from ..widgets.footer import Footer
from .menu import Picking, SummaryPrompt, open_entry

if TYPE_CHECKING:
    from ..app import UnoDuoApp
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
    listed: TableEntry | None = None

    def prompt(self) -> str | SummaryPrompt:
        if self.listed is not None:
            names = ", ".join(self.listed.names)
            return f"Rejoin   {self.listed.describe()} ({names})"
        return SummaryPrompt("Resume   " if not self.hosted else "Resume ⇄ ", self.summary)


class LobbyScreen(Picking):
    DEFAULT_CSS = """
    LobbyScreen #lobby-box { align: center middle; height: 1fr; }
    LobbyScreen #lobby-who { width: 72; height: 1; color: $text-muted; }
    LobbyScreen #lobby-pages { width: 72; height: 1; color: $text-muted; }
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
        # named by the line under the list (``[ ] pages · / search``) while there is
        # more than one page: 80 columns of footer have no room left for them
        Binding("[", "pick('prev')", "Prev page", id="lobby.prev", show=False),
        Binding("]", "pick('next')", "Next page", id="lobby.next", show=False),
        Binding("slash", "pick('search')", "Search", id="lobby.search", show=False),
        Binding("q", "pick('quit')", "Quit", id="lobby.quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.saved: list[Resumable] = []  # unfinished saves (read on show)
        self.resumes: list[Resumable] = []
        self.tables: list[TableEntry] = []  # others' tables, this page of them
        self.shown_page: LobbyPage | None = None  # the page shown
        self.search_for = ""  # what the tables are searched for
        #: what the lists show now: (the resumables' times and tables, this page's tables)
        self._shown: tuple[list[tuple[float, TableEntry | None]], list[TableEntry]] | None = None
        self._feed: listing.Feed | None = None  # where the pages come from
        self._own: set[str] = set()  # the tables this player hosts
        self._joined: dict[str, float] = {}  # … and joined: code → when
        self._ui_thread = threading.get_ident()
        self._first = False

    @property
    def place(self) -> LobbyPlace:
        return unoduo(self).lobby_place

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby-box"):
            yield Static(id="lobby-who", markup=False)
            yield OptionList(id="lobby")
            pages = Static(id="lobby-pages", markup=False)
            pages.display = False  # until there is more than a page, or a search
            yield pages
            store = unoduo(self).store
            if store is not None:
                from ..widgets.leaderboard import Leaderboard

                who = (f"key:{store.key}" if store.key
                       else f"name:{self.place.name.casefold()}")
                yield Leaderboard(store.data_dir, store.key, who, id="lobby-board")
        yield Footer()

    def on_mount(self) -> None:
        self._ui_thread = threading.get_ident()
        self.show_who()
        self.reload()

    def on_unmount(self) -> None:
        if self._feed is not None:
            self._feed.close()
            self._feed = None

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

    def _follow(self, page: int = 0) -> Follow:
        """What this lobby asks to see: ``page`` of the tables its query finds, its
        player's own apart."""
        store = unoduo(self).store
        if store is not None:
            self._own = listing.mine(store.data_dir)
            self._joined = {code: when for when, code in listing.iter_joined(store.data_dir)}
        codes = listing.followed_codes(store.data_dir) if store is not None else ()
        return Follow(self.search_for, page, codes)

    def refresh_tables(self, first: bool = False, page: int | None = None) -> None:
        """Ask for the page again (turned to ``page``): its player's tables may have
        changed (a table hosted or joined); a lobby dir's listing is read again."""
        shown = self.shown_page
        follow = self._follow(shown.page if page is None and shown else page or 0)
        if self._feed is None:
            self._feed = listing.feed(self.place.folder, follow, self._pushed, self._lost)
            if not self._feed.pushed:
                self.set_interval(REFRESH_SECONDS, self._feed.poll)
        self._first = first
        if self._feed.pushed:  # the list at once, as it was; the service's page follows
            self.show_page(self.shown_page or LobbyPage((), (), 0, 1, 0))
            self._first = first
        self._feed.follow(follow)

    def _pushed(self, page: LobbyPage) -> None:
        """A page from the feed (its thread, or this one)."""
        if threading.get_ident() == self._ui_thread:
            self.show_page(page)
            return
        try:
            self.app.call_from_thread(self.show_page, page)
        except RuntimeError:  # the app has ended
            pass

    def _lost(self) -> None:
        def say() -> None:
            self.notify("The server's tables cannot be reached now.", severity="error")
        try:
            self.app.call_from_thread(say)
        except RuntimeError:  # the app has ended
            pass

    def show_page(self, page: LobbyPage) -> None:
        """Show ``page``; rebuild the list when what it shows changed."""
        if not self.is_mounted:
            return
        self.shown_page = page
        own, joined = self._own, self._joined
        rejoin = [Resumable(joined[t.code], listed=t) for t in page.mine
                  if t.code in joined and t.code not in own and not t.over]
        self.resumes = sorted(self.saved + rejoin, key=lambda r: -r.when)[:MAX_RESUME]
        self.tables = list(page.tables)
        pages = self.query_one("#lobby-pages", Static)
        found = f"{page.total} tables" + (f" matching {page.query!r}" if page.query else "")
        paged = page.pages > 1 or bool(page.query)
        pages.display = paged
        if paged:
            pages.update(f"{found} · page {page.page + 1} of {page.pages} · [ ] pages · "
                         "/ search")
        shown = ([(r.when, r.listed) for r in self.resumes], self.tables)
        if shown != self._shown:
            self._shown = shown
            self._fill(self._first)
        else:
            self.refresh_bindings()  # the page's number may have changed alone
        self._first = False

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
            shown = self.shown_page
            if what in ("prev", "next", "search") and not (
                    shown and (shown.pages > 1 or shown.query)):
                return False  # one page of tables, unsearched: nothing to turn or find
            if what == "prev" and not (shown and shown.page > 0):
                return None
            if what == "next" and not (shown and shown.page + 1 < shown.pages):
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

    def pick(self, app: UnoDuoApp, what: str) -> None:
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
        elif kind in ("prev", "next") and self.shown_page is not None:
            step = 1 if kind == "next" else -1
            self.refresh_tables(page=max(0, self.shown_page.page + step))
        elif kind == "search":
            act.search(self)
        elif kind == "open":
            act.open_table(self)
        elif kind == "rename":
            act.rename(self)
        elif kind == "quit":
            app.exit(0)
        else:  # a new match, the saved matches, the replays, the stats, the rules
            open_entry(app, kind)
