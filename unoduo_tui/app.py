"""The Textual app: a thin shell of screens, themes and signal handlers.

:func:`run_app` is the entry point the ``unoduo`` command calls.  Importing this
module has no side effects.  The screens other than the table are imported when first
shown, so ``unoduo play`` starts without loading the menu or the replay viewer.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Mapping

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.reactive import Initialize, Reactive
from textual.screen import Screen
from textual.theme import BUILTIN_THEMES

from . import startup
from .app_link import HOME_NAMES
from .screens.game import GameScreen
from .screens.too_small import MIN_SIZE, TooSmall
from .plan import DEFAULT_LEVEL, HUMAN, MatchPlan, play_plan
from .settings import Settings
from .shutdown import SignalExit
from .table import Table
from .table.local import LocalTable
from .text import printable
from .textual_compat import (SafePalettes, give_result_callback, strips_without_self_cycles,
                              use_terminal)

if TYPE_CHECKING:
    from .screens.lobby import LobbyPlace
    from .store import Loaded, Saves
    from .table.thinking import Thinker

__all__ = ["UnoDuoApp", "run_app", "run_to_exit"]

#: card colours; the ansi themes get the terminal's own palette (see get_css_variables)
CARD_COLOURS = {
    "card-red": "#d32f2f", "card-yellow": "#f9c30f", "card-green": "#2e9d45",
    "card-blue": "#1f6fd1", "card-wild": "#26262b", "card-ink": "#ffffff",
    "card-ink-dark": "#141414", "card-back": "#8e2424",
}
ANSI_CARD_COLOURS = {
    "card-red": "ansi_red", "card-yellow": "ansi_yellow", "card-green": "ansi_green",
    "card-blue": "ansi_blue", "card-wild": "ansi_black", "card-ink": "ansi_bright_white",
    "card-ink-dark": "ansi_black", "card-back": "ansi_red",
}


@dataclass(frozen=True)
class StartOptions:
    """What the command line asked the app to start with (:class:`UnoDuoApp`'s
    arguments of the same names)."""

    vs: str | None = None
    seed: int | None = None
    target: int | None = None
    name: str | None = None
    plan: MatchPlan | None = None
    resume: str | None = None
    replay: str | Loaded | None = None
    spoiler_free: bool = False


class CannotOpen(Exception):
    """A match or replay that could not be opened, in words for the player."""

    def __init__(self, message: str, severity: SeverityLevel = "error") -> None:
        super().__init__(message)
        self.severity = severity


def _first_theme(app: "UnoDuoApp") -> str:
    return app.first_theme


def _default_theme(terminal: Mapping[str, str]) -> str:
    """textual-dark with true colour; ansi-dark otherwise (OpenSSH drops COLORTERM)."""
    truecolor = terminal.get("COLORTERM", "").lower() in ("truecolor", "24bit")
    return "textual-dark" if truecolor else "ansi-dark"


class UnoDuoApp(SafePalettes, App[int]):
    """UNO Duo at the terminal.  ``bot_pause``: seconds between bot moves (0 in tests).
    ``terminal``: the terminal's variables (``TERM``, ``COLORTERM``) when they are not
    the process's — one of many apps in a process (:mod:`.sessions`); ``thinker``:
    where its bots think (:mod:`.table.thinking`; None: each table's own thread);
    ``shared_loop``: one of many apps on this event loop (a worker of ``unoduo serve``),
    whose decisions are saved off the loop (:meth:`GameScreen.do
    <unoduo_tui.screens.game.GameScreen.do>`).  Its palettes are fast-key-safe (:class:`~.textual_compat.SafePalettes`)."""

    CSS_PATH = "app.tcss"
    TITLE = "UNO Duo"
    # Ctrl+Q and Ctrl+C leave as q does (asking first at the table), on every screen:
    # before Textual's own Ctrl+C (a "press Ctrl+Q" toast, or copy in a dialog)
    BINDINGS = [Binding("ctrl+q", "leave", "Quit", id="app.quit", show=False, priority=True),
                Binding("ctrl+c", "leave", "Quit", id="app.quit_c", show=False, priority=True)]

    # The theme is known before Textual builds the stylesheet; set after
    # App.__init__, the change would re-parse all the CSS before the first frame.
    theme: Reactive[str] = Reactive(Initialize(_first_theme))

    def __init__(self, store: Saves | None = None, start: str = "menu", *,
                 vs: str | None = None, seed: int | None = None, target: int | None = None,
                 name: str | None = None, resume: str | None = None,
                 replay: str | Loaded | None = None, spoiler_free: bool = False,
                 bot_pause: float = 0.6, think_ms: int | None = None, theme: str | None = None,
                 table: Table | None = None, plan: MatchPlan | None = None,
                 handle_signals: bool = False, lobby: LobbyPlace | None = None,
                 terminal: Mapping[str, str] | None = None, thinker: Thinker | None = None,
                 shared_loop: bool = False) -> None:
        strips_without_self_cycles()  # lines drawn are freed as they go (once a process)
        #: the remembered choices as the app starts (theme; `unoduo play`'s rules)
        self.start_settings = Settings.load(store)
        wanted = theme or self.start_settings.theme or _default_theme(terminal or os.environ)
        self.first_theme = wanted if wanted in BUILTIN_THEMES else "textual-dark"
        super().__init__()
        if terminal is not None:  # one of many apps in a process: its own terminal
            use_terminal(self.console, terminal)
        self.store = store
        self.start = start
        self.start_options = StartOptions(vs, seed, target, name, plan, resume, replay,
                                          spoiler_free)
        self.bot_pause = bot_pause
        self.think_ms = think_ms
        #: where its tables' bots think (None: each table's thread; .table.thinking)
        self.thinker = thinker
        #: one of many apps on this event loop: nothing slow runs on it (a save's fdatasync)
        self.shared_loop = shared_loop
        #: a table to open at once (tests, screenshots), or a new match to start
        self.start_table = table
        #: ``unoduo lobby``'s player and lobby dir (:class:`~.screens.lobby.LobbyPlace`):
        #: the lobby is then the first screen and the one leaving a table goes back to
        self.lobby = lobby
        #: SIGHUP / SIGTERM / SIGINT end the app even when it is busy (``unoduo`` only)
        self.signal_exit = SignalExit(self.exit_on_signal) if handle_signals else None
        self.too_small = False
        self._theme_ready = False
        self._start_problem: CannotOpen | None = None

    # -- themes ------------------------------------------------------------------

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {**super().get_theme_variable_defaults(), **CARD_COLOURS}

    def get_css_variables(self) -> dict[str, str]:
        variables = super().get_css_variables()
        if self.current_theme.ansi:
            variables.update(ANSI_CARD_COLOURS)
            self.theme_variables = variables
        return variables

    def watch_theme(self, theme: str) -> None:
        if self._theme_ready and self.store is not None:
            settings = Settings.load(self.store)
            settings.theme = theme
            settings.save(self.store)

    # -- toasts ------------------------------------------------------------------

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """Every toast, as plain text: messages carry names, paths and errors from
        players and files, where Textual's markup (``[/]``) crashed the app and a
        terminal escape could retitle it.  ``markup`` is ignored: nothing here
        formats a toast with markup."""
        super().notify(printable(message, newlines=True), title=printable(title),
                       severity=severity, timeout=timeout, markup=False)

    # -- start-up ----------------------------------------------------------------

    def get_default_screen(self) -> Screen:
        """The first screen: the table for ``play`` / ``resume`` (with nothing composed
        under it: one screen to lay out and draw before the first frame, so the table
        shows sooner; leaving it goes to the menu), the viewer for ``replay``, else the
        menu — also when the start could not open what it was asked for."""
        try:
            screen = self._first_screen()
        except CannotOpen as problem:
            self._start_problem = problem
            screen = None
        if screen is None:
            screen = self._home()()
        return screen

    @property
    def saved_store(self) -> Saves:
        """The store, for what is only offered with one (the saved lists, the lobby,
        shared tables); ``RuntimeError`` in an app without a data dir."""
        if self.store is None:
            raise RuntimeError("there is no data dir here: nothing is saved")
        return self.store

    @property
    def lobby_place(self) -> LobbyPlace:
        """The lobby's player and folder; ``RuntimeError`` outside ``unoduo lobby``."""
        if self.lobby is None:
            raise RuntimeError("this app has no lobby")
        return self.lobby

    @property
    def you(self) -> str | None:
        """The player's name, when the app knows it (the lobby's); None: the login
        name is the default for "you"."""
        return self.lobby.name if self.lobby is not None else None

    @property
    def place(self) -> str:
        """Where this app runs, for texts that say where to go (:data:`.text.words.PLACES`):
        a browser tab of ``unoduo web``, ``unoduo lobby`` (what an SSH player gets: no
        shell, no other command) or a terminal of one's own."""
        return "web" if self.is_web else "lobby" if self.lobby is not None else "terminal"

    @property
    def home_name(self) -> str:
        """What the screen under every table is called on a button: "Lobby" or "Menu"."""
        return HOME_NAMES[self.lobby is not None]

    def _home(self) -> type[Screen]:
        """The screen under every table: the lobby (``unoduo lobby``) or the menu."""
        if self.lobby is not None:
            from .screens.lobby import LobbyScreen
            return LobbyScreen
        from .screens.menu import MenuScreen
        return MenuScreen

    def _first_screen(self) -> Screen | None:
        if self.start_table is not None:
            return GameScreen(self.start_table)
        if self.start == "play":
            return GameScreen(self._new_table(self._play_plan()))
        if self.start == "resume":
            return GameScreen(self._resume_table(self.start_options.resume))
        if self.start == "replay" and self.start_options.replay is not None:
            return self._replay_screen(self.start_options.replay,
                                       self.start_options.spoiler_free)
        return None

    def on_mount(self) -> None:
        self._theme_ready = True
        if self.signal_exit is not None:
            self.signal_exit.install()
        if self._start_problem is not None:
            self._say(self._start_problem)
        self.call_after_refresh(self._check_size)

    def on_ready(self) -> None:
        """The first frame is on screen: the collector back (:mod:`.startup`)."""
        self.call_after_refresh(startup.resume)

    def _say(self, problem: CannotOpen) -> None:
        self.notify(str(problem), severity=problem.severity,
                    timeout=10 if problem.severity == "error" else 5)

    def _play_plan(self) -> MatchPlan:
        """The new match ``unoduo play`` asked for: its ``plan``, else one against
        ``vs`` (remembered UNO Duo options apply)."""
        opts = self.start_options
        plan = opts.plan
        if plan is None:
            try:
                plan = play_plan(vs=(opts.vs or DEFAULT_LEVEL,), name=opts.name,
                                 seed=opts.seed, target=opts.target,
                                 remembered=self.start_settings.options_for("duo"))
            except ValueError as exc:
                raise CannotOpen(str(exc)) from None
        return plan

    def exit_on_signal(self, code: int) -> None:
        """A signal (a dropped SSH link, kill, Ctrl+C from outside): exit with ``code``
        (128 + its number).  The save is already complete."""
        self.exit(return_code=code)

    # -- matches -----------------------------------------------------------------

    def new_match(self, plan: MatchPlan) -> None:
        """Start ``plan`` at a new table."""
        try:
            self.open_game(self._new_table(plan))
        except CannotOpen as problem:  # a save-file problem: say so, stay where we are
            self._say(problem)

    def resume_match(self, ref: str | None) -> None:
        """Back to the match ``ref`` (an id, short id or path; None: the newest unfinished)."""
        try:
            self.open_game(self._resume_table(ref))
        except CannotOpen as problem:
            self._say(problem)

    def open_replay(self, ref: str | Loaded, spoiler_free: bool = False) -> None:
        """Watch a saved match again, read-only (over whatever is showing); ``ref`` is
        a match id or path, or an already loaded match (the screenshots).
        ``spoiler_free``: from its start, its length and result hidden."""
        try:
            self.push_screen(self._replay_screen(ref, spoiler_free))
        except CannotOpen as problem:
            self._say(problem)

    def _new_table(self, plan: MatchPlan) -> LocalTable:
        try:
            return LocalTable.start(self.store, plan, think_ms=self.think_ms,
                                    bot_pause=self.bot_pause, thinker=self.thinker)
        except Exception as exc:
            raise CannotOpen(f"Could not start the match: {exc}") from exc

    def _resume_table(self, ref: str | None) -> Table:
        """The match ``ref`` names (None: the newest unfinished) at a table: a hosted
        one at its own (:func:`~.net.hosted.open_hosted`: its remote seats stay
        remote), any other in this process."""
        if ref is None:
            newest = self.store.newest_unfinished() if self.store is not None else None
            if newest is None:
                raise CannotOpen("No unfinished match to resume.", "warning")
            ref = str(newest.id)
        hosted = self._hosted_table(ref)
        if hosted is not None:
            return hosted
        if self.store is None:
            raise CannotOpen("There are no saved matches here (no data dir).")
        try:
            return LocalTable.resume(self.store, ref, think_ms=self.think_ms,
                                     bot_pause=self.bot_pause, thinker=self.thinker)
        except Exception as exc:
            raise CannotOpen(self._open_error(exc)) from exc

    def _hosted_table(self, ref: str) -> Table | None:
        """A hosted match's table, connected as its host (None: not hosted)."""
        from .net.hosted import open_hosted

        if self.store is None:
            return None  # nothing saved, nothing hosted
        try:
            path = self.store.resolve(ref)
        except Exception:  # no such match: LocalTable.resume says so
            return None
        try:
            opened = open_hosted(self.store, path,
                                 name=self.lobby.name if self.lobby is not None else "",
                                 listing=str(self.lobby.folder) if self.lobby is not None
                                 else None, place=self.place)
        except Exception as exc:
            raise CannotOpen(f"Could not open its table: {getattr(exc, 'reason', exc)}"
                             ) from exc
        if opened is None:
            return None
        return opened[0]

    def _replay_screen(self, ref: str | Loaded, spoiler_free: bool = False) -> Screen:
        from .screens.replay import ReplayScreen

        try:
            if isinstance(ref, (str, os.PathLike)):
                return ReplayScreen.open(self.store, ref, spoiler_free=spoiler_free)
            return ReplayScreen(ref, spoiler_free=spoiler_free)
        except Exception as exc:
            raise CannotOpen(f"Could not open the replay: {exc}") from exc

    def branch_match(self, loaded: Loaded, log_prefix: list, decisions: int, level: str,
                     seat: int) -> None:
        """A what-if branch of the saved match ``loaded``: a new practice match from its
        log up to ``decisions`` decisions, you in ``seat`` against a ``level`` bot."""
        header = loaded.header
        seats = loaded.seats
        human = next((s.name for s in seats if not s.is_bot), "")
        kind = f"bot:{level}"
        from .screens.new_match import default_names
        from .store import short_id
        me, bot_name = default_names(kind, human or self.you or "")
        names = [s.name for s in seats]  # with more seats, the others keep their names
        kinds = [kind] * len(seats)
        names[seat], kinds[seat] = me, HUMAN
        if len(seats) == 2:
            names[(seat + 1) % 2] = bot_name
        try:
            table = LocalTable.branch(self.store, header.rules, log_prefix, header.seed,
                                      names, kinds, (loaded.id, decisions),
                                      think_ms=self.think_ms, bot_pause=self.bot_pause,
                                      thinker=self.thinker)
        except Exception as exc:
            self.notify(f"Could not start the branch: {exc}", severity="error", timeout=10)
            return
        self.open_game(table)
        self.notify(f"A what-if branch of {short_id(loaded.id)} from action {decisions}: "
                    "a practice match (z undoes).", title="What if", timeout=5)

    @staticmethod
    def _open_error(exc: Exception) -> str:
        pid, host = getattr(exc, "pid", None), getattr(exc, "host", None)
        if pid is not None:
            return (f"That match is open in another unoduo (process {pid}"
                    + (f" on {host}" if host else "") + ").")
        return f"Could not resume: {exc}"

    def open_game(self, table: Table) -> None:
        """Show ``table``, over the menu."""
        self._back_to_menu()
        self.push_screen(GameScreen(table))

    def ask_to_leave(self, saved: bool = True) -> None:
        """q at the table or in one of its dialogs: quit, go to the menu, or stay."""
        from .dialogs import ConfirmLeave

        def chosen(choice: str | None) -> None:
            if choice == "quit":
                self.exit(0)
            elif choice == "menu":
                self.leave_game()

        self.push_screen(ConfirmLeave(saved=saved), chosen)

    def action_leave(self) -> None:
        """Ctrl+Q / Ctrl+C (and the palette's Quit): leave as q does — with a match at
        the table, ask first (and on that question, quit); elsewhere, quit."""
        from .dialogs import ConfirmLeave

        if isinstance(self.screen, ConfirmLeave):
            self.screen.action_choose("quit")
            return
        table = next((s for s in reversed(self.screen_stack) if isinstance(s, GameScreen)),
                     None)
        if table is not None and not table.over:
            table.action_leave()
        else:
            self.exit(0)

    async def action_quit(self) -> None:
        self.action_leave()

    def leave_game(self, new_match: bool = False) -> None:
        self._back_to_menu()
        if new_match:
            from .screens.new_match import NewMatchScreen
            self.push_screen(NewMatchScreen())

    def _back_to_menu(self) -> None:
        """Close everything over the menu (or lobby); the table or replay ``unoduo``
        started on (the first screen, nothing under it) is replaced by it."""
        home = self._home()
        while len(self.screen_stack) > 1 and not isinstance(self.screen, home):
            self.pop_screen()
        if not isinstance(self.screen, home):
            # the first screen was never pushed: give it the callback switch drops
            give_result_callback(self.screen)
            self.switch_screen(home())

    # -- the terminal size -----------------------------------------------------------

    def on_resize(self) -> None:
        self.call_after_refresh(self._check_size)

    def _check_size(self) -> None:
        w, h = self.size
        small = w < MIN_SIZE[0] or h < MIN_SIZE[1]
        if small and not self.too_small:
            self.too_small = True
            self.push_screen(TooSmall())
        elif not small and self.too_small:
            self.too_small = False
            if isinstance(self.screen, TooSmall):
                self.pop_screen()
            for screen in self.screen_stack:
                if isinstance(screen, GameScreen):
                    screen.resume_deferred()

    # -- the command palette -----------------------------------------------------------

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        commands = getattr(screen, "palette_commands", None)
        if commands is not None:
            yield from commands()
        yield SystemCommand("Rules", "Read the rule book", self._show_rules)
        yield SystemCommand("Help", "Every key", self._show_help)

    def _show_rules(self) -> None:
        from .screens.rules import RulesScreen
        self.push_screen(RulesScreen())

    def _show_help(self) -> None:
        from .screens.help import HelpScreen
        self.push_screen(HelpScreen())


def run_app(store: Saves | None, start: str = "menu", *, vs: str | None = None, seed: int | None = None,
            target: int | None = None, name: str | None = None, resume: str | None = None,
            replay: str | None = None, spoiler_free: bool = False,
            plan: MatchPlan | None = None) -> int:
    """Run the full-screen app; returns the process exit code.

    ``start``: ``"menu"``, ``"play"`` (a new match vs ``vs``: a bot level or
    ``"human"``, or ``plan``: a :class:`MatchPlan` of any seats) or ``"resume"`` (``resume``: a match id or path; ``None``: the
    newest unfinished match) or ``"replay"`` (``replay``: a match id or path, watched
    read-only; ``spoiler_free``: from its start, its length and result hidden).
    """
    if start not in ("menu", "play", "resume", "replay"):
        raise ValueError(f"start must be 'menu', 'play', 'resume' or 'replay', not {start!r}")
    app = UnoDuoApp(store, start, vs=vs, seed=seed, target=target, name=name, resume=resume,
                    replay=replay, spoiler_free=spoiler_free, handle_signals=True, plan=plan)
    return run_to_exit(app)


def run_to_exit(app: UnoDuoApp) -> int:
    """Run ``app`` until it ends; its exit status: 128+N after signal N, else what it
    returned (0 when that is not a number)."""
    try:
        result = app.run()
    finally:
        if app.signal_exit is not None:
            app.signal_exit.stopped()
    code = app.return_code
    if code:  # neither None nor 0
        return code
    return result if isinstance(result, int) else 0
