"""Full disks for tests: :class:`Disk` fails ``os.write`` on demand; the
:func:`small_disk` fixture mounts a real 64 KiB tmpfs and :func:`fill` fills it."""

from __future__ import annotations

import errno
import os
import subprocess
import tempfile
from pathlib import Path

import pytest

__all__ = ["Disk", "small_disk", "fill", "quick_retry"]


class Disk:
    """``os.write`` that fails on demand for one descriptor: ``mode`` "fail" raises at
    once, "half" writes half the bytes then raises, "short" writes half and returns
    (the caller's next write then fails)."""

    def __init__(self, monkeypatch, code: int = errno.ENOSPC) -> None:
        self.real = os.write
        self.mode: str | None = None
        self.code = code
        self.failures = 0
        monkeypatch.setattr(os, "write", self.write)

    def write(self, fd, data):
        if self.mode is None or fd <= 2:
            return self.real(fd, data)
        self.failures += 1
        if self.mode in ("half", "short") and len(data) > 1:
            n = self.real(fd, bytes(data[:len(data) // 2]))
            if self.mode == "short":
                self.mode = "fail"  # what is left hits the full disk
                return n
        raise OSError(self.code, os.strerror(self.code))


@pytest.fixture
def quick_retry(monkeypatch):
    """A table's failed save tried again within a few hundredths of a second."""
    from unoduo_tui.table import local

    monkeypatch.setattr(local, "RETRY_FIRST", 0.01)
    monkeypatch.setattr(local, "RETRY_MAX", 0.05)


@pytest.fixture
def small_disk():
    """A 64 KiB tmpfs (we run as root in CI); skipped where mounting is impossible."""
    where = Path(tempfile.mkdtemp(prefix="unoduo-tmpfs-"))
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)],
                              capture_output=True, text=True)
    except OSError as exc:
        where.rmdir()
        pytest.skip(f"cannot run mount: {exc}")
    if done.returncode != 0:
        where.rmdir()
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip() or done.returncode}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
        where.rmdir()


def fill(folder: Path) -> Path:
    """Fill the disk under ``folder`` to its last byte; the file that does it."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\xff" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
        try:
            while True:
                f.write(b"\xff")
        except OSError:
            pass
    return filler
