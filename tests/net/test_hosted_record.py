"""#24: a table a player hosts under ``unoduo serve`` runs in a process of its own and
writes the save: it counts the match in the server's one index as that player's key
(the key handed on from the host's store, ``--key``; not the process's environment)."""

from __future__ import annotations

from engine import Rules
from engine.rng import Rng
from unoduo_tui.net import client
from unoduo_tui.net.client import plan_to_json
from unoduo_tui.plan import HUMAN, MatchPlan
from unoduo_tui.record.index import Index
from unoduo_tui.record.stats import records
from unoduo_tui.ssh.identity import identify
from unoduo_tui.store import Store

from .helpers import Client, wait_exit
from .test_cli import _end


def test_a_hosted_match_ending_under_serve_counts_in_the_servers_index_as_the_hosts_key(
        env, monkeypatch):
    monkeypatch.delenv("UNODUO_KEY", raising=False)  # a worker's environment: nobody's
    serve = env / "serve"
    serve.mkdir(mode=0o700)
    hana = identify(serve, "SHA256:hana/1", "Hana")
    store = Store(hana.folder, hana.fingerprint)
    plan = MatchPlan(("Hana", "Random bot"), (HUMAN, "bot:random"),
                     Rules(preset="duo", seats=2, target=20), 3)
    info = client.start_authority(store.data_dir, "--plan", plan_to_json(plan),
                                    bot_pause=0, key=store.key)
    try:
        host = Client(client.sit_host(store, info, "Hana"), None)  # type: ignore[arg-type]
        rng = Rng(24, 1)
        while not host.last.views[0].over:
            view = host.last.views[0]
            if view.legal_actions:
                host.table.act(0, str(view.legal_actions[rng.below(len(view.legal_actions))]))
            host.wait(lambda u: u.views[0].over or u.views[0].event_count > view.event_count,
                      "the next move")
        host.table.close()
    finally:
        _end(store.data_dir)
    index = Index(serve, shared=True)

    def counted():
        found = {r.who: r.matches for r in index.read(records, fresh=False)}
        return found.get(f"key:{hana.fingerprint}")

    # the table's process noted it as its save's footer was written: no refresh needed
    wait_exit(info["pid"])  # ended by _end: all it wrote is written
    assert counted() == 1
    assert not (hana.folder / "record.sqlite").exists()  # no index of its own folder
