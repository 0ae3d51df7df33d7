"""The replay viewer: a saved match, read-only, step by step on the table's widgets.

The screen owns a :class:`~engine.replay.ReplayCursor` and hands each widget a view
of the position under it: a seat's :class:`PlayerView` (what that seat knew then) or,
for "all hands", the engine's explicit :class:`~engine.replay.OmniscientView`.
``p`` goes through seat 1 … seat N, then all hands.  All hands lists the other
seats' cards above the table up to :data:`HANDS_SHOWN` seats (they fit at 80×24);
past that it shows the seat to act's hand and the others' counts.

An unfinished match opens locked in its human's perspective: the other hands and
the draw pile stay hidden, so a replay is never a way to peek at a game still
being played.

The log is a list to pick from: a click on a line, or ``l`` (Tab, ↑) then ↑ / ↓ and
Enter, goes to the action that line tells.  Spoiler-free (``s``, ``unoduo replay
--spoiler-free``, ``s`` in the lists) hides the match's length, its future moments
and its result, and opens at the start.
"""

from __future__ import annotations

import ast
import os
from functools import partial
from typing import Iterable

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from engine import PlayerView
from engine.replay import ALL, ReplayCursor, moments_of

from ..dialogs import BranchDialog
from ..dialogs.goto import GoToAction
from ..plan import bot_levels
from ..store import parent_of
from ..textual_compat import AnswerOnce
from ..widgets import Discard, Footer, GameLog, Hand, ScoreSheet, Seats, table_row
from ..widgets.other_hands import HANDS_SHOWN, OtherHands
from ..widgets.replay_log import ReplayLog
from ..text.words import seat_names
from ..app_link import unoduo
from ..review.viewer import ReviewPane
from . import replay_keys
from .replay_keys import JUMPS, MOMENT_KEYS, QUIET, QUIET_IDS, SPEEDS, WAIT_WHILE_PICKING
from .replay_text import ReplayText

__all__ = ["ReplayScreen", "SPEEDS", "MOMENT_KEYS"]


class ReplayScreen(ReviewPane, ReplayText, AnswerOnce, Screen[None]):
    """One saved match, watched again (never written to)."""

    # the table's layout is the game's (app.tcss); here only the replay's own rows
    DEFAULT_CSS = """
    ReplayScreen {
        #discard { padding: 0; }
        #timeline { height: 1; color: $text-muted; }
        #replay-lineage { height: 1; background: $boost; color: $text-muted; }
        #replay-status { height: 1; background: $primary-muted; color: $foreground;
                         text-style: bold; }
        #review-row { height: 1; display: none; }
        #review-curve { width: 1fr; height: 1; }
        #review-progress { width: 22; height: 1; }
    }
    """

    BINDINGS = replay_keys.BINDINGS  # declared there, with the moments' keys

    def __init__(self, loaded, *, every: int = 200, lock: bool = False,
                 spoiler_free: bool = False, remote: tuple[int, ...] = ()) -> None:
        super().__init__()
        header = loaded.header
        seats = loaded.seats
        self.loaded = loaded
        self.names: tuple[str, ...] = seat_names(seats)
        self.kinds: tuple[str, ...] = tuple(s.kind for s in seats)
        self.cursor = ReplayCursor(header.rules, loaded.match.actions, header.seed, every=every)
        #: the jump keys this preset's matches can use
        self.moments = moments_of(header.rules)
        self.finished = loaded.match.over
        # the humans at this keyboard: a hosted match's remote seats are not
        humans = [i for i, s in enumerate(seats) if not s.is_bot and i not in remote]
        #: the one seat an unfinished match may be seen from (None: any perspective)
        self.locked: int | None = None
        self.undos = getattr(loaded, "undos", 0)
        if not self.finished and humans and (lock or not self.undos):  # practice: no secrets
            self.locked = humans[0]
        self.perspective: int | str = ALL if self.locked is None else self.locked
        self.speed = 2
        self._timer = None
        self._note: str | None = None  # said on the status line until the next move
        #: hide what lies ahead: the length, the future moments, the final scores
        self.spoiler_free = spoiler_free
        if spoiler_free:  # the end is the spoiler: start at the start
            self.cursor.start()
        self.branched_from = parent_of(header)
        self.reviewed = {}  # the review (#25, ReviewPane), once asked for with `a`

    @classmethod
    def open(cls, store, ref: "str | os.PathLike", *,
             spoiler_free: bool = False) -> "ReplayScreen":
        """Load ``ref`` read-only; a hot-seat match still being played is refused (a
        hosted one is seen from the host's seat only).  ``spoiler_free``: open it
        spoiler-free."""
        from ..net.hosted import remote_seats

        loaded = store.open(ref, read_only=True)
        remote = remote_seats(store, loaded)
        humans = [i for i, s in enumerate(loaded.seats) if not s.is_bot and i not in remote]
        if not loaded.match.over and len(humans) > 1:
            raise ValueError("this hot-seat match is still being played: finish it first "
                             "(a replay would show one player the other's hand)")
        return cls(loaded, lock=cls._parent_unfinished(store, loaded) or bool(remote),
                   spoiler_free=spoiler_free, remote=remote)

    @staticmethod
    def _parent_unfinished(store, loaded) -> bool:
        """A branch of a match still being played shows what that match hides (the
        opponent's hand, the draw pile) even once practised: keep it locked too."""
        parent = parent_of(loaded.header)
        if parent is None or loaded.match.over:
            return False
        try:
            return store.summary(store.resolve(parent[0])).status != "finished"
        except Exception:  # the parent is gone or unreadable: assume the worst
            return True

    # -- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="replay-lineage")
        yield Seats(id="seats")
        yield OtherHands(id="others")
        yield from table_row(ReplayLog(id="log"))
        yield Hand(id="hand")
        yield Static(id="timeline")
        yield from self.compose_review()
        yield Static(id="replay-status")
        yield Footer()

    def on_mount(self) -> None:
        for widget in (self.query_one(Discard), self.query_one(GameLog),
                       self.query_one(ScoreSheet), self.query_one(Seats)):
            widget.name_seats(self.names, say_you=False)
        hand = self.query_one(Hand)
        hand.read_only = True
        self.query_one("#replay-lineage").display = self.branched_from is not None
        if self.locked is not None:
            self.notify("This match is not finished: you see it as "
                        f"{self.names[self.locked]} saw it.", title="Replay", timeout=5)
        self.show()
        self.call_after_refresh(self.show)  # once the log knows its width: lines to events

    def on_game_log_event_clicked(self, message: GameLog.EventClicked) -> None:
        """A click on a line of the log, or Enter on the line picked in it: go to the
        action that line tells."""
        message.stop()
        self._stop()
        self.cursor.goto(self.cursor.position_of_event(message.index))
        self._moved()

    def on_unmount(self) -> None:
        self._stop()
        self.stop_review()

    # -- what is shown ---------------------------------------------------------------

    @property
    def bottom(self) -> int:
        """The seat whose hand is at the bottom: the perspective's; in "all hands", the
        first human's (the first seat's in a match of bots) — or, past
        :data:`HANDS_SHOWN` seats, where the others show only counts, the seat to act."""
        if isinstance(self.perspective, int):
            return self.perspective
        to_act = self.cursor.match.to_act
        if len(self.names) > HANDS_SHOWN and to_act is not None:
            return to_act
        humans = [i for i, k in enumerate(self.kinds) if not k.startswith("bot:")]
        return humans[0] if humans else 0

    def show(self) -> None:
        """Hand every widget the view of the position under the cursor."""
        cursor = self.cursor
        seat = self.bottom
        mine = cursor.view(seat)
        assert isinstance(mine, PlayerView)  # a seat's view (only ALL is omniscient)
        everything = cursor.view(ALL) if self.perspective == ALL else None
        seats = self.query_one(Seats)
        others = self.query_one(OtherHands)
        # all hands: listed up to HANDS_SHOWN seats; past that, and in a seat's view,
        # the others' counts (what the bottom seat's view tells)
        others.display = everything is not None and len(self.names) <= HANDS_SHOWN
        seats.display = not others.display
        if seats.display:
            seats.view = mine
        else:
            others.show(everything, self.names, seat)
        hand = self.query_one(Hand)
        hand.owner = self.names[seat]
        hand.view = mine
        self.query_one(Discard).view = mine
        self.query_one(ScoreSheet).view = mine
        pos = cursor.position
        self.query_one(GameLog).show(everything if everything is not None else mine,
                                     current=cursor.event_count(pos - 1) if pos else None)
        self.query_one("#timeline", Static).update(self.timeline())
        self.query_one("#timeline").display = not self.review_on  # the curve's place
        self.show_review()
        if self.branched_from is not None:
            self.query_one("#replay-lineage", Static).update(self.lineage())
        self.query_one("#replay-status", Static).update(
            self.status(everything, everything if everything is not None else mine))
        self._note = None  # said once: the next move says what it did
        self.refresh_bindings()

    # -- what a key may do now -------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in WAIT_WHILE_PICKING and self.query_one(ReplayLog).has_focus:
            return False
        cursor = self.cursor
        pos, count = cursor.position, cursor.count
        forward = parameters and isinstance(parameters[-1], int) and parameters[-1] > 0
        if action in ("step", "turn", "round", "moment"):
            if action == "moment":  # always answers: a jump, or "no later …" said
                return True if parameters and parameters[0] in self.moments else None
            return True if (pos < count if forward else pos > 0) else None
        if action == "edge":
            return True if (pos < count if parameters[0] else pos > 0) else None
        if action == "perspective":
            return True if self.locked is None else None
        if action == "log":
            return True if self.query_one(ReplayLog).can_pick else None
        if action == "branch":  # not from a game still in play: it would show its pile
            return (True if not cursor.match.over and self.locked is None
                    and len(self.names) == 2 else None)
        if action == "speed":
            return True if self._timer is not None else None
        if action == "mistake":
            return True if self.review_on else None
        return True

    def _moment_there(self, kind: str, direction: int) -> bool:
        """Whether a ``kind`` moment lies that way (the palette offers only those; ahead,
        spoiler-free, always: whether one lies ahead is a spoiler — try and see)."""
        if self.spoiler_free and direction > 0:
            return True
        pos, marks = self.cursor.position, self.cursor.moments(kind)
        return any(p > pos for p in marks) if direction > 0 else any(p < pos for p in marks)

    # -- actions -------------------------------------------------------------------------

    def _moved(self) -> None:
        self.show()

    def action_step(self, delta: int) -> None:
        self.cursor.step(delta)
        self._moved()

    def action_turn(self, direction: int) -> None:
        (self.cursor.next_turn if direction > 0 else self.cursor.prev_turn)()
        self._moved()

    def action_round(self, direction: int) -> None:
        (self.cursor.next_round if direction > 0 else self.cursor.prev_round)()
        self._moved()

    def action_edge(self, end: int) -> None:
        (self.cursor.end if end else self.cursor.start)()
        self._moved()

    def action_moment(self, kind: str, direction: int) -> None:
        cursor = self.cursor
        moved = (cursor.next_moment if direction > 0 else cursor.prev_moment)(kind)
        if moved is None:
            self.app.bell()
            label = next(label for _, k, _, label in self.jumps if k == kind)
            self._note = f"no {'later' if direction > 0 else 'earlier'} {label}"
        self._moved()

    def action_log(self, delta: int = 0) -> None:
        """``l`` / Tab (↑: the line before too): pick a line of the log by keyboard."""
        self._stop()
        if not self.query_one(ReplayLog).start_picking(delta):
            self.app.bell()

    def action_goto(self) -> None:
        def chosen(pos: int | None) -> None:
            if pos is not None:
                self.cursor.goto(pos)
                self._moved()

        self.app.push_screen(GoToAction(self.cursor.count, self.cursor.position), chosen)

    def action_autoplay(self) -> None:
        if self._timer is not None:
            self._stop()
        else:
            if self.cursor.position >= self.cursor.count:
                self.cursor.start()
            self._start()
        self.show()

    def _start(self) -> None:
        self._timer = self.set_interval(1 / SPEEDS[self.speed], self._tick)

    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _tick(self) -> None:
        if self.cursor.position >= self.cursor.count:
            self._stop()
        else:
            self.cursor.step(1)
        self.show()

    def action_speed(self, delta: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + delta))
        if self._timer is not None:
            self._stop()
            self._start()
        self.show()

    def action_perspective(self) -> None:
        if self.locked is not None:
            return
        order = [*range(len(self.names)), ALL]  # seat 1 … seat N, all hands
        self.perspective = order[(order.index(self.perspective) + 1) % len(order)]
        self.show()

    def action_spoilers(self) -> None:
        """``s``: spoiler-free on / off.  Turning it on at the end of a finished match
        (where the viewer opens) goes back to the start: the end is what it hides."""
        self.spoiler_free = not self.spoiler_free
        if self.spoiler_free and self.finished and self.cursor.position == self.cursor.count:
            self._stop()
            self.cursor.start()
        self.show()

    def action_branch(self) -> None:
        """``b``: a new practice match from exactly this position (the parent's file is
        never touched); an unfinished match's human keeps their own seat."""
        cursor = self.cursor
        if len(self.names) != 2:  # the branch dialog and the app seat one bot against you
            self.notify("What-if branches are for two-seat matches for now.",
                        severity="warning", timeout=4)
            return
        if cursor.match.over:
            self.notify("The match is over here: step back to branch from an earlier point.",
                        severity="warning", timeout=4)
            return
        if self.locked is not None:
            # a branch replays the recorded deck: drawing in it would show the live
            # game's draw pile, which its player must not see
            self.notify("This match is still being played: finish it (or practise it with "
                        "undo) before branching from it.", severity="warning", timeout=5)
            return
        self._stop()
        pos = cursor.position
        prefix = cursor.log_prefix(pos)
        humans = [i for i, k in enumerate(self.kinds) if not k.startswith("bot:")]
        seat = self.locked if self.locked is not None else (humans[0] if humans else 0)
        bots_now = [k[4:] for k in self.kinds if k.startswith("bot:")]

        def chosen(choice: tuple[str, int] | None) -> None:
            if choice is not None:
                level, seat = choice
                unoduo(self).branch_match(self.loaded, prefix, pos, level, seat)

        self.app.push_screen(BranchDialog(bot_levels(), self.names, pos, seat=seat,
                                          seat_fixed=self.locked,
                                          level=bots_now[0] if bots_now else None), chosen)

    def action_help(self) -> None:
        from .help import KeysScreen

        self.app.push_screen(KeysScreen("Replay keys", self.key_rows()))

    def key_rows(self) -> list[tuple[str, str]]:
        """Every key of the replay, as ``?`` shows them (a screen that scrolls, not a
        toast cut off at 80×24): a row a binding, a pair that goes both ways in one
        row, this preset's moments in its words — read from the bindings."""
        rows: list[tuple[str, str]] = []
        last: tuple[str, tuple] | None = None
        for binding in self.BINDINGS:
            if not isinstance(binding, Binding):
                continue  # every one is declared as a Binding
            name, args = _parsed(binding.action)
            if name == "moment" and args[0] not in self.moments:
                continue
            keys = " or ".join(self.app.get_key_display(Binding(k, binding.action))
                               for k in binding.key.split(","))
            _, tip = self._words(binding, name, args)
            pair = (name, args[:-1]) if args and isinstance(args[-1], int) else None
            if pair is not None and pair == last:
                key, what = rows[-1]
                rows[-1] = (f"{key} / {keys}", _both_ways(what, tip))
            else:
                rows.append((keys, tip))
            last = pair
        return rows

    def _words(self, binding: Binding, name: str, args: tuple) -> tuple[str, str]:
        """A binding's description and tooltip in this preset's words ("Draw 2" in
        classic, where a Draw 2 is no volley)."""
        said, tip = binding.description, binding.tooltip
        if name == "moment":
            label = next(j[3] for j in self.jumps if j[1] == args[0])
            default = JUMPS[args[0]][2]
            said, tip = said.replace(default, label), tip.replace(default, label)
        return said, tip

    def action_close(self) -> None:
        self._stop()
        if len(self.app.screen_stack) == 1:  # `unoduo replay`: nothing under it
            self.app.exit(0)
        else:
            self.dismiss(None)

    # -- the command palette ---------------------------------------------------------

    def palette_commands(self) -> Iterable[SystemCommand]:
        for binding in self.BINDINGS:
            if not isinstance(binding, Binding):
                continue  # every one is declared as a Binding
            name, args = _parsed(binding.action)
            if name in QUIET or binding.id in QUIET_IDS:
                continue
            if self.check_action(name, args) and (name != "moment"
                                                  or self._moment_there(*args)):
                said, tip = self._words(binding, name, args)
                yield SystemCommand(f"Replay: {said}",
                                    f"{tip} ({binding.key_display or binding.key})",
                                    partial(self.run_action, binding.action))


def _both_ways(ahead: str, back: str) -> str:
    """Two tooltips in one: "To the next Skip" and "Back to the previous Skip" read
    "To the next / back to the previous Skip" (the words they end with said once)."""
    a, b = ahead.split(), back.split()
    same = 0
    while same < min(len(a), len(b)) - 1 and a[-1 - same] == b[-1 - same]:
        same += 1
    tail = " ".join(a[len(a) - same:])
    head_b = " ".join(b[:len(b) - same])
    both = f"{' '.join(a[:len(a) - same])} / {head_b[:1].lower()}{head_b[1:]}"
    return f"{both} {tail}" if tail else both


def _parsed(action: str) -> tuple[str, tuple]:
    """A binding's action: its name and its arguments (``"moment('volley', 1)"``)."""
    name = action.split("(")[0]
    params = action[len(name):].strip("()")
    return name, ast.literal_eval(f"({params},)") if params else ()
