"""Run directories: one part per finished chunk, written atomically, plus the run's identity.

A run directory holds ``_run.json`` (what was run: kind, rules, players, seed, size, chunk size, version)
and one part per finished chunk, ``part-FIRST.parquet`` (records) or ``part-FIRST.npz`` (streamed
counts), FIRST being the index of the chunk's first item. Each part carries the run's identity and its
range (first item and count) and is written to a hidden temporary file, then renamed into place, so a
crash or ``kill -9`` never leaves a half-written part, and running the same call again plays only the
missing chunks; the same run with a larger size grows it (its whole chunks kept: an item does not depend
on the run's size), and never shrinks. A directory that holds a different run is refused, never
overwritten.

A run claims its directory for as long as it writes there (an exclusive lock on the hidden file
``.lock``, which the system drops when the process ends, however it ends): a second run into the
same directory at the same time is refused, so two runs never mix their parts.

Every read checks every part against the run: a file of the run's kind, with the run's identity,
holding exactly the chunk its name says (Parquet parts also carry page checksums); the parts must
cover the run's items once each. Anything else is a :class:`RunDirectoryError` naming the part, and
opening the run again with ``repair=True`` moves the damaged parts aside and plays their chunks again.

>>> import tempfile, pandas as pd
>>> folder = tempfile.mkdtemp()
>>> with RunDirectory.open(folder, {"kind": "hands", "seed": 1, "size": 10, "chunk_size": 5}) as run:
...     run.write_frame(0, pd.DataFrame({"hand": range(5)}))
...     sorted(run.finished())
[0]
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import secrets
import stat
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, BinaryIO, ClassVar, Final, cast

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from gincore.errors import InputError
from ginsim._version import __version__
from ginsim.core.checks import as_integer

try:
    import fcntl
except ImportError:  # no flock (Windows): the lock file is created exclusively instead
    fcntl = None  # type: ignore[assignment]

__all__ = ["RUN_FILE", "ClaimedDirectory", "DirectoryLock", "RunDirectory", "RunDirectoryError", "atomic_write",
           "differences", "is_stream", "writable_file"]

RUN_FILE: Final = "_run.json"
LOCK_FILE: Final = ".lock"
METADATA_KEY: Final = b"ginsim"
"""The Parquet metadata key of the run's identity in every part."""
RANGE_KEY: Final = b"ginsim.range"
"""The Parquet metadata key of a part's range and content: ``{"first": ..., "count": ..., "rows": ...,
"digest": ...}`` (its first item, its number of items, its number of rows: two per match with duplicate
deals, and the SHA-256 of its columns and values as read back, which no damage to the file, its footer
included, leaves unchanged)."""
ARCHIVE_ENTRY: Final = "_ginsim"
"""The entry of a numpy archive part holding ``{"identity": ..., "first": ..., "count": ...}`` as JSON."""
SUFFIXES: Final = {"parquet": "records (Parquet)", "npz": "counts (numpy archive)"}
_PART_NAME: Final = re.compile(r"part-(\d+)\.([a-z]+)")
_REPAIR: Final = "run the same command again with --repair (repair=True in Python) to play its chunk again"


class RunDirectoryError(InputError):
    """A run directory that cannot be used: another run's, not a run directory, in use, or damaged."""


def is_stream(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is written in place rather than replaced: a device, a FIFO or a socket
    (``/dev/null``), or an open file of a process (``/dev/stdout``, ``/proc/self/fd/1``, ``/dev/fd/1``),
    whatever that file is.

    >>> is_stream("/dev/null"), is_stream("/dev/stdout"), is_stream("/tmp")
    (True, True, False)
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    if stat.S_ISDIR(mode):
        return False
    if not stat.S_ISREG(mode):
        return True
    current = Path(os.path.abspath(path))
    for _ in range(40):  # a chain of symbolic links, followed one step at a time
        if current.parts[1:2] == ("proc",) or current.parts[1:3] == ("dev", "fd"):
            return True
        if not current.is_symlink():
            return False
        current = Path(os.path.abspath(current.parent / os.readlink(current)))
    return False


def atomic_write(path: Path, write: Callable[[BinaryIO], Any]) -> None:
    """Write a file whole or not at all: ``write(binary file)`` fills a hidden file beside the file
    ``path`` names (through a symbolic link, its target, so that the link stays), which is then renamed
    into place. The file gets the usual permissions (0666 less the umask). A stream (:func:`is_stream`:
    ``/dev/stdout``, a device, a FIFO) is written in place, never replaced.

    An error of the file system names ``path``, never the hidden file.
    """
    if is_stream(path):
        with open(path, "ab") as handle:  # appended: /dev/stdout sent to a file keeps what is there
            write(handle)
        return
    given, path = path, Path(os.path.realpath(path))
    temporary = path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"
    try:
        # Made inside the block that removes it: Python runs a signal handler (Ctrl-C, SIGTERM during a
        # run) as the call that made the file returns, and the file must not stay behind.
        try:
            with open(temporary, "xb") as handle:
                write(handle)
            os.replace(temporary, path)
        except BaseException as error:
            if not (isinstance(error, FileExistsError) and Path(error.filename or "") == temporary):  # not ours
                temporary.unlink(missing_ok=True)
            raise
    except OSError as error:
        if error.filename is None or Path(error.filename) != temporary:
            raise
        raise type(error)(error.errno, error.strerror, os.fspath(given)) from None


def writable_file(path: str | os.PathLike[str]) -> Path:
    """The file that writing ``path`` replaces (through a symbolic link, its target, so that the link
    stays), checked to be writable now: not a directory, in a directory that exists and takes a new
    file (a hidden one is made there and removed), and not a read-only file. ``InputError`` names the
    problem, so that a long piece of work is not lost to a path that was never writable.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> writable_file(folder / "game.json") == folder.resolve() / "game.json"
    True
    >>> writable_file(folder / "nowhere" / "game.json")
    Traceback (most recent call last):
    ...
    gincore.errors.InputError: cannot write .../nowhere/game.json: no directory .../nowhere
    """
    given = Path(path)
    if is_stream(given):
        if not os.access(given, os.W_OK):
            raise InputError(f"cannot write {given}: permission denied")
        return given
    target = Path(os.path.realpath(given))
    if target.is_dir():
        raise InputError(f"{given} is a directory, not a file")
    if not target.parent.is_dir():
        why = f"{given.parent} is not a directory" if target.parent.exists() else f"no directory {given.parent}"
        raise InputError(f"cannot write {given}: {why}")
    if target.exists() and not target.stat().st_mode & 0o222:
        raise InputError(f"{given} is read-only: it is not replaced (make it writable, or choose another file)")
    probe = target.parent / f".{target.name}.{secrets.token_hex(4)}.probe"
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        probe.unlink()
    except OSError as error:
        raise InputError(f"cannot write {given}: {error.strerror or error}") from None
    return target


class _ReadOnly(RunDirectoryError):
    """A directory that may not be written: read-only storage, or another user's."""


class DirectoryLock:
    """An exclusive claim on a directory: a lock on its hidden ``.lock`` file, held until released
    (and dropped by the system when the process ends, so a killed run leaves nothing claimed)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LOCK_FILE
        self.descriptor: int | None = None
        try:
            while self.descriptor is None:
                self.descriptor = self._take()
        except OSError as error:
            kind = _ReadOnly if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS) else RunDirectoryError
            raise kind(f"cannot claim {folder} for the run: {error.strerror or error}") from None

    def _take(self) -> int | None:
        """The locked descriptor of the lock file, or None when the file was replaced meanwhile."""
        if fcntl is None:
            try:
                return os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o666)
            except FileExistsError:
                raise RunDirectoryError(f"{self.path.parent} is in use by another run (delete {self.path} if no "
                                        "run is writing there)") from None
        descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            # The run that held it may have removed the file between our open and our lock.
            if os.path.samestat(os.fstat(descriptor), os.stat(self.path)):
                return descriptor
        except BlockingIOError:
            os.close(descriptor)
            raise RunDirectoryError(f"{self.path.parent} is in use by another run writing there now: wait for it "
                                    "to finish, or choose another directory") from None
        except FileNotFoundError:
            pass
        os.close(descriptor)
        return None

    def release(self) -> None:
        if self.descriptor is not None:
            self.path.unlink(missing_ok=True)  # while still held, so no other run locks a removed file
            os.close(self.descriptor)
            self.descriptor = None

    def __del__(self) -> None:  # a run directory dropped without being closed gives up its claim
        self.release()


def _in_use(folder: Path) -> bool:
    """Whether a run holds the directory now."""
    if fcntl is None:
        return (folder / LOCK_FILE).exists()
    try:
        descriptor = os.open(folder / LOCK_FILE, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(descriptor)


class ClaimedDirectory:
    """A directory that holds one identity: a manifest file (``MANIFEST``, its ``format`` ``FORMAT``) that a
    new claim writes into an empty directory and a later one compares with its own, refusing, in one line
    that names the differences, a directory holding another identity or anything else; a
    :class:`DirectoryLock` while it is written. Run directories (:class:`RunDirectory`), sweep directories
    and training directories specialise it with their file, their words and what their manifest holds.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with ClaimedDirectory.claimed(folder, {"kind": "hands", "seed": 1}) as manifest:
    ...     manifest["seed"]
    1
    >>> with ClaimedDirectory.claimed(folder, {"kind": "hands", "seed": 2}):  # doctest: +ELLIPSIS
    ...     pass
    Traceback (most recent call last):
        ...
    ginsim.core.store.RunDirectoryError: ... holds a different run: seed 1 (not 2); choose another directory ...
    """

    MANIFEST: ClassVar[str] = RUN_FILE
    FORMAT: ClassVar[str] = "ginsim-run"
    NOUN: ClassVar[str] = "run"
    """What the directory holds, in messages (``holds a different run``)."""
    DIRECTORY: ClassVar[str] = "run"
    """The kind of directory, in messages (``not a ginsim run directory``)."""
    ADVICE: ClassVar[str] = "choose another directory or delete it"
    """What to do with a directory that holds another identity."""
    GROWS: ClassVar[bool] = False
    """Whether the identity stored may grow (the same but for a larger ``size``; see ``growing``)."""

    @classmethod
    def prepare(cls, path: str | os.PathLike[str]) -> Path:
        """The directory at ``path``, created if it does not exist; refused if it is something else."""
        folder = Path(path)
        if folder.exists() and not folder.is_dir():
            raise RunDirectoryError(f"{folder} exists and is not a directory")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise RunDirectoryError(f"cannot create {folder}: {error.strerror or error}") from None
        return folder

    @classmethod
    def new_manifest(cls, identity: Mapping[str, Any]) -> dict[str, Any]:
        """The manifest a new claim of ``identity`` writes."""
        return {"format": cls.FORMAT, **identity}

    @classmethod
    def resumed(cls, theirs: Mapping[str, Any], mine: dict[str, Any]) -> dict[str, Any]:
        """The manifest of a claim that found its own identity stored as ``theirs``."""
        return mine

    @classmethod
    def read_manifest(cls, folder: Path) -> dict[str, Any]:
        """The manifest stored in ``folder``, checked to be one of this kind."""
        stored = folder / cls.MANIFEST
        try:
            record = json.loads(stored.read_text())
        except (OSError, ValueError) as error:
            raise RunDirectoryError(f"{stored} is damaged: {_first_line(error)}") from None
        if not isinstance(record, dict) or record.get("format") != cls.FORMAT:
            raise RunDirectoryError(f"{stored} does not describe a ginsim {cls.NOUN}")
        return record

    @classmethod
    def claim_manifest(cls, folder: Path, identity: Mapping[str, Any]) -> dict[str, Any]:
        """The manifest of ``identity`` in ``folder``: compared with the one stored there (a different one
        refused, naming the differences), or written into an empty directory (one holding other files
        refused)."""
        mine = cls.new_manifest(identity)
        if (folder / cls.MANIFEST).exists():
            theirs = cls.read_manifest(folder)
            if cls.GROWS and theirs.get("size") != mine.get("size") and not differences(theirs, mine, _GROWS):
                theirs = cls._grown(folder, theirs, mine)
            found = differences(theirs, mine)
            if found:
                raise RunDirectoryError(f"{folder} holds a different {cls.NOUN}: {found}; {cls.ADVICE}")
            return cls.resumed(theirs, mine)
        if any(not entry.name.startswith(".") for entry in folder.iterdir()):
            raise RunDirectoryError(f"{folder} is not empty and is not a ginsim {cls.DIRECTORY} directory")
        atomic_write(folder / cls.MANIFEST, lambda handle: handle.write(json.dumps(mine, indent=2).encode()))
        return mine

    @classmethod
    def _grown(cls, folder: Path, theirs: dict[str, Any], mine: Mapping[str, Any]) -> dict[str, Any]:
        """The stored identity grown to ``mine``'s larger size, written; a smaller size is refused."""
        if theirs["size"] > mine["size"]:
            raise RunDirectoryError(f"{folder} holds a larger {cls.NOUN}: size {theirs['size']:,} (not "
                                    f"{mine['size']:,}); a {cls.NOUN} grows but never shrinks: ask for as many or "
                                    "more, or choose another directory")
        cls.growing(folder, theirs)
        grown = {**theirs, "size": mine["size"]}
        atomic_write(folder / cls.MANIFEST, lambda handle: handle.write(json.dumps(grown, indent=2).encode()))
        return grown

    @classmethod
    def growing(cls, folder: Path, smaller: Mapping[str, Any]) -> None:
        """What the directory does before its identity grows from ``smaller`` (nothing here)."""

    @classmethod
    @contextlib.contextmanager
    def claimed(cls, path: str | os.PathLike[str], identity: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
        """Within the block, the directory at ``path`` locked and holding ``identity`` (its manifest)."""
        folder = cls.prepare(path)
        lock = DirectoryLock(folder)
        try:
            yield cls.claim_manifest(folder, identity)
        finally:
            lock.release()


@dataclass(frozen=True)
class RunDirectory(ClaimedDirectory):
    """A run directory bound to one run's identity (see the module docstring).

    Opened for writing it holds the directory's claim until :meth:`close` (or the end of a ``with``
    block); read, it holds nothing.
    """

    path: Path
    identity: Mapping[str, Any]
    _lock: DirectoryLock | None = field(default=None, compare=False, repr=False)
    moved_aside: tuple[str, ...] = field(default=(), compare=False)
    """The hidden names the damaged parts were moved to when the run was opened with ``repair``."""
    GROWS: ClassVar[bool] = True

    @classmethod
    def open(cls, path: str | os.PathLike[str], identity: Mapping[str, Any], *,
             repair: bool = False) -> RunDirectory:
        """Claim the directory for a new run, or to resume the same run, and check what it holds.

        Raises ``RunDirectoryError`` when it holds another run, files that are not a run's, a damaged
        or foreign part (unless ``repair``: then such parts are moved aside, see :meth:`moved_aside`),
        or when another run is writing there.
        """
        folder = cls.prepare(path)
        try:
            lock = DirectoryLock(folder)
        except _ReadOnly as refused:
            return cls._finished(folder, identity, repair, str(refused))
        try:
            record = cls.claim_manifest(folder, identity)
            return cls(folder, record, lock, cls(folder, record)._check_parts(repair))
        except BaseException:
            lock.release()
            raise

    @classmethod
    def growing(cls, folder: Path, smaller: Mapping[str, Any]) -> None:
        """Items do not depend on the run's size, so every whole chunk kept is the grown run's too; its last
        chunk, when the smaller run cut it short, is dropped, to be played again whole (its items the same)."""
        kept = cls(folder, smaller)
        last = (kept.chunk_count() - 1) * kept.chunk_size
        if kept.chunk_length(last) < kept.chunk_size:
            for suffix in SUFFIXES:
                kept._part(last, suffix).unlink(missing_ok=True)

    @classmethod
    def _finished(cls, folder: Path, identity: Mapping[str, Any], repair: bool, refused: str) -> RunDirectory:
        """The same run, finished, in a directory that may not be written (an archived or shared study):
        read as it is, since it needs no write; a run with chunks still to play, or to repair, does."""
        if not (folder / RUN_FILE).exists():
            raise RunDirectoryError(refused)
        record = cls.claim_manifest(folder, identity)  # the same run's (it exists: nothing is written)
        run = cls(folder, record)
        run._check_parts(repair=False)
        missing = run.chunk_count() - len(run.finished())
        if missing or repair:
            needs = f"{missing:,} of its {run.chunk_count():,} chunks are still to play" if missing else \
                "--repair moves parts aside"
            raise RunDirectoryError(f"{refused}; {needs}, which needs a directory that may be written")
        return run

    @classmethod
    def new_manifest(cls, identity: Mapping[str, Any]) -> dict[str, Any]:
        """The run's identity as ``_run.json`` holds it, with the version of ginsim that starts it."""
        return {**super().new_manifest(identity), "version": __version__}

    @classmethod
    def resumed(cls, theirs: Mapping[str, Any], mine: dict[str, Any]) -> dict[str, Any]:
        """The identity of a resumed run keeps the version that started it."""
        return {**mine, "version": theirs.get("version", __version__)}

    @classmethod
    def read_manifest(cls, folder: Path) -> dict[str, Any]:
        """``_run.json``, with every field the run layer reads checked (the kind and the sizes required)."""
        record = super().read_manifest(folder)
        stored = folder / cls.MANIFEST
        for name, (check, expected) in _IDENTITY_FIELDS.items():
            required = name in ("kind", "size", "chunk_size")
            if (name in record or required) and not check(record.get(name)):
                raise RunDirectoryError(f"{stored} is damaged: its {name} is {record.get(name)!r}, not {expected}")
        return record

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> RunDirectory:
        """An existing run directory, for reading its results."""
        folder = Path(path)
        if not folder.is_dir():
            raise RunDirectoryError(f"{folder} is not a directory")
        if not (folder / RUN_FILE).exists():
            raise RunDirectoryError(f"{folder} is not a ginsim run directory (no {RUN_FILE})")
        return cls(folder, cls.read_manifest(folder))

    def close(self) -> None:
        """Give up the claim on the directory (a directory only read holds none)."""
        if self._lock is not None:
            self._lock.release()

    def __enter__(self) -> RunDirectory:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    @property
    def size(self) -> int:
        return int(self.identity["size"])

    @property
    def chunk_size(self) -> int:
        return int(self.identity["chunk_size"])

    def chunk_count(self) -> int:
        """The number of chunks the whole run has."""
        return -(-self.size // self.chunk_size)

    def chunk_length(self, first: int) -> int:
        """The number of items of the chunk starting at ``first``."""
        return min(self.chunk_size, self.size - first)

    def _part(self, first: int, suffix: str) -> Path:
        return self.path / f"part-{first:015d}.{suffix}"

    def parts(self) -> dict[int, Path]:
        """Every part by the first index of its chunk, its name checked: a chunk of this run, one part
        per chunk, a known kind of part, and all parts of one kind."""
        found: dict[int, Path] = {}
        kinds: set[str] = set()
        for entry in self.path.iterdir():
            match = _PART_NAME.fullmatch(entry.name)
            if match is None:
                if entry.name.startswith("part-"):
                    raise RunDirectoryError(f"{entry} is not a part of a run (parts are named part-FIRST.parquet "
                                            "or part-FIRST.npz): move it out of the directory")
                continue
            first, suffix = int(match[1]), match[2]
            if suffix not in SUFFIXES:
                raise RunDirectoryError(f"{entry} is not a part of a run (a part is a .parquet or .npz file): "
                                        "move it out of the directory")
            if first % self.chunk_size or first >= self.size:
                raise RunDirectoryError(f"{entry} is not a chunk of this run (its chunks start at multiples of "
                                        f"{self.chunk_size:,} below {self.size:,}): move it out of the directory")
            if first in found:
                raise RunDirectoryError(f"{self.path} holds two parts for the chunk at {first:,}: {found[first].name} "
                                        f"and {entry.name}; move the wrong one out of the directory")
            found[first] = entry
            kinds.add(suffix)
        if len(kinds) > 1:
            raise RunDirectoryError(f"{self.path} holds parts of two kinds (both .parquet and .npz): one run writes "
                                    "one kind; move the foreign ones out of the directory")
        return found

    def finished(self) -> set[int]:
        """The first index of every chunk already written."""
        return set(self.parts())

    def _check_parts(self, repair: bool) -> tuple[str, ...]:
        """Check every part's identity and range (with ``repair``, every part whole, moving the bad
        ones aside); the hidden names of the parts moved aside."""
        moved: list[str] = []
        for first, part in sorted(self.parts().items()):
            try:
                self._read_part(first, part, whole=repair)
            except RunDirectoryError:
                if not repair:
                    raise
                aside = part.with_name(f".{part.name}.{secrets.token_hex(4)}.damaged")
                os.replace(part, aside)
                moved.append(aside.name)
        return tuple(moved)

    def write_frame(self, first: int, frame: pd.DataFrame) -> None:
        """Write the chunk starting at ``first`` as a Parquet part carrying the run's identity and range."""
        table = pa.Table.from_pandas(frame, preserve_index=False)
        metadata = dict(table.schema.metadata or {})
        metadata[METADATA_KEY] = json.dumps(dict(self.identity)).encode()
        metadata[RANGE_KEY] = json.dumps({"first": first, "count": self.chunk_length(first), "rows": len(frame),
                                          "digest": _digest(frame)}).encode()
        table = table.replace_schema_metadata(metadata)
        atomic_write(self._part(first, "parquet"),
                     lambda handle: pq.write_table(table, handle, write_page_checksum=True))

    def write_arrays(self, first: int, arrays: Mapping[str, np.ndarray]) -> None:
        """Write the chunk starting at ``first`` as a compressed numpy archive (streamed counts)
        carrying the run's identity and range."""
        about = json.dumps({"identity": dict(self.identity), "first": first, "count": self.chunk_length(first)})
        entries = {**arrays, ARCHIVE_ENTRY: np.array(about)}
        atomic_write(self._part(first, "npz"), lambda handle: cast(Any, np.savez_compressed)(handle, **entries))

    def holds_frames(self) -> bool:
        """Whether the chunks are DataFrames (Parquet parts) rather than arrays (numpy archives)."""
        return not any(self.path.glob("part-*.npz"))

    def _complete(self, suffix: str) -> list[tuple[int, Path]]:
        """Every part in order, when they are all there and all of the kind ``suffix``."""
        parts = sorted(self.parts().items())
        following = 0
        for first, part in parts:
            if first != following:
                break
            if part.suffix != f".{suffix}":
                raise RunDirectoryError(f"{part} holds {SUFFIXES[part.suffix[1:]]}, but the run keeps "
                                        f"{SUFFIXES[suffix]}: move it out of the directory, then {_REPAIR}")
            following += self.chunk_size
        if following < self.size:
            busy = (" (a run is writing there now)" if _in_use(self.path)
                    else "; run the same command again to finish it")
            raise RunDirectoryError(
                f"{self.path} is incomplete: {self.chunk_count() - len(parts):,} of {self.chunk_count():,} chunks "
                f"missing (the first starts at {following:,}){busy}")
        return parts

    def read_frame(self) -> pd.DataFrame:
        """All the run's rows, in order, every part checked."""
        frames = [self._read_part(first, part, whole=True) for first, part in self._complete("parquet")]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()

    def read_arrays(self) -> Iterator[dict[str, np.ndarray]]:
        """Every chunk's arrays, in order, each part checked as it is read."""
        for first, part in self._complete("npz"):
            yield self._read_part(first, part, whole=True)

    def _read_part(self, first: int, part: Path, whole: bool) -> Any:
        """Check a part against the run (whole: its data too) and give its data (when whole)."""
        def damaged(problem: str) -> RunDirectoryError:
            return RunDirectoryError(f"{part} {problem}; {_REPAIR}")

        if not part.is_file():
            raise damaged("is not a file")
        if part.suffix == ".parquet":
            try:
                file = pq.ParquetFile(part)
                metadata = file.schema_arrow.metadata or {}
                rows: int | None = file.metadata.num_rows
                about: Any = {"identity": _json(metadata.get(METADATA_KEY))}
                if RANGE_KEY in metadata:  # parts written before ranges were stored have none
                    stored = _json(metadata[RANGE_KEY])
                    about.update(stored if isinstance(stored, dict) else {"first": stored})
                data = file.read().to_pandas() if whole else None
            except (OSError, pa.ArrowException, ValueError) as error:
                raise damaged(f"is not a readable Parquet file ({_first_line(error)})") from None
        else:
            try:
                with np.load(part, allow_pickle=False) as archive:
                    entry = archive[ARCHIVE_ENTRY] if ARCHIVE_ENTRY in archive.files else None
                    data = {name: archive[name] for name in archive.files if name != ARCHIVE_ENTRY} if whole else None
            except Exception as error:  # zipfile, zlib and numpy each raise their own kind for a damaged archive
                raise damaged(f"is not a readable counts file ({type(error).__name__}: {_first_line(error)})") from None
            rows = None
            text = entry.item() if entry is not None and entry.shape == () else None
            about = _json(text.encode()) if isinstance(text, str) else {"identity": None}
            if entry is None:  # written before parts carried the run's identity: nothing to check
                return data
            if not isinstance(about, dict):
                about = {"identity": None}
        self._check_about(first, about, rows, damaged)
        if isinstance(data, pd.DataFrame) and "digest" in about and _digest(data) != about["digest"]:
            raise damaged("is damaged: its columns or values are not those it was written with")
        return data

    def _check_about(self, first: int, about: Mapping[str, Any], rows: int | None,
                     damaged: Callable[[str], RunDirectoryError]) -> None:
        """A part's identity and range (as stored in it) against the run's, and its row count."""
        identity = about.get("identity")
        if not isinstance(identity, Mapping):
            raise damaged("carries no ginsim run identity (it was not written by this run)")
        found = differences(identity, self.identity, _GROWS)  # a part kept from the run before it grew is its own
        if found:
            raise damaged(f"belongs to another run: {found}")
        if "first" not in about and "count" not in about:  # written before parts carried their range
            return
        expected = self.chunk_length(first)
        start, length = as_integer(about.get("first")), as_integer(about.get("count"))
        if (start, length) != (first, expected):
            held = (f"items {start:,} to {start + length - 1:,}" if start is not None and length
                    else f"the range {about.get('first')!r}, {about.get('count')!r}")
            raise damaged(f"holds {held}, not the chunk its name says ({first:,} to {first + expected - 1:,})")
        if rows is not None and rows != about.get("rows"):
            raise damaged(f"holds {rows:,} rows where it was written with {about.get('rows')!r}")


def _digest(frame: pd.DataFrame) -> str:
    """The SHA-256 of a frame's column names and types, then of every value."""
    digest = hashlib.sha256(json.dumps([[str(name), str(kind)] for name, kind in frame.dtypes.items()]).encode())
    digest.update(pd.util.hash_pandas_object(frame, index=False).to_numpy().tobytes())
    return digest.hexdigest()


def _json(raw: bytes | None) -> Any:
    """Stored JSON, or None when there is none or it does not read."""
    if raw is None:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return None


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def _flat(identity: Mapping[str, Any]) -> dict[str, Any]:
    """The identity with nested mappings (the rules) spelled out as ``rules.field`` keys."""
    flat: dict[str, Any] = {}
    for key, value in identity.items():
        if isinstance(value, Mapping):
            flat.update({f"{key}.{inner}": item for inner, item in value.items()})
        else:
            flat[key] = value
    return flat


def differences(theirs: Mapping[str, Any], mine: Mapping[str, Any], aside: tuple[str, ...] = ("version",)) -> str:
    """The fields in which a stored identity differs from this run's (those ``aside`` left out: the
    version), as ``key 'theirs' (not 'mine')`` for the first three; empty when they agree."""
    mine_flat, theirs_flat = _flat(mine), _flat(theirs)
    keys = sorted(key for key in mine_flat.keys() | theirs_flat.keys()
                  if key not in aside and mine_flat.get(key) != theirs_flat.get(key))
    return ", ".join(f"{key} {theirs_flat.get(key)!r} (not {mine_flat.get(key)!r})" for key in keys[:3])


_GROWS: Final = ("version", "size")
"""What a run may differ in from the run stored before it grew (its size) and from the version that
started it."""


def _at_least(low: int) -> Callable[[object], bool]:
    return lambda value: type(value) is int and value >= low


_IDENTITY_FIELDS: Final[dict[str, tuple[Callable[[object], bool], str]]] = {
    "kind": (lambda value: isinstance(value, str), "a text"),
    "size": (_at_least(1), "a positive integer"),
    "chunk_size": (_at_least(1), "a positive integer"),
    "seed": (_at_least(0), "a non-negative integer"),
    "players": (lambda value: isinstance(value, list) and all(isinstance(name, str) for name in value),
                "a list of names"),
    "rules": (lambda value: isinstance(value, dict), "a mapping of rule fields"),
}
"""The fields of ``_run.json`` the run layer reads, with their checks (the kind and the sizes are required)."""
