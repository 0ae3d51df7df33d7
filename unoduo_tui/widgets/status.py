"""The status line: exactly what is expected now, and from whom."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from engine import PlayerView
from engine.cards import COLOUR_NAMES

from ..text.columns import short_name
from ..text.words import winners
from .names import SeatNames
from .viewslice import ShowsView

__all__ = ["StatusLine", "status_text", "wd4_player", "owed_kind"]

_NAME_ROOM = 20  # a name in the status line's sentences (a seat's name may be 64 long)


def wd4_player(view: PlayerView) -> int | None:
    """The seat whose Wild Draw 4 ``view.seat`` faces (``None``: a start card's)."""
    if view.phase != "wd4":
        return None
    for e in reversed(view.events):
        if e.kind == "play":
            return e.seat if e.cards and e.cards[0].rank == "W+4" else None
        if e.kind in ("start", "round", "deal"):
            return None
    return None


def owed_kind(view: PlayerView) -> str:
    """What the cards ``view.pending_draw`` are owed for: "W+4", "volley" (a played
    Draw 2 that may be stacked on: A1, C6 with stacking) or "Draw 2" (C6 without
    stacking, or a start card's, S8: drawn, never a volley)."""
    if view.phase == "wd4":
        return "W+4"
    if view.rules.stacking is False:
        return "Draw 2"
    for e in reversed(view.events):
        if e.kind == "play":
            return "volley"
        if e.kind == "start":
            break
    return "Draw 2"


def status_text(view: PlayerView, names: tuple[str, ...], armed: bool = False,
                thinking: bool = False, say_you: bool = True) -> str:
    """One sentence for the seat ``view.seat``: its options and their keys
    (``say_you=False``, as at hot-seat: the seat is named — "Ann's turn: …",
    "Ann — Facing +4: …" — and so is the winner, even when it is this seat)."""
    text = _status(view, names, armed, thinking, say_you)
    seat = view.seat
    if say_you or seat is None or view.over or view.to_act != seat or not view.legal_actions:
        return text
    if text.startswith("Your turn"):
        return f"{names[seat]}'s turn" + text[len("Your turn"):]
    return f"{names[seat]} — {text}"


def _status(view: PlayerView, names: tuple[str, ...], armed: bool, thinking: bool,
            say_you: bool) -> str:
    if view.over:
        if view.winner is None:
            return "Match over: a draw."
        who = winners(view.rules, view.winner, names, view.seat if say_you else None)
        return f"Match over: {who}{'!' if who.startswith('you') else '.'}"
    seat, actor = view.seat, view.to_act
    if seat is None:  # a watcher's public view: nobody here plays
        who = names[actor] if actor is not None else "nobody"
        return f"Watching · {who} to play" + (" (thinking…)" if thinking else "")
    if actor != seat or not view.legal_actions:
        who = names[actor] if actor is not None else "Nobody"
        if view.phase == "draft":
            return f"{who} is drafting…"
        jumps = [a.card for a in view.legal_actions if a.kind == "jump"]  # H4
        jump = f" · jump in with your {jumps[0]} (j)!" if jumps else ""
        return (f"{who} is thinking…" if thinking else f"Waiting for {who}…") + jump
    legal = {a.kind for a in view.legal_actions}
    exposed = names[view.exposed] if view.exposed is not None else "them"
    catch = f" · catch {exposed} without UNO (x)" if "catch" in legal else ""
    uno = ""
    if any(a.uno for a in view.legal_actions):
        uno = " · UNO armed" if armed else " · say UNO (u) with it!"
    phase = view.phase
    if phase == "draft":
        step = sum(view.hand_sizes)
        return f"Draft {step}/14: keep (k) or reject (r) the {view.hand[-1]} you drew"
    if phase == "colour":
        return "The start card is a Wild: name the colour (r/y/g/b)"
    if phase == "drawn":
        return f"You drew {view.drawn}: play it (Enter) or keep it (p){uno}"
    if phase == "volley":
        owed = view.pending_draw
        if "play" in legal:
            return f"Facing +{owed}: stack a Draw 2 (Enter) or draw {owed} (d){uno}{catch}"
        if owed_kind(view) == "Draw 2":
            return f"A Draw 2 on you: draw {owed} (d){catch}"
        return f"Facing +{owed}: draw {owed} (d){catch}"
    if phase == "wd4":
        player = wd4_player(view)
        if player is None:
            return f"Start card W+4: draw 4 (d){catch}"
        stack = "play" in legal  # H2: a Wild Draw 4 of one's own goes on it
        if "challenge" in legal:
            return (f"{names[player]} played W+4: {'stack yours (s), ' if stack else ''}"
                    f"challenge (c) or draw 4 (d){catch}")
        owed = view.pending_draw  # H2: a stacked volley, never challenged
        return (f"Facing +{owed}: {'stack a W+4 (Enter) or ' if stack else ''}"
                f"draw {owed} (d){uno}{catch}")
    if phase == "dump":
        colour = COLOUR_NAMES.get(view.dump_colour or "", "")
        return f"Dump every {colour} card (Enter) or not (n){catch}"
    # an ordinary turn
    can_play = "play" in legal
    if "draw" in legal:
        base = "Your turn: play a card (Enter) or draw (d)" if can_play else \
            "Your turn: nothing fits, draw (d)"
    else:
        base = "Nothing left to draw: play a card (Enter) or pass (p)" if can_play else \
            "Nothing left to draw: pass (p)"
    return base + uno + catch


class StatusLine(ShowsView, SeatNames, Widget):
    """Renders :func:`status_text` for ``view`` (attributes set by the game screen)."""

    view: reactive[PlayerView | None] = reactive(None, always_update=True)
    armed: reactive[bool] = reactive(False)
    thinking: reactive[bool] = reactive(False)

    def view_slice(self, view: PlayerView) -> tuple:
        """The sentence itself (its names, UNO armed and the thinking are set apart)."""
        return (view.seat, view.to_act, view.over, view.winner, view.phase, view.legal_actions,
                view.exposed, view.hand[-1:], sum(view.hand_sizes), view.drawn,
                view.pending_draw, view.dump_colour, view.rules,
                view.event_count if view.phase in ("wd4", "volley") else None)

    def render(self) -> Text:
        if self.view is None:
            return Text("")
        names = tuple(short_name(n, _NAME_ROOM) for n in self.names)  # the keys stay in sight
        return Text(" " + status_text(self.view, names, self.armed, self.thinking,
                                      self.say_you))
