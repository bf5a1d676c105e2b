"""Decisions recorded from native play: what a strategy saw and chose, for imitation and offline learning.

:func:`record_decisions` plays hands natively (the hands ``simulate`` plays with the same seed) and keeps,
at each decision of the recorded seats, the player's observation in any layout
(``ginsim.gin.game.policy.observations`` documents them), its mask of legal actions, the action it took
(:mod:`ginsim.gin.game.actions`), the hand's index, the seat and, once the hand is over, the hand's points for
that seat; where the rules have a target and a shipped match equity table, also the chance to win the
game after that hand from 0-0.

>>> from ginsim import Rules
>>> rows = record_decisions(Rules(), "marjj,simple", hands=20, seed=1, seats=(0,))
>>> sorted(rows)
['action', 'action_mask', 'equity', 'hand', 'observation', 'points', 'seat']
>>> rows["observation"].shape[1], bool((rows["action_mask"][np.arange(len(rows["action"])), rows["action"]] == 1).all())
(636, True)
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from gincore.errors import InputError
from ginsim.core.checks import as_integer, check_seed
from ginsim.gin.game.equity_tables import match_value_array
from ginsim.gin.game.native import LAYOUT_NAMES, native_record_decisions, run_key
from ginsim.gin.game.players import PlayerSpec, engine, has_python, resolve_players
from ginsim.gin.game.rules import Rules, check_rules

__all__ = ["CHUNK_HANDS", "record_decisions"]

CHUNK_HANDS = 4096
"""Hands recorded per native call (progress is reported between calls)."""


def _seat_mask(seats: Sequence[int]) -> int:
    chosen = list(seats)
    if not chosen or any(as_integer(seat) not in (0, 1) for seat in chosen) or len(set(chosen)) != len(chosen):
        raise InputError(f"seats must be 0, 1 or both, once each, got {chosen!r}")
    return sum(1 << int(seat) for seat in chosen)


def equity_after(rules: Rules, points: npt.NDArray[np.int16]) -> npt.NDArray[np.float32] | None:
    """The chance to win the game after a hand that scored ``points`` (signed for the player) from
    0-0, by the rules' shipped match equity table; ``None`` without a target or a shipped table.

    >>> [round(float(value), 2) for value in equity_after(Rules(target=100), np.array([0, 25, -100], np.int16))]
    [0.5, 0.64, 0.0]
    """
    if rules.target is None:
        return None
    values = match_value_array(rules)
    if values is None:
        return None
    target = values.shape[0]
    won = np.clip(points, 0, None).astype(np.int64)
    lost = np.clip(-points, 0, None).astype(np.int64)
    equity = values[np.minimum(won, target - 1), np.minimum(lost, target - 1)]
    equity = np.where(won >= target, 1.0, np.where(lost >= target, 0.0, equity))
    return equity.astype(np.float32)


def record_decisions(rules: Rules, players: str | Sequence[PlayerSpec], hands: int, seed: int,
                     layout: str = "learner", seats: Sequence[int] = (0, 1), first: int = 0, finals: bool = False,
                     progress: Callable[[int], None] | None = None) -> dict[str, npt.NDArray[np.generic]]:
    """Hands ``first`` .. ``first + hands - 1`` of the run with ``seed`` played by ``players`` (built-in
    strategies; Python ones play too, slowly), and every decision of the ``seats`` recorded, one row each
    in the order made: ``observation`` (int8, in ``layout``), ``action_mask`` (int8, 107), ``action``
    (int16), ``hand`` (int64, the hand's index), ``seat`` (int8) and ``points`` (int16, the hand's
    points signed for the seat), and ``equity`` (float32, see :func:`equity_after`) where the rules
    have a target and a shipped table. With ``finals``, each hand's decisions of a seat are followed by
    a row of what it saw once the hand was over (action -1, its mask all 0: an episode's last
    observation). ``progress`` is called with the hands done after each chunk.
    """
    rules = check_rules(rules)
    resolved = resolve_players(players)
    if layout not in LAYOUT_NAMES:
        raise InputError(f"unknown observation layout {layout!r}; layouts: {', '.join(LAYOUT_NAMES)}")
    count, start = as_integer(hands), as_integer(first)
    if count is None or count < 0 or start is None or start < 0:
        raise InputError(f"hands and first must be whole numbers from 0, got {hands!r} and {first!r}")
    mask = _seat_mask(seats)
    hand_engine = engine(rules, resolved)
    key0, key1 = run_key(check_seed(seed))
    chunk = 256 if has_python(resolved) else CHUNK_HANDS
    parts = []
    for done in range(0, count, chunk):
        size = min(chunk, count - done)
        parts.append(native_record_decisions(hand_engine, key0, key1, start + done, size,
                                             LAYOUT_NAMES.index(layout), mask, finals))
        if progress is not None:
            progress(done + size)
    if not parts:
        parts.append(native_record_decisions(hand_engine, key0, key1, start, 0, LAYOUT_NAMES.index(layout), mask))
    rows = {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}
    equity = equity_after(rules, rows["points"])
    if equity is not None:
        rows["equity"] = equity
    return rows
