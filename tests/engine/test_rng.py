"""The random streams: SplitMix64 values pinned, and the shuffle's block of draws
(``Rng.block``, every lane at once) equal to drawing them one at a time (S3, T3, C5:
every shuffle of a seeded match depends on it; golden transcripts pin the result)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import rng as rng_module
from engine.rng import LANES, Rng


def reference_shuffle(r: Rng, items: list) -> None:
    """Fisher–Yates with one ``below`` per index, as the rules' shuffle is defined."""
    for i in range(len(items) - 1, 0, -1):
        j = r.below(i + 1)
        items[i], items[j] = items[j], items[i]


def test_splitmix64_gives_its_published_first_values():
    # SplitMix64 seeded with 0 (state 0): the reference implementation's first outputs
    r = Rng.__new__(Rng)
    r._state = 0
    assert [r.next64() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(-(2**80), 2**80), stream=st.integers(0, 10**6),
       count=st.integers(0, LANES + 20))
def test_a_block_is_the_next_outputs_one_at_a_time(seed, stream, count):
    block, single = Rng(seed, stream), Rng(seed, stream)
    got = block.block(count)
    assert got == [single.next64() for _ in range(min(count, LANES))]
    assert block.next64() == single.next64()  # the stream goes on from the same place


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(-(2**64), 2**64), stream=st.integers(0, 1000),
       size=st.integers(0, 130))
def test_shuffle_equals_one_below_per_index(seed, stream, size):
    fast, slow = list(range(size)), list(range(size))
    a, b = Rng(seed, stream), Rng(seed, stream)
    a.shuffle(fast)
    reference_shuffle(b, slow)
    assert fast == slow
    assert a.next64() == b.next64()


@pytest.mark.parametrize("size", [2, 9, 60, 112, 125])
def test_a_rejected_draw_takes_the_next_one_like_below(monkeypatch, size):
    """Rejections (odds under 2**-57 with real bounds) forced with low bounds: the
    shuffle then takes the stream's next draw for the same index, as ``below`` does."""
    bound = 1 << 63  # about half the draws are rejected
    limits = [bound - bound % (i + 1) for i in range(size)]
    monkeypatch.setattr(rng_module, "_LIMITS", limits)
    monkeypatch.setattr(rng_module, "_limits", lambda n: limits)
    rejected = 0
    for seed in range(20):
        fast = list(range(size))
        a, b = Rng(seed, 1), Rng(seed, 1)
        a.shuffle(fast)
        slow = list(range(size))
        for i in range(size - 1, 0, -1):
            z = b.next64()
            while z >= limits[i]:
                z, rejected = b.next64(), rejected + 1
            j = z % (i + 1)
            slow[i], slow[j] = slow[j], slow[i]
        assert fast == slow
        assert a.next64() == b.next64()
    assert rejected > 0
