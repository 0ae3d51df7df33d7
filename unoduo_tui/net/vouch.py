"""The SSH server's word for which key a game process plays as, so that a table's
authority can tell SSH players apart when it counts wrong join codes (:mod:`.guesses`).

Under ``unoduo serve`` every player's game runs as the server's one Unix user and
reaches tables over Unix sockets: the socket's peer uid is the same for everyone,
and a fingerprint a client merely *says* in its hello is worth nothing — anything
that can connect could say any key and get a fresh allowance of guesses per key it
names.  So the server signs what it knows:

- at its start the SSH server makes an ed25519 key (:class:`Voucher`) that lives only
  in its memory — never written, never sent;
- each game process it starts gets, in its environment, the key's fingerprint
  (``UNODUO_KEY``), the server's signature over that fingerprint
  (``UNODUO_KEY_PROOF``) and the public half (``UNODUO_VOUCHER``); a table the game
  hosts inherits the public half from it;
- a game's hello carries its fingerprint and proof (:func:`claim`), and the authority
  believes the fingerprint only if the signature checks out with the public half
  (:class:`Vouches`) and the peer is a process of its own Unix user on a Unix
  socket; otherwise the guesser is the peer's uid (the connection, over TCP).

Why a player cannot forge it: a player controls only the keys they press in their
own session.  Nothing they type reaches the environment or the hello's ``key`` and
``proof`` fields, and no signature for another fingerprint exists anywhere they could
reach: the private half is in the server process alone (the signature is over
``"unoduo guesser v1" + fingerprint``, so it is good for nothing else).  The public
half is public: knowing it signs nothing.  Even a game process taken over (code run
as the server's user, beyond keystrokes) holds only its own proof — it could replay
a proof it was shown by a joiner of a table it hosts; a process that can run code as
the server's user can also read the host key, so that is outside what this guards.
Another local user cannot reach the serve dir's sockets (0700) at all, and on a
plain ``unoduo host`` (no ``UNODUO_VOUCHER``) proofs are ignored and the uid counts.

The server's table service (:mod:`.hall`) checks the same proofs for every hello:
its games reach it over a socket like any table.  Under ``serve --workers`` the many
sessions of a worker share one environment, so each session's proof travels with its
session instead (the relay's ``Open``, the session's store: ``Store.vouched``).  The
keys are asyncssh's (imported only when used)."""

from __future__ import annotations

import base64
import binascii
import os
from typing import Mapping

__all__ = ["Voucher", "Vouches", "claim", "KEY", "PROOF", "VOUCHER"]

KEY, PROOF, VOUCHER = "UNODUO_KEY", "UNODUO_KEY_PROOF", "UNODUO_VOUCHER"
_SIGNED = b"unoduo guesser v1\0"
_ALGORITHM = b"ssh-ed25519"
#: the longest fingerprint and proof a hello may carry (SHA256: 50, proof: ~112)
MAX_KEY, MAX_PROOF = 100, 300


class Voucher:
    """The server's half: a key made now, kept in memory only."""

    def __init__(self) -> None:
        import asyncssh

        self._key = asyncssh.generate_private_key("ssh-ed25519")
        self.public = self._key.export_public_key().decode("ascii").strip()

    def proof(self, fingerprint: str) -> str:
        return base64.b64encode(self._key.sign(_SIGNED + fingerprint.encode(),
                                               _ALGORITHM)).decode("ascii")

    def environment(self, fingerprint: str) -> dict[str, str]:
        """What a game process playing as ``fingerprint`` gets in its environment."""
        return {KEY: fingerprint, PROOF: self.proof(fingerprint), VOUCHER: self.public}


class Vouches:
    """The authority's half: checks a hello's fingerprint against the server's
    signature (``ValueError`` when ``public`` is not a public key)."""

    def __init__(self, public: str) -> None:
        import asyncssh

        try:
            self._key = asyncssh.import_public_key(public)
        except (asyncssh.KeyImportError, ValueError, TypeError) as exc:
            raise ValueError(f"not a public key: {exc}") from None

    @classmethod
    def from_environment(cls, env: Mapping[str, str] = os.environ) -> "Vouches | None":
        """The server's public half this process inherited (None: not under serve, or
        not a key)."""
        public = env.get(VOUCHER)
        if not public:
            return None
        try:
            return cls(public)
        except ValueError:
            return None

    def check(self, key: object, proof: object) -> str | None:
        """``key`` if the server signed it (``proof``), else None."""
        if not (isinstance(key, str) and isinstance(proof, str)
                and 0 < len(key) <= MAX_KEY and 0 < len(proof) <= MAX_PROOF):
            return None
        try:
            signature = base64.b64decode(proof, validate=True)
            good = self._key.verify(_SIGNED + key.encode("utf-8"), signature)
        except (binascii.Error, ValueError, UnicodeError):
            return None
        return key if good else None


def claim(env: Mapping[str, str] = os.environ) -> dict[str, str]:
    """The hello's ``key`` and ``proof`` for the key this game plays as (nothing when
    the server gave none)."""
    key, proof = env.get(KEY), env.get(PROOF)
    return {"key": key, "proof": proof} if key and proof else {}
