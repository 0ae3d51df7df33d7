"""#22 The server owns what it starts: its table service (:mod:`unoduo_tui.net.hall`)
holds many tables in one event loop behind one socket, lists them pushed to the
lobbies that follow them (paged, searchable), pairs quick matches and keeps the codes
of all its tables behind its own guess limits."""

from __future__ import annotations

import queue
import random
import socket
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unoduo_tui.net import client, hall_link
from unoduo_tui.net import lobby as listing
from unoduo_tui.net import messages as msg
from unoduo_tui.net.client import plan_to_json
from unoduo_tui.net.codes import HALL, parse_code
from unoduo_tui.net.frames import FrameReader
from unoduo_tui.net.hall import HALL_PER_HOUR, Hall
from unoduo_tui.store import Store
from unoduo_tui.table import Refused

from tests.waiting import until

from .helpers import WAIT, LoopThread, plan
from .test_fuzz import _mutate


class HallServed(LoopThread):
    """A :class:`Hall` in its own event loop thread, at ``<env>/s/hall.sock``, set as
    this process's ``$UNODUO_HALL``."""

    def __init__(self, env: Path, monkeypatch, **kw) -> None:
        self.path = env / "s" / "hall.sock"
        self.players = env / "players"
        self.players.mkdir(exist_ok=True)
        monkeypatch.setenv(HALL, str(self.path))
        self.start_loop()
        self.hall = self.call(lambda: Hall(root=self.players, bot_pause=0, **kw))
        self.run(self.hall.start(str(self.path)))


    def store(self, who: str) -> Store:
        return Store(self.players / who)

    def open(self, who: str, match_plan=None, **kw) -> dict:
        return hall_link.open_table(self.players / who, "--plan",
                                    plan_to_json(match_plan or plan()), **kw)

    def raw(self) -> socket.socket:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(WAIT)
        sock.connect(str(self.path))
        return sock

    def stop(self) -> None:
        if self.thread.is_alive():
            self.run(self.hall.close())
            self.stop_loop()


@pytest.fixture
def served(env, monkeypatch):
    made: list[HallServed] = []

    def make(**kw) -> HallServed:
        made.append(HallServed(env, monkeypatch, **kw))
        return made[-1]
    yield make
    for s in made:
        s.stop()


class Pages:
    """A lobby following the service: the pages it was pushed, in order."""

    def __init__(self, follow: msg.Follow | None = None) -> None:
        self.got: queue.Queue[msg.LobbyPage] = queue.Queue()
        self.link = hall_link.Following(follow or msg.Follow(), self.got.put)

    def next(self) -> msg.LobbyPage:
        return self.got.get(timeout=WAIT)

    def until(self, check) -> msg.LobbyPage:
        while True:
            page = self.next()
            if check(page):
                return page


def _answer(sock: socket.socket) -> msg.Message:
    frames = FrameReader()
    while True:
        data = sock.recv(1 << 16)
        assert data, "the service closed the connection without an answer"
        for frame in frames.feed(data):
            return msg.decode(frame, msg.TO_LOBBY)


def test_a_table_opened_at_the_service_is_listed_joined_and_played(served):
    s = served()
    info = s.open("ann")
    assert parse_code(info["code"]).count("-") == 3 and info["pid"] is None
    ann = client.sit_host(s.store("ann"), info, "Ann")
    bob = client.connect(s.store("bob"), info["code"], want="play", name="Bob")
    try:
        assert {ann.seat, bob.seat} == {0, 1}
        (entry,) = s.call(s.hall.entries)
        assert (entry.host, entry.names, entry.open, entry.preset) == (
            "Ann", ("Ann", "Bob"), 0, "duo")
        # one process, one loop: the table is the service's, its save in Ann's folder
        assert list((s.players / "ann" / "matches").glob("*.unoduo"))
        mover = ann if ann.view(ann.seat).to_act == ann.seat else bob
        before = mover.view(mover.seat).event_count
        mover.act(mover.seat, str(mover.view(mover.seat).legal_actions[0]))
        held = s.hall.tables[info["code"]].authority
        until(lambda: held.table.view(mover.seat).event_count > before, "the decision made")
    finally:
        ann.close()
        bob.close()


def test_a_following_lobby_is_pushed_each_change_and_nothing_while_nothing_changes(served):
    s = served()
    pages = Pages()
    assert pages.next().tables == ()  # at once: what the service holds
    info = s.open("ann")
    page = pages.until(lambda p: p.tables)
    assert page.tables[0].code == info["code"] and page.tables[0].connected == 0
    ann = client.sit_host(s.store("ann"), info, "Ann")
    try:
        pages.until(lambda p: p.tables and p.tables[0].connected == 1)
        # nothing changes now: the next page this lobby gets is the answer to its
        # own question (any push sent in between would come first)
        pages.link.follow(msg.Follow("no such table"))
        answer = pages.next()
        assert answer.query == "no such table" and answer.tables == () and answer.total == 0
    finally:
        ann.close()
        pages.link.close()


def test_ten_thousand_tables_are_listed_a_page_at_a_time_and_searched():
    games = ("duo", "classic")
    entries = [msg.TableEntry(f"tide-wolf-fern-{n:04d}", f"m{n}", f"Host{n}", games[n % 2],
                              2, (f"Host{n}",), 1) for n in range(10_000)]
    first = msg.LobbyPage.of(entries, msg.Follow())
    assert (first.total, first.pages, len(first.tables)) == (10_000, 1250, msg.PAGE_TABLES)
    assert first.tables[0].code == "tide-wolf-fern-0000"  # the oldest first
    last = msg.LobbyPage.of(entries, msg.Follow(page=5000))  # past the end: the last page
    assert last.page == 1249 and last.tables[-1].code == "tide-wolf-fern-9999"
    found = msg.LobbyPage.of(entries, msg.Follow("host777"))  # by host name, any case
    assert [t.host for t in found.tables] == ["Host777", "Host7770", "Host7771", "Host7772",
                                              "Host7773", "Host7774", "Host7775", "Host7776"]
    assert found.total == 11 and found.pages == 2
    by_code = msg.LobbyPage.of(entries, msg.Follow("fern-0042"))
    assert [t.code for t in by_code.tables] == ["tide-wolf-fern-0042"]
    assert msg.LobbyPage.of(entries, msg.Follow("uno duo")).total == 5_000  # by game
    mine = msg.LobbyPage.of(entries, msg.Follow(codes=("tide-wolf-fern-0000",)))
    assert [t.code for t in mine.mine] == ["tide-wolf-fern-0000"]
    assert mine.total == 9_999 and mine.tables[0].code == "tide-wolf-fern-0001"
    # a page goes as one frame, whatever the names
    big = msg.LobbyPage(tuple(entries[:msg.PAGE_TABLES]), (), 0, 1, 1)
    assert msg.decode(FrameReader().feed(msg.encode(big))[0], msg.TO_LOBBY) == big


def test_quick_match_pairs_two_players_who_press_it_at_the_same_moment(served):
    s = served()
    seats: dict[str, listing.QuickSeat] = {}
    start = threading.Barrier(2)

    def press(who: str) -> None:
        start.wait()
        seats[who] = listing.quick_match(s.store(who), Path("/nonexistent"), who.title())

    threads = [threading.Thread(target=press, args=(w,)) for w in ("ann", "bob")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WAIT)
    try:
        ann, bob = seats["ann"], seats["bob"]
        assert ann.code == bob.code and ann.hosting != bob.hosting  # one hosts, one joins
        (entry,) = s.call(s.hall.entries)
        assert entry.quick and entry.open == 0
        # a third player waits at a table of their own, and may cancel it
        cy = listing.quick_match(s.store("cy"), Path("/nonexistent"), "Cy")
        assert cy.hosting and cy.code != ann.code
        assert listing.cancel_quick(s.store("cy"), Path("/nonexistent"), cy) is True
        assert cy.code not in s.call(lambda: set(s.hall.tables))
        assert not list((s.players / "cy" / "matches").glob("*.unoduo"))  # nothing kept
    finally:
        for seat in seats.values():
            seat.table.close()


def test_a_wrong_code_counts_at_the_service_and_a_guesser_is_locked_out(served):
    s = served()
    info = s.open("ann")
    wrong = "tide-wolf-fern-0000" if info["code"] != "tide-wolf-fern-0000" else "ash-ash-ash-0001"
    for _ in range(3):
        sock = s.raw()
        sock.sendall(msg.encode(msg.Hello(wrong, "watch")))
        assert _answer(sock) == msg.Refused(msg.NO_TABLE)
        sock.close()
    with pytest.raises(Refused, match="too many wrong codes"):  # even the right one now
        client.connect(s.store("eve"), info["code"], want="watch")
    assert s.hall.guesses.per_hour == HALL_PER_HOUR


def test_a_player_s_folder_must_be_the_server_s(served, env):
    s = served()
    with pytest.raises(RuntimeError, match="not a player's"):
        hall_link.open_table(env / "elsewhere", "--plan", plan_to_json(plan()))
    with pytest.raises(RuntimeError, match="not a player's"):
        hall_link.open_table(s.players / ".." / "elsewhere", "--plan", plan_to_json(plan()))


def test_hostile_frames_at_the_service_change_nothing_and_crash_nothing(served):
    s = served()
    info = s.open("ann")
    errors: list = []
    s.loop.call_soon_threadsafe(s.loop.set_exception_handler,
                                lambda loop, ctx: errors.append(ctx))
    s.hall.guesses.clock = iter(range(0, 10**12, 10_000)).__next__  # lock-outs pass
    bases = [msg.encode(m) for m in (
        msg.Follow("ann", 3), msg.Hello(info["code"], "watch"),
        msg.Hello("ash-ash-ash-0001", "play"), msg.CancelQuick(info["code"], "x"),
        msg.OpenTable(str(s.players / "ann"), None, "{not json"),
        msg.QuickMatch("/etc", "Eve"))]
    rng = random.Random(22)
    for _ in range(300):
        sock = s.raw()
        try:
            for _ in range(5):
                sock.sendall(_mutate(rng, rng.choice(bases)))
            sock.shutdown(socket.SHUT_WR)
            while sock.recv(1 << 16):
                pass
        except OSError:
            pass  # dropped: that is allowed
        finally:
            sock.close()
    assert not errors
    assert [e.code for e in s.call(s.hall.entries)] == [info["code"]]  # only Ann's table
    pages = Pages()  # and it still serves
    assert [t.code for t in pages.next().tables] == [info["code"]]
    pages.link.close()


def test_stopping_the_service_ends_every_table_and_each_is_saved_to_resume(served):
    s = served()
    infos = [s.open(who) for who in ("ann", "bob", "cy")]
    tables = [s.hall.tables[i["code"]].authority for i in infos]
    s.stop()
    assert all(a.finished.is_set() for a in tables)
    again = served()
    (save,) = (s.players / "bob" / "matches").glob("*.unoduo")
    info = hall_link.open_table(s.players / "bob", "--resume", str(save))
    assert info["code"] == infos[1]["code"]  # the same code back, and the same seats
    assert again.hall.tables[info["code"]].authority.seating.tokens[0] == infos[1]["token"]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 60), st.lists(st.integers(0, 70), max_size=10), st.integers(0, 12))
def test_a_page_without_a_search_is_the_same_by_the_short_way(count, own, page):
    """The service pages every lobby on each change by each table's index: the same
    page as looking through them all."""
    entries = [msg.TableEntry(f"ash-ash-ash-{n:04d}", f"m{n}", f"H{n}", "duo", 2, (), 1)
               for n in range(count)]
    follow = msg.Follow("", page, tuple(f"ash-ash-ash-{n:04d}" for n in own))
    position = {e.code: i for i, e in enumerate(entries)}
    assert msg.LobbyPage.of(entries, follow, position) == msg.LobbyPage.of(entries, follow)
