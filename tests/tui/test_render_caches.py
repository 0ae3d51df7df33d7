"""What the table works out once per update instead of once per call (#22): the legal
set behind ``check_action`` (asked for every binding, ~27 times a key) and the hand's
sorted cards — and that each still follows the state it depends on."""

from __future__ import annotations

from tests.waiting import until_async

from .conftest import game, press, seated, table

HAND = ["R5", "G7", "G8", "B2", "B3", "Y4", "Y6"]
BOT = ["B9", "B8", "B7", "B6", "B5", "B4", "Y9"]


async def test_check_action_works_out_the_legal_set_once_per_update():
    s = table(HAND, BOT, "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        screen = game(app)
        calls = []
        my_view = screen.my_view
        screen.my_view = lambda: calls.append(1) or my_view()
        screen._legal_cache = None  # as after a new update
        names = [b.action.split("(")[0] for b in screen.BINDINGS]
        first = [screen.check_action(n, ()) for n in names]
        again = [screen.check_action(n, ()) for n in names]
        assert first == again and len(calls) == 1  # once, for ~27 questions
        assert screen.check_action("play", ()) and screen.check_action("draw", ())
        assert not screen.check_action("keep", ())


async def test_the_cached_legal_set_follows_a_dialog_an_action_in_flight_and_each_update():
    s = table(HAND, BOT, "R1", script=["draw", "pass"])
    async with seated(s) as (pilot, app):
        screen = game(app)
        assert screen.check_action("draw", ())
        screen._waiting = True  # a dialog is up: no move
        assert not screen.check_action("draw", ())
        screen._waiting = False
        assert screen.check_action("draw", ())
        screen._in_flight = True  # sent, its update not here yet
        assert not screen.check_action("play", ())
        screen._in_flight = False
        await press(pilot, "d")  # T2: drew; now play it or keep it (pass)
        assert screen.check_action("pass", ()) and not screen.check_action("draw", ())


async def test_the_hands_cards_are_sorted_once_per_view_and_follow_a_new_one():
    s = table(HAND, BOT, "R1", script=["draw", "pass"])
    async with seated(s) as (pilot, app):
        hand = game(app).hand
        cards = hand.cards
        cards.pop()  # the caller's copy
        assert len(hand.cards) == 7 and hand.cards == hand.cards
        await press(pilot, "d")
        assert len(hand.cards) == 8  # the drawn card, from the new view


async def test_the_score_sheet_is_built_once_per_view_and_size(monkeypatch):
    import copy

    from unoduo_tui.widgets import scoresheet

    s = table(HAND, BOT, "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        body = game(app).query_one(scoresheet._Body)
        built = []
        real = scoresheet.sheet_lines
        monkeypatch.setattr(scoresheet, "sheet_lines",
                            lambda *a, **k: built.append(1) or real(*a, **k))
        body.view = copy.copy(body.view)  # a new view: built again, once
        lines = [body.lines() for _ in range(3)]
        assert len(built) == 1 and lines[0] is lines[2]
        body.name_seats(("Zed", "Bot"))  # new names: built again
        assert "Zed" in "".join(line.plain for line in body.lines()) and len(built) == 2


def _redraws(widgets) -> list[str]:
    """Patch each widget's ``refresh`` to note its class name when called."""
    drawn: list[str] = []
    for w in widgets:
        real = w.refresh
        w.refresh = lambda *a, _real=real, _w=w, **k: drawn.append(type(_w).__name__) \
            or _real(*a, **k)
    return drawn


async def test_a_bots_thinking_redraws_no_widget_whose_slice_is_unchanged_a_move_does():
    """#22: an update whose views show the same (a bot starts thinking) sets no view;
    the next move sets those whose part changed."""
    import copy
    from dataclasses import replace

    from unoduo_tui.widgets import Discard, Hand, ScoreSheet, Seats, StatusLine

    s = table(HAND, BOT, "R1", script=["draw", "pass"])
    async with seated(s) as (pilot, app):
        screen = game(app)
        widgets = [screen.query_one(t) for t in (Discard, Hand, ScoreSheet, Seats, StatusLine)]
        views = [w.view for w in widgets]
        drawn = _redraws(widgets)
        latest = screen.latest
        same = replace(latest, seq=latest.seq + 0.5, cause="thinking",  # before the next
                       views={k: copy.copy(v) for k, v in latest.views.items()})
        screen._take(same)
        await pilot.pause()
        assert drawn == [] and [w.view for w in widgets] == views  # nothing set, nothing drawn
        await press(pilot, "d")  # T2: a card drawn: the hand, the pile, the status change
        assert {"Hand", "Discard", "StatusLine"} <= set(drawn)
        assert "ScoreSheet" not in drawn  # no round scored
        assert screen.query_one(Hand).view is screen.my_view()


async def test_a_view_set_from_elsewhere_is_replaced_even_with_an_equal_slice():
    from unoduo_tui.widgets import Hand

    s = table(HAND, BOT, "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        screen = game(app)
        hand = screen.query_one(Hand)
        mine = screen.my_view()
        hand.view = None  # set by someone else (a replay would)
        assert hand.take_view(mine) and hand.view is mine
        assert not hand.take_view(mine)  # the same again: nothing to redraw


async def test_an_update_that_arrives_while_the_screen_is_leaving_is_not_shown():
    """An update queued just before the game screen is popped (the table's listener
    runs in the bots' thread) is taken while Textual removes the screen's widgets:
    it is dropped, not looked up in a half-removed screen (CI saw ``NoMatches:
    'Discard'`` from a hosted table's presence update at the end of a test)."""
    from dataclasses import replace

    s = table(HAND, BOT, "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        screen = game(app)
        latest = screen.latest
        removed = screen.remove()  # as the app's shutdown does; begun, not ended
        assert screen.is_attached  # Textual still says so
        screen._take(replace(latest, seq=latest.seq + 1, cause="presence"))
        assert screen.latest is latest  # dropped
        await removed


async def test_the_hand_is_not_redrawn_by_another_seats_moves_but_is_at_each_own_decision():
    """#22: a bot's moves that leave the hand, the turn and the playable cards alike do
    not redraw the hand; each of the viewer's own decisions does (it moves the
    selection to a playable card)."""
    import copy

    from unoduo_tui.widgets import Hand

    s = table(HAND, BOT, "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        hand = game(app).query_one(Hand)
        mine = game(app).my_view()
        assert mine.to_act == mine.seat
        theirs = copy.copy(mine)
        theirs.to_act = 1 - mine.seat
        later = copy.copy(theirs)
        later.event_count += 3  # the bot drew and passed: nothing of the hand changed
        assert hand.view_slice(theirs) == hand.view_slice(later)
        again = copy.copy(mine)
        again.event_count += 3  # a new decision of the viewer's own
        assert hand.view_slice(mine) != hand.view_slice(again)


async def test_the_spinner_turns_only_while_a_bot_thinks():
    """#22: an idle table has no timer waking its process 5 times a second (a server
    draws many tables in one process); a thinking bot's spinner turns, redrawing the
    seats strip alone."""
    from unoduo_tui.widgets import Seats

    s = table(HAND, BOT, "R1", script=["draw"])
    async with seated(s) as (pilot, app):
        screen = game(app)
        seats = screen.query_one(Seats)
        assert not seats.spinning
        others = [w for w in screen.query("*") if w is not seats]
        drawn = _redraws(others)
        screen._set_thinking(1)
        assert seats.spinning
        tick = seats._tick
        await until_async(lambda: seats._tick >= tick + 2, "the spinner to turn twice")
        assert "Hand" not in drawn and "Discard" not in drawn and "GameLog" not in drawn
        screen._set_thinking(None)
        assert not seats.spinning
