"""Decision times: hands timed one by one, the decisions of player 0 counted from the same hands."""
from __future__ import annotations

import numpy as np
import pytest

from gincore.errors import InputError
from ginsim import Rules, simulate
from ginsim.gin.studies.decision_times import hand_times, median_ms


def test_every_hand_is_timed_and_its_decisions_counted(test_seed: int) -> None:
    seconds, decisions = hand_times(Rules(), "greedy", "simple", hands=30, seed=test_seed)
    assert seconds.shape == decisions.shape == (30,)
    assert (seconds >= 0).all()
    # The hands are the run's hands: a hand's turns bound player 0's draws and discards.
    run = simulate(Rules(), "greedy,simple", 30, test_seed, workers=1)
    turns, dealer = run["turns"].to_numpy(), run["dealer"].to_numpy()
    assert (decisions <= 2 * turns + 2).all()
    # Player 0 decides in every hand but one it dealt that ended on the first turn: the non-dealer took
    # the upcard and knocked at once.
    assert ((decisions >= 1) | ((turns == 1) & (dealer == 0))).all()


def test_the_time_per_decision_is_the_median_of_each_hands_mean() -> None:
    seconds, decisions = np.array([0.001, 0.004, 0.100]), np.array([1.0, 2.0, 10.0])
    assert median_ms(seconds, decisions) == pytest.approx(2.0)
    assert median_ms(np.array([0.003]), np.array([0.0])) == pytest.approx(3.0)  # a hand without decisions


def test_an_unknown_clock_is_refused() -> None:
    with pytest.raises(InputError, match="clock must be one of cpu, wall, got 'sundial'"):
        hand_times(Rules(), "simple", "simple", hands=1, seed=0, clock="sundial")
