"""Per-hand records of the native game loops, declared once as numpy structured dtypes.

Each loop (``_engine`` for gin, ``_rummy`` for classic Rummy) declares a C ``Record`` struct and, next
to it, the same fields as a list of ``(name, numpy type)`` or ``(name, numpy type, length)``. The
batch entry points write the structs straight into an array of that dtype; these helpers turn the
array into the public columns (a fixed-length field ``x`` becomes ``x_0``, ``x_1``, ...) and check
at import that the list matches the struct.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

Field = tuple[str, Any] | tuple[str, Any, int]


def record_dtype(fields: Sequence[Field]) -> np.dtype[np.void]:
    """The C layout of the fields (``align=True`` follows the compiler's struct alignment)."""
    return np.dtype([(name, kind, *shape) for name, kind, *shape in fields], align=True)


def column_names(dtype: np.dtype[np.void], skip: Sequence[str] = ()) -> tuple[str, ...]:
    """The public column names of the dtype's fields, arrays flattened, ``skip`` left out.

    >>> column_names(record_dtype([("a", np.int8), ("b", np.int8, 2), ("c", np.uint64)]), skip=["c"])
    ('a', 'b_0', 'b_1')
    """
    names: list[str] = []
    for name in dtype.names or ():
        if name in skip:
            continue
        shape = dtype.fields[name][0].shape  # type: ignore[index]
        names.extend([f"{name}_{i}" for i in range(shape[0])] if shape else [name])
    return tuple(names)


def columns_of(records: npt.NDArray[np.void], names: Sequence[str]) -> dict[str, npt.NDArray[Any]]:
    """The contiguous columns ``names`` (as made by ``column_names``) of a structured array."""
    fields = records.dtype.names or ()
    columns = {}
    for name in names:
        if name in fields:
            columns[name] = np.ascontiguousarray(records[name])
        else:
            field, _, position = name.rpartition("_")
            columns[name] = np.ascontiguousarray(records[field][:, int(position)])
    return columns


def row_of(struct: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """The columns ``names`` of one record, given as Cython's dict of the struct's fields."""
    row = {}
    for name in names:
        if name in struct:
            row[name] = struct[name]
        else:
            field, _, position = name.rpartition("_")
            row[name] = struct[field][int(position)]
    return row


def struct_fields(raw: bytes, dtype: np.dtype[np.void]) -> dict[str, Any]:
    """The fields of one native record, given as its bytes, as Python values (arrays as lists).

    Cython's own struct-to-dict conversion turns a ``char`` array into ``bytes`` cut at the first
    zero, so records with ``int8`` arrays are read through numpy instead.

    >>> layout = record_dtype([("a", np.int8, 2), ("b", np.uint64)])
    >>> struct_fields(np.array([((0, 3), 7)], layout).tobytes(), layout)
    {'a': [0, 3], 'b': 7}
    """
    values = np.frombuffer(raw, dtype=dtype)[0].item()
    return {name: value.tolist() if isinstance(value, np.ndarray) else value
            for name, value in zip(dtype.names or (), values, strict=True)}


def check_layout(module: str, dtype: np.dtype[np.void], read: Callable[[bytes], Mapping[str, Any]],
                 size: int) -> None:
    """Fail the import unless the declared fields are the native struct's, field by field.

    ``read`` turns a record's bytes into the dict of the C struct's fields (Cython's conversion, which
    reads each field with its C type). Each field in turn is set to its type's least and greatest
    value through the numpy dtype and must read back the same, with every other field still zero: a
    field of another offset, size or signedness than declared fails, as do other names or order.
    """
    names = tuple(read(bytes(size)))
    if names != dtype.names or dtype.itemsize != size:
        raise ImportError(f"{module}: the record fields do not match the native Record struct "
                          f"({dtype.itemsize} bytes declared for {size}; fields {names})")
    for name in names:
        kind = dtype.fields[name][0]  # type: ignore[index]
        base = kind.base
        for value in (np.iinfo(base).min, np.iinfo(base).max):
            if value == 0:
                continue
            record = np.zeros(1, dtype)
            record[name] = value
            fields = read(record.tobytes())
            expected: Any = int(value)
            if kind.shape:
                expected = (np.full(kind.shape, value, base).tobytes() if base.itemsize == 1
                            else [int(value)] * kind.shape[0])
            others = [other for other in names if other != name and _nonzero(fields[other])]
            if fields[name] != expected or others:
                raise ImportError(f"{module}: the record field {name!r} is not the native struct's "
                                  f"({base} {kind.shape or ''} declared)")


def _nonzero(value: Any) -> bool:
    if isinstance(value, bytes):
        return any(value)
    if isinstance(value, list):
        return any(value)
    return bool(value)
