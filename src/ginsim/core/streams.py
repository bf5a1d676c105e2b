"""Stream keys and derived seeds: where every random draw of every kind of run and study comes from.

Item ``i`` of a run with seed ``s`` (a hand, a match, a game) draws all its randomness from the native
xoshiro256** stream keyed by ``(k0, k1, i)``, where ``(k0, k1)`` are the first two 64-bit words of
``SeedSequence(s, spawn_key=...)`` of the run's family. An item is therefore a pure function of (rules,
players, s, i), whatever the chunking or the backend; each family has streams of its own, so that
hand ``i`` of a Gin run and game ``i`` of a Rummy run with the same seed are unrelated.

Every other seed a study needs (a tournament's pairing, a position's deals in the knock study, the
analysis's deals, a training segment's tables, the open state's choices, a sample of hands) is
:func:`derive`\\ d here from the study's seed, a family and labels, each family by the recipe it has
always had (so that every record and every study's result stays as it was):

>>> stream_key(1) == stream_key(1) != stream_key(1, "gin_matches")
True
>>> derived_seed(1, "tournament_pairings", "greedy", "simple")
3392308617463495569
"""
from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Literal, cast

import numpy as np

from ginsim.core.checks import check_seed

__all__ = ["DERIVATIONS", "FAMILIES", "LIMITS", "Derivation", "derive", "derived_seed", "stream_key"]


@dataclass(frozen=True)
class Derivation:
    """How a family's seeds come from a study's seed and labels.

    ``spawn``: ``SeedSequence(seed, spawn_key=key)``, no labels (the run families). ``entropy``:
    ``SeedSequence([seed, *key, *labels])``, integer labels. ``digest``: ``SeedSequence([seed, w0..w3])``, the
    ``w`` the first four 32-bit words of the SHA-256 of ``repr(labels)``. ``hash``: ``SeedSequence(h)``, ``h``
    the first 63 bits of the SHA-256 of the JSON of ``[seed, *key, *labels]`` (:func:`derived_seed`).
    """

    recipe: Literal["spawn", "entropy", "digest", "hash"]
    key: tuple[int | str, ...] = ()
    meaning: str = ""


DERIVATIONS: Final = MappingProxyType({
    "gin_hands": Derivation("spawn", (), "the hands of a Gin run"),
    "gin_matches": Derivation("spawn", (1,), "the matches of a Gin run"),
    "rummy_hands": Derivation("spawn", (2,), "the hands of a classic Rummy run"),
    "rummy_games": Derivation("spawn", (3,), "the games of a classic Rummy run"),
    "gin_equity": Derivation("spawn", (4,), "the bootstrap of a match equity table"),
    "gin_state": Derivation("spawn", (), "an open state's own choices (reshuffles, play-outs, determinized "
                                         "deals): the first word of the hands' key, as it has always been"),
    "exact_samples": Derivation("spawn", (), "the random hands that check the exact enumeration"),
    "training_segments": Derivation("entropy", (1,), "the opponents' tables of one training segment"),
    "analysis_deals": Derivation("digest", (), "the deals that value a decision, by what its player sees"),
    "knock_deals": Derivation("hash", (), "one deal of one position of the knock study"),
    "knock_thresholds": Derivation("hash", ("thresholds",), "the bootstrap of the knock study's thresholds"),
    "tournament_pairings": Derivation("hash", (), "the matches of one pairing (and seating) of a tournament"),
    "browser_first_dealer": Derivation("entropy", (5,), "who deals first in a game played in the browser, when "
                                                         "the person leaves it to chance"),
    "browser_choices": Derivation("entropy", (6,), "a strategy's choice in a game played in the browser, by hand "
                                                   "and move"),
})
"""Every family of seeds, with its recipe (see :class:`Derivation`)."""

def _integers(family: str, values: tuple[object, ...]) -> tuple[int, ...]:
    if not all(isinstance(value, int) for value in values):
        raise TypeError(f"{family} seeds take integer labels, got {values!r}")
    return cast(tuple[int, ...], values)


FAMILIES: Final = MappingProxyType({name: _integers(name, DERIVATIONS[name].key) for name in
                                    ("gin_hands", "gin_matches", "rummy_hands", "rummy_games", "gin_equity")})
"""The spawn key of each family of run streams (a family is one kind of item that runs are made of;
``gin_equity`` seeds the bootstrap of an equity table)."""
LIMITS: Final = MappingProxyType({"gin_hands": 10**18, "gin_matches": 10**12, "rummy_hands": 10**18,
                                  "rummy_games": 10**12})
"""The most items a run of each family may have. Stream indices are 64-bit: a hand's is its index
(below 2**63); a match's or game's hand ``j`` of item ``m`` is ``(m << 24) | j``, so ``m`` stays below
2**40 (team matches count each pair as an item)."""


def derive(seed: int, family: str, *labels: object) -> np.random.SeedSequence:
    """The seed sequence of ``family`` for a study's ``seed`` and ``labels`` (see :data:`DERIVATIONS`).

    >>> derive(3, "exact_samples").generate_state(2).tolist() == np.random.SeedSequence(3).generate_state(2).tolist()
    True
    >>> derive(1, "gin_hands", 5)
    Traceback (most recent call last):
        ...
    ValueError: gin_hands seeds take no labels
    """
    derivation = DERIVATIONS[family]
    if derivation.recipe == "spawn":
        if labels:
            raise ValueError(f"{family} seeds take no labels")
        return np.random.SeedSequence(check_seed(seed), spawn_key=_integers(family, derivation.key))
    if derivation.recipe == "entropy":
        return np.random.SeedSequence([seed, *_integers(family, (*derivation.key, *labels))])
    if derivation.recipe == "digest":
        digest = hashlib.sha256(repr(labels).encode()).digest()
        return np.random.SeedSequence([seed, *np.frombuffer(digest[:16], dtype=np.uint32).tolist()])
    return np.random.SeedSequence(_hashed(seed, derivation.key, labels))


def derived_seed(seed: int, family: str, *labels: object) -> int:
    """The 63-bit seed of a ``hash`` family (a stable hash of ``seed`` and ``labels``, the same in every
    process and on every machine), for a study that seeds others with it."""
    derivation = DERIVATIONS[family]
    if derivation.recipe != "hash":
        raise ValueError(f"{family} seeds are sequences, not hashes: use derive")
    return _hashed(seed, derivation.key, labels)


def _hashed(seed: int, key: tuple[int | str, ...], labels: tuple[object, ...]) -> int:
    digest = hashlib.sha256(json.dumps([seed, *key, *labels]).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@functools.lru_cache(maxsize=64)
def stream_key(seed: int, family: str = "gin_hands") -> tuple[int, int]:
    """The two 64-bit words that key every stream of a run of this family with this seed.

    >>> stream_key(0, "rummy_games") != stream_key(0, "rummy_hands")
    True
    """
    words = derive(seed, family).generate_state(2, np.uint64)
    return int(words[0]), int(words[1])
