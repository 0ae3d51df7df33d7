"""The table's widgets for 2–10 seats (#14), in the harness App: the seats in play
order (names readable, UNO!, dealer, direction, thinking), the score sheet's wording
under each scoring, the status line and the log naming who is affected, and no card
a view does not show."""

from __future__ import annotations

import re

from engine import Card, Match, Rules, describe
from engine.events import Event, new_event
from unoduo_tui.widgets import GameLog, ScoreSheet, Seats, StatusLine
from unoduo_tui.widgets.gamelog import effect_note
from unoduo_tui.widgets.scoresheet import leader, ranking, target_rule
from unoduo_tui.widgets.seats import play_order, said_uno
from unoduo_tui.widgets.status import status_text

from .conftest import screen_text
from .harness import NAMES, TableApp, position


def _uno_mine(m: Match) -> bool:
    """Seat 0 to play a turn while another seat is down to one card and said UNO!."""
    if m.to_act != 0 or m.phase != "turn":
        return False
    view = m.view(0)
    return any(n == 1 and said_uno(view, s) for s, n in enumerate(view.hand_sizes) if s)


def _uno_reversed(m: Match) -> bool:
    return _uno_mine(m) and m.view(0).direction == -1


def _seat_rows(app, seats: int) -> list[str]:
    """The screen rows the seats widget covers."""
    widget = app.screen.query_one(Seats)
    rows = screen_text(app).splitlines()
    return rows[widget.region.y:widget.region.bottom]


async def test_ten_seats_fit_at_80x24_every_name_readable_in_play_order():
    m = position(10, _uno_reversed)
    view = m.view(0)
    app = TableApp(view, NAMES)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        seats = app.screen.query_one(Seats)
        assert seats.region.height <= 3  # the table keeps its room
        rows = _seat_rows(app, 10)
        chain = " ".join(rows)
        # every other seat's name, at least its first four letters, in play order
        at = [chain.index(NAMES[s][:4]) for s in play_order(view)[1:]]
        assert at == sorted(at)
        assert rows[0].lstrip().startswith(("▶ You", "You"))  # the viewer marked, first
        assert "↺" in rows[0] and "reversed" in rows[0]  # the direction, plainly
        assert "UNO!" in chain
        dealer = view.dealer
        assert re.search(r"\bD\b|dealer", chain) and dealer is not None
        assert chain.count("→") == 9  # an arrow before each seat after yours


async def test_more_room_shows_more_of_each_seat():
    m = position(10, _uno_reversed)
    app = TableApp(m.view(0), NAMES)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.screen.query_one(Seats).region.height == 2  # five a row
        chain = " ".join(_seat_rows(app, 10))
        for name in NAMES[1:]:
            assert name in chain  # whole names


async def test_the_seat_a_bot_thinks_for_says_so_and_the_seat_to_act_is_marked():
    m = position(4, lambda m: m.to_act == 2 and m.phase == "turn")
    app = TableApp(m.view(0), NAMES[:4], thinking=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        row = _seat_rows(app, 4)[0]
        cell = next(c for c in row.split("→") if NAMES[2][:4] in c)
        assert cell.strip()[0] in "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"  # the spinner before the name
        assert "thinking…" in cell or len(cell) < 24  # said in words where there is room
        seats = app.screen.query_one(Seats)
        seats.thinking = None
        await pilot.pause()
        row = _seat_rows(app, 4)[0]
        assert f"▶ {NAMES[2][:4]}" in row


async def test_two_seats_keep_the_one_line_strip():
    m = position(2, _uno_mine)
    app = TableApp(m.view(0), ("Ann", "Bea"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.screen.query_one(Seats).region.height == 1
        row = _seat_rows(app, 2)[0]
        assert "Bea (Normal bot) · 1 card" in row and "UNO!" in row


async def test_away_seats_are_marked():
    m = position(3, _uno_mine)
    app = TableApp(m.view(0), NAMES[:3])
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.query_one(Seats).away = frozenset({2})
        await pilot.pause()
        row = _seat_rows(app, 3)[0]
        assert "away" in row[row.index(NAMES[2]):]


async def test_no_widget_shows_a_card_the_view_hides():
    m = position(4, _uno_mine)
    view = m.view(0)
    app = TableApp(view, NAMES[:4])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        shown = screen_text(app)
    public = {c.text for c in view.hand} | ({view.top.text} if view.top else set())
    told = " ".join(describe(e, NAMES[:4], 0) for e in view.events)
    hidden = {c.text for s in (1, 2, 3) for c in m.hand(s)} - public
    hidden = {c for c in hidden if not re.search(rf"(?<![\w+]){re.escape(c)}(?![\w+])", told)}
    assert hidden  # there is something to hide
    for card in hidden:
        assert not re.search(rf"(?<![\w+]){re.escape(card)}(?![\w+])", shown), card


# -- the score sheet -------------------------------------------------------------------


def test_the_target_reads_as_a_win_in_classic_and_a_loss_in_duo():
    assert target_rule(Rules(), 2) == "lose at 200"
    assert target_rule(Rules(preset="classic", seats=4), 4) == "first to 500 wins"
    assert target_rule(Rules(preset="classic", seats=4, scoring="own_hand"), 4) == \
        "at 500, lowest wins"


def test_the_leader_and_the_ranking_follow_match_result():
    classic = Rules(preset="classic", seats=4)
    own = Rules(preset="classic", seats=4, scoring="own_hand")
    assert leader(classic, (0, 0, 0, 0)) is None
    assert leader(classic, (10, 80, 0, 0)) == 1  # C10 winner_takes: the highest
    assert leader(own, (10, 80, 30, 40)) == 0  # own_hand: the lowest
    assert leader(own, (10, 80, 10, 40)) is None  # a tie
    assert ranking(classic, (10, 500, 30, 500)) == [[1, 3], [2], [0]]
    assert ranking(own, (10, 500, 10, 40)) == [[0, 2], [3], [1]]


def _sheet_text(app) -> str:
    sheet = app.screen.query_one(ScoreSheet)
    rows = screen_text(app).splitlines()[sheet.region.y:sheet.region.bottom]
    return "\n".join(r[sheet.region.x:sheet.region.right] for r in rows)


async def test_the_sheet_says_first_to_500_wins_and_who_leads():
    m = position(4, lambda m: len(m.rounds) >= 1 and m.to_act == 0 and m.phase == "turn")
    view = m.view(0)
    app = TableApp(view, NAMES[:4])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = _sheet_text(app)
    assert "first to 500 wins" in text
    ahead = leader(view.rules, view.scores)
    assert f"{NAMES[ahead]} leads" in text
    assert "R1" in text and "*" in text  # the round, who went out
    for name in NAMES[:4]:
        assert name[:4] in text


async def test_the_sheet_shows_a_seats_new_name_at_once():
    """A joiner takes a hosted seat under their own name: the sheet says it with the
    same view (it redrew only when the view's scores changed)."""
    m = position(4, lambda m: m.to_act == 0 and m.phase == "turn")
    app = TableApp(m.view(0), NAMES[:4])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Zed" not in _sheet_text(app)
        app.screen.query_one(ScoreSheet).name_seats(("Ann", "Zed") + NAMES[2:4])
        await pilot.pause()
        assert "Zed" in _sheet_text(app)


async def test_a_duo_sheet_says_lose_at_200():
    m = Match.new(Rules(), seed=5)
    app = TableApp(m.view(0), ("Ann", "Bot"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "lose at 200" in _sheet_text(app)


async def test_ten_seats_show_ten_rows_and_whole_names_at_80x24():
    """Ten seats showed eight rows, and names were cut ("Norm…1") with room to spare:
    every row shows, names as long as the room allows, the rule under the sheet."""
    m = position(10, lambda m: len(m.rounds) >= 1 and m.to_act == 0 and m.phase == "turn")
    view = m.view(0)
    app = TableApp(view, NAMES)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        sheet = app.screen.query_one(ScoreSheet)
        assert sheet.max_scroll_y == 0 and sheet.max_scroll_x == 0  # it all fits
        text = _sheet_text(app)
    rows = [line for line in text.splitlines()
            if any(n in line for n in NAMES) and "leads" not in line]
    assert len(rows) == 10, text
    for name, score in zip(NAMES, view.scores):
        assert any(name in row and str(score) in row for row in rows), (name, text)
    assert "first to 500 wins" in text  # in the sheet's border
    assert "R1" in text


async def test_a_sheet_with_room_says_names_whole():
    m = position(4, lambda m: m.to_act == 0 and m.phase == "turn")
    names = ("Ann", "Normal bot 1", "Normal bot 2", "Normal bot 3")
    app = TableApp(m.view(0), names)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = _sheet_text(app)
    assert all(name in text for name in names), text
    assert "first to 500 wins" in text and "no points yet" in text


# -- the status line and the log ---------------------------------------------------------


def test_the_status_line_names_the_wild_draw_4s_player_and_the_seat_to_catch():
    m = position(4, lambda m: m.phase == "wd4" and m.to_act == 0
                 and "challenge" in m.legal_actions())
    view = m.view(0)
    player = next(e.seat for e in reversed(view.events) if e.kind == "play")
    text = status_text(view, NAMES[:4])
    assert text.startswith(f"{NAMES[player]} played W+4: challenge (c)")
    m = position(4, lambda m: m.to_act == 0 and "catch" in m.legal_actions())
    view = m.view(0)
    assert f"catch {NAMES[view.exposed]} without UNO (x)" in status_text(view, NAMES[:4])


def _play(seat: int, card: str, nxt: int) -> Event:
    return new_event("play", seat, (Card.parse(card),), data=nxt)


def test_the_log_says_who_a_next_seat_card_hits():
    names = ("Ann", "Bea", "Cal", "Dan")
    assert effect_note(_play(0, "RS", 1), None, names, 2) == "Bea is skipped."
    assert effect_note(_play(0, "RS", 1), None, names, 1) == "You are skipped."
    # a Reverse from Ann while play went Ann → Bea: now Ann → Dan → Cal → Bea
    assert effect_note(_play(0, "GR", 1), None, names, None) == \
        "Reverse: play goes Ann → Dan → Cal → Bea → Ann."
    assert effect_note(_play(0, "GR", 3), None, names, 2) == \
        "Reverse: play goes Ann → Bea → you → Dan → Ann."
    assert effect_note(_play(2, "W+4", 1), None, names, 0) == "Bea must draw 4 or challenge."
    assert effect_note(_play(2, "W+4", 1), None, names, 1, stack4=True) == \
        "You must draw 4, stack a Wild Draw 4 or challenge."  # H2
    # H2: a Wild Draw 4 stacked on a volley is not challenged: the next seat faces it
    stacked = new_event("play", 2, (Card.parse("W+4"),), 8, data=1)
    assert effect_note(stacked, None, names, 0) == "Bea faces +8."
    assert effect_note(stacked, None, names, 1) == "You face +8."
    drawn = new_event("draw", 1, (), 2, data="draw2")
    assert effect_note(drawn, None, names, 0) == "Bea is skipped."
    challenge = new_event("challenge", 1, data=False)
    assert effect_note(challenge, None, names, 0, wd4_by=2) == "(It was Cal's Wild Draw 4.)"
    # the last card: the round is over, nobody is skipped
    out = new_event("round_end", 0, amount=1)
    assert effect_note(_play(0, "RS", 1), out, names, 2) == ""
    # two seats: nothing to add
    assert effect_note(_play(0, "RS", 1), None, names[:2], 1) == ""


async def test_the_log_in_a_classic_match_tells_skips_and_reverses():
    m = position(4, lambda m: any(e.kind == "play" and e.cards and e.cards[0].rank in "SR"
                                  for e in m.events[-1:]) and m.to_act is not None)
    view = m.view(0)
    app = TableApp(view, NAMES[:4])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        text = " ".join(str(line.text) for line in app.screen.query_one(GameLog).lines)
    assert "is skipped." in text or "Reverse: play goes" in text or "You are skipped" in text


async def test_the_status_line_names_the_seat_to_wait_for():
    m = position(4, lambda m: m.to_act == 3 and m.phase == "turn")
    app = TableApp(m.view(0), NAMES[:4], thinking=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        status = app.screen.query_one(StatusLine)
        row = screen_text(app).splitlines()[status.region.y]
        assert f"{NAMES[3]} is thinking" in row


async def test_the_seat_that_forgot_uno_is_marked_to_catch_in_its_own_cell():
    m = position(4, lambda m: m.to_act == 0 and "catch" in m.legal_actions())
    view = m.view(0)
    app = TableApp(view, NAMES[:4])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        cells = " ".join(_seat_rows(app, 4)).split("→")
    marked = [c for c in cells if "catch!" in c]
    assert len(marked) == 1 and NAMES[view.exposed][:4] in marked[0]


async def test_like_names_stay_told_apart_on_the_sheet():
    """"Normal bot 1" … "Normal bot 4" are not four rows of "Normal" (seen in tmux at
    10 seats): names cut to the same text keep their ends."""
    m = position(4, lambda m: m.to_act == 0 and m.phase == "turn")
    names = ("Bartholomew", "Normal bot 1", "Normal bot 2", "Normal bot 3")
    app = TableApp(m.view(0), names)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        rows = [line for line in _sheet_text(app).splitlines() if "Norm" in line]
    assert len(rows) == 3
    assert len({re.split(r"\s{2,}", row.strip("│ "))[0] for row in rows}) == 3, rows


async def test_card_backs_never_misstate_a_count():
    """A seat's backs are all its cards up to five, or none: a cell short of room once
    drew 1 back for 7 cards beside 5 for 7 (seen in the 4-seat screenshot)."""
    drawn = 0
    for seats, size in ((4, (80, 24)), (10, (80, 24)), (10, (120, 40)), (4, (120, 40))):
        m = position(seats, lambda m: m.to_act == 0 and m.phase == "turn" and m.round >= 2)
        app = TableApp(m.view(0), NAMES[:seats])
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            chain = " ".join(_seat_rows(app, seats))
        found = re.findall(r" (\d+)(?: [^\s▐]+)? ((?:▐▌)+)", chain)  # a move may come between
        drawn += len(found)
        for count, backs in found:
            assert len(backs) // 2 == min(int(count), 5), (count, backs, chain)
    assert drawn  # where there is room, backs are drawn


async def test_a_watcher_of_two_seats_sees_both_seats_counts():
    """A spectator's view has no seat of its own: the two-seat strip (the other seat)
    showed only seat 1; the watcher must see both seats and their counts."""
    m = Match.new(Rules(), seed=5)
    while m.phase == "draft":
        m.apply(m.legal_actions()[0])
    view = m.public_view()
    app = TableApp(view, ("Ann", "Bob"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        chain = " ".join(_seat_rows(app, 2))
    for seat, name in enumerate(("Ann", "Bob")):
        assert re.search(rf"{name}\b.*?\b{view.hand_sizes[seat]}\b", chain), chain
    assert "You" not in chain


def test_h5_the_target_names_the_team_with_partners():
    """H5: with partners the team's score wins, and the sheet says so."""
    assert target_rule(Rules(preset="classic", seats=4, teams="partners"), 4) == "first team to 500"
