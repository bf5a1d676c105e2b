"""Classic Rummy's built-in strategies, by name, and the checks of a table of two to six of them.

>>> resolve_players("greedy, Random")
('greedy', 'random')
"""
from __future__ import annotations

import difflib
from collections.abc import Iterable
from types import MappingProxyType
from typing import Final

from gincore.errors import InputError

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "STRATEGIES", "resolve_players"]

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6

STRATEGIES: Final = MappingProxyType(
    {
        "random": "Uniformly random legal choices: a coin decides the draw, then at each step any legal "
        "meld or lay-off or stopping is equally likely, and the discard is any legal card.",
        "greedy": "Melds and lays off all it can at once; keeps the discard that leaves its hand the least "
        "deadwood (the highest card on ties) and takes the discard pile's top card only if that lowers "
        "its deadwood after the best discard; lay-offs onto the table count in the deadwood.",
    }
)
"""Every built-in classic Rummy strategy by name, with one line on what it does."""


def resolve_players(players: str | Iterable[str]) -> tuple[str, ...]:
    """Two to six strategy names, from ``"a,b,c"`` text or a sequence; checked and normalised.

    >>> resolve_players("Greedy, random,greedy")
    ('greedy', 'random', 'greedy')
    >>> resolve_players("greedy")
    Traceback (most recent call last):
        ...
    gincore.errors.InputError: classic Rummy needs 2 to 6 players, got 1: ['greedy']
    """
    names = players.split(",") if isinstance(players, str) else list(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InputError(f"classic Rummy needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(names)}: {names!r}")
    return tuple(_known(name) for name in names)


def _known(name: object) -> str:
    if not isinstance(name, str):
        raise TypeError(f"a strategy is named by a str, got {type(name).__name__}")
    key = name.strip().lower()
    if key in STRATEGIES:
        return key
    close = difflib.get_close_matches(key, STRATEGIES, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise InputError(f"unknown Rummy strategy {name!r}{hint}; known: {', '.join(STRATEGIES)}")
