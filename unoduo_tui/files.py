"""Files opened the careful way: the store's and the settings' only door to the disk.

Headless (no Textual).  A save's folder may hold anything a hostile user put there —
a FIFO, a symlink to ``/dev/zero`` or to someone's notes, a hard link, a 10 GB file —
so every open here:

- never follows a symlink (``O_NOFOLLOW``) and never blocks on a FIFO (``O_NONBLOCK``);
- checks, on the descriptor it opened (``fstat``), that it is a regular file with a
  single link, then reads or writes that descriptor only;
- creates new files with ``O_EXCL`` at mode 0600 (then ``fchmod``, whatever the
  umask), and puts whole files in place by writing a temp name in the same folder,
  ``fsync`` and ``rename``: a file exists only once it is whole;
- reads at most :data:`MAX_FILE` bytes (a 1 M-decision match is 9.3 MB).

Errors are :class:`FileProblem` (an ``OSError`` with a plain message).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

__all__ = ["MAX_FILE", "FILE_MODE", "DIR_MODE", "FileProblem", "open_regular", "read_all",
           "read_regular", "create_new", "put_new", "replace_private", "private_dir",
           "write_all", "fsync_dir", "open_folder", "replace_in"]

MAX_FILE = 64 * 1024 * 1024
FILE_MODE, DIR_MODE = 0o600, 0o700
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class FileProblem(OSError):
    """A file that is not what it should be, or a read or write that failed; ``str()``
    is a plain sentence (``errno`` keeps the cause)."""

    def __init__(self, message: str, code: int = errno.EINVAL) -> None:
        super().__init__(code, message)
        self.message = message

    def __str__(self) -> str:
        return self.message


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def open_regular(path: Path, flags: int, dir_fd: int | None = None) -> int:
    """``path`` opened with ``flags`` (plus no-follow, non-blocking, close-on-exec),
    refused unless it is a regular file with one link; ``dir_fd``: ``path`` is a name
    in that open folder (:func:`open_folder`)."""
    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | _CLOEXEC, FILE_MODE,
                     dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FileProblem(f"{path}: a symbolic link, not a save file (symlinks are "
                              "never followed)", exc.errno) from None
        raise FileProblem(f"{path}: cannot open: {exc.strerror}", exc.errno or 0) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileProblem(f"{path}: {_kind(st.st_mode)}, not a save file")
        if st.st_nlink > 1:
            raise FileProblem(f"{path}: has other hard links; refusing to use it")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_all(fd: int, path: Path, limit: int = MAX_FILE) -> bytes:
    """The whole of an open regular file, from its start (refused past ``limit``)."""
    size = os.fstat(fd).st_size
    if size > limit:
        raise FileProblem(f"{path}: {size} bytes, more than a save file can hold "
                          f"({limit // (1024 * 1024)} MiB)", errno.EFBIG)
    parts, got = [], 0
    while got <= limit:
        chunk = os.pread(fd, min(1 << 20, limit + 1 - got), got)
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
    if got > limit:
        raise FileProblem(f"{path}: grew past {limit // (1024 * 1024)} MiB while read",
                          errno.EFBIG)
    return b"".join(parts)


def read_regular(path: Path, limit: int = MAX_FILE) -> bytes:
    fd = open_regular(path, os.O_RDONLY)
    try:
        return read_all(fd, path, limit)
    finally:
        os.close(fd)


def create_new(path: Path, dir_fd: int | None = None) -> int:
    """A new, empty file at ``path``, mode 0600, open for writing (``FileExistsError``
    when anything — a file, a symlink — is already there)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | _CLOEXEC,
                 FILE_MODE, dir_fd=dir_fd)
    os.fchmod(fd, FILE_MODE)
    return fd


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        if n <= 0:  # pragma: no cover - a write of nothing would loop for ever
            raise OSError(errno.EIO, "the write made no progress")
        view = view[n:]


def fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC)
    except OSError:  # pragma: no cover - a folder we just wrote in
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some filesystems refuse a folder's fsync
        pass
    finally:
        os.close(fd)


def _temp_beside(path: Path, data: bytes) -> Path:
    """``data`` in a new hidden temp file in ``path``'s folder, written and fsynced."""
    for _ in range(100):
        temp = path.with_name(f".{path.name}.{os.urandom(4).hex()}.tmp")
        try:
            fd = create_new(temp)
        except FileExistsError:
            continue
        try:
            write_all(fd, data)
            os.fsync(fd)
        except BaseException:
            os.close(fd)
            temp.unlink(missing_ok=True)
            raise
        os.close(fd)
        return temp
    raise FileProblem(f"{path.parent}: cannot find a free temporary name", errno.EEXIST)


def put_new(path: Path, data: bytes, durable: bool = True) -> None:
    """Create ``path`` holding ``data``, whole or not at all (``FileExistsError`` if
    anything is already at ``path``).  The caller holds the name (its lock)."""
    temp = _temp_beside(path, data)
    try:
        if os.path.lexists(path):
            raise FileExistsError(errno.EEXIST, "already exists", str(path))
        os.rename(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    if durable:
        fsync_dir(path.parent)


def replace_private(path: Path, data: bytes) -> None:
    """Put ``data`` at ``path`` (0600) in one step, replacing a regular file there; a
    symlink or anything else at ``path`` is replaced, never followed."""
    temp = _temp_beside(path, data)
    try:
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def private_dir(path: Path) -> None:
    """Make ``path`` (and its parents) if missing; only a folder made here is set to
    0700 — an existing one (``--save /tmp``) keeps its mode."""
    if path.is_dir():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.mkdir(path, DIR_MODE)
    except FileExistsError:
        if path.is_dir():
            return
        raise
    os.chmod(path, DIR_MODE)  # the umask may have taken bits off


def open_folder(path: Path | str, dir_fd: int | None = None, make: bool = False) -> int:
    """A folder of this user, opened without following a symlink (``make``: made 0700
    first if missing); read and write in it by name with ``dir_fd=`` and nothing can
    swap it for a link to elsewhere.  :class:`FileProblem` when it is a symlink, not a
    folder or someone else's; the caller closes the descriptor."""
    if make:
        try:
            os.mkdir(path, DIR_MODE, dir_fd=dir_fd)
        except FileExistsError:
            pass
        except OSError as exc:
            raise FileProblem(f"{path}: cannot make it: {exc.strerror}", exc.errno or 0) from None
    flags = os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC
    try:
        fd = os.open(path, flags, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise FileProblem(f"{path}: a symbolic link or a file, not a folder (symlinks "
                              "are never followed)", exc.errno) from None
        raise FileProblem(f"{path}: cannot open: {exc.strerror}", exc.errno or 0) from None
    info = os.fstat(fd)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        os.close(fd)
        raise FileProblem(f"{path}: not a folder of this user")
    return fd


def replace_in(folder: int, name: str, data: bytes) -> None:
    """Put ``data`` at ``name`` (0600) in the open ``folder``, in one step: a temp name
    written, fsynced and renamed over it (a symlink there is replaced, never
    followed)."""
    for _ in range(100):
        temp = f".{name}.{os.urandom(4).hex()}.tmp"
        try:
            fd = create_new(Path(temp), dir_fd=folder)
            break
        except FileExistsError:
            continue
    else:
        raise FileProblem(f"{name}: cannot find a free temporary name", errno.EEXIST)
    try:
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        try:
            os.unlink(temp, dir_fd=folder)
        except OSError:
            pass
        raise
