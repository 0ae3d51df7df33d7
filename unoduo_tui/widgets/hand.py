"""Your hand: small card faces grouped by colour, playable ones filled and marked ▼
above (the mark reads without colour), the others dimmed, the selected one raised in a
heavy frame; scrolls sideways for long hands.  At each new decision the selection
moves to a card that can be played, unless it is on one already."""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Group
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive

from engine import Card, PlayerView

from .cards import CardCanvas, small_card, small_card_raised, sorted_hand
from .viewslice import ShowsView

__all__ = ["Hand"]

_STEP = 6  # card width 5 + a gap
_MARGIN = 2  # room for the ◀ ▶ scroll marks
PLAYABLE_MARK = "▼"  # above a card that can be played now (in the frame of a raised one)


class Hand(ShowsView, CardCanvas):
    """Renders ``view.hand`` (set by the game screen); posts :class:`CardChosen` on click."""

    can_focus = False

    view: reactive[PlayerView | None] = reactive(None, always_update=True)
    selected: reactive[int] = reactive(0)
    uno_armed: reactive[bool] = reactive(False)

    @dataclass
    class CardChosen(Message):
        """A card was clicked (``index`` into :attr:`Hand.cards`)."""

        hand: "Hand"
        index: int
        card: Card

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._first = 0
        self._sorted: tuple[PlayerView | None, tuple[Card, ...]] = (None, ())
        self._position: int | None = None  # the events seen at the last view: a new decision
        #: the replay viewer: whose hand (title) and no playable / selected marks
        self.owner: str | None = None
        self.read_only = False

    # -- what is shown -----------------------------------------------------------

    @property
    def cards(self) -> list[Card]:
        """The cards shown, in display order (a drafted card under decision is shown on
        the table instead); sorted once per view (the keys ask on every binding) — a
        copy, the caller's to change."""
        view = self.view
        if view is None:
            return []
        if self._sorted[0] is not view:
            hand = list(view.hand)
            if view.phase == "draft" and view.to_act == view.seat and hand:
                hand.pop()
            self._sorted = (view, tuple(sorted_hand(hand)))
        return list(self._sorted[1])

    @property
    def selected_card(self) -> Card | None:
        cards = self.cards
        return cards[self.selected] if 0 <= self.selected < len(cards) else None

    def view_slice(self, view: PlayerView) -> tuple:
        """The cards, whose decision it is, what may be played, and the moment of the
        viewer's own decision (a new one moves the selection); another seat's moves
        that leave these alike do not redraw the hand (#22: half of a key's moves are
        a bot's)."""
        mine = view.to_act == view.seat
        return (view.seat, view.hand, view.phase, view.to_act,
                view.event_count if mine else None,
                frozenset(a.card for a in view.legal_actions if a.kind == "play"))

    def playable(self) -> set[Card]:
        view = self.view
        if view is None:
            return set()
        return {a.card for a in view.legal_actions if a.kind == "play" and a.card is not None}

    def select(self, index: int) -> None:
        n = len(self.cards)
        self.selected = max(0, min(index, n - 1)) if n else 0

    def select_card(self, card: Card) -> None:
        cards = self.cards
        if card in cards:
            self.selected = len(cards) - 1 - cards[::-1].index(card)

    def watch_view(self, view: PlayerView | None) -> None:
        position = None if view is None else view.event_count  # not len(events): that builds them
        if position != self._position:
            self._position = position
            playable = self._playable_now()
            if playable and self.selected_card not in playable:
                self.select(next(i for i, c in enumerate(self.cards) if c in playable))
        self.select(self.selected)

    def _playable_now(self) -> set[Card]:
        """The cards that can be played now by this hand's owner (none in a replay)."""
        view = self.view
        if view is None or self.read_only or view.to_act != view.seat:
            return set()
        return self.playable()

    # -- drawing -----------------------------------------------------------------

    def _visible(self, n: int) -> int:
        return max(1, (self.size.width - 2 * _MARGIN + 1) // _STEP)

    def _window(self, n: int) -> tuple[int, int]:
        shown = self._visible(n)
        first = min(self._first, max(0, n - shown))
        if self.selected < first:
            first = self.selected
        elif self.selected >= first + shown:
            first = self.selected - shown + 1
        self._first = max(0, first)
        return self._first, min(n, self._first + shown)

    def render(self) -> Group:
        view = self.view
        width = self.size.width
        cards = self.cards
        title = Text()
        if view is None:
            return Group(title)
        if view.seat is None:  # a watcher's public view: no hand is ever shown
            title.append("Watching · every hand hidden", "bold")
            return Group(title)
        playable = self._playable_now()
        mine = bool(playable)
        whose = f"{self.owner}'s hand" if self.owner else "Your hand"
        title.append(f"{whose} · {len(cards)} card{'s' * (len(cards) != 1)}", "bold")
        if view.phase == "draft":
            title.append("  (drafting: 7 each)")
        if self.uno_armed and not self.read_only:
            title.append("   ")
            title.append(" UNO! armed ", "bold reverse")
        rows = [Text() for _ in range(5)]
        n = len(cards)
        first, last = self._window(n)
        left = "◀" if first > 0 else " "
        right = "▶" if last < n else " "
        for r in rows[:4]:
            r.append(" " * _MARGIN)
        for i in range(first, last):
            card = cards[i]
            dim = mine and card not in playable
            style = self.card_style(card, dim=dim)
            raised = i == self.selected and mine
            face = small_card_raised(card, style) if raised else small_card(card, style)
            top = 0 if raised else 1
            if card in playable:
                if raised:
                    face[0] = Text(f"┏━{PLAYABLE_MARK}━┓", style)
                else:
                    rows[0].append(PLAYABLE_MARK.center(5), "bold")
                    rows[0].append(" ")
            for line in range(4):
                if line == 0 and not raised and card in playable:
                    continue  # the mark is there
                if top <= line < top + 3:
                    rows[line].append_text(face[line - top])
                else:
                    rows[line].append(" " * 5)
                rows[line].append(" ")
            label = str(i + 1) if i < 9 else ""
            marker = "▲" if i == self.selected and not mine and not self.read_only else ""
            rows[4].append((label or marker).center(_STEP), "dim" if not raised else "bold")
        rows[2] = Text(left, "bold") + rows[2][1:] if n else rows[2]
        if right.strip():
            pad = max(0, width - rows[2].cell_len - 1)
            rows[2].append(" " * pad)
            rows[2].append(right, "bold")
        if not n:
            rows[2] = Text("  (the cards you keep in the draft come here)" if view.phase == "draft"
                           else "  (no cards)", "dim")
        rows[4] = Text(" " * _MARGIN) + rows[4]
        if n > last - first:
            rows[4].append(f" {first + 1}–{last} of {n}", "dim")
        return Group(title, *rows)

    def on_resize(self, event: events.Resize) -> None:
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        cards = self.cards
        x = event.x - _MARGIN
        if x < 0 or not cards:
            return
        first, last = self._window(len(cards))
        index = first + x // _STEP
        if index < last and x % _STEP < 5:
            self.selected = index
            self.post_message(self.CardChosen(self, index, cards[index]))
