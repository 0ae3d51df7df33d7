"""The Textual app: a thin shell of screens, themes and signal handlers.

:func:`run_app` is the entry point the ``unoduo`` command calls.  Importing this
module has no side effects.  The screens other than the table are imported when first
shown, so ``unoduo play`` starts without loading the menu or the replay viewer.
"""

from __future__ import annotations

import asyncio
import os
import signal
from typing import Any, Iterable

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from engine import Rules

from .screens.game import GameScreen
from .screens.too_small import MIN_SIZE, TooSmall
from .session import HUMAN, GameSession, Settings, bot_levels

__all__ = ["UnoDuoApp", "run_app"]

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


def _default_theme() -> str:
    """textual-dark with true colour; ansi-dark otherwise (OpenSSH drops COLORTERM)."""
    truecolor = os.environ.get("COLORTERM", "").lower() in ("truecolor", "24bit")
    return "textual-dark" if truecolor else "ansi-dark"


class UnoDuoApp(App[int]):
    """UNO Duo at the terminal.  ``bot_pause``: seconds between bot moves (0 in tests)."""

    CSS_PATH = "app.tcss"
    TITLE = "UNO Duo"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", id="app.quit", show=False)]

    def __init__(self, store: Any = None, start: str = "menu", *, vs: str | None = None,
                 seed: int | None = None, target: int | None = None, name: str | None = None,
                 resume: str | None = None, replay: Any = None, bot_pause: float = 0.6,
                 think_ms: int | None = None, theme: str | None = None,
                 session: GameSession | None = None, handle_signals: bool = False) -> None:
        super().__init__()
        self.store = store
        self.start = start
        self.start_options = {"vs": vs, "seed": seed, "target": target, "name": name,
                              "resume": resume, "replay": replay}
        self.bot_pause = bot_pause
        self.think_ms = think_ms
        self.start_session = session
        self.handle_signals = handle_signals
        self.too_small = False
        self._theme_ready = False
        settings = Settings.load(store)
        wanted = theme or settings.theme or _default_theme()
        self.theme = wanted if wanted in self.available_themes else "textual-dark"

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

    # -- start-up ----------------------------------------------------------------

    def on_mount(self) -> None:
        self._theme_ready = True
        if self.handle_signals:
            self._install_signal_handlers()
        if self.start_session is not None:
            self.open_game(self.start_session)
        elif self.start == "play":
            self._start_play()
        elif self.start == "resume":
            ref = self.start_options["resume"]
            if ref is None and self.store is not None:
                newest = self.store.newest_unfinished()
                if newest is None:
                    self.notify("No unfinished match to resume.", severity="warning")
                    ref = None
                else:
                    ref = str(newest.id)
            if ref is not None:
                self.resume_match(ref)
        elif self.start == "replay" and self.start_options["replay"] is not None:
            self.open_replay(self.start_options["replay"])
        if len(self.screen_stack) == 1:  # the menu, or a start that opened nothing
            from .screens.menu import MenuScreen

            self.push_screen(MenuScreen())
        self.call_after_refresh(self._check_size)

    def _start_play(self) -> None:
        opts = self.start_options
        vs = opts["vs"] or "random"
        if vs != HUMAN and vs not in bot_levels():
            self.notify(f"Unknown opponent {vs!r}: one of {', '.join(bot_levels())} or human.",
                        severity="error")
            return
        kind = HUMAN if vs == HUMAN else f"bot:{vs}"
        from .screens.new_match import default_names
        settings = Settings.load(self.store)
        names = default_names(kind, opts["name"] or "", "")
        rules_opts = dict(settings.rules) if isinstance(settings.rules, dict) else {}
        if opts["target"] is not None:
            rules_opts["target"] = opts["target"]
        try:
            rules = Rules(**rules_opts)
        except (TypeError, ValueError):
            rules = Rules(target=opts["target"]) if opts["target"] else Rules()
        self.new_match(names, (HUMAN, kind), rules, opts["seed"])

    def _install_signal_handlers(self) -> None:
        """SIGHUP / SIGTERM (a dropped SSH link): exit cleanly.  The save is already
        complete — every move was appended as it was made."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGHUP, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, self._on_signal, sig)
            except (NotImplementedError, RuntimeError, ValueError):  # not on this platform
                pass

    def _on_signal(self, sig: int) -> None:
        self.exit(return_code=128 + int(sig))

    # -- matches -----------------------------------------------------------------

    def new_match(self, names: tuple[str, str], kinds: tuple[str, str], rules: Rules,
                  seed: int | None) -> None:
        try:
            session = GameSession.start(self.store, names, kinds, rules, seed,
                                        think_ms=self.think_ms)
        except Exception as exc:  # a save-file problem: say so, stay in the menu
            self.notify(f"Could not start the match: {exc}", severity="error", timeout=10)
            return
        self.open_game(session)

    def resume_match(self, ref: str) -> None:
        try:
            session = GameSession.resume(self.store, ref, think_ms=self.think_ms)
        except Exception as exc:
            self.notify(self._open_error(exc), severity="error", timeout=10)
            return
        self.open_game(session)

    def open_replay(self, ref: Any) -> None:
        """Watch a saved match again, read-only (over whatever is showing); ``ref`` is
        a match id or path, or an already loaded match (the screenshots)."""
        from .screens.replay import ReplayScreen

        try:
            screen = (ReplayScreen.open(self.store, ref) if isinstance(ref, (str, os.PathLike))
                      else ReplayScreen(ref))
        except Exception as exc:
            self.notify(f"Could not open the replay: {exc}", severity="error", timeout=10)
            return
        self.push_screen(screen)

    def branch_match(self, loaded: Any, log_prefix: list, decisions: int, level: str,
                     seat: int) -> None:
        """A what-if branch of the saved match ``loaded``: a new practice match from its
        log up to ``decisions`` decisions, you in ``seat`` against a ``level`` bot."""
        header = loaded.header
        seats = loaded.seats
        human = next((s.name for s in seats if not s.is_bot), "")
        kind = f"bot:{level}"
        from .screens.new_match import default_names
        me, bot_name = default_names(kind, human)
        names = (me, bot_name) if seat == 0 else (bot_name, me)
        kinds = (HUMAN, kind) if seat == 0 else (kind, HUMAN)
        try:
            session = GameSession.branch(self.store, header.rules, log_prefix, header.seed,
                                         names, kinds, (header.match_id, decisions),
                                         think_ms=self.think_ms)
        except Exception as exc:
            self.notify(f"Could not start the branch: {exc}", severity="error", timeout=10)
            return
        self.open_game(session)
        self.notify(f"A what-if branch of {header.match_id} from action {decisions}: "
                    "a practice match (z undoes).", title="What if", timeout=5)

    @staticmethod
    def _open_error(exc: Exception) -> str:
        pid, host = getattr(exc, "pid", None), getattr(exc, "host", None)
        if pid is not None:
            return (f"That match is open in another unoduo (process {pid}"
                    + (f" on {host}" if host else "") + ").")
        return f"Could not resume: {exc}"

    def open_game(self, session: GameSession) -> None:
        """Show the table for ``session`` (over the menu, when there is one: ``unoduo
        play`` and ``resume`` start straight at the table, with no menu composed)."""
        self._back_to_menu()
        self.push_screen(GameScreen(session))

    def ask_to_leave(self, saved: bool = True) -> None:
        """q at the table or in one of its dialogs: quit, go to the menu, or stay."""
        from .dialogs import ConfirmLeave

        def chosen(choice: str | None) -> None:
            if choice == "quit":
                self.exit(0)
            elif choice == "menu":
                self.leave_game()

        self.push_screen(ConfirmLeave(saved=saved), chosen)

    def leave_game(self, new_match: bool = False) -> None:
        from .screens.menu import MenuScreen

        self._back_to_menu()
        if not isinstance(self.screen, MenuScreen):
            self.push_screen(MenuScreen())
        if new_match:
            from .screens.new_match import NewMatchScreen
            self.push_screen(NewMatchScreen())

    def _back_to_menu(self) -> None:
        if len(self.screen_stack) == 1:  # nothing open yet: `unoduo play` starting up
            return
        from .screens.menu import MenuScreen

        while len(self.screen_stack) > 1 and not isinstance(self.screen, MenuScreen):
            self.pop_screen()

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


def run_app(store: Any, start: str = "menu", *, vs: str | None = None, seed: int | None = None,
            target: int | None = None, name: str | None = None, resume: str | None = None,
            replay: str | None = None) -> int:
    """Run the full-screen app; returns the process exit code.

    ``start``: ``"menu"``, ``"play"`` (a new match vs ``vs``: a bot level or
    ``"human"``) or ``"resume"`` (``resume``: a match id or path; ``None``: the
    newest unfinished match) or ``"replay"`` (``replay``: a match id or path, watched
    read-only).
    """
    if start not in ("menu", "play", "resume", "replay"):
        raise ValueError(f"start must be 'menu', 'play', 'resume' or 'replay', not {start!r}")
    app = UnoDuoApp(store, start, vs=vs, seed=seed, target=target, name=name, resume=resume,
                    replay=replay, handle_signals=True)
    result = app.run()
    if app.return_code not in (None, 0):
        return app.return_code
    return result if isinstance(result, int) else 0
