"""The decision recorder (ginsim.gin.studies.decisions): the hands are simulate's, every row is what the player saw
and a legal action it took, replaying the recorded actions rebuilds the hands, and bad input is refused."""
from __future__ import annotations

import numpy as np
import pytest

from gincore.errors import InputError
from ginsim import PRESETS, Rules, simulate
from ginsim.gin import GameState
from ginsim.gin.game.policy.observations import observe
from ginsim.gin.studies.decisions import equity_after, record_decisions, record_expert_decisions

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


# --- recordings on the run layer ----------------------------------------------------------------------------

def test_a_recording_is_the_hands_of_each_pairing(test_seed: int) -> None:
    """Hand i of a recording against K opponents is hand i // K of the expert's run against opponent i % K:
    its rows are record_decisions' rows of seat 0 for that hand, whatever the chunk size; the search
    strategies are seeded per hand too."""
    for expert, against in (("marjj", "simple,greedy,search"), ("reader", "marjj")):
        names = against.split(",")
        hands = 7 if expert == "marjj" else 3
        rows = record_expert_decisions(Rules(), expert, against, hands, test_seed, workers=1, chunk_size=2,
                                       progress=False)
        whole = record_expert_decisions(Rules(), expert, against, hands, test_seed, workers=1, progress=False)
        assert sorted(rows) == sorted(whole) and "opponent" in rows
        for column in rows:
            np.testing.assert_array_equal(rows[column], whole[column])
        for hand in range(hands):
            index = hand % len(names)
            alone = record_decisions(Rules(), [expert, names[index]], hands=1, seed=test_seed, seats=(0,),
                                     first=hand // len(names))
            mine = rows["hand"] == hand
            assert (rows["opponent"][mine] == index).all() and (rows["seat"][mine] == 0).all()
            for column in ("observation", "action_mask", "action", "points"):
                np.testing.assert_array_equal(rows[column][mine], alone[column])


def test_a_recording_refuses_bad_input() -> None:
    for kwargs, message in (({"expert": "nobody"}, "nobody"), ({"against": []}, "at least one opponent"),
                            ({"hands": 0}, "hands"), ({"layout": "pixels"}, "unknown observation layout")):
        given = {"expert": "simple", "against": "simple", "hands": 2, **kwargs}
        with pytest.raises(InputError, match=message):
            record_expert_decisions(Rules(), seed=1, layout=str(kwargs.get("layout", "learner")), workers=1,
                                    **{name: value for name, value in given.items() if name != "layout"})
