"""Join codes, where a table's socket lives, and what a restarted authority takes back.

**The code** (``tide-wolf-fern-1742``): three words from :data:`WORDS` (264) and a
number 0000–9999: 264³ × 10,000 ≈ 1.84 × 10¹¹ codes, unique as a whole among the
tables open (:func:`new_code` is asked again on a clash).  A code from before #22
(``tide-wolf-1742``, two words; ``tide-wolf-17`` before four-digit numbers) is still
taken, kept by a table hosted then and resumed.

A table of its own process (``unoduo host`` from a plain terminal) listens on a
socket named by the code's :func:`public_part` — all its words but the last (the
first word of an old code) — visible to every local user in ``ls``; the last word and
the number are its secret: 264 × 10,000 = 2,640,000 possibilities.  Whoever guesses,
and however many they are, such a table compares at most :data:`~.guesses.PER_HOUR` =
100 wrong codes an hour (:mod:`.guesses`; one guesser alone gets 3, then waits 30 s,
60 s … up to an hour after each).  Trying codes without repeats finds one after
(2,640,000 + 1) / 2 ≈ 1,320,000 tries on average: 1,320,000 / 100 = 13,200 hours ≈ 1.5
years (a year is 8,766 hours), with a chance of 100 / 2,640,000 = 1 in 26,400 each
hour.  Meanwhile nobody's wrong codes keep out a player with the right one, unless 60
wrong codes an hour and 40 guessers new to the table come together (:mod:`.guesses`).
An old two-word code with two digits has 26,400 possibilities: 132 hours at the cap.

The tables of ``unoduo serve`` are all behind one door, the server's table service
(:mod:`.hall`): nothing of a code is visible, and a hello's whole code is looked up
among all its tables — so the limits are the service's, over all its tables:
:data:`~.hall.HALL_PER_HOUR` = 1,000 wrong codes an hour in all (the last
:data:`~.hall.HALL_RESERVED` = 400 kept for guessers new to the service), 3 per
guesser before its lock-out.  With 10,000 tables open, one compared guess hits one of
them with a chance of 10,000 / 1.84 × 10¹¹ = 1 in 18.4 million: at the cap that is at
most 1 in 18,400 an hour, ≈ 9,200 hours ≈ 1 year on average to find any one table.

**The socket** is ``<socket dir>/<first word>.sock``, mode 0666 (connecting needs
write permission, and anyone holding the code may join).  The socket dir is
``$UNODUO_SOCKET_DIR``, else ``/tmp/unoduo-tables``: created 1777 (sticky, like
``/tmp``: no user can remove or replace another's socket); an existing one is used
only if it is a real directory (not a symlink), sticky, and owned by root or by us
(an attacker's directory could swap sockets to collect codes).  Two such tables never
share a public part: the host binds the name first and picks another code when it is
taken.

**The table file** ``<data dir>/tables/<match id>.json`` (0600, beside the saves in
the host's 0700 data dir) keeps the code and the seat tokens, so ``unoduo host
--resume ID`` (or ``unoduo resume ID`` for a hosted match) takes the same code and
tokens back after the authority died.  A joiner keeps its token in its own data dir
(``joined/<code>.json``; ``joined/<first word>.json`` for an old code) so ``unoduo join CODE`` gets the same seat back.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import stat
from pathlib import Path
from typing import Any, Mapping

from ..files import private_dir, read_regular, replace_private

__all__ = ["MAX_DELAY", "WORDS", "NUMBERS", "new_code", "parse_code", "public_part",
           "socket_dir", "socket_path", "hall_path", "HALL", "TableFile", "load_tokens",
           "save_token", "new_token", "joined_path"]

WORDS = tuple("""
able acid acorn amber anchor apple arch arrow ash aspen atlas aunt autumn axis badge
bag bake bamboo banjo barn basil bay beach bean bear bee bell berry birch bird bison
blade bloom boat bolt bone book boot bramble brass bread brick bridge brook broom
bunny cabin cable cactus cake camel candle canoe canyon cape card cargo carrot castle
cedar chalk charm cherry chess chime cider cinder clay cliff cloud clover coast cobalt
cocoa comet coral cotton cove crane creek crow crown cube cup daisy dawn deer delta
desert dew dingo dock dove dragon drum dune dust eagle earth echo elm ember emu fable
falcon fern ferry fig finch fjord flame flint flute fog forest fox frost garden gecko
gem ginger glade glass glen goat gold goose grain grape grove gull harbor hare hawk
hazel heath hedge heron hill honey horn husky ice iris island ivy jade jam jay jewel
kale kayak kelp kettle kite koala lake lamp lark lava leaf lemon lily lime linen lion
llama lotus lynx maple marsh meadow melon mesa mint mist moon moose moss moth mule
nest newt nova oak oasis ocean olive onyx orbit orca otter owl palm panda paper peach
pearl pebble pepper pine plum pond poppy prism quail quartz quill rabbit rain raven
reed reef ridge river robin rock rose ruby sage salt sand seal shell shore silk silver
sky slate sloth snow sparrow spruce star stone storm stream sun swan thorn thyme tide
tiger timber toad topaz trail tulip tundra valley vine violet walnut wave whale wheat
willow wind wolf wren yak yarrow zebra zinc
""".split())

_CODE = re.compile(r"([a-z]+)-([a-z]+)-([a-z]+)-([0-9]{4})")
_OLD_CODE = re.compile(r"([a-z]+)-([a-z]+)-([0-9]{4}|[0-9]{2})")  # before #22
#: how many numbers a new code may end with (0000–9999; see the module doc)
NUMBERS = 10_000

#: the most decisions a watcher may ask to see the table late by
MAX_DELAY = 50

#: seat tokens a data dir keeps for one table (a hello offers at most 8)
MAX_KEPT = 8

#: the environment variable naming the server's table service's socket (:mod:`.hall`):
#: set, every code is looked up there
HALL = "UNODUO_HALL"

#: where sockets live unless $UNODUO_SOCKET_DIR says otherwise
DEFAULT_SOCKET_DIR = "/tmp/unoduo-tables"


def new_code() -> str:
    """A fresh join code (``secrets``: unpredictable)."""
    words = "-".join(secrets.choice(WORDS) for _ in range(3))
    return f"{words}-{secrets.randbelow(NUMBERS):04d}"


def parse_code(text: object) -> str:
    """A code as typed (case and spaces forgiven), or ``ValueError`` saying why not."""
    code = str(text).strip().lower().replace(" ", "-")
    match = _CODE.fullmatch(code) or _OLD_CODE.fullmatch(code)
    if not match or any(word not in WORDS for word in match.groups()[:-1]):
        raise ValueError(f"{str(text)[:40]!r} is not a join code (three words and a "
                         "number, like tide-wolf-fern-1742)")
    return code


def public_part(code: str) -> str:
    """What names a table of its own process (its socket): the code's words but the
    last (``tide-wolf`` of ``tide-wolf-fern-1742``; ``tide`` of an old
    ``tide-wolf-1742``)."""
    words = code.split("-")[:-1]
    return "-".join(words[:-1]) if len(words) > 2 else words[0]


def hall_path(environ: Mapping[str, str] | None = None) -> Path | None:
    """The server's table service's socket (``$UNODUO_HALL``), if this game runs
    under ``unoduo serve``."""
    value = (os.environ if environ is None else environ).get(HALL)
    return Path(value) if value else None


def socket_dir(explicit: str | os.PathLike | None = None) -> Path:
    """The shared socket dir, made 1777 if missing; ``ValueError`` when the one there is
    not safe to use (see the module doc)."""
    path = Path(explicit or os.environ.get("UNODUO_SOCKET_DIR") or DEFAULT_SOCKET_DIR)
    try:
        os.mkdir(path, 0o1777)
        os.chmod(path, 0o1777)  # the umask took bits off
    except FileExistsError:
        pass
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode):
        raise ValueError(f"{path} is not a folder (a symlink?): tables cannot use it")
    if info.st_uid not in (0, os.getuid()):
        raise ValueError(f"{path} belongs to another user: tables cannot trust it "
                         "(set UNODUO_SOCKET_DIR to a folder of your own)")
    if info.st_uid != os.getuid() and not info.st_mode & stat.S_ISVTX:
        raise ValueError(f"{path} is not sticky: tables cannot trust it")
    return path


def socket_path(code: str, folder: str | os.PathLike | None = None) -> Path:
    """Where the table with ``code`` listens: the server's table service under
    ``unoduo serve`` (:func:`hall_path`), else its own socket, named by the code's
    :func:`public_part`."""
    hall = hall_path() if folder is None else None
    if hall is not None:
        return hall
    return socket_dir(folder) / f"{public_part(code)}.sock"


def new_token() -> str:
    return secrets.token_urlsafe(24)


class TableFile:
    """A hosted match's code and seat tokens, 0600 in the host's data dir."""

    def __init__(self, data_dir: Path, match_id: str) -> None:
        self.path = Path(data_dir) / "tables" / f"{match_id}.json"

    def load(self) -> dict[str, Any] | None:
        """``{"code": str, "tokens": {seat: token}, "names": {seat: name}}`` or None."""
        try:
            raw = json.loads(read_regular(self.path, 1 << 16))
            code = parse_code(raw["code"])
            tokens = {int(s): str(t) for s, t in dict(raw["tokens"]).items()}
            names = {int(s): str(n) for s, n in dict(raw.get("names", {})).items()}
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return {"code": code, "tokens": tokens, "names": names}

    def save(self, code: str, tokens: dict[int, str], names: dict[int, str]) -> None:
        private_dir(self.path.parent)
        data = {"code": code, "tokens": {str(s): t for s, t in tokens.items()},
                "names": {str(s): n for s, n in names.items()}}
        replace_private(self.path, json.dumps(data).encode())


def joined_path(data_dir: Path, code: str) -> Path:
    name = code if code.count("-") == 3 else code.split("-", 1)[0]  # an old code: its word
    return Path(data_dir) / "joined" / f"{name}.json"


def load_tokens(data_dir: Path, code: str) -> list[str]:
    """The seat tokens this data dir holds for the table with ``code``, the one got
    last first (a host's and a joiner's, when one account plays two seats)."""
    try:
        raw = json.loads(read_regular(joined_path(data_dir, code), 1 << 12))
        if raw.get("code") == code:
            tokens = raw.get("tokens", [raw.get("token")])  # one "token": before #21
            return [t for t in tokens if isinstance(t, str)][:MAX_KEPT]
    except (OSError, ValueError, AttributeError, TypeError):
        pass
    return []


def save_token(data_dir: Path, code: str, token: str) -> None:
    """Keep ``token`` first among this data dir's tokens for ``code``."""
    path = joined_path(data_dir, code)
    private_dir(Path(data_dir))
    private_dir(path.parent)
    tokens = [token, *(t for t in load_tokens(data_dir, code) if t != token)][:MAX_KEPT]
    replace_private(path, json.dumps({"code": code, "tokens": tokens}).encode())
