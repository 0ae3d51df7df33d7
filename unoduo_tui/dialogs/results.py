"""The end of a round (E1–E3, C10) and of the match (E4): who went out, the points,
the totals and who wins under the match's scoring, for 2–10 seats."""

from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from engine import PlayerView, Rules
from engine.events import RoundEnd

from ..app_link import unoduo
from ..text.columns import short_name, short_names
from ..text import printable
from ..text.words import winners
from ..widgets.scoresheet import ranking, target_rule
from .base import DIALOG_ROOM, SHEET_ROOM, Dialog, GoesHome, hand_text, home_bindings

__all__ = ["RoundOver", "MatchOver"]


class RoundOver(Dialog[None]):
    """E1–E3: who went out, the cards left, the points and the new totals — over a
    covered table (app.tcss): what is under it is already the next round."""

    BINDINGS = [Binding("enter,space", "close", "Continue", id="round.continue", key_display="⏎")]

    def __init__(self, end: RoundEnd, names: Sequence[str],
                 viewer: int | None, rules: Rules | int, *, match_over: bool = False,
                 match_winner: int | None = None) -> None:
        """``end``: the round's end event; ``rules``: the match's (a bare target: UNO Duo's rules with that target);
        ``match_over``: this round ended the match (``match_winner``: its winner,
        ``None`` for a draw or a shared win)."""
        super().__init__()
        self.number, self.winner, self.end = end.number, end.seat, end
        self.names, self.viewer = [printable(n) for n in names], viewer
        self.rules = rules if isinstance(rules, Rules) else Rules(target=rules)
        self.target = self.rules.target
        self.match_over, self.match_winner = match_over, match_winner

    def compose(self) -> ComposeResult:
        end = self.end
        hands, points, totals = end.hands, end.points, end.totals
        if end.blocked:
            head = f"Round {self.number} is blocked: each scores their own hand."
        elif self.winner == self.viewer:
            head = f"Round {self.number}: you went out!"
        else:
            assert self.winner is not None  # a round that is not blocked has its winner
            head = f"Round {self.number}: {self.names[self.winner]} went out."
        body = Text()
        if len(points) == 2:
            w = min(SHEET_ROOM // 2, max(len(n) for n in self.names))  # the seats' names
            for seat, name in enumerate(short_names(self.names[0], self.names[1], w)):
                body.append(f"{name:<{w}} ", "bold")
                body.append(f"+{points[seat]:<4} total {totals[seat]:<4}\n")
                body.append(f"  cards left: {hand_text(hands[seat])}\n", "dim")
        else:  # a line a seat: ten seats fit at 80×24
            w = min(12, max(len(n) for n in self.names))
            for seat in range(len(points)):
                line = Text("*" if seat == self.winner else " ", "bold")
                line.append(f"{short_name(self.names[seat], w):<{w}} ", "bold")
                line.append(f"+{points[seat]:<4} = {totals[seat]:<4} ")
                line.append(hand_text(hands[seat]) if hands[seat] else "out", "dim")
                line.truncate(DIALOG_ROOM, overflow="ellipsis")
                body.append_text(line)
                body.append("\n")
        body.append("\n" + self._outcome())
        with Vertical(classes="dialog"):
            yield Static(Text(head), classes="dialog-title")
            yield Static(body, classes="dialog-text")
            yield Button("Continue (Enter)", id="continue", compact=True)

    def _outcome(self) -> str:
        """What the round means for the match (E4 / C10), in the match's own terms."""
        seats, target = len(self.names), self.target
        if self.rules.scoring == "winner_takes":
            how, with_ = "the first to reach it wins", ""
        else:
            lowest = "lower" if seats == 2 else "lowest"
            how, with_ = f"the {lowest} total wins", f" with the {lowest} total"
        if not self.match_over:
            return f"The match ends when someone reaches {target}; {how}."
        last = f"That was the last round: someone reached {target}."
        if self.match_winner is None:
            totals = self.end.totals
            if seats == 2:
                return f"{last} The match is a draw."
            best = ranking(self.rules, totals)[0]
            return f"{last} {', '.join(self.names[s] for s in best)} share the win."
        who = ("You win" if self.match_winner == self.viewer
               else f"{self.names[self.match_winner]} wins")
        return f"{last} {who} the match{with_}."

    def action_close(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)


class MatchOver(GoesHome, Dialog[str]):
    """E4: the winner and the full score sheet; then a new match, the menu or quit."""

    BINDINGS = [
        Binding("n", "choose('new')", "New match", id="over.new"),
        *home_bindings("over"),
        Binding("q", "choose('quit')", "Quit", id="over.quit"),
        Binding("w", "watch", "Watch replay", id="over.replay"),
    ]

    def __init__(self, view: PlayerView, names: Sequence[str], hot_seat: bool = False) -> None:
        super().__init__()
        self.view, self.names, self.hot_seat = view, [printable(n) for n in names], hot_seat
        self.replay_ref: str | None = None  # the save file, when the match has one

    def _saved_ref(self) -> str | None:
        """The save file of the match at the table below (None: an unsaved match)."""
        for screen in reversed(self.app.screen_stack):
            ref = getattr(getattr(screen, "table", None), "save_ref", None)
            if ref is not None:
                return ref
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "watch":
            return True if self.replay_ref else None
        return super().check_action(action, parameters)

    def compose(self) -> ComposeResult:
        head, sheet = self.result(self.view)
        self.replay_ref = self._saved_ref()
        with Vertical(classes="dialog"):
            yield Static(Text(head), classes="dialog-title")
            yield Static(sheet, classes="dialog-text")
            if self.replay_ref and unoduo(self).store is not None:  # #24
                yield Static("Rating: counting…", id="over-rating", classes="dialog-help")
            with Horizontal(classes="dialog-buttons"):
                yield Button("New match (n)", id="new", compact=True)
                if self.replay_ref:
                    yield Button("Watch replay (w)", id="watch", compact=True)
                yield Button(f"{unoduo(self).home_name} (m)", id="menu", compact=True)
                yield Button("Quit (q)", id="quit", compact=True)

    def on_mount(self) -> None:
        if self.query("#over-rating"):  # composed only with a store
            store = unoduo(self).saved_store
            self._rating(store.data_dir, self.replay_ref, store.key)

    @work(thread=True, exclusive=True)
    def _rating(self, data_dir, ref: str, key: str | None) -> None:
        """The rating change of each human seat, from the record's index (#24)."""
        from ..record.words import rating_lines

        text = rating_lines(data_dir, ref, key=key)
        self.app.call_from_thread(self._rated, text)

    def _rated(self, text: str) -> None:
        line = self.query("#over-rating")
        if line:
            line.first(Static).update(text)

    def result(self, view: PlayerView) -> tuple[str, Text]:
        """The head line (who won) and the sheet under it, for two seats or more."""
        return (self._two if len(view.scores) == 2 else self._many)(view)

    def _two(self, view: PlayerView) -> tuple[str, Text]:
        """Two seats: "X wins, 12 to 205" and a column each, round by round."""
        scores = view.scores
        if view.winner is None:
            head = f"Match over: a draw at {scores[0]}–{scores[1]}."
        elif view.winner == view.seat and not self.hot_seat:
            head = f"You win the match, {scores[view.winner]} to {scores[1 - view.winner]}!"
        else:
            head = (f"{self.names[view.winner]} wins the match, "
                    f"{scores[view.winner]} to {scores[1 - view.winner]}.")
        sheet = Text()
        # a column as wide as the longer name, up to half the room beside "Round"
        w = max(10, min(SHEET_ROOM // 2, max(len(n) for n in self.names) + 1)) - 1
        a, b = short_names(self.names[0], self.names[1], w)
        sheet.append(f"{'Round':<6}{a:>{w}} {b:>{w}}\n", "bold")
        rounds = view.rounds
        shown = rounds[-10:]
        if len(rounds) > len(shown):
            sheet.append(f"  … {len(rounds) - len(shown)} earlier rounds\n", "dim")
        for i, (winner, points) in enumerate(shown, len(rounds) - len(shown) + 1):
            marks = ["*" if winner == s else " " for s in (0, 1)]
            sheet.append(f"{i:<6}{points[0]:>{w}}{marks[0]}{points[1]:>{w}}{marks[1]}\n")
        sheet.append(f"{'Total':<6}{scores[0]:>{w}} {scores[1]:>{w}}\n", "bold")
        sheet.append(f"(* went out · {target_rule(view.rules, 2)})", "dim")
        return head, sheet

    def _many(self, view: PlayerView) -> tuple[str, Text]:
        """Three or more seats: the winner (or who share the win) and the ranking —
        each seat's total and the rounds it won."""
        scores = view.scores
        if view.winner is not None:  # H5: with partners, the team wins
            who = winners(view.rules, view.winner, self.names,
                          None if self.hot_seat else view.seat)
            head = f"{who[0].upper()}{who[1:]} the match with {scores[view.winner]}!"
        else:
            best = ranking(view.rules, scores)[0]
            head = (f"Shared win: {', '.join(self.names[s] for s in best)} "
                    f"at {scores[best[0]]}.")
        w = min(20, max(len(n) for n in self.names))
        sheet = Text(f"{'':<3}{'':<{w}} {'Total':>6} {'Rounds won':>11}\n", "bold")
        won = [sum(1 for winner, _ in view.rounds if winner == s) for s in range(len(scores))]
        for place, seats in enumerate(ranking(view.rules, scores), 1):
            for s in seats:
                style = "bold" if place == 1 else ""
                sheet.append(f"{place:>2} {short_name(self.names[s], w):<{w}} ", style)
                sheet.append(f"{scores[s]:>6} {won[s]:>11}\n", style)
        sheet.append(f"({len(view.rounds)} round{'s' * (len(view.rounds) != 1)} · "
                     f"{target_rule(view.rules, len(scores))})", "dim")
        return head, sheet

    def action_choose(self, what: str) -> None:
        self.dismiss(what)

    def action_watch(self) -> None:
        """To the menu (the table closes its save file), then the replay over it."""
        ref, app = self.replay_ref, unoduo(self)
        if ref is None or not self.on_top:  # answered already: one replay, not two
            return
        self.dismiss("menu")
        app.call_later(app.open_replay, ref)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "watch":
            self.action_watch()
            return
        self.dismiss(event.button.id or "menu")
