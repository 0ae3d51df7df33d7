"""unoduo's terminal front end: the Textual app, the ``unoduo`` command, the file store."""

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    # the engine's version, asked for when it is wanted: importing any module of the
    # front end (the `unoduo` entry point first) does not import the whole engine
    if name == "__version__":
        from engine import __version__

        return __version__
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
