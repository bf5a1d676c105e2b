"""Where an output file is written (``atomic_write``, behind every ``--csv``, ``--save`` and plot): a file
is replaced whole; a symbolic link stays a link and its target is written; a stream (a FIFO, a device, a
process's open file as ``/dev/stdout`` names it) is written in place and never replaced."""
from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from ginsim.core.store import atomic_write, is_stream, writable_file


def test_a_link_stays_a_link_and_its_target_is_written(tmp_path: Path) -> None:
    target = tmp_path / "target.csv"
    target.write_text("old\n")
    link = tmp_path / "link.csv"
    link.symlink_to(target.name)
    atomic_write(link, lambda handle: handle.write(b"new\n"))
    assert link.is_symlink() and target.read_text() == "new\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["link.csv", "target.csv"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_written_in_place(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    read: list[bytes] = []
    reader = threading.Thread(target=lambda: read.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert is_stream(fifo) and writable_file(fifo) == fifo
    atomic_write(fifo, lambda handle: handle.write(b"through the pipe\n"))
    reader.join(10)
    assert read == [b"through the pipe\n"] and stat.S_ISFIFO(fifo.lstat().st_mode)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="no /proc here")
def test_a_processs_open_file_is_appended_to_not_replaced(tmp_path: Path) -> None:
    """As ``--csv /dev/stdout > file``: the file the output goes to keeps what was written before."""
    transcript = tmp_path / "transcript.txt"
    transcript.write_text("the game so far\n")
    inode = transcript.stat().st_ino
    descriptor = os.open(transcript, os.O_WRONLY | os.O_APPEND)
    try:
        standard_output = tmp_path / "stdout"  # /dev/stdout is such a link, to /proc/self/fd/1
        standard_output.symlink_to(f"/proc/self/fd/{descriptor}")
        assert is_stream(standard_output) and not is_stream(transcript)
        atomic_write(standard_output, lambda handle: handle.write(b"the record\n"))
    finally:
        os.close(descriptor)
    assert transcript.read_text() == "the game so far\nthe record\n" and transcript.stat().st_ino == inode
    assert standard_output.is_symlink()
