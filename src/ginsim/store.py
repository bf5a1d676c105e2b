"""Run directories: one Parquet part per finished chunk, written atomically, plus the run's identity.

A run directory holds ``_run.json`` (what was run: kind, rules, players, seed, size, chunk size, version)
and one file per finished chunk. Each part is written to a hidden temporary file and renamed into
place, so a crash or ``kill -9`` never leaves a half-written part, and running the same call again
plays only the missing chunks. A directory that holds a different run is refused, never overwritten.

>>> import tempfile, pandas as pd
>>> folder = tempfile.mkdtemp()
>>> run = RunDirectory.open(folder, {"kind": "hands", "seed": 1, "size": 10, "chunk_size": 5})
>>> run.write_frame(0, pd.DataFrame({"hand": range(5)}))
>>> run.finished()
{0}
"""
from __future__ import annotations

import json
import os
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, cast

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from gincore.errors import InputError
from ginsim._version import __version__

__all__ = ["RunDirectory", "RunDirectoryError", "atomic_write"]

RUN_FILE = "_run.json"
METADATA_KEY = b"ginsim"


class RunDirectoryError(InputError):
    """A run directory that cannot be used: another run's, not a run directory, or damaged."""


def atomic_write(path: Path, write: Callable[[BinaryIO], Any]) -> None:
    """Write a file whole or not at all: ``write(binary file)`` fills a hidden file beside ``path``,
    which is then renamed into place. The file gets the usual permissions (0666 less the umask)."""
    temporary = path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            write(handle)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


@dataclass(frozen=True)
class RunDirectory:
    """A run directory bound to one run's identity (see the module docstring)."""

    path: Path
    identity: Mapping[str, Any]

    @classmethod
    def open(cls, path: str | os.PathLike[str], identity: Mapping[str, Any]) -> RunDirectory:
        """Create the directory for a new run, or reopen it to resume the same run.

        Raises ``RunDirectoryError`` when it holds another run or files that are not a run's.
        """
        folder = Path(path)
        if folder.exists() and not folder.is_dir():
            raise RunDirectoryError(f"{folder} exists and is not a directory")
        folder.mkdir(parents=True, exist_ok=True)
        stored = folder / RUN_FILE
        record = {"format": "ginsim-run", **identity}
        if stored.exists():
            mine, theirs = _flat(record), _flat(_read_identity(folder))
            differences = sorted(key for key in mine.keys() | theirs.keys()
                                 if key != "version" and mine.get(key) != theirs.get(key))
            if differences:
                shown = ", ".join(f"{key} {theirs.get(key)!r} (not {mine.get(key)!r})"
                                  for key in differences[:3])
                raise RunDirectoryError(f"{folder} holds a different run: {shown}; "
                                        "choose another directory or delete it")
        elif any(not entry.name.startswith(".") for entry in folder.iterdir()):
            raise RunDirectoryError(f"{folder} is not empty and is not a ginsim run directory")
        else:
            record["version"] = __version__
            atomic_write(stored, lambda handle: handle.write(json.dumps(record, indent=2).encode()))
        return cls(folder, record)

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> RunDirectory:
        """An existing run directory, for reading its results."""
        folder = Path(path)
        if not folder.is_dir():
            raise RunDirectoryError(f"{folder} is not a directory")
        return cls(folder, _read_identity(folder))

    def _part(self, first: int, suffix: str) -> Path:
        return self.path / f"part-{first:015d}.{suffix}"

    def finished(self) -> set[int]:
        """The first index of every chunk already written."""
        return {int(entry.name[5:20]) for entry in self.path.glob("part-*.*")
                if entry.name[5:20].isdigit()}

    def write_frame(self, first: int, frame: pd.DataFrame) -> None:
        """Write the chunk starting at ``first`` as a Parquet part carrying the run's identity."""
        table = pa.Table.from_pandas(frame, preserve_index=False)
        metadata = dict(table.schema.metadata or {})
        metadata[METADATA_KEY] = json.dumps(dict(self.identity)).encode()
        table = table.replace_schema_metadata(metadata)
        atomic_write(self._part(first, "parquet"), lambda handle: pq.write_table(table, handle))

    def write_arrays(self, first: int, arrays: Mapping[str, np.ndarray]) -> None:
        """Write the chunk starting at ``first`` as a compressed numpy archive (streamed counts)."""
        atomic_write(self._part(first, "npz"), lambda handle: cast(Any, np.savez_compressed)(handle, **arrays))

    def holds_frames(self) -> bool:
        """Whether the chunks are DataFrames (Parquet parts) rather than arrays (numpy archives)."""
        return not any(self.path.glob("part-*.npz"))

    def _expect_complete(self) -> list[int]:
        size, chunk = int(self.identity["size"]), int(self.identity["chunk_size"])
        expected = list(range(0, size, chunk))
        missing = sorted(set(expected) - self.finished())
        if missing:
            raise RunDirectoryError(
                f"{self.path} is incomplete: {len(missing)} of {len(expected)} chunks missing "
                f"(the first starts at {missing[0]}); run the same command again to finish it")
        return expected

    def read_frame(self) -> pd.DataFrame:
        """All the run's rows, in order."""
        frames = []
        for first in self._expect_complete():
            part = self._part(first, "parquet")
            try:
                frames.append(pq.read_table(part).to_pandas())
            except (OSError, pa.ArrowException) as error:
                raise RunDirectoryError(f"{part} is not a readable Parquet file: {error}") from None
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()

    def read_arrays(self) -> list[dict[str, np.ndarray]]:
        """Every chunk's arrays, in order."""
        chunks = []
        for first in self._expect_complete():
            part = self._part(first, "npz")
            try:
                with np.load(part) as archive:
                    chunks.append({name: archive[name] for name in archive.files})
            except (OSError, ValueError) as error:
                raise RunDirectoryError(f"{part} is not a readable counts file: {error}") from None
        return chunks


def _flat(identity: Mapping[str, Any]) -> dict[str, Any]:
    """The identity with nested mappings (the rules) spelled out as ``rules.field`` keys."""
    flat: dict[str, Any] = {}
    for key, value in identity.items():
        if isinstance(value, Mapping):
            flat.update({f"{key}.{inner}": item for inner, item in value.items()})
        else:
            flat[key] = value
    return flat


def _read_identity(folder: Path) -> dict[str, Any]:
    stored = folder / RUN_FILE
    if not stored.exists():
        raise RunDirectoryError(f"{folder} is not a ginsim run directory (no {RUN_FILE})")
    try:
        record = json.loads(stored.read_text())
    except (OSError, ValueError) as error:
        raise RunDirectoryError(f"{stored} is damaged: {error}") from None
    if not isinstance(record, dict) or record.get("format") != "ginsim-run":
        raise RunDirectoryError(f"{stored} does not describe a ginsim run")
    return record
