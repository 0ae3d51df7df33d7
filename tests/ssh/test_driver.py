"""The channel driver and the hosted app (#22): apps in the test's own event loop, fed
bytes as an SSH channel would feed them, their output read back with pyte."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pyte
import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Static

from unoduo_tui.shutdown import RESTORE
from unoduo_tui.ssh.driver import MAX_PASTE, START
from unoduo_tui.ssh.hosted import CRASHED, NOT_READING, HostedApp
from unoduo_tui.ssh.limits import Limits

from tests.waiting import until_async as until

from .term import WAIT


class Keys(App[int]):
    """Shows its size and every key and paste it gets; ``x`` raises."""

    def __init__(self) -> None:
        super().__init__()
        self.keys: list[str] = []
        self.pastes: list[str] = []
        self.sizes: list[tuple[int, int]] = []

    def compose(self) -> ComposeResult:
        yield Static("ready", id="shown")

    def on_key(self, event: events.Key) -> None:
        if event.key == "x":
            raise RuntimeError("a bug")
        self.keys.append(event.key)
        self.query_one("#shown", Static).update(f"keys: {' '.join(self.keys)}")

    def on_paste(self, event: events.Paste) -> None:
        self.pastes.append(event.text)

    def on_resize(self, event: events.Resize) -> None:
        self.sizes.append((event.size.width, event.size.height))


class Client:
    """What a client's terminal shows (pyte) and every byte it was sent."""

    def __init__(self, size=(80, 24)) -> None:
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()

    def took(self, data: bytes) -> None:
        self.raw += data
        self.stream.feed(data)

    def shows(self, text: str) -> bool:
        return text in "\n".join(self.screen.display)


async def hosted(app=None, limits: Limits = Limits(), size=(80, 24)):
    client = Client(size)
    host = HostedApp(app or Keys(), client.took, limits, size)
    host.start()
    await until(lambda: host.driver is not None and host.driver.running, "the app to start")
    await until(lambda: client.shows("ready"), "the first frame")
    return host, client


async def test_keys_reach_the_app_whole_even_when_a_sequence_is_split():
    host, client = await hosted()
    host.input(b"a")
    host.input(b"\x1b[")  # → (cursor right), cut in two by the network
    host.input(b"C")
    host.input("é".encode()[:1])  # a character cut in two, too
    host.input("é".encode()[1:])
    await until(lambda: client.shows("keys: a right é"), "three keys")
    assert host.app.keys == ["a", "right", "é"]
    host.hangup()
    assert await host.task == (129, None)


async def test_a_lone_escape_is_a_key_once_the_escape_delay_has_passed():
    host, client = await hosted()
    host.input(b"\x1b")
    await until(lambda: host.app.keys == ["escape"], "escape")
    host.hangup()
    await host.task


async def test_bytes_that_are_not_utf8_are_replaced_not_a_crash():
    host, client = await hosted()
    host.input(b"\xff\xfe!")
    await until(lambda: "exclamation_mark" in host.app.keys, "the key after the junk")
    assert host.task is not None and not host.task.done()
    host.hangup()
    await host.task


async def test_output_starts_application_mode_and_puts_the_terminal_back_at_the_end():
    host, client = await hosted()
    assert client.raw.startswith(START.encode())
    host.app.exit(0)  # the player quit
    assert await host.task == (0, None)
    assert client.raw.endswith(RESTORE.encode())


async def test_a_resize_reaches_the_app_and_one_written_into_the_input_does_not():
    host, client = await hosted()
    host.resize(100, 30)
    await until(lambda: host.app.size == (100, 30), "the new size")
    host.input(b"\x1b[48;50;200;0;0t")  # an in-band resize report, from the client
    host.input(b"z")
    await until(lambda: "z" in host.app.keys, "the key after it")
    assert host.app.size == (100, 30)
    host.hangup()
    await host.task


async def test_a_flood_of_resizes_is_passed_on_a_few_times_and_the_last_one_last():
    host, client = await hosted(limits=replace(Limits(), resize_every=0.2))
    before = len(host.app.sizes)
    for width in range(40, 240):
        host.resize(width, 24)
    await until(lambda: host.app.size == (239, 24), "the last size")
    assert host.app.sizes[before:] == [(40, 24), (239, 24)]  # the first, then the last
    host.hangup()
    await host.task


async def test_a_full_window_holds_frames_and_sends_them_when_it_opens():
    host, client = await hosted()
    host.pause_output()
    before = len(client.raw)
    host.input(b"q")
    await until(lambda: host.driver.buffered > 0, "a frame held")
    assert len(client.raw) == before
    host.resume_output()
    await until(lambda: client.shows("keys: q"), "the held frame")
    assert host.driver.buffered == 0
    host.hangup()
    await host.task


async def test_a_client_that_never_reads_is_closed_having_cost_a_bounded_buffer():
    host, client = await hosted(limits=replace(Limits(), output_buffer=4096))
    host.pause_output()
    for n in range(200):  # each key redraws the line: far more than 4 KiB in all
        host.input(b"ab"[n % 2:n % 2 + 1])
        await until(lambda: len(host.app.keys) > n or host.task.done(), "the key taken")
        assert host.driver.buffered <= 4096 + 8192  # one frame over, at most
        if host.task.done():
            break
    status, message = await asyncio.wait_for(host.task, WAIT)
    assert (status, message) == (1, NOT_READING)


async def test_a_paste_that_never_ends_is_cut_at_the_limit():
    host, client = await hosted(limits=replace(Limits(), input_burst=1 << 20))
    host.input(b"\x1b[200~")
    chunk = b"y" * 1000
    for _ in range(MAX_PASTE // 1000 + 2):
        host.input(chunk)
    await until(lambda: host.app.pastes, "the paste cut")
    assert MAX_PASTE <= len(host.app.pastes[0]) <= MAX_PASTE + 1000
    host.hangup()
    await host.task


async def test_junk_past_the_limit_ends_that_app_with_one_line():
    host, client = await hosted(limits=replace(Limits(), input_rate=10, input_burst=100,
                                               junk_limit=1000))
    for _ in range(20):
        host.input(b"j" * 100)
    status, message = await asyncio.wait_for(host.task, WAIT)
    assert status == 1 and "too much input" in message


async def test_an_app_that_crashes_is_one_line_for_the_player_and_no_traceback(capfd):
    host, client = await hosted()
    host.input(b"x")
    status, message = await asyncio.wait_for(host.task, WAIT)
    assert (status, message) == (1, CRASHED)
    assert b"Traceback" not in client.raw and b"a bug" not in client.raw
    assert "a bug" in capfd.readouterr().err  # the server's log has it


async def test_an_app_whose_client_left_before_it_started_ends():
    client = Client()
    host = HostedApp(Keys(), client.took)
    host.hangup()
    host.start()
    assert (await asyncio.wait_for(host.task, WAIT))[0] == 129


@pytest.mark.parametrize("idle", [0.3])
async def test_an_idle_client_is_told_and_closed(idle):
    host, client = await hosted(limits=replace(Limits(), idle_seconds=idle))
    status, message = await asyncio.wait_for(host.task, WAIT)
    assert status == 1 and "without a key press" in message
