"""The seats around the table, as the viewer sees them: each seat's name, its card
count (a few card backs, then the number), the UNO! flag at one card, the dealer mark,
who is to act or thinking — in play order, starting from the viewer.

Two seats (UNO Duo, or classic heads-up) read as one line about the other seat, as
the opponent strip always did.  Three or more read as a chain in play order: the
viewer's cell first ("You ↻"), then ``→ Bea``, ``→ Cal`` … in the order play goes,
wrapping into rows; after a Reverse the chain is rebuilt from the new next seat and
the viewer's cell says "reversed".  Each other cell says what that seat did since
the viewer's own last move (:func:`since_your_turn`: "R9" in its colours, "+2",
"drew", "skip"…): at ten seats a lap of moves does not fit the log, but it fits here.  Everything shown comes from the view (a
:class:`PlayerView`: card counts, never cards), the names and the bot labels.
"""

from __future__ import annotations

from typing import Sequence

from rich.console import Group
from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.timer import Timer

from engine import Card, PlayerView
from engine.events import Draw, Dump, Jump, Pass, Play, Swap

from ..text.columns import distinct_names, short_name
from ..text import printable
from .cards import CardCanvas
from .names import SeatNames
from .viewslice import ShowsView

__all__ = ["Seats", "play_order", "said_uno", "since_your_turn", "MIN_CELL"]

_SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
_MARKS = 56  # the two-seat line: the cells its marks may need (kind, count, UNO!, catch!…)
MIN_CELL = 19  # the narrowest cell of the chain: "→ ▶Name… D 12 UNO!"
_FEW = 5  # card backs drawn at most per cell of the chain (then only the number)
_BACK = "▐▌"
AHEAD = "→"  # the arrow between cells: play goes this way


def play_order(view: PlayerView) -> tuple[int, ...]:
    """Every seat in the order play goes, starting from the viewer."""
    n = len(view.hand_sizes)
    first = 0 if view.seat is None else view.seat  # a watcher's: from seat 0
    return tuple((first + i * view.direction) % n for i in range(n))


def said_uno(view: PlayerView, seat: int) -> bool:
    """``seat`` said UNO with the move that left it its one card (U1): its last play or
    dump says so.  A seat at one card that did not is not marked "UNO!" — it forgot."""
    for e in reversed(view.events):
        if e.seat == seat and e.kind in ("play", "dump", "jump"):
            return bool(e.uno)
        if e.kind in ("round", "deal"):
            break  # a new round: nothing played yet
    return False


#: how a cell says what a seat did that is not a card ("+2", "chal", "catch": bold)
_DID_STYLE = {"drew": "dim", "kept": "dim", "pass": "dim", "skip": "dim italic"}
_SAID = {"nodump": "kept", "challenge": "chal", "catch": "catch"}
_MOVES = ("play", "dump", "nodump", "draw", "pass", "challenge", "catch", "jump")


def since_your_turn(view: PlayerView) -> dict[int, tuple[str, Card | None]]:
    """What each other seat did last since the viewer's own last move this round (a
    lap at ten seats does not fit the log): the card it played (or dumped last), "+2"
    for what it had to draw, "drew" / "kept" / "pass", "skip" when it was skipped
    and did nothing else — by seat; the card itself for the cell's colours."""
    events = view.events
    start = 0
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e.kind in ("round", "deal") or (e.seat == view.seat and e.kind in _MOVES):
            start = i + 1
            break
    did: dict[int, tuple[str, Card | None]] = {}
    for e in events[start:]:
        seat = e.seat
        if seat is None:
            continue  # every kind below is a seat's
        if isinstance(e, (Play, Jump)) and e.cards:
            did[seat] = (e.cards[0].text, e.cards[0])
            if e.cards[0].rank == "S" and e.next_seat is not None and e.next_seat != view.seat:
                did[e.next_seat] = ("skip", None)  # until it moves itself
        elif isinstance(e, Dump) and e.cards:
            did[seat] = (e.cards[-1].text, e.cards[-1])
        elif isinstance(e, Draw):
            did[seat] = (f"+{e.ncards}", None) if e.why not in ("turn", None) else ("drew", None)
        elif isinstance(e, Pass):
            did[seat] = ("kept", None) if e.why == "keep" else ("pass", None)
        elif e.kind in _SAID:
            did[seat] = (_SAID[e.kind], None)
        elif isinstance(e, Swap):  # H1: after its 7
            did[seat] = ("swap", None)
    if view.seat is not None:
        did.pop(view.seat, None)
    return did


def _catchable(view: PlayerView, seat: int) -> bool:
    """The viewer may catch ``seat`` without UNO now (U2)."""
    return view.exposed == seat and any(a.kind == "catch" for a in view.legal_actions)


def _layout(seats: int, width: int) -> tuple[int, int]:
    """(columns, cell width) for a chain of ``seats`` cells: the fewest rows whose
    cells are at least :data:`MIN_CELL` wide."""
    for rows in range(1, seats + 1):
        cols = -(-seats // rows)
        if width // cols >= MIN_CELL or cols == 1:
            return cols, max(1, width // cols)
    return 1, width  # pragma: no cover - the loop always returns


#: a thinking bot's spinner turns this often (each turn redraws the strip: a server
#: draws many tables in one process)
SPIN_SECONDS = 0.2
#: and starts turning only after this long: a bot that moves at once (the normal bot
#: after its 0.6 s pause) shows a still "⠋ thinking…", with no screen update between
#: (#22: the turns were half of a served player's screen updates, a fifth of the CPU
#: of a key); a long think still spins
SPIN_AFTER = 0.8


def _seat_count(view: PlayerView | None) -> int:
    return 0 if view is None else len(view.hand_sizes)


class Seats(ShowsView, SeatNames, CardCanvas):
    """The seats as ``view`` (the viewer's view) shows them.

    ``thinking``: the seat a bot is thinking for (a spinner there); ``away``: seats
    whose player is gone (shown "away"); names and bot labels: :meth:`name_seats`."""

    DEFAULT_CSS = """
    Seats { height: auto; }
    """

    # a new view is a repaint: the strip's height is the seats' rows, which only a view
    # of another number of seats changes (watch_view asks for a relayout then)
    view: reactive[PlayerView | None] = reactive(None, always_update=True)
    thinking: reactive[int | None] = reactive(None)
    away: reactive[frozenset[int]] = reactive(frozenset())

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.labels: tuple[str, ...] = ()
        self._tick = 0
        self._spinner: Timer | None = None  # turning the spinner while a bot thinks

    def name_seats(self, names: Sequence[str], say_you: bool = True, *,
                   labels: Sequence[str] = ()) -> None:
        """``names`` by seat (untrusted: cleaned here), ``labels`` by seat ("Normal bot";
        "" for a human) and ``say_you`` (False: the viewer by name, as in a replay)."""
        names = tuple(printable(n) for n in names)
        labels = tuple(printable(label) for label in labels)
        if (names, labels, say_you) == (self.names, self.labels, self.say_you):
            return  # the table names the seats at every move: nothing to redraw
        super().name_seats(names, say_you)
        self.labels = labels
        self.refresh()

    def watch_view(self, old: PlayerView | None, new: PlayerView | None) -> None:
        if _seat_count(old) != _seat_count(new):
            self.refresh(layout=True)

    def view_slice(self, view: PlayerView) -> tuple:
        """The counts, the order, the turn, and the moves told (by their number)."""
        return (view.seat, view.hand_sizes, view.direction, view.dealer, view.to_act,
                view.over, view.phase, view.exposed, view.event_count,
                any(a.kind == "catch" for a in view.legal_actions))

    @property
    def spinning(self) -> bool:
        """Whether the spinner is set to turn: only while a bot thinks (an idle table
        has no timer waking its process: a server draws many tables)."""
        return self._spinner is not None

    def on_mount(self) -> None:
        self.watch_thinking(self.thinking)

    def watch_thinking(self, seat: int | None) -> None:
        if seat is None and self._spinner is not None:
            self._spinner.stop()
            self._spinner = None
        elif seat is not None and self._spinner is None and self.is_mounted:
            self._spinner = self.set_timer(SPIN_AFTER, self._start_turning)

    def _start_turning(self) -> None:  # only while thinking: watch_thinking stops it
        self._spin()
        self._spinner = self.set_interval(SPIN_SECONDS, self._spin)

    def on_unmount(self) -> None:
        self.watch_thinking(None)

    def _spin(self) -> None:
        if self.thinking is not None:
            self._tick += 1
            self.refresh()

    # -- what a seat is called -----------------------------------------------------------

    def _seat_name(self, seat: int) -> str:
        return self.names[seat] if seat < len(self.names) else f"Seat {seat + 1}"

    def _seat_label(self, seat: int) -> str:
        label = self.labels[seat] if seat < len(self.labels) else ""
        return "" if label == self._seat_name(seat) else label

    def _short(self, seat: int, name: str, width: int) -> str:
        """``name`` in ``width`` cells, told apart from the other seats' names cut as
        much ("Normal…1", "Normal…2", never "Normal" twice)."""
        if len(name) <= width or seat >= len(self.names) or name != self.names[seat]:
            return short_name(name, width)
        return distinct_names(self.names, width)[seat]

    # -- drawing ---------------------------------------------------------------------

    def render(self) -> Text | Group:
        view = self.view
        width = max(1, self.size.width)
        if view is None or (len(view.hand_sizes) <= 2 and view.seat is not None):
            return self._line(view, width)  # a watcher sees both seats in the chain
        order = play_order(view)
        cols, cell = _layout(len(order), width)
        did = since_your_turn(view) if view.seat is not None else {}
        rows: list[Text] = []
        for i, seat in enumerate(order):
            if i % cols == 0:
                rows.append(Text())
            rows[-1].append_text(self._cell(view, seat, cell, first=i == 0, did=did.get(seat)))
        return Group(*rows)

    def get_content_height(self, container, viewport, width: int) -> int:
        view = self.view
        if view is None or (len(view.hand_sizes) <= 2 and view.seat is not None):
            return 1
        n = len(view.hand_sizes)
        cols, _ = _layout(n, width)
        return -(-n // cols)

    def _line(self, view: PlayerView | None, width: int) -> Text:
        """Two seats: the other seat on one line (the opponent strip)."""
        text = Text(" ")
        seat = 1 if view is None else view.next_seat
        # a long name gives way to the marks after it (UNO!, catch!, ◀ to play)
        text.append(short_name(self._seat_name(seat), max(10, width - _MARKS)), "bold")
        label = self._seat_label(seat)
        if label:
            text.append(f" ({label})", "dim")
        if view is None:
            return text
        if view.dealer == seat:
            text.append(" · dealer", "dim")
        count = view.hand_sizes[seat]
        text.append(f" · {count} card{'s' * (count != 1)}  ")
        shown = min(count, max(0, width - text.cell_len - 22) // 2)
        text.append(_BACK * shown, self.card_style(None))
        if shown < count:
            text.append(f"+{count - shown}", "dim")
        if count == 1 and view.phase != "draft":
            if said_uno(view, seat):
                text.append("  ")
                text.append(" UNO! ", "bold reverse")
            elif _catchable(view, seat):
                text.append("  no UNO: catch! (x)", "bold")
        if seat in self.away:
            text.append("  away", "bold")
        if self.thinking == seat:
            text.append(f"  {_SPINNER[self._tick % len(_SPINNER)]} thinking…", "italic")
        elif view.to_act == seat:
            text.append("  ◀ to play", "italic")
        return text

    def _cell(self, view: PlayerView, seat: int, width: int, first: bool,
              did: tuple[str, Card | None] | None = None) -> Text:
        """One seat of the chain in ``width`` cells: the arrow from the seat before it
        (the viewer's cell: the direction instead), a mark (▶ to act, a spinner while a
        bot thinks), the name, the dealer mark, the count, what it did since the
        viewer's last move (``did``: a card in its colours, "+2", "drew"…), UNO!,
        catch!, then card backs where there is room."""
        me = seat == view.seat
        count = view.hand_sizes[seat]
        thinking = self.thinking == seat
        acting = view.to_act == seat and not view.over
        head = Text(" " if first else f"{AHEAD} ", "bold")
        if thinking:
            head.append(_SPINNER[self._tick % len(_SPINNER)] + " ", "bold")
        elif acting:
            head.append("▶ ", "bold")
        tail: list[tuple[str, str | Style]] = []
        dealer = view.dealer == seat
        if dealer:
            tail.append((" D", "bold"))
        if not me:
            tail.append((f" {count}", "bold"))
        if did is not None:
            word, card = did
            tail += [(" ", ""), (word, self.card_style(card) if card is not None
                                 else _DID_STYLE.get(word, "bold"))]
        if count == 1 and view.phase != "draft" and not me:
            if said_uno(view, seat):
                tail += [(" ", ""), ("UNO!", "bold reverse")]
            elif _catchable(view, seat):
                tail.append((" catch!", "bold"))  # one card, no UNO! said
        if seat in self.away:
            tail.append((" away", "bold"))
        if view.rules.teams == "partners":  # H5: partners share a team's mark
            tail.append((f" T{view.rules.team(seat) + 1}", "italic"))
        if me:
            tail.append((" ↻" if view.direction == 1 else " ↺", "bold"))
        fixed = head.cell_len + sum(len(s) for s, _ in tail) + 1  # a gap before the next
        name = "You" if me and self.say_you else self._seat_name(seat)
        room = max(4, width - fixed)
        shown = self._short(seat, name, min(room, 12))
        extras: list[tuple[str, str | Style]] = []
        spare = width - fixed - len(shown)
        # what more room shows, most useful first
        if me and view.direction == -1 and spare >= 9:
            extras.append((" reversed", "italic"))
            spare -= 9
        backs = min(count, _FEW)  # all of them or none: fewer would misstate the count
        if not me and count > 1 and spare >= 1 + 2 * backs:
            extras.append((" " + _BACK * backs, self.card_style(None)))
            spare -= 1 + 2 * backs
        word = " thinking…" if thinking else " to act" if acting and not me else ""
        if word and spare >= len(word):
            extras.append((word, "italic"))
            spare -= len(word)
        if len(shown) < len(name) and spare > 0:
            shown = self._short(seat, name, len(shown) + spare)
            spare = width - fixed - len(shown) - sum(len(s) for s, _ in extras)
        if dealer and spare >= 5:  # "D" said in full
            tail[0] = (" dealer", "bold")
            spare -= 5
        label = self._seat_label(seat)
        label = f" {label}" if label and spare >= len(label) + 1 else ""
        text = head
        text.append(shown, "bold underline" if me else "bold")
        text.append(label, "dim")
        for s, style in tail + extras:
            text.append(s, style)
        text.truncate(width - 1, overflow="ellipsis")
        text.pad_right(width - text.cell_len)
        return text
