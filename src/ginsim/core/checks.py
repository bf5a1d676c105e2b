"""Checks of the plain values callers pass in: counts, seeds and indices.

Every check returns the value as an ``int`` or raises ``InputError`` (a ``ValueError``) with one line
naming the value; a wrong type (a float, a bool, a str) is an ``InputError`` too, so that the command
line and notebooks report all of them alike. Any integral number is an integer: a Python ``int``, a
numpy integer, anything ``operator.index`` takes, but never a ``bool``. Rule fields are checked by
``ginsim.core.fields``.

>>> integer("hands", 10, low=1)
10
>>> integer("hands", 0, low=1)
Traceback (most recent call last):
...
gincore.errors.InputError: hands must be a positive integer, got 0
"""
from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, TypeVar

from gincore.errors import InputError

__all__ = ["InputError", "as_integer", "check_seed", "count", "integer", "positive", "shown_number", "within"]

_T = TypeVar("_T")


def as_integer(value: object) -> int | None:
    """``value`` as an ``int`` if it is an integral number (not a bool), else ``None``.

    >>> import numpy as np
    >>> as_integer(np.int64(5)), as_integer(True), as_integer(5.0)
    (5, None, None)
    """
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def integer(name: str, value: object, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an ``int`` if it is an integer (Python or numpy, not a bool) within ``low..high``."""
    number = as_integer(value)
    if number is None or (low is not None and number < low) or (high is not None and number > high):
        if low is not None and high is not None:
            bound = f" from {low:,} to {high:,}"
        elif low in (0, 1) and high is None:
            bound = ""
        elif low is not None:
            bound = f" >= {low:,}"
        elif high is not None:
            bound = f" <= {high:,}"
        else:
            bound = ""
        kinds = {0: "a non-negative integer", 1: "a positive integer"}
        kind = kinds.get(low, "an integer") if high is None and low is not None else "an integer"
        raise InputError(f"{name} must be {kind}{bound}, got {shown_number(value)}")
    return number


def count(name: str, value: object, most: int) -> int:
    """``value`` as an ``int`` if it is a positive integer of at most ``most``.

    >>> count("hands", 10**30, 10**18)
    Traceback (most recent call last):
    ...
    gincore.errors.InputError: hands must be a positive integer of at most 1,000,000,000,000,000,000, got 10**30
    """
    number = positive(name, value)
    if number > most:
        raise InputError(f"{name} must be a positive integer of at most {most:,}, got {shown_number(number)}")
    return number


def shown_number(value: object) -> str:
    """A refused value as an error message shows it: its ``repr``, but a power of ten as ``10**k`` and an
    integer of more than 30 digits by its number of digits (so that the message stays one short line).

    >>> shown_number(10**30), shown_number(7 * 10**40), shown_number("x")
    ('10**30', 'an integer of 41 digits', "'x'")
    """
    number = as_integer(value)
    if number is None or type(value) is not int:
        return repr(value)
    if number.bit_length() > 10_000:  # beyond what Python turns into text
        return f"an integer of {number.bit_length():,} bits"
    digits = str(abs(number))
    if len(digits) > 6 and digits == "1" + "0" * (len(digits) - 1):
        return f"{'-' if number < 0 else ''}10**{len(digits) - 1}"
    return str(number) if len(digits) <= 30 else f"an integer of {len(digits)} digits"


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


def within(path: str, read: Callable[..., _T], *arguments: Any) -> _T:
    """``read(*arguments)``, with the message of any ``InputError`` (or other ``ValueError``, such as a
    card's text) prefixed by ``path``, the field of a file it is about.

    >>> within("hands[2]", integer, "dealer", 3, 0, 1)
    Traceback (most recent call last):
    ...
    gincore.errors.InputError: hands[2]: dealer must be an integer from 0 to 1, got 3
    """
    try:
        return read(*arguments)
    except ValueError as error:
        raise InputError(f"{path}: {error}") from None
