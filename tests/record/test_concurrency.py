"""Many processes write one index: matches ending at the same instant, a serve dir's
index shared by its players, and the leaderboard a lobby will show."""

from __future__ import annotations

import multiprocessing


from engine import Rules
from unoduo_tui.record import ratings as R
from unoduo_tui.record.derive import Derived, SeatRow
from unoduo_tui.record.index import Index
from unoduo_tui.record.stats import leaderboard, rank_of, records
from unoduo_tui.ssh.identity import folder_name, identify
from unoduo_tui.store import Seat, Store

from .helpers import finished, save

RULES = Rules(target=40)
ROUNDS = 6
SPAWN = multiprocessing.get_context("spawn")


def _in_processes(target, argses: list[tuple]) -> None:
    """``target(*args)`` in a process of its own for each of ``argses``, all at once;
    each must end well."""
    procs = [SPAWN.Process(target=target, args=args) for args in argses]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=300)
        assert p.exitcode == 0


def _ender(data_dir: str, who: int, barrier, matches: list, key: str | None = None) -> None:
    """A process ending its matches at the same instants as the other one (``key``:
    a serve dir's player)."""
    store = Store(data_dir, key)
    seats = (Seat(f"P{who}", "human"), Seat("Normal bot", "bot:normal"))
    prepared = [finished(RULES, seed) for seed in matches]
    for m in prepared:
        handle = store.new_match(m.__class__.replay(m.rules, m.actions[:-1], seed=m.seed),
                                 seats)
        barrier.wait(timeout=120)
        handle.sync(m)  # the last move: the footer, and the index at the same instant
        handle.close()


def test_two_matches_ending_at_the_same_instant_lose_no_update(tmp_path):
    data = tmp_path / "data"
    Store(data).ensure()
    barrier = SPAWN.Barrier(2)
    _in_processes(_ender, [(str(data), n, barrier, [n * 1000 + k * 7 for k in range(ROUNDS)])
                           for n in range(2)])
    index = Index.of(data)
    import sqlite3
    conn = sqlite3.connect(index.path)
    assert conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 2 * ROUNDS
    noted = {r.who: (r.matches, r.rating) for r in index.read(records, fresh=False)}
    assert noted["name:p0"][0] == noted["name:p1"][0] == ROUNDS
    assert noted["name:p0"][1].rated == ROUNDS
    index.refresh(rebuild=True)
    assert {r.who: (r.matches, r.rating) for r in index.read(records)} == noted


def _first_writer(roots: list, who: int, barrier) -> None:
    """A process writing its first row into each fresh index at the instant the others
    do (each first connection turns a new file to WAL)."""
    try:
        for r, root in enumerate(roots):
            barrier.wait(timeout=120)
            Index(root).put(_synthetic(who, 1, 1, r * 10 + who))
    except BaseException:
        barrier.abort()  # the others stop at once rather than wait for this one
        raise


def test_processes_opening_a_new_index_at_the_same_instant_all_write(tmp_path):
    """SQLite refuses a change to WAL at once, without its busy wait, while another
    connection has the file open: the first connections of many processes to a new
    index took turns on nothing and one of them lost its match (found by CI)."""
    roots = [tmp_path / f"data{r}" for r in range(12)]
    barrier = SPAWN.Barrier(4)
    _in_processes(_first_writer, [([str(r) for r in roots], n, barrier) for n in range(4)])
    for root in roots:
        index = Index(root)
        assert index.read(lambda conn: conn.execute(
            "SELECT count(*) FROM matches").fetchone()[0], fresh=False) == 4


def test_two_players_of_a_server_ending_matches_at_the_same_instant_lose_no_update(
        tmp_path):
    """An SSH server's players end matches at once, each process its own key: the
    serve dir's one index has every match, each player's rating folded from all."""
    serve = tmp_path / "serve"
    serve.mkdir(mode=0o700)
    players = [identify(serve, f"SHA256:p{n}/key", f"P{n}") for n in range(2)]
    barrier = SPAWN.Barrier(2)
    _in_processes(_ender, [(str(p.folder), n, barrier,
                            [n * 1000 + k * 7 for k in range(ROUNDS)], p.fingerprint)
                           for n, p in enumerate(players)])
    index = Index(serve, shared=True)
    noted = {r.who: (r.matches, r.rating) for r in index.read(records, fresh=False)}
    for p in players:
        assert noted[f"key:{p.fingerprint}"][0] == ROUNDS
        assert noted[f"key:{p.fingerprint}"][1].rated == ROUNDS
    index.refresh(rebuild=True)
    assert {r.who: (r.matches, r.rating) for r in index.read(records)} == noted


# -- a serve dir's index ---------------------------------------------------------------

def test_under_serve_players_are_their_keys_in_one_index_of_the_serve_dir(tmp_path):
    serve = tmp_path / "serve"
    serve.mkdir(mode=0o700)
    alice = identify(serve, "SHA256:alice+key/1", "alice")
    bob = identify(serve, "SHA256:bob+key/2", "bob")
    save(Store(alice.folder, alice.fingerprint), finished(RULES, 1, winner=0),
         (Seat("alice", "human"), Seat("Normal bot", "bot:normal")))
    save(Store(bob.folder, bob.fingerprint), finished(RULES, 2, winner=1),
         (Seat("alice", "human"), Seat("Normal bot", "bot:normal")))  # bob, named alice
    assert not (alice.folder / "record.sqlite").exists()
    index = Index.of(bob.folder, bob.fingerprint)
    assert index.root == serve and index.shared
    recs = {r.who: r for r in index.read(records, fresh=False)}
    assert recs[f"key:{alice.fingerprint}"].wins == 1
    assert recs[f"key:{bob.fingerprint}"].name == "bob" and recs[
        f"key:{bob.fingerprint}"].wins == 0
    assert (serve / "players" / folder_name(bob.fingerprint) / "matches").is_dir()
    index.refresh(rebuild=True)  # from every player's folder
    assert {r.who for r in index.read(records)} == set(recs)


def test_under_serve_a_human_known_only_by_name_is_not_rated(tmp_path):
    serve = tmp_path / "serve"
    serve.mkdir(mode=0o700)
    host = identify(serve, "SHA256:host", "host")
    save(Store(host.folder, host.fingerprint), finished(RULES, 3),
         (Seat("host", "human"), Seat("Player 2", "human")))
    recs = {r.who: r for r in Index.of(host.folder, host.fingerprint).read(records)}
    assert recs["name:player 2"].matches == 1
    assert recs[f"key:{host.fingerprint}"].rating.rated == 0


def test_a_data_dir_that_only_looks_like_a_players_folder_keeps_its_own_index(tmp_path):
    folder = tmp_path / "players" / "someone"
    assert Index.of(folder, "SHA256:someone").root == folder


def test_the_key_is_the_sessions_not_the_processs_two_sessions_in_one_process(
        tmp_path, monkeypatch):
    """Under ``serve --workers N`` many sessions' apps share one process (and its one
    environment): each is its own key in the server's index, from its SessionConfig."""
    from unoduo_tui.record.words import rating_lines
    from unoduo_tui.sessions import SessionConfig, session_app

    serve = tmp_path / "serve"
    serve.mkdir(mode=0o700)
    alice = identify(serve, "SHA256:alice+key/1", "alice")
    bob = identify(serve, "SHA256:bob+key/2", "bob")
    monkeypatch.setenv("UNODUO_KEY", alice.fingerprint)  # the process's: nobody's session
    apps = {p.name: session_app(SessionConfig(p.folder, p.name, tmp_path / "lobby",
                                              p.fingerprint))
            for p in (alice, bob)}
    paths = {}
    for seed, (name, app) in enumerate(apps.items(), 1):
        assert app.store.key == (alice if name == "alice" else bob).fingerprint
        paths[name] = save(app.store, finished(RULES, seed, winner=0),
                           (Seat(name, "human"), Seat("Normal bot", "bot:normal")))
    assert not (alice.folder / "record.sqlite").exists()
    assert not (bob.folder / "record.sqlite").exists()
    recs = {r.who: r for r in Index(serve, shared=True).read(records, fresh=False)}
    for p in (alice, bob):
        mine = recs[f"key:{p.fingerprint}"]
        assert (mine.name, mine.matches, mine.wins, mine.rating.rated) == (p.name, 1, 1, 1)
    # and the match-over dialog's line, as the session's dialog asks for it
    line = rating_lines(bob.folder, str(paths["bob"]), key=apps["bob"].store.key)
    assert line.startswith("bob: rating 1500 → ")


# -- the leaderboard -----------------------------------------------------------------

def _synthetic(n: int, wins: int, total: int, t0: int) -> list[Derived]:
    out = []
    for k in range(total):
        won = k < wins
        seats = (SeatRow(0, f"name:p{n}", f"P{n}", "human", True, 1 - won, won, 0, (0,),
                         (0,) * 11),
                 SeatRow(1, "bot:normal", "Normal bot", "bot", True, int(won), not won, 0,
                         (0,), (0,) * 11))
        out.append(Derived(f"matches/p{n}-{k}.unoduo", 1, t0 + k, "finished", None,
                           f"p{n}-{k}", "duo", 1, False, False, 0 if won else 1, seats))
    return out


def test_leaderboard_top_20_of_the_non_provisional_and_one_players_rank(tmp_path):
    index = Index(tmp_path)
    rows = []
    for n in range(25):  # P0 wins 0 of 12 … P24 wins 12 of 12; P25–P27 provisional
        rows += _synthetic(n, n * 12 // 24, 12, n * 100)
    for n in range(25, 28):
        rows += _synthetic(n, 9, 9, n * 100)
    index.put(rows)
    board = index.read(lambda conn: leaderboard(conn, "duo"), fresh=False)
    assert len(board) == 20
    names = [name for _, _, name, _ in board]
    assert not {"P25", "P26", "P27"} & set(names)  # 9 rated matches: provisional
    cautious = [r.value - r.uncertainty for *_, r in board]
    assert cautious == sorted(cautious, reverse=True) and names[0] == "P24"
    for rank, who, _, r in board:  # equal records share a place
        assert rank == 1 + sum(c > r.value - r.uncertainty for c in cautious)
        assert index.read(lambda conn: rank_of(conn, who, "duo"), fresh=False) == rank
    assert [rank for rank, *_ in board][:3] == [1, 2, 2]  # P24; P22 and P23 both won 11
    assert index.read(lambda conn: rank_of(conn, "name:p25", "duo"), fresh=False) is None
    assert index.read(lambda conn: rank_of(conn, "name:p0", "duo"), fresh=False) == 24
    assert index.read(lambda conn: rank_of(conn, "bot:normal", "duo"), fresh=False) is None
    assert all(r.rated >= R.PROVISIONAL_UNDER for *_, r in board)
