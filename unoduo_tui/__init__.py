"""unoduo's terminal front end: the Textual app, the ``unoduo`` command, the file store."""

import warnings

__all__ = ["__version__"]

# cryptography 51 deprecates DSA, and asyncssh (which still offers DSA keys) warns of it
# as it is imported: five lines on every `unoduo serve` operator's terminal and in its
# workers' logs, about keys this server never makes or asks for.  Only that warning,
# only from asyncssh, is hidden.
warnings.filterwarnings("ignore", message="DSA is deprecated", module=r"asyncssh(\.|$)")


def __getattr__(name: str) -> str:
    # the engine's version, asked for when it is wanted: importing any module of the
    # front end (the `unoduo` entry point first) does not import the whole engine
    if name == "__version__":
        from engine import __version__

        return __version__
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
