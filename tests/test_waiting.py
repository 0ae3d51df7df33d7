"""The tests' one way to wait: a condition polled to a deadline."""

from __future__ import annotations

import pytest

from tests.waiting import until, until_async


def test_until_gives_the_first_true_value_and_fails_naming_what_it_waited_for():
    seen = iter([0, None, "there"])
    assert until(lambda: next(seen), "a value", poll=0) == "there"
    with pytest.raises(AssertionError, match="waited 0 s for the door to open"):
        until(lambda: False, lambda: "the door to open", timeout=0.01, poll=0)


async def test_until_async_awaits_a_coroutine_check_and_fails_the_same_way():
    calls = []

    async def ready() -> bool:
        calls.append(1)
        return len(calls) == 3
    assert await until_async(ready, "three looks", poll=0) is True
    with pytest.raises(AssertionError, match="waited 0 s for nothing"):
        await until_async(lambda: 0, "nothing", timeout=0.01, poll=0)
