"""The one exception for bad input, shared by gincore and ginsim.

``InputError`` is a ``ValueError`` raised for input a caller can fix (card text, masks, rule values,
strategy names, seeds, counts, files); its message is one line naming the problem. The ``ginsim``
command line turns exactly these into a one-line error with exit status 2, so that anything else
(a bug) still shows its traceback. ``StrategyError``, one kind of it, names a strategy that failed.

>>> from gincore import parse_cards
>>> try:
...     parse_cards("AS 1X")
... except InputError as error:
...     print(error)
unknown card '1X' (write rank then suit, e.g. 'TH', '10h', 'as')
"""
from __future__ import annotations

__all__ = ["InputError", "StrategyError"]


class InputError(ValueError):
    """Bad input a caller can fix; the message is one line that names the problem."""


class StrategyError(InputError):
    """A Python strategy chose an illegal move, or raised (the hand loop reports it with the hand)."""
