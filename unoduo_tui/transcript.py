"""A saved match as text for ``unoduo transcript`` and ``unoduo export``.  No Textual.

What a match still being played hides stays hidden: its text is what its human
seats saw — each one's own cards (the events' own :meth:`~engine.events.Event.seen_by`),
never another hand, the draw pile's order or the seed.  The full record (seed,
shuffles, every hand) is for a finished match.  Every string read from the file
(names, ids, a branch's parent) goes through :func:`~unoduo_tui.text.printable`.
"""

from __future__ import annotations

import json
import math
from datetime import datetime
from typing import Any, Iterator, Sequence

from engine.events import Event, describe

from .plan import opponent_label
from .store import parent_of
from .text import printable
from .text.words import and_list, game_name, result_line, seat_label, seat_names

__all__ = ["transcript_text", "export_lines", "witnesses", "played_for"]


def witnesses(loaded, remote: Sequence[int] = ()) -> tuple[int, ...] | None:
    """The seats whose eyes the text of ``loaded`` shows: ``None`` for a finished
    match (everything); else its human seats at this keyboard (hot-seat: all of
    them; a hosted match: the host's, never the ``remote`` seats played from other
    terminals, :func:`~unoduo_tui.net.hosted.remote_seats`), or none at all."""
    if loaded.match.over:
        return None
    return tuple(i for i, s in enumerate(loaded.seats) if not s.is_bot and i not in remote)


def _as_seen(e: Event, seats: tuple[int, ...] | None) -> Event:
    """``e`` as the ``seats`` together know it (``None``: all of it)."""
    if seats is None:
        return e
    # no human seat: what a spectator (seat -1, which no event is private to) sees
    views = [e.seen_by(s) for s in seats] or [e.seen_by(-1)]
    return max(views, key=lambda v: len(v.cards))


def _started(created: str) -> str:
    try:
        return datetime.fromisoformat(created).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        return printable(created)


def _head(loaded, names: Sequence[str], seen: tuple[int, ...] | None) -> list[str]:
    header, final = loaded.header, loaded.match
    out = [f"{game_name(header.rules.preset)} — match transcript",
           f"Match {printable(header.match_id)}, started {_started(header.created)}",
           "Players: " + ", ".join(f"seat {i + 1} {seat_label(s)}"
                                   for i, s in enumerate(loaded.seats)),
           f"Rules: {printable(header.rules.describe())}"]
    if seen is None:
        out.append(f"Seed: {header.seed}")
    else:
        who = and_list([names[s] for s in seen]) or "nobody at the table"
        out += ["Seed: hidden until the match is over",
                f"Seen by: {who} (the match is not over: other hands and the draw pile "
                "stay hidden)"]
    out.append(result_line(final, names))
    parent = parent_of(header)
    if parent is not None:
        out.append(f"What if: a branch of match {printable(parent[0])}, from after its "
                   f"action {parent[1]}")
    undos = getattr(loaded, "undos", 0)
    if undos:
        out.append(f"Practice: {undos} undo{'s' * (undos != 1)} (the lines below are "
                   "the moves that stand)")
    return out + [""]


def transcript_text(loaded, remote: Sequence[int] = ()) -> str:
    """A loaded match as text: header, then per round the draft, one numbered line per
    decision (its events as sentences, as :func:`witnesses` saw them), the round's
    scores; the result.  ``remote``: seats played from other terminals."""
    from engine.replay import ReplayCursor

    header = loaded.header
    names = seat_names(loaded.seats)
    seen = witnesses(loaded, remote)
    out = _head(loaded, names, seen)
    rejected: dict[int, list[str]] = {}

    def say(e: Event) -> str:
        return describe(e, names, None)

    def draft(m, s: int, name: str) -> str:
        rej = " ".join(rejected.get(s, ())) or "none"
        hand = m.hand(s)
        kept = (" ".join(str(c) for c in hand) if seen is None or s in seen
                else f"{len(hand)} cards")
        return f"       Draft: {name} kept {kept}; rejected {rej}"

    def dealt(m, s: int, name: str) -> str:
        hand = m.hand(s)
        held = (" ".join(str(c) for c in hand) if seen is None or s in seen
                else f"{len(hand)} cards")
        return f"       Dealt: {name} holds {held}"

    classic = header.rules.preset == "classic"

    def section(events, m, number: int | None, by: str = "") -> None:
        line: list[str] = []

        def flush() -> None:
            nonlocal number
            if line:
                out.append((f"{number:>5}. " if number else "       ") + " ".join(line)
                           + (by if number else ""))
                line.clear()
                number = None  # what follows a round's end is not a new decision

        for e in (_as_seen(e, seen) for e in events):
            k = e.kind
            if k == "reject" and e.seat is not None:
                rejected.setdefault(e.seat, []).append(str(e.cards[0]))
            if k in ("round", "deal"):
                flush()
                rejected.clear()
                out.extend(["", f"== {say(e)}"])
            elif k == "dealt":
                continue  # the hands are listed at the start card
            elif k in ("under", "start", "round_end", "match_end", "cut", "first",
                       "dealer_draw", "dealer", "reshuffle"):
                flush()
                if k == "start" and classic and e.cards[0].rank != "W+4":
                    out.extend(dealt(m, s, name) for s, name in enumerate(names))
                elif k == "start" and not classic:
                    out.extend(draft(m, s, name) for s, name in enumerate(names))
                out.append(("       " if k not in ("cut", "first", "dealer_draw", "dealer")
                            else "") + say(e))
            else:
                line.append(say(e))
        flush()

    cursor = ReplayCursor(header.rules, loaded.match.actions, header.seed)
    for i in range(cursor.count + 1):
        section(cursor.events_of(i), cursor.goto(i), i or None, played_for(loaded, cursor, i,
                                                                          names))
    out.extend(["", result_line(loaded.match, names)])
    return "\n".join(out) + "\n"


def played_for(loaded, cursor, pos: int, names: Sequence[str], short: bool = False) -> str:
    """``" (normal bot for Jo)"`` (``short``: ``" (bot for Jo)"``) when decision ``pos``
    of ``cursor`` (a :class:`~engine.replay.ReplayCursor` over ``loaded``'s log) was
    made by a bot playing for its seat's away player; ``""`` when the seat's own
    player (or bot) made it."""
    if pos <= 0:
        return ""
    seat = cursor.actor(pos)
    kind = loaded.stand_in(seat, cursor.log_length(pos - 1)) if seat is not None else None
    if kind is None:
        return ""
    return f" ({'bot' if short else opponent_label(kind).lower()} for {names[seat]})"


def _json_safe(value: Any) -> Any:
    """A header value as JSON can carry it: a NaN or an infinity (msgpack floats a
    forged file may hold) becomes its text."""
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    return value


def _line(obj: dict) -> str:
    # ensure_ascii: every control character in a name arrives escaped (\u001b), never raw
    return json.dumps(obj, allow_nan=False, ensure_ascii=True) + "\n"


def export_lines(loaded, remote: Sequence[int] = ()) -> Iterator[str]:
    """``unoduo export``: JSON lines — the header, one line per log entry (and per seat
    record, where it lies: a joiner's name, a bot playing for an away player), the
    footer once the match is over.  A match still being played keeps its seed and its
    shuffles' orders to itself (``"hidden": true``): no hand can be told from it, the
    ``remote`` seats' (played from other terminals) no more than any other."""
    header, m = loaded.header, loaded.match
    secret = witnesses(loaded, remote) is not None
    body = {k: _json_safe(v) for k, v in header.to_body().items() if k != "type"}
    if secret:
        body.pop("seed", None)
    yield _line({"type": "header", **body})
    # who made each decision: the seat to act before it, as a step-by-step replay shows
    decisions = [e for e in m.actions if not e.is_chance]
    seat_of = [s.decider(a) for s, a in  # a jump-in (H4) is not the seat to act's
               zip(type(m).replay_steps(header.rules, m.actions, header.seed), decisions)]
    records = list(loaded.seat_records)

    def seats_at(i: int) -> Iterator[str]:
        """The seat records before log entry ``i``: who sat down, who plays from here."""
        while records and records[0].at <= i:
            r = records.pop(0)
            yield _line({"type": "seat", "i": r.at, "seat": r.seat, "name": r.name,
                         "kind": r.kind})

    decision = 0
    for i, entry in enumerate(m.actions):
        yield from seats_at(i)
        if not entry.is_chance:
            line = {"type": "decision", "i": i, "seat": seat_of[decision], "action": str(entry)}
            by = loaded.stand_in(seat_of[decision], i)
            if by is not None:  # a bot made it for the seat's away player
                line["by"] = by
            yield _line(line)
            decision += 1
        elif secret and entry.kind == "shuffle":  # the draw pile's order: the future
            yield _line({"type": "chance", "i": i, "entry": entry.kind, "hidden": True})
        else:
            yield _line({"type": "chance", "i": i, "entry": str(entry)})
    yield from seats_at(m.log_length)
    if m.over:
        yield _line({"type": "footer", "winner": m.winner, "scores": list(m.scores),
                     "rounds": m.round})
