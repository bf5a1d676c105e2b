"""The built-in strategies, played natively by ``gincore``, and how a name selects one.

>>> describe("simple")
'The EAAI competition baseline: takes a face-up card only if it melds, discards randomly among the least-deadwood choices, knocks at once.'
>>> resolve_players("simple,greedy")
('simple', 'greedy')
"""
from __future__ import annotations

import difflib
from collections.abc import Iterable
from types import MappingProxyType
from typing import Final

from gincore._engine import STRATEGY_KINDS

__all__ = ["STRATEGIES", "describe", "resolve_players", "strategy_code"]

STRATEGIES: Final = MappingProxyType(
    {
        "random": "Uniformly random legal choices: a coin decides every draw, the discard is any legal "
        "card, and a legal knock or gin is taken when a coin says so.",
        "simple": "The EAAI competition baseline: takes a face-up card only if it melds, discards "
        "randomly among the least-deadwood choices, knocks at once.",
        "greedy": "Takes a face-up card only if it lowers the deadwood after the best discard; discards "
        "to the least deadwood, then the highest card, then the card least useful to the opponent; "
        "knocks at once.",
    }
)
"""Every built-in strategy by name, with one line on what it does."""


def describe(name: str) -> str:
    """One line on what a strategy does; an unknown name raises ``ValueError``.

    >>> describe("random").split(":")[0]
    'Uniformly random legal choices'
    """
    return STRATEGIES[_known(name)]


def _known(name: str) -> str:
    if not isinstance(name, str):
        raise TypeError(f"a strategy is named by a str, got {type(name).__name__}")
    key = name.strip().lower()
    if key in STRATEGIES:
        return key
    close = difflib.get_close_matches(key, STRATEGIES, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(f"unknown strategy {name!r}{hint}; known strategies: {', '.join(STRATEGIES)}")


def strategy_code(name: str) -> int:
    """The native code of a strategy name.

    >>> strategy_code("random")
    0
    """
    return int(STRATEGY_KINDS[_known(name)])


def resolve_players(players: str | Iterable[str]) -> tuple[str, str]:
    """Two strategy names, from ``"a,b"`` text or a sequence; checked and normalised.

    >>> resolve_players(["Greedy", " random"])
    ('greedy', 'random')
    """
    names = players.split(",") if isinstance(players, str) else list(players)
    if len(names) != 2:
        raise ValueError(f"Gin Rummy needs exactly two players, got {len(names)}: {names!r}")
    first, second = (_known(name) for name in names)
    return first, second
