"""#15: the authority over its socket — whole matches between scripted clients, what
each client may see, who may act, and the join code."""

from __future__ import annotations

import asyncio
import os
import socket

import pytest

from unoduo_tui.net.frames import FrameReader, encode
from unoduo_tui.net.guesses import Guesser
from unoduo_tui.net.remote import RemoteTable
from unoduo_tui.table import Refused

from .helpers import WAIT, card_strings, hidden_faces, plan, play_out, raw_hello, send_raw


@pytest.mark.parametrize("preset,seats,seed,target", [("duo", 2, 3, None),
                                                      ("classic", 4, 5, 150)])
def test_a_whole_match_over_the_socket_leaks_no_card_of_another_hand(served_factory, preset,
                                                                    seats, seed, target):
    served = served_factory(plan(preset, seats, seed=seed, target=target))
    # everyone's hidden cards at each update, taken before anyone joins
    hidden: dict[int, dict] = {}
    watched = list(range(seats)) + [None]

    def note(update):
        hidden[update.seq] = {s: hidden_faces(served.table.match, s) for s in watched}
    with served.table.lock:
        note(served.authority.last)
        served.table.subscribe(note)
    clients = {s: served.client(name=f"N{s}") for s in range(seats)}
    watcher = served.client(want="watch")
    assert [c.table.seat for c in clients.values()] == list(range(seats))
    made = play_out(served, clients, seed)
    assert served.state()[2], "the match is over"
    assert len(served.table.match.rounds) >= 2  # more than one deal: hands shown, dealt anew
    watcher.wait(lambda u: watcher.table.public.event_count == served.state()[1],
                 "the watcher's last update")
    checked = 0
    for seat, who in [(s, c) for s, c in clients.items()] + [(None, watcher)]:
        for frame in who.frames():
            if frame["t"] != "update":
                assert not card_strings(frame), frame
                continue
            secret = hidden[frame["u"]["seq"]][seat]
            leaked = card_strings(frame) & secret
            assert not leaked, (seat, frame["u"]["seq"], leaked)
            checked += 1
            if seat is None:
                assert frame["u"]["views"] == [] and frame["public"]["hand"] == []
            else:
                assert [s for s, _ in frame["u"]["views"]] == [seat]
    assert checked > made
    # every client had secrets kept from it: the scan had something to find
    assert all(any(h[s] for h in hidden.values()) for s in watched)


def test_each_client_s_view_matches_the_authority_s_view_of_its_seat(served_factory):
    served = served_factory(plan("classic", 3, seed=9))
    clients = {s: served.client() for s in range(3)}
    play_out(served, clients, 2, limit=60)
    for seat, c in clients.items():
        count = served.state()[1]
        u = c.wait(lambda u: u.views[seat].event_count == count)
        assert u.views[seat] == served.table.view(seat)
        assert c.table.mine == (seat,) and not c.table.practice


def test_acting_for_another_seat_or_out_of_turn_is_refused(served_factory):
    served = served_factory(plan(seed=4))
    a, b = served.client(), served.client()
    to_act = served.state()[0]
    mover, waiter = (a, b) if to_act == 0 else (b, a)
    with pytest.raises(Refused, match="own seat"):
        waiter.table.act(to_act, "pass")
    with pytest.raises(Refused, match="turn"):
        waiter.table.act(waiter.table.seat, "pass")
    with pytest.raises(Refused, match="legal"):
        mover.table.act(to_act, "play R0")
    # past the client's own checks, straight at the authority: refused, match unchanged
    before = served.table.match.log_length
    send_raw(waiter.table, {"t": "act", "text": "pass"})
    u = waiter.wait(lambda u: u.cause == "refused", "a refusal")
    assert "turn" in u.refused
    send_raw(waiter.table, {"t": "act", "text": 7})
    assert "short text" in waiter.wait(lambda u: u.cause == "refused" and u is not waiter.last
                                       or "short" in (u.refused or ""), "a refusal").refused
    assert served.table.match.log_length == before


def test_a_watcher_cannot_act_and_sees_no_hand(served_factory):
    served = served_factory(plan(seed=6))
    served.client(), served.client()
    w = served.client(want="watch")
    assert w.table.seat is None and w.table.token is None
    assert w.table.mine == () and set(w.last.views) == {None}  # a spectator: no seat
    assert w.last.views[None].seat is None
    assert w.last.views[None].hand == () and w.last.views[None].legal_actions == ()
    assert w.table.public.hand == () and w.table.public.seat is None
    with pytest.raises(Refused, match="watching"):
        w.table.act(0, "pass")
    send_raw(w.table, {"t": "act", "text": "pass"})
    assert "watcher" in w.wait(lambda u: u.cause == "refused").refused


def test_a_wrong_code_is_refused_and_repeated_wrong_codes_lock_that_user_out(served_factory):
    now = [1000.0]
    served = served_factory(plan(seed=7), clock=lambda: now[0])
    wrong = "zinc-zinc-0000" if served.code != "zinc-zinc-0000" else "yak-yak-0000"
    for _ in range(2):
        with pytest.raises(Refused, match="wrong code"):
            served.client(code=wrong)
    with pytest.raises(Refused, match="wrong code"):
        served.client(code=wrong)  # the third: this Unix user locked out for 30 s
    with pytest.raises(Refused, match="too many wrong codes: try again in 30 s"):
        served.client()  # even its right code waits out its lock-out: not compared
    now[0] += 31
    for _ in range(3):  # each wrong code from now on doubles the wait
        with pytest.raises(Refused, match="wrong code"):
            served.client(code=wrong)
        with pytest.raises(Refused, match="too many"):
            served.client()
        now[0] += 2 ** 10
    c = served.client()
    assert c.table.seat == 0
    me = Guesser(f"uid:{os.getuid()}")
    assert served.authority.door.guesses.refusal(me) is None  # the right code cleared it


def test_a_full_table_refuses_a_third_player_who_may_watch(served_factory):
    served = served_factory(plan(seed=8))
    served.client(), served.client()
    with pytest.raises(Refused, match="every seat"):
        served.client()
    assert served.client(want="watch").table.seat is None


def test_a_token_takes_the_same_seat_back_once_its_connection_is_gone(served_factory):
    served = served_factory(plan(seed=10))
    a, b = served.client(name="Ann"), served.client(name="Bob")
    token = b.table.token
    b.table.close()
    a.wait(lambda u: a.table.presence.connected == (0,), "Bob's drop")
    b2 = served.client(token=token)
    assert b2.table.seat == 1 and b2.table.names[1] == "Bob"
    a.wait(lambda u: a.table.presence.connected == (0, 1), "presence")


def test_4_a_token_whose_seat_answers_gets_the_next_free_seat_and_leaves_it_alone(
        served_factory):
    """#21 item 4: the host and a joiner at one data dir (one account): the joiner
    offers the host's token (the one the data dir holds), the host's connection answers
    its ping, so the joiner takes the next seat and the host keeps its own."""
    served = served_factory(plan("classic", 3, seed=10))
    host = served.client(name="Hana")
    jo = served.client(name="Jo", token=host.table.token)
    assert host.table.seat == 0 and jo.table.seat == 1 and jo.table.token != host.table.token
    host.wait(lambda u: host.table.names[:2] == ("Hana", "Jo"), "Jo's name")
    assert host.table.closed_reason is None and host.last.lost is None
    # a third terminal with both tokens: both seats answer, the last seat is free
    kim = RemoteTable(served.raw(), served.code, name="Kim",
                      tokens=[jo.table.token, host.table.token])
    assert kim.seat == 2
    # and with every seat taken and answering, a fourth is told why
    with pytest.raises(Refused, match="in use by another connection"):
        RemoteTable(served.raw(), served.code, tokens=[host.table.token])
    # a host's screen asks for its own seat only (new_seat=False): never another
    with pytest.raises(Refused, match="in use by another connection"):
        RemoteTable(served.raw(), served.code, tokens=[kim.token], new_seat=False)
    assert host.table.closed_reason is None and jo.table.closed_reason is None
    kim.close()


def test_4_a_seat_whose_connection_does_not_answer_is_taken_over_and_told(served_factory):
    """A dropped link the authority has not noticed (a connection that reads nothing):
    the player coming back with its token takes its seat; the old connection hears bye."""
    served = served_factory(plan(seed=10))
    a = served.client(name="Ann")
    stale = served.raw()
    stale.sendall(encode({"t": "hello", "code": served.code, "want": "play", "name": "Bob"}))
    reader = FrameReader()
    frames: list[dict] = []
    while not any(f["t"] == "update" for f in frames):
        frames += reader.feed(stale.recv(1 << 16))
    welcome = frames[0]
    assert welcome["t"] == "welcome" and welcome["seat"] == 1
    b = served.client(token=welcome["token"])  # the ping goes unanswered
    assert b.table.seat == 1
    while not any(f["t"] == "bye" for f in frames):
        chunk = stale.recv(1 << 16)
        assert chunk, "closed without a bye"
        frames += reader.feed(chunk)
    bye = next(f for f in frames if f["t"] == "bye")
    assert "taken over by another connection" in bye["reason"]
    assert any(f["t"] == "ping" for f in frames)
    a.wait(lambda u: a.table.presence.connected == (0, 1), "presence")


def test_presence_shows_a_dropped_player_and_chat_reaches_everyone(served_factory):
    served = served_factory(plan(seed=11))
    a, b = served.client(name="Ann"), served.client(name="Bob")
    chats = a.chats
    b.table.chat("gg \x1b[31mwell\x07 played " + "x" * 300)
    a.wait(lambda u: chats, "the chat line")
    assert chats[0][:2] == (1, "Bob") and chats[0][2].startswith("gg well played x")
    assert len(chats[0][2]) == 200
    b.table.close()
    a.wait(lambda u: a.table.presence.connected == (0,), "Bob's drop")


def test_chat_is_rate_limited(served_factory):
    served = served_factory(plan(seed=12), clock=lambda: 5.0)
    a, _b = served.client(), served.client()  # both seats taken
    for i in range(6):
        a.table.chat(f"line {i}")
    assert "slow down" in a.wait(lambda u: u.cause == "refused").refused


def test_malformed_oversized_or_foreign_frames_drop_only_that_client(served_factory):
    served = served_factory(plan(seed=13))
    a = served.client()
    bad = [b"\xff\xff\xff\xff", (3).to_bytes(4, "big") + b"\xc1\xc1\xc1",
           (5).to_bytes(4, "big") + b"\x93\x01\x02\x03\x04"]
    import msgpack
    body = msgpack.packb({"v": 99, "t": "hello", "code": served.code, "want": "play"})
    bad.append(len(body).to_bytes(4, "big") + body)
    for frame in bad:
        sock = served.raw()
        sock.sendall(frame)
        assert sock.recv(100) == b""  # dropped without a word
        sock.close()
    # a first message that is not a hello, then a hello: dropped too
    sock = served.raw()
    sock.sendall(encode({"t": "act", "text": "pass"}))
    assert sock.recv(100) == b""
    # the table goes on
    b = served.client()
    assert b.table.seat == 1 and a.table.closed_reason is None


def test_a_client_that_does_not_read_is_dropped_and_the_table_goes_on(served_factory):
    ticks = iter(range(0, 10**9, 100))  # each chat line 100 s after the last: no limit
    served = served_factory(plan(seed=14), clock=lambda: float(next(ticks)))
    a = served.client()
    sock = served.raw()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    assert raw_hello(sock, served.code, want="watch")["t"] == "welcome"
    slow = next(c for c in served.authority.clients if c.seat is None)
    sent = 0
    while not slow.closed and sent < 20_000:  # the watcher never reads
        a.table.chat("y" * 190 + str(sent))
        sent += 1
        if sent % 200 == 0:
            a.wait(lambda u: a.chats and a.chats[-1][2].endswith(str(sent - 1)), "the echo")
    assert slow.closed and slow not in served.authority.clients
    b = served.client()  # the table goes on
    assert b.table.seat == 1 and a.table.closed_reason is None
    sock.close()


def test_a_loopback_tcp_listener_serves_the_same_table(served_factory):
    from unoduo_tui.net.remote import RemoteTable

    served = served_factory(plan(seed=15), tcp=True)
    port = served.authority.tcp_port
    assert port
    a = served.client()
    b = RemoteTable.connect(served.code, name="Tee", tcp=("127.0.0.1", port))
    try:
        assert b.seat == 1 and b.names[1] == "Tee"
        key = next(c.key for c in served.authority.clients if c.seat == 1)
        assert key.id.startswith("tcp:") and not key.lasts and a.table.seat == 0
    finally:
        b.close()


def test_a_watcher_with_a_delay_sees_the_table_that_many_decisions_late(served_factory):
    served = served_factory(plan(seed=16))
    clients = {0: served.client(), 1: served.client()}
    late = served.client(want="watch", delay=3)
    now = served.client(want="watch")
    play_out(served, clients, 4, limit=8)
    count = served.state()[1]
    now.wait(lambda u: now.table.public.event_count == count, "the live watcher")
    history = served.call(served.authority.public_history)
    seq, expected = history[-4]  # the public view three decisions ago
    late.wait(lambda u: late.table.remote_seq == seq, "the late watcher's view")
    assert late.table.public == expected and late.table.public.event_count < count
    with pytest.raises(Refused, match="delay"):
        served.client(want="watch", delay=51)


def test_a_table_ends_after_its_idle_time_with_nobody_connected_and_not_before(
        served_factory):
    served = served_factory(plan(seed=8))
    auth = served.authority
    auth.idle = 3600.0  # an hour: only a call below ends it
    ann = served.client(name="Ann")
    served.call(auth.idle_out)  # the timer fires while Ann is here: the table stays
    assert not auth.finished.is_set() and not auth.idled_out
    auth.idle = 0.05
    ann.table.close()  # the last one leaves: the idle time starts
    served.run(asyncio.wait_for(auth.finished.wait(), WAIT))
    assert auth.idled_out


def test_the_bots_wait_while_any_connected_player_holds_them(served_factory):
    """Each human seat holds for itself: one player closing the round's end does not
    cut another's short; a player who drops holds nobody up."""
    served = served_factory(plan("classic", 3, bots={2: "random"}, seed=9))
    ann, bob = served.client(name="Ann"), served.client(name="Bob")
    table, auth = served.table, served.authority

    for who, on, want in ((ann, True, {0}), (bob, True, {0, 1}), (ann, False, {1})):
        who.table.hold(on)
        _wait_for(lambda: served.call(lambda: auth.seating.holding == want))
        assert table.held is True  # someone still holds
    bob.table.close()  # Bob drops while holding: the bots go on
    _wait_for(lambda: served.call(lambda: auth.seating.holding == set()))
    assert table.held is False


def _wait_for(test) -> None:
    """Ask the authority's loop again until ``test()`` holds (each call is a round trip
    through its queue, after the messages sent before it)."""
    for _ in range(10_000):
        if test():
            return
    raise AssertionError("never")


def test_an_update_goes_out_only_after_its_decision_is_durable(served_factory, monkeypatch,
                                                               tmp_path):
    # the HostedTable contract (unoduo_tui.table): a listener hears of a decision once it
    # is written, and the table makes it durable after; the authority sends it only
    # once wait_saved() says it is durable. Each durable step is noted as it ends (the
    # window is the real fdatasync's): what is checked is the order, never time.
    from unoduo_tui.savehandle import SaveHandle
    from unoduo_tui.store import Store

    served = served_factory(plan(seed=8, bots={1: "random"}), store=Store(tmp_path))
    order: list[tuple[str, int]] = []
    real_flush = SaveHandle.flush

    def noted_flush(handle):
        real_flush(handle)
        order.append(("durable", served.table.seq))  # under the table's lock: its seq

    monkeypatch.setattr(SaveHandle, "flush", noted_flush)
    me = served.client()
    me.table.subscribe(lambda u: order.append(("told", me.table.remote_seq))
                       if u.cause == "move" else None)
    for _ in range(8):
        u = me.wait(lambda u: u.over or u.views[0].to_act == 0 and bool(u.views[0].legal_actions),
                    "my turn")
        if u.over:
            break
        count = u.views[0].event_count
        me.table.act(0, str(u.views[0].legal_actions[0]))
        me.wait(lambda u: u.views[0].event_count > count, "my move")
    told = [(i, seq) for i, (what, seq) in enumerate(order) if what == "told"]
    assert len(told) >= 8
    for i, seq in told:
        assert any(what == "durable" and s >= seq for what, s in order[:i]), (
            f"update {seq} was sent before its decision was durable: {order}")


def test_who_is_here_the_names_the_banner_and_chat_come_in_the_tables_updates(served_factory):
    # #22 "the table is the only door": no callback, no widget set from the network
    served = served_factory(plan(seed=9))
    ann = served.client(name="Ann")
    u = ann.wait(lambda u: u.connected == (ann.table.seat,), "Ann alone")
    assert u.said is None
    ann.table.banner = "Join code: x"  # the host's screen sets it before it subscribes
    assert ann.table.subscribe(lambda u: None).banner == "Join code: x"
    bob = served.client(name="Bob")
    u = ann.wait(lambda u: u.cause == "presence" and len(u.connected) == 2, "Bob's arrival")
    assert u.names[bob.table.seat] == "Bob" and u.banner == "Join code: x"
    bob.table.chat("hi  there")
    u = ann.wait(lambda u: u.cause == "chat", "Bob's line")
    assert u.said == (bob.table.seat, "Bob", "hi there")
    bob.table.close()
    u = ann.wait(lambda u: u.connected == (ann.table.seat,), "Bob's drop")
    assert u.said is None  # a line is told once, not again with the next update
