"""Files written whole: a new version is written beside the file and moved over it, so that a
full disk, an error or a killed process leaves the old version, never half of a new one.

The file beside is the real file's (a link is followed, and stays a link), named for this process
(two runs writing one file never share it), and takes the old file's permissions and, where this
process may give it (run as root: `sudo faro-box vision enroll` over a dealer's profile), its owner.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path


def part_of(path: str | Path) -> Path:
    """Where the new version of ``path`` is written until it is whole (the same folder, the
    same suffix: a video writer picks its container by it).

    >>> part = part_of("/tmp/deck.npz")
    >>> part.parent == Path(os.path.realpath("/tmp")), part.name.startswith(".deck."), part.suffix
    (True, True, '.npz')
    """
    real = Path(os.path.realpath(path))
    return real.with_name(f".{real.stem}.{os.getpid()}.part{real.suffix}")


def move_over(part: Path, path: str | Path) -> None:
    """``part`` (part_of's) in the place of ``path``, with the permissions and, where this process
    may give it, the owner ``path`` had; OSError leaves ``path`` as it was and removes ``part``."""
    real = Path(os.path.realpath(path))
    try:
        with contextlib.suppress(FileNotFoundError):
            old = real.stat()
            os.chmod(part, stat.S_IMODE(old.st_mode))
            if (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
                with contextlib.suppress(PermissionError):  # only root gives a file away
                    os.chown(part, old.st_uid, old.st_gid)
        os.replace(part, real)
    except OSError:
        discard(part)
        raise


def discard(part: Path) -> None:
    with contextlib.suppress(OSError):
        part.unlink(missing_ok=True)


def write_whole(path: str | Path, data: bytes) -> None:
    """``data`` as the whole of the file ``path``; OSError leaves the old file as it was."""
    part = part_of(path)
    try:
        part.write_bytes(data)
    except BaseException:  # a full disk, or Ctrl-C part-way: nothing left beside the file
        discard(part)
        raise
    move_over(part, path)
