"""#15: 10,000 fuzzed and mutated frames at a live authority — it answers or drops the
client, never crashes, never changes the match."""

from __future__ import annotations

import random
import socket

import msgpack

from unoduo_tui.net.frames import PROTOCOL, BadFrame, FrameReader, encode

from .helpers import Served, plan

FRAMES = 10_000
PER_CONNECTION = 25
KNOWN = {"welcome", "refused", "presence", "update", "chat"}


def _bases(code: str) -> list[bytes]:
    return [encode(m) for m in (
        {"t": "hello", "code": code, "want": "watch", "delay": 3},
        {"t": "hello", "code": code, "want": "play", "name": "Eve", "token": "x" * 32},
        {"t": "act", "text": "play R5 uno"}, {"t": "act", "text": "pass"},
        {"t": "chat", "text": "gg"}, {"t": "hold", "on": False},
        {"t": "nope", "x": [1, {"y": None}]},
    )] + [msgpack.packb({"v": PROTOCOL, "t": "act", "text": ["nested"] * 3})]


def _mutate(rng: random.Random, frame: bytes) -> bytes:
    data = bytearray(frame)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(7)
        if op == 0 and data:  # flip a byte
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        elif op == 1:  # insert bytes
            at = rng.randrange(len(data) + 1)
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif op == 2 and len(data) > 4:  # delete a run
            at = rng.randrange(4, len(data))
            del data[at:at + rng.randint(1, 6)]
        elif op == 3:  # a length that lies
            size = rng.choice([0, 1, 2**20, 2**20 + 1, 2**32 - 1,
                               max(0, len(data) - 4 + rng.randint(-3, 3))])
            data[:4] = size.to_bytes(4, "big")
        elif op == 4:  # a body that is well-formed msgpack of the wrong shape
            body = msgpack.packb(rng.choice([[1, 2], "hello", None, {"v": PROTOCOL},
                                             {"v": PROTOCOL, "t": 5}, {"v": 2, "t": "act"},
                                             {"v": PROTOCOL, "t": "act", "text": None},
                                             {"v": PROTOCOL, "t": "hello", 1: 2}]),
                                 strict_types=False)
            data = bytearray(len(body).to_bytes(4, "big") + body)
        elif op == 5:  # an extension type
            body = msgpack.packb({"v": PROTOCOL, "t": "act",
                                  "text": msgpack.ExtType(5, b"xx")})
            data = bytearray(len(body).to_bytes(4, "big") + body)
        else:  # keep it valid: the next frames follow a good one
            pass
    return bytes(data)


def test_ten_thousand_mutated_frames_change_nothing_and_crash_nothing():
    served = Served(plan(seed=21))
    errors: list = []
    served.loop.call_soon_threadsafe(served.loop.set_exception_handler,
                                     lambda loop, ctx: errors.append(ctx))
    served.authority.clock = iter(range(0, 10**12, 10_000)).__next__  # lock-outs pass
    try:
        a, b = served.client(), served.client()  # every seat taken: fuzzers cannot play
        log = list(served.table.match.actions)
        rng = random.Random(15)
        bases = _bases(served.code)
        sent = answered = dropped = 0
        while sent < FRAMES:
            sock = served.raw()
            frames = [bases[0] if rng.random() < 0.7 else _mutate(rng, bases[0])]
            frames += [_mutate(rng, rng.choice(bases)) if rng.random() < 0.2
                       else rng.choice(bases) for _ in range(PER_CONNECTION - 1)]
            try:
                for frame in frames:
                    sock.sendall(frame)
                    sent += 1
                sock.shutdown(socket.SHUT_WR)
            except OSError:  # dropped mid-way: the authority's right
                pass
            reader, got = FrameReader(), []
            try:
                while chunk := sock.recv(1 << 16):  # until the authority closes it
                    got += reader.feed(chunk)
            except ConnectionResetError:
                pass
            except BadFrame as exc:  # pragma: no cover - the authority sent garbage
                raise AssertionError(f"the authority sent a bad frame: {exc}") from None
            sock.close()
            assert all(m["t"] in KNOWN for m in got), got
            answered += bool(got)
            dropped += not got
        assert errors == []
        assert served.table.match.actions == log  # the match is unchanged
        assert answered and dropped  # both outcomes were exercised
        assert a.table.closed_reason is None and b.table.closed_reason is None
        # and it still plays
        seat = served.state()[0]
        c = a if seat == 0 else b
        u = c.wait(lambda u: u.views[seat].legal_actions, "the seat's turn")
        c.table.act(seat, str(u.views[seat].legal_actions[0]))
        c.wait(lambda u: u.views[seat].event_count > len(served.table.match.events) - 5
               and served.table.match.actions != log, "the move")
    finally:
        served.stop()
