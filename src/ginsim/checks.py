"""Checks of the plain values callers pass in: counts, seeds and indices.

Every check returns the value as an ``int`` or raises ``InputError`` (a ``ValueError``) with one line
naming the value; a wrong type (a float, a bool, a str) is an ``InputError`` too, so that the command
line and notebooks report all of them alike. Rule fields are checked by ``ginsim.fields``.

>>> integer("hands", 10, low=1)
10
>>> integer("hands", 0, low=1)
Traceback (most recent call last):
...
gincore.errors.InputError: hands must be a positive integer, got 0
"""
from __future__ import annotations

import numpy as np

from gincore.errors import InputError

__all__ = ["InputError", "check_seed", "integer", "positive"]


def integer(name: str, value: object, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an ``int`` if it is an integer (Python or numpy, not a bool) within ``low..high``."""
    number = int(value) if not isinstance(value, (bool, np.bool_)) and isinstance(value, (int, np.integer)) else None
    if number is None or (low is not None and number < low) or (high is not None and number > high):
        if low is not None and high is not None:
            bound = f" from {low} to {high}"
        elif low in (0, 1) and high is None:
            bound = ""
        elif low is not None:
            bound = f" >= {low}"
        elif high is not None:
            bound = f" <= {high}"
        else:
            bound = ""
        kinds = {0: "a non-negative integer", 1: "a positive integer"}
        kind = kinds.get(low, "an integer") if high is None and low is not None else "an integer"
        raise InputError(f"{name} must be {kind}{bound}, got {value!r}")
    return number


def positive(name: str, value: object) -> int:
    """``value`` as an ``int`` if it is a positive integer.

    >>> positive("workers", 2)
    2
    """
    return integer(name, value, low=1)


def check_seed(seed: object) -> int:
    """``seed`` as an ``int`` if it is a non-negative integer.

    >>> check_seed(7)
    7
    """
    return integer("seed", seed, low=0)
