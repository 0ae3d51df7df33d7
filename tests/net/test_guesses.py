"""Who may try a join code (unoduo_tui/net/guesses.py), the SSH server's word for a
key (net/vouch.py), and both at a real authority: nobody's wrong codes keep out the
right one, each guesser is slowed alone, and a table compares only so many wrong
codes an hour."""

from __future__ import annotations

import os

import pytest

from unoduo_tui.net import codes
from unoduo_tui.net.guesses import FREE_TRIES, HOUR, PER_HOUR, RESERVED, Guesser, Guesses
from unoduo_tui.net.vouch import KEY, PROOF, VOUCHER, Voucher, Vouches, claim
from unoduo_tui.table import Refused

from .helpers import plan

HOURS_A_YEAR = 365.25 * 24


def key(n: int) -> Guesser:
    return Guesser(f"key:SHA256:k{n}")


def tcp(n: int) -> Guesser:
    return Guesser(f"tcp:{n}", lasts=False)


def test_the_arithmetic_all_guessers_together_need_more_than_a_year_on_average():
    secrets = len(codes.WORDS) * codes.NUMBERS  # the first word is public
    assert secrets == 2_640_000
    hours = (secrets + 1) / 2 / PER_HOUR
    assert hours > HOURS_A_YEAR and round(hours) == 13_200
    assert codes.parse_code(codes.new_code())[-5] == "-"  # four digits
    assert codes.parse_code("Tide Wolf 17") == "tide-wolf-17"  # a code from before
    with pytest.raises(ValueError):
        codes.parse_code("tide-wolf-174")


def test_a_guesser_is_locked_out_alone_and_its_codes_are_not_compared_meanwhile():
    now = [0.0]
    g = Guesses(lambda: now[0])
    for _ in range(FREE_TRIES):
        assert g.refusal(key(1)) is None
        g.wrong(key(1))
    assert g.refusal(key(1)) == "too many wrong codes: try again in 30 s"
    assert g.refusal(key(2)) is None  # another guesser: compared at once
    assert g.refusal(Guesser(f"uid:{os.getuid()}")) is None
    now[0] += 30
    assert g.refusal(key(1)) is None
    g.wrong(key(1))  # each further wrong code doubles the wait …
    assert g.refusal(key(1)) == "too many wrong codes: try again in 60 s"
    for _ in range(10):
        now[0] += 3600
        g.wrong(key(1))
    assert g.refusal(key(1)) == "too many wrong codes: try again in 3600 s"  # … to an hour
    now[0] += 3600
    g.right(key(1))
    assert g.refusal(key(1)) is None  # the right code clears it


def test_an_hour_without_a_wrong_code_after_the_lock_out_is_a_clean_slate():
    now = [0.0]
    g = Guesses(lambda: now[0])
    for _ in range(FREE_TRIES):
        g.wrong(key(1))
    now[0] += 30 + HOUR - 1
    assert g.refusal(key(1)) is None
    g.wrong(key(1))
    assert g.refusal(key(1)) == "too many wrong codes: try again in 60 s"  # remembered
    now[0] += 60 + HOUR
    assert g.refusal(key(1)) is None
    g.wrong(key(1))
    assert g.refusal(key(1)) is None  # one wrong code of three again, not locked


def test_the_table_compares_at_most_per_hour_wrong_codes_the_last_for_newcomers():
    now = [0.0]
    g = Guesses(lambda: now[0])
    open_to_all = PER_HOUR - RESERVED
    for n in range(open_to_all):  # TCP connections: each one try, no record
        assert g.refusal(tcp(n)) is None
        g.wrong(tcp(n))
    shut = "too many wrong codes at this table this hour: try again in 60 min"
    assert g.refusal(tcp(10_000)) == shut  # TCP is never new to the table
    g2 = Guesser("uid:4242")
    assert g.refusal(g2) is None
    g.wrong(g2)
    assert g.refusal(g2) is not None  # it has sent a wrong code here: no longer new
    for n in range(RESERVED - 1):  # keys new to the table still get the last ones
        now[0] += 1
        assert g.refusal(key(n)) is None
        g.wrong(key(n))
    assert g.refusal(key(999)) == shut  # full: nobody's code is compared
    assert g.refusal(Guesser("uid:1")) == shut
    now[0] = HOUR  # the first wrong codes are an hour old: room for everyone again
    assert g.refusal(tcp(10_001)) is None and g.refusal(key(998)) is None


def test_a_guessers_records_stay_bounded_however_many_guess():
    now = [0.0]
    g = Guesses(lambda: now[0])
    for n in range(20_000):
        now[0] += 40  # 90 an hour: under the cap, each a new key
        assert g.refusal(key(n)) is None
        g.wrong(key(n))
    records, wrong = g.kept
    assert records <= 2 * PER_HOUR and wrong <= PER_HOUR


def test_the_servers_word_for_a_key_is_checked_and_cannot_be_made_up():
    voucher = Voucher()
    vouches = Vouches(voucher.public)
    env = voucher.environment("SHA256:ann")
    assert env[KEY] == "SHA256:ann" and env[VOUCHER] == voucher.public
    assert vouches.check("SHA256:ann", env[PROOF]) == "SHA256:ann"
    assert vouches.check("SHA256:bob", env[PROOF]) is None  # Ann's proof is hers only
    assert vouches.check("SHA256:ann", Voucher().proof("SHA256:ann")) is None  # another server
    for proof in ("", "not base64!", "AAAA", "A" * 10_000, None, 7, ["x"]):
        assert vouches.check("SHA256:ann", proof) is None
    assert vouches.check({"k": 1}, env[PROOF]) is None
    assert claim(env) == {"key": "SHA256:ann", "proof": env[PROOF]}
    assert claim({}) == {} and claim({KEY: "SHA256:ann"}) == {}
    assert Vouches.from_environment({}) is None
    assert Vouches.from_environment({VOUCHER: "ssh-ed25519 junk"}) is None


# -- at a real authority -------------------------------------------------------------

class Keys:
    """Clients that play as SSH keys the server vouched for (the environment a game
    under ``unoduo serve`` has)."""

    def __init__(self, monkeypatch) -> None:
        self.voucher = Voucher()
        self.monkeypatch = monkeypatch

    def be(self, fingerprint: str, proof: str | None = None) -> None:
        env = self.voucher.environment(fingerprint)
        self.monkeypatch.setenv(KEY, fingerprint)
        self.monkeypatch.setenv(PROOF, proof or env[PROOF])


@pytest.fixture
def keyed(served_factory, monkeypatch):
    """``keyed(seed)``: a table whose authority believes the keys of a :class:`Keys`,
    with a clock the test moves (``now[0]``) — (keys, served, now)."""
    def make(seed: int):
        keys, now = Keys(monkeypatch), [1000.0]
        served = served_factory(plan(seed=seed), clock=lambda: now[0],
                                vouches=Vouches(keys.voucher.public))
        return keys, served, now
    return make


def _wrong(code: str) -> str:
    return "zinc-zinc-0000" if code != "zinc-zinc-0000" else "yak-yak-0000"


def test_many_wrong_codes_from_one_key_then_the_right_code_from_another_gets_in_at_once(
        keyed):
    keys, served, _ = keyed(61)
    keys.be("SHA256:mallory")
    refusals = set()
    for _ in range(30):
        with pytest.raises(Refused) as refused:
            served.client(code=_wrong(served.code))
        refusals.add(str(refused.value).split(":")[0])
    assert refusals == {"wrong code", "too many wrong codes"}
    keys.be("SHA256:ann")
    ann = served.client(name="Ann")  # the clock has not moved: at once
    assert ann.table.seat == 0
    keys.be("SHA256:mallory")
    with pytest.raises(Refused, match="too many wrong codes: try again"):
        served.client()  # mallory is locked out, right code or not


def test_a_forged_key_is_not_believed_its_guesses_count_against_the_unix_user(keyed):
    keys, served, _ = keyed(62)
    for n in range(FREE_TRIES):  # a fresh made-up key for every guess …
        keys.be(f"SHA256:made-up-{n}", proof=Voucher().proof(f"SHA256:made-up-{n}"))
        with pytest.raises(Refused, match="wrong code"):
            served.client(code=_wrong(served.code))
    keys.be("SHA256:made-up-x", proof="AAAA")
    with pytest.raises(Refused, match="too many wrong codes: try again in 30 s"):
        served.client()  # … is one guesser, the Unix user, locked out after three
    keys.be("SHA256:ann")  # a key the server did vouch for is someone else
    assert served.client().table.seat == 0


def test_wrong_codes_over_tcp_do_not_lock_out_a_tcp_joiner_with_the_right_code(
        served_factory):
    from unoduo_tui.net.remote import RemoteTable

    served = served_factory(plan(seed=63), tcp=True)
    where = ("127.0.0.1", served.authority.tcp_port)
    for _ in range(10):  # each TCP connection is a guesser with one try
        with pytest.raises(Refused, match="wrong code"):
            RemoteTable.connect(_wrong(served.code), tcp=where)
    joiner = RemoteTable.connect(served.code, name="Tee", tcp=where)
    try:
        assert joiner.seat == 0
    finally:
        joiner.close()


def test_a_table_under_attack_compares_only_per_hour_wrong_codes_then_no_more(keyed):
    keys, served, now = keyed(64)
    served.authority.door.guesses = Guesses(lambda: now[0], per_hour=8, reserved=3)
    for n in range(5):  # the part open to anyone
        keys.be(f"SHA256:a{n}")
        with pytest.raises(Refused, match="wrong code"):
            served.client(code=_wrong(served.code))
    keys.be("SHA256:a0")
    with pytest.raises(Refused, match="at this table this hour"):
        served.client()  # a guesser that has been wrong here waits for the hour
    keys.be("SHA256:ann")
    assert served.client().table.seat == 0  # one new to the table is still compared
    for n in range(3):  # the reserve, spent by keys new to the table
        keys.be(f"SHA256:b{n}")
        with pytest.raises(Refused, match="wrong code"):
            served.client(code=_wrong(served.code))
    keys.be("SHA256:bea")
    with pytest.raises(Refused, match="at this table this hour: try again in 60 min"):
        served.client()  # eight wrong codes this hour: none is compared, right or wrong
    now[0] += HOUR
    assert served.client().table.seat == 1
