"""The decision recorder (ginsim.gin.studies.decisions): the hands are simulate's, every row is what the player saw
and a legal action it took, replaying the recorded actions rebuilds the hands, and bad input is refused."""
from __future__ import annotations

import numpy as np
import pytest

from gincore.errors import InputError
from ginsim import PRESETS, Rules, simulate
from ginsim.gin import GameState
from ginsim.gin.game.policy.observations import observe
from ginsim.gin.studies.decisions import equity_after, record_decisions

STRATEGIES = ("marjj,simple", "random,greedy", "defensive,marjj")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rows_replay_the_hands(preset: str, seed_for) -> None:
    """Replaying the recorded actions from each hand's deal gives, at every step, the recorded observation
    and mask, and ends with the recorded points; the hands are simulate's hands of the same seed."""
    rules = Rules.preset(preset)
    seed = seed_for(preset)
    players = STRATEGIES[seed % len(STRATEGIES)]
    rows = record_decisions(rules, players, hands=12, seed=seed, layout="learner")
    records = simulate(rules, players.split(","), hands=12, seed=seed, workers=1)
    assert set(rows["hand"]) <= set(range(12))
    for hand in range(12):
        mine = np.flatnonzero(rows["hand"] == hand)
        record = records.loc[records["hand"] == hand].iloc[0]
        for row in mine:
            signed = 0 if record["winner"] < 0 else (record["points"] if record["winner"] == rows["seat"][row]
                                                     else -record["points"])
            assert rows["points"][row] == signed
        state = GameState.deal(rules, seed=seed, index=hand)
        for row in mine:
            if state.reshuffled_stocks():  # the new stock's order came from the strategies' stream
                break
            seen = observe(state, int(rows["seat"][row]), "learner")
            assert state.player == rows["seat"][row]
            np.testing.assert_array_equal(seen["observation"], rows["observation"][row])
            np.testing.assert_array_equal(seen["action_mask"], rows["action_mask"][row])
            assert rows["action_mask"][row, rows["action"][row]] == 1
            state.apply(int(rows["action"][row]))
        else:
            assert state.done


def test_seats_layouts_and_chunks(test_seed: int) -> None:
    both = record_decisions(Rules(), "marjj,greedy", hands=30, seed=test_seed, layout="compact")
    seat1 = record_decisions(Rules(), "marjj,greedy", hands=30, seed=test_seed, layout="openspiel", seats=[1])
    assert set(both["seat"]) == {0, 1} and set(seat1["seat"]) == {1}
    np.testing.assert_array_equal(both["action"][both["seat"] == 1], seat1["action"])
    assert both["observation"].shape[1] == 480 and seat1["observation"].shape[1] == 644
    later = record_decisions(Rules(), "marjj,greedy", hands=10, seed=test_seed, layout="compact", first=20)
    tail = both["hand"] >= 20
    for column in later:
        np.testing.assert_array_equal(later[column], both[column][tail])
    empty = record_decisions(Rules(), "simple,simple", hands=0, seed=1)
    assert empty["observation"].shape == (0, 636) and empty["action"].dtype == np.int16


def test_equity() -> None:
    rows = record_decisions(Rules(target=100), "simple,simple", hands=5, seed=2)
    np.testing.assert_allclose(rows["equity"], equity_after(Rules(target=100), rows["points"]))
    assert "equity" not in record_decisions(Rules(target=None), "simple,simple", hands=5, seed=2)
    assert equity_after(Rules(target=100), np.array([100, -150], np.int16)).tolist() == [1.0, 0.0]


@pytest.mark.parametrize("kwargs, message", [
    ({"layout": "pixels"}, "unknown observation layout 'pixels'"),
    ({"seats": (2,)}, "seats must be 0, 1 or both"),
    ({"seats": ()}, "seats must be 0, 1 or both"),
    ({"seats": (0, 0)}, "seats must be 0, 1 or both"),
    ({"hands": -1}, "hands and first must be whole numbers"),
    ({"hands": 2.5}, "hands and first must be whole numbers"),
    ({"first": -3}, "hands and first must be whole numbers"),
    ({"players": "marjj"}, "exactly two players"),
    ({"players": "marj,simple"}, "unknown strategy 'marj'"),
    ({"seed": "x"}, "seed must be"),
    ({"seed": -1}, "seed must be"),
])
def test_bad_input(kwargs: dict[str, object], message: str) -> None:
    arguments: dict[str, object] = {"rules": Rules(), "players": "simple,simple", "hands": 3, "seed": 1, **kwargs}
    with pytest.raises(InputError, match=message):
        record_decisions(**arguments)  # type: ignore[arg-type]
