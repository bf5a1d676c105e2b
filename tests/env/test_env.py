"""The environments of ginsim.env: the PettingZoo and Gymnasium checks, the information boundary (what an
observation may depend on), the vector environment against the single one and against GameState, rewards,
and policies as strategies."""
from __future__ import annotations

import warnings
import zlib

import numpy as np
import pytest

import gincore

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from gincore.errors import InputError  # noqa: E402
from ginsim import Rules, play_hand, simulate  # noqa: E402
from ginsim.env import (  # noqa: E402
    ENV_ID,
    LAYOUTS,
    GinRummyEnv,
    PolicyStrategy,
    VectorGinRummyEnv,
    aec_env,
    field_slots,
    observe,
    observe_view_of,
)
from ginsim.env.single import tables_for  # noqa: E402
from ginsim.gin import GameState, Phase, StrategyError  # noqa: E402
from ginsim.gin.game.actions import BIG_GIN, KNOCK, REFUSE, TAKE  # noqa: E402

PRESETS = ("standard", "oklahoma", "reshuffle")


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", module="gymnasium")
    warnings.filterwarnings("ignore", module="pettingzoo")


def hashed_policy(observation: np.ndarray, mask: np.ndarray) -> int:
    """A deterministic policy that looks random: a legal action chosen by a hash of the observation."""
    legal = np.flatnonzero(mask)
    return int(legal[zlib.crc32(observation.tobytes()) % len(legal)])


# --- the libraries' own checks ------------------------------------------------------------------------


@pytest.mark.parametrize("episode, reward, layout", [("hand", "points", "compact"), ("hand", "win", "openspiel"),
                                                     ("match", "match", "learner"), ("match", "shaped", "compact")])
def test_pettingzoo_api(episode: str, reward: str, layout: str) -> None:
    api_test(aec_env(reward=reward, episode=episode, observation=layout), num_cycles=300)


def test_the_pettingzoo_module_offers_env_and_raw_env() -> None:
    from ginsim.env import aec

    wrapped = aec.env(episode="match")
    api_test(wrapped, num_cycles=100)
    assert isinstance(wrapped.unwrapped, aec.raw_env) and aec.raw_env is aec.GinRummyAEC
    with pytest.raises(Exception, match="reset"):
        aec.env().step(0)


@pytest.mark.parametrize("episode", ["hand", "match"])
def test_pettingzoo_seed(episode: str) -> None:
    seed_test(lambda: aec_env(episode=episode, reward="points"), num_cycles=200)


@pytest.mark.parametrize("kwargs", [{}, {"opponent": "random", "observation": "openspiel"},
                                    {"opponent": "marjj", "episode": "match", "reward": "shaped"},
                                    {"opponent": PolicyStrategy(hashed_policy, observation="learner"),
                                     "observation": "learner"}])
def test_gymnasium_check_env(kwargs: dict[str, object]) -> None:
    env = gymnasium.make(ENV_ID, render_mode="ansi", **kwargs)
    check_env(env.unwrapped)
    assert "hand" in (env.unwrapped.render() or "") or env.unwrapped.render()


def test_action_space_samples_legal_actions(test_seed: int) -> None:
    env = GinRummyEnv()
    env.action_space.seed(test_seed)
    seen, _ = env.reset(seed=test_seed)
    for _ in range(300):
        action = env.action_space.sample()
        assert seen["action_mask"][action]
        seen, _, terminated, _, _ = env.step(action)
        if terminated:
            seen, _ = env.reset()


# --- the information boundary ---------------------------------------------------------------------------


def _walk(rules: Rules, seed: int, index: int, rng: np.random.Generator, greedy: bool = False) -> list[GameState]:
    """The positions of a hand played by random legal actions, the finished one last; ``greedy`` discards
    to the least deadwood instead (so that hands reach knock range), and knocks half the time it may."""
    state = GameState.deal(rules, seed, index)
    positions = [state.clone()]
    while not state.done:
        legal = state.legal_actions()
        if greedy and state.phase is Phase.DISCARD:
            hand = state.hands[state.player]
            knocks = [action for action in legal if KNOCK <= action < TAKE]
            discards = [action for action in legal if action < KNOCK]
            least = min(gincore.deadwood(hand & ~(1 << action)) for action in discards)
            best = [action for action in discards if gincore.deadwood(hand & ~(1 << action)) == least]
            legal = knocks if knocks and rng.random() < 0.5 else best
        state.apply(int(rng.choice(legal)))
        positions.append(state.clone())
    return positions


def _same_view(first: GameState, second: GameState, player: int) -> None:
    for layout in LAYOUTS:
        mine, theirs = observe(first, player, layout), observe(second, player, layout)
        np.testing.assert_array_equal(mine["observation"], theirs["observation"])
        np.testing.assert_array_equal(mine["action_mask"], theirs["action_mask"])


@pytest.mark.parametrize("preset", PRESETS)
def test_hidden_cards_change_no_observation(preset: str, rng: np.random.Generator, seed_for) -> None:
    """Dealing again every card a player has not seen (determinize) changes neither its observation nor
    its mask, in every phase, for both players, in every layout."""
    rules = Rules.preset(preset)
    phases, compared, changed = set(), 0, 0
    for index in range(12):
        for state in _walk(rules, seed_for(preset), index, rng)[:-1]:
            phases.add(state.phase)
            for player in (0, 1):
                other = state.determinize(player, int(rng.integers(2**32)))
                changed += other.hands[1 - player] != state.hands[1 - player]
                compared += 1
                _same_view(state, other, player)
    assert phases == {Phase.OFFER, Phase.DRAW, Phase.DISCARD}
    assert changed > compared // 2  # the hidden cards did move


def test_hidden_cards_change_no_showdown_observation(rng: np.random.Generator, test_seed: int) -> None:
    """At the showdown too: two hands ended by the same knock, differing in cards a player never saw,
    look the same to it — the knocker (the defender's cards differ) and the defender (the knocker's
    hidden cards and face-down discard differ)."""
    checked = {"knocker": 0, "defender": 0}
    index = 0
    while min(checked.values()) < 5 and index < 400:
        for state in _walk(Rules(), test_seed, index, rng, greedy=True):
            knocks = [action for action in state.legal_actions() if KNOCK <= action < TAKE]
            if not knocks:
                continue
            knocker = state.player
            ended = state.clone()
            ended.apply(knocks[0])
            # the knocker's view: the defender's hand and the stock dealt again
            other = state.determinize(knocker, int(rng.integers(2**32)))
            other.apply(knocks[0])
            _same_view(ended, other, knocker)
            checked["knocker"] += 1
            # the defender's view: the knocker's unseen cards dealt again, then a knock with the same card
            # if the defender knew it was the knocker's, else with a card it did not know of
            known = state.view(1 - knocker).opponent_took
            for _ in range(20):
                guess = state.determinize(1 - knocker, int(rng.integers(2**32)))
                theirs = [action for action in guess.legal_actions() if KNOCK <= action < TAKE
                          and (action == knocks[0] if known >> (knocks[0] - KNOCK) & 1
                               else not known >> (action - KNOCK) & 1)]
                if theirs:
                    guess.apply(theirs[0])
                    _same_view(ended, guess, 1 - knocker)
                    checked["defender"] += 1
                    break
            break
        index += 1
    assert min(checked.values()) >= 5


def test_observation_shows_no_hidden_card(rng: np.random.Generator, test_seed: int) -> None:
    """The observation's card planes name the player's hand and public cards only: never a card of
    the opponent's hand it has not seen taken, nor a stock card (those are 'unseen' and nothing else)."""
    for index in range(10):
        for state in _walk(Rules(), test_seed, index, rng):
            for player in (0, 1):
                seen = observe(state, player)["observation"]
                hidden = (state.hands[1 - player] & ~state.view(player).opponent_took) | sum(
                    1 << card for card in state.stock)
                for card in range(52):
                    if hidden >> card & 1:
                        slots = [seen[plane * 52 + card] for plane in range(9)]
                        assert slots == [0] * 8 + [1], (card, slots)


def test_view_observation_is_the_position_observation(rng: np.random.Generator, test_seed: int) -> None:
    """A strategy's View alone gives the observation and mask the environments give (what lets a
    trained policy play as a strategy)."""
    rules = Rules(big_gin_bonus=31)
    for index in range(10):
        for state in _walk(rules, test_seed, index, rng)[:-1]:
            player = state.player
            big_gin = bool(state.legal_mask()[BIG_GIN])
            for layout in LAYOUTS:
                from_view = observe_view_of(state.view(player), state.phase, big_gin, layout)
                from_state = observe(state, player, layout)
                np.testing.assert_array_equal(from_view["observation"], from_state["observation"])
                np.testing.assert_array_equal(from_view["action_mask"], from_state["action_mask"])


@pytest.mark.parametrize("preset", PRESETS)
def test_masks_are_the_legal_actions(preset: str, rng: np.random.Generator, seed_for) -> None:
    """The mover's mask is GameState's legal actions, in knock range too; the other player's is empty."""
    rules = Rules.preset(preset).replace(big_gin_bonus=31)
    knock_range = 0
    for index in range(30):
        for state in _walk(rules, seed_for(preset), index, rng, greedy=index % 2 == 1):
            mask = observe(state, state.player)["action_mask"]
            np.testing.assert_array_equal(mask.astype(bool), state.legal_mask())
            assert not observe(state, 1 - state.player)["action_mask"].any()
            knock_range += bool(mask[KNOCK:TAKE].any())
    assert knock_range > 0


def test_hands_show_only_in_final_info(test_seed: int) -> None:
    env = aec_env()
    env.reset(seed=test_seed)
    for agent in env.agent_iter(400):
        seen, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert info["hand"]["opponent_hand"] == env.state.hands[1 - int(agent[-1])]
            assert info["hand"]["opponent_cards"] == gincore.format_cards(info["hand"]["opponent_hand"])
            env.step(None)
            continue
        assert info == {}
        env.step(hashed_policy(seen["observation"], seen["action_mask"]))


def test_compact_fields() -> None:
    state = GameState.from_cards(Rules(target=250), ["2C 3C 4C 5D 6D 7D 8H 9H TH KS", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS"],
                                 "QH", "AC AD AH JC JD JH JS QC QD QS KC KD KH 5C 6C 7C 8C 9C TC 2D 3D 4D 8D 9D "
                                 "TD 2H 3H 4H 5H 6H 7H", dealer=1, scores=(40, 200))
    seen = observe(state, 0)["observation"]
    hearts_queen = 2 * 13 + 11
    assert seen[field_slots("pile")][hearts_queen] == 1 and seen[field_slots("face_up")][hearts_queen] == 1
    assert seen[field_slots("phase")].tolist() == [1, 0, 0, 0]
    assert seen[field_slots("to_move")][0] == 1 and seen[field_slots("dealer")][0] == 0
    assert seen[field_slots("scores")].tolist() == [40, 127]
    assert seen[field_slots("unseen")].sum() == 52 - 11
    state.apply(REFUSE)
    state.apply(TAKE)  # the dealer takes the upcard: player 0 sees it in the opponent's hand
    after = observe(state, 0)["observation"]
    assert after[field_slots("opponent_holds")][hearts_queen] == 1 and after[field_slots("to_move")][0] == 0


def test_openspiel_layout_matches_openspiel(rng: np.random.Generator, test_seed: int) -> None:
    """OpenSpiel's own tensor on the same deal, through the upcard offer and the first draws and discards."""
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("gin_rummy")
    spiel_card = [((card // 13 + 1) % 4) * 13 + card % 13 for card in range(52)]  # its suits: S C D H

    def cards(mask: int) -> list[int]:
        return [card for card in range(52) if mask >> card & 1]

    draw_upcard, draw_stock, pass_upcard = 52, 53, 54
    for index in range(6):
        state = GameState.deal(Rules(), test_seed, index)
        first = 1 - state.dealer  # OpenSpiel's player 0, who moves first
        theirs = game.new_initial_state()
        for card in [*cards(state.hands[first]), *cards(state.hands[1 - first]), state.pile[0]]:
            theirs.apply_action(spiel_card[card])
        for _ in range(10):
            for player in (0, 1):
                spiel = np.array(theirs.observation_tensor(0 if player == first else 1), np.int8)
                np.testing.assert_array_equal(observe(state, player, "openspiel")["observation"], spiel)
            action = int(rng.choice([move for move in state.legal_actions() if move < KNOCK or move >= TAKE]))
            phase, mover, stock_top = state.phase, state.player, state.stock[0]
            state.apply(action)
            if action == TAKE:
                moves = [draw_upcard]
            elif action == REFUSE and phase is Phase.OFFER:
                moves = [pass_upcard] + ([draw_stock, spiel_card[stock_top]] if mover == state.dealer else [])
            elif action == REFUSE:
                moves = [draw_stock, spiel_card[stock_top]]
            else:
                moves = [spiel_card[action]]
            for move in moves:
                theirs.apply_action(move)
            if state.done:
                break


# --- the vector environment -------------------------------------------------------------------------------


def test_vector_table_zero_is_the_single_environment(test_seed: int) -> None:
    """Table 0 of the vector environment and GinRummyEnv with the same seed play the same hands, move for
    move, across the autoresets."""
    vector = VectorGinRummyEnv(3, opponent="greedy", seed=test_seed)
    single = GinRummyEnv(opponent="greedy")
    seen, _ = vector.reset()
    alone, _ = single.reset(seed=test_seed)
    for _ in range(150):
        np.testing.assert_array_equal(seen["observation"][0], alone["observation"])
        np.testing.assert_array_equal(seen["action_mask"][0], alone["action_mask"])
        actions = np.array([hashed_policy(seen["observation"][t], seen["action_mask"][t]) for t in range(3)])
        seen, rewards, terminations, _, infos = vector.step(actions)
        alone, reward, terminated, _, info = single.step(int(actions[0]))
        assert (rewards[0], terminations[0]) == (reward, terminated)
        if terminated:
            np.testing.assert_array_equal(infos["final_obs"][0]["observation"], alone["observation"])
            assert infos["final_info"]["opponent_hand"][0] == info["hand"]["opponent_hand"]
            alone, _ = single.reset()


def test_vector_tables_deal_game_states(test_seed: int) -> None:
    """Table t first deals hand t << 40 of the seed, as GameState.deal does."""
    vector = VectorGinRummyEnv(6, opponent="simple", seed=test_seed, observation="openspiel")
    seen, _ = vector.reset()
    for table in range(6):
        state = GameState.deal(Rules(), test_seed, table << 40)
        if state.player == 0:  # the agent moves first: nothing happened before its decision
            np.testing.assert_array_equal(seen["observation"][table], observe(state, 0, "openspiel")["observation"])


def test_vector_rewards_are_the_hands_points(test_seed: int) -> None:
    vector = VectorGinRummyEnv(16, opponent="simple", seed=test_seed, copy=False)
    wins = VectorGinRummyEnv(16, opponent="simple", seed=test_seed, reward="win")
    seen, _ = vector.reset()
    wins.reset()
    ended = 0
    for _ in range(200):
        actions = vector.random_legal_actions()
        assert seen["action_mask"][np.arange(16), actions].all()
        seen, rewards, terminations, truncations, infos = vector.step(actions)
        _, signs, _, _, _ = wins.step(actions)
        assert not truncations.any()
        np.testing.assert_array_equal(np.sign(rewards), signs)
        assert (rewards[~terminations] == 0).all()
        assert seen["action_mask"].any(axis=1).all()  # same-step autoreset: always a decision
        ended += int(terminations.sum())
        if terminations.any():
            assert set(np.flatnonzero(infos["_final_obs"])) == set(np.flatnonzero(terminations))
    assert ended > 50
    assert vector.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP


def test_native_tables_step_only_dealt_hands() -> None:
    tables = tables_for(Rules(), "simple", 2, "compact")
    buffers = (np.zeros((2, 480), np.int8), np.zeros((2, 107), np.int8), np.zeros(2, np.float32),
               np.zeros(2, np.uint8), np.zeros((2, 480), np.int8), np.zeros(2, np.uint64))
    with pytest.raises(InputError, match="no hand is dealt"):
        tables.step(np.full(2, TAKE, np.int64), buffers[0], buffers[1], *buffers[2:], True)


def test_vector_illegal_action_moves_no_table(test_seed: int) -> None:
    vector = VectorGinRummyEnv(4, seed=test_seed)
    seen, _ = vector.reset()
    actions = vector.random_legal_actions()
    actions[2] = 0 if not seen["action_mask"][2, 0] else 106 if not seen["action_mask"][2, 106] else 1
    with pytest.raises(InputError, match="table 2"):
        vector.step(actions)
    again, _, _, _, _ = vector.step(vector.random_legal_actions())
    assert again["observation"].shape == (4, 480)
    with pytest.raises(InputError):
        vector.step(np.zeros(3, np.int64))


def test_vector_python_opponent(test_seed: int) -> None:
    class Stubborn:
        name = "stubborn"

        def take_discard(self, view):
            return False

        def discard(self, view):
            return max(view.discard_options())

        def knock(self, view):
            return True

    vector = VectorGinRummyEnv(3, opponent=Stubborn(), seed=test_seed)
    vector.reset()
    for _ in range(40):
        vector.step(vector.random_legal_actions())

    class Broken(Stubborn):
        def discard(self, view):
            raise RuntimeError("no")

    broken = VectorGinRummyEnv(2, opponent=Broken(), seed=test_seed)
    with pytest.raises(StrategyError, match="no"):
        broken.reset()
        for _ in range(40):
            broken.step(broken.random_legal_actions())


# --- rewards and episodes --------------------------------------------------------------------------------


@pytest.mark.parametrize("reward", ["match", "shaped", "points"])
def test_match_episode_rewards(reward: str, test_seed: int) -> None:
    """A match episode pays its result (shaped rewards add up to it), and every hand counts: the infos
    list each hand once, with the step that pays for it (two at once when the opponent ends the next
    hand before the agent's first decision in it)."""
    env = GinRummyEnv(opponent="simple", rules=Rules(target=60), episode="match", reward=reward)
    env.action_space.seed(test_seed)
    for episode in range(3):
        env.reset(seed=test_seed + episode)
        total, hands = 0.0, []
        while True:
            _, paid, terminated, _, info = env.step(env.action_space.sample())
            total += paid
            if "hands" in info:
                hands += info["hands"]
                assert info["hand"] == info["hands"][-1]
            if terminated:
                break
        result = info["match"]
        outcome = 1.0 if result["winner"] == 0 else -1.0
        if reward == "points":
            assert total == pytest.approx(sum(hand["points"] * (1 if hand["winner"] == 0 else -1)
                                              for hand in hands if hand["winner"] >= 0))
        else:
            assert total == pytest.approx(outcome, abs=1e-9)
        assert result["hands"] == len(hands)


def test_hands_the_opponent_ends_before_the_agent_decides_are_paid_and_listed_with_its_next_step(
        test_seed: int) -> None:
    """A match whose first hand the opponent ends at once (it takes the upcard and knocks): reset shows
    the score it won and lists no hand; the agent's first step pays that hand and lists it first.
    About 1 reset in 1,000 deals such a hand (greedy: 20 of 20,000 seeds, measured), so 50,000 seeds all
    missing one has probability about e^-50."""
    env = GinRummyEnv(opponent="greedy", rules=Rules(target=200), episode="match", reward="points")
    scores = field_slots("scores")
    for seed in range(test_seed, test_seed + 50_000):
        seen, info = env.reset(seed=seed % 2**63)
        if seen["observation"][scores][1] > 0:
            break
    else:
        pytest.fail("no reset out of 50,000 began after a hand the opponent won")
    assert "hand" not in info and "hands" not in info
    _, paid, _, _, info = env.step(env.action_space.sample())
    first = info["hands"][0]
    assert first["winner"] == 1 and first["points"] == seen["observation"][scores][1]
    assert info["hand"] == info["hands"][-1]
    assert paid == sum(hand["points"] * (1 if hand["winner"] == 0 else -1) for hand in info["hands"]
                       if hand["winner"] >= 0)


@pytest.mark.parametrize("reward", ["shaped", "points"])
def test_vector_table_zero_plays_the_matches_of_the_single_environment(reward: str, test_seed: int) -> None:
    """In match episodes too, table 0 of the vector environment and GinRummyEnv with the same seed play the
    same hands, move for move, with the same scores shown, rewards and match ends, across the matches."""
    rules = Rules(target=60)
    vector = VectorGinRummyEnv(3, opponent="greedy", rules=rules, reward=reward, episode="match", seed=test_seed)
    single = GinRummyEnv(opponent="greedy", rules=rules, reward=reward, episode="match")
    seen, _ = vector.reset()
    alone, _ = single.reset(seed=test_seed)
    matches = hands = 0  # hands the agent played to their end; a match has at least one
    while matches < 3:
        np.testing.assert_array_equal(seen["observation"][0], alone["observation"])
        np.testing.assert_array_equal(seen["action_mask"][0], alone["action_mask"])
        actions = np.array([hashed_policy(seen["observation"][t], seen["action_mask"][t]) for t in range(3)])
        seen, rewards, terminations, _, infos = vector.step(actions)
        alone, reward_paid, terminated, _, info = single.step(int(actions[0]))
        assert rewards[0] == pytest.approx(reward_paid, abs=1e-6)
        assert terminations[0] == terminated
        assert infos["hand_over"][0] == ("hand" in info)
        if infos["hand_over"][0]:
            agent_hand = info["hands"][-1]
            signed = agent_hand["points"] * (1 if agent_hand["winner"] == 0 else -1 if agent_hand["winner"] == 1 else 0)
            assert infos["points"][0] == signed
            hands += 1
        if terminated:
            np.testing.assert_array_equal(infos["final_obs"][0]["observation"], alone["observation"])
            matches += 1
            alone, _ = single.reset()
    assert hands >= matches


def test_vector_matches_pay_their_results_and_show_their_scores(test_seed: int) -> None:
    """Every table's shaped rewards over a match add up to its result (+1 or -1), a hand's end within the
    match terminates nothing, and the scores the agent sees only grow within a match."""
    rules = Rules.preset("eaai")
    env = VectorGinRummyEnv(6, opponent="simple", rules=rules, reward="shaped", episode="match", seed=test_seed,
                            observation="learner")
    seen, _ = env.reset()
    slots = field_slots("scores", "learner")
    totals, shown = np.zeros(6), seen["observation"][:, slots].astype(int)
    results = []
    for _ in range(3000):
        seen, rewards, terminations, _, infos = env.step(env.random_legal_actions())
        totals += rewards
        now = seen["observation"][:, slots].astype(int)
        going_on = ~terminations
        assert (now[going_on] >= shown[going_on]).all()
        assert not (infos["hand_over"] & ~terminations & (rewards == 0) & (infos["points"] != 0)).any()
        for table in np.flatnonzero(terminations):
            results.append(totals[table])
            totals[table] = 0
        shown = now
    assert len(results) > 20
    np.testing.assert_allclose(np.abs(results), 1.0, atol=1e-6)


def test_aec_rewards_are_zero_sum(test_seed: int) -> None:
    env = aec_env(episode="match", reward="shaped", rules=Rules(target=50))
    env.reset(seed=test_seed)
    totals = {"player_0": 0.0, "player_1": 0.0}
    for agent in env.agent_iter(200_000):
        seen, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        env.step(None if terminated or truncated else hashed_policy(seen["observation"], seen["action_mask"]))
    assert not env.agents  # the match ended, and both agents left
    assert totals["player_0"] == pytest.approx(-totals["player_1"])
    assert abs(totals["player_0"]) == pytest.approx(1.0)


def test_bad_arguments() -> None:
    with pytest.raises(InputError, match="episode='match'"):
        aec_env(reward="match")
    with pytest.raises(InputError, match="unknown reward"):
        GinRummyEnv(reward="money")
    with pytest.raises(InputError, match="layout"):
        GinRummyEnv(observation="pixels")
    with pytest.raises(InputError, match="episode='match'"):
        VectorGinRummyEnv(2, reward="shaped")
    with pytest.raises(InputError, match="target"):
        VectorGinRummyEnv(2, rules=Rules(target=None), episode="match", reward="shaped")
    env = aec_env()
    env.reset(seed=1)
    with pytest.raises(InputError, match="illegal"):
        env.step(0)
    with pytest.raises(InputError, match="integer"):
        env.step(1.5)  # type: ignore[arg-type]
    single = GinRummyEnv()
    single.reset(seed=1)
    with pytest.raises(InputError, match=r"illegal here; legal: 104 \(take the face-up card\), 105"):
        single.step(3)


# --- policies as strategies ----------------------------------------------------------------------------


def test_policy_strategy_plays_as_the_environment_sees(test_seed: int) -> None:
    """A policy playing as a strategy in play_hand makes the moves it makes stepping a GameState with the
    environments' observations (taking back its own discards as the environments allow)."""
    rules = Rules(big_gin_bonus=31)
    policy = PolicyStrategy(hashed_policy, takes_back_discards=True)
    for index in range(20):
        played = play_hand(rules, [policy, policy], seed=test_seed, index=index)
        state = GameState.deal(rules, test_seed, index)
        while not state.done:
            seen = observe(state, state.player)
            state.apply(hashed_policy(seen["observation"], seen["action_mask"]))
        assert state.result is not None and state.result.actions == played.actions
        assert state.result.points == played.points


def test_policy_strategy_runs_anywhere() -> None:
    records = simulate(Rules(), [PolicyStrategy(hashed_policy, name="hashed"), "simple"], hands=20, seed=1,
                       workers=1)
    assert len(records) == 20

    def illegal(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    with pytest.raises(StrategyError, match="not legal"):
        play_hand(Rules(), [PolicyStrategy(illegal, name="cheat"), "simple"], seed=1)
