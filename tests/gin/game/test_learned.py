"""The native learned strategy: its forward pass against numpy's and PyTorch's on random weights and real
observations, its moves against the same network played as a PolicyStrategy, legality under every preset,
reproducible hands, and the registry's refusals."""
from __future__ import annotations

import hashlib
import pickle
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gincore._engine import STRATEGY_KINDS, VECTOR_UNIT_NAMES, Engine, vector_unit
from gincore.errors import InputError
from ginsim import PRESETS, Rules
from ginsim.gin import GameState
from ginsim.gin.game.native import native_config
from ginsim.gin.game.players import native_spec, player_name
from ginsim.gin.game.policy.file import save_policy
from ginsim.gin.game.policy.learned import Network, default_network, learned_player, network_of
from ginsim.gin.game.policy.observations import observation_size, observe
from ginsim.gin.game.policy.strategy import PolicyStrategy


def random_network(directory: Path, seed: int, layout: str = "learner", hidden: tuple[int, ...] = (64, 32),
                   rules: Rules | None = None) -> Path:
    """A policy file of random weights (He-scaled, so that logits spread) and a random input scale."""
    rng = np.random.default_rng(seed)
    sizes = (observation_size(layout), *hidden, 107)
    layers = [(rng.normal(size=(out, inputs)) * np.sqrt(2 / inputs), rng.normal(size=out) * 0.1)
              for inputs, out in zip(sizes, sizes[1:], strict=False)]
    scale = rng.uniform(0.01, 1.0, sizes[0])
    scale[rng.random(sizes[0]) < 0.1] = 0  # slots a trainer switched off
    name = f"net-{layout}-{seed}-{'x'.join(map(str, hidden))}.npz"
    return save_policy(directory / name, layers, layout=layout, rules=rules or Rules(), input_scale=scale)


def real_observations(layout: str, seed: int, hands: int = 6) -> tuple[np.ndarray, np.ndarray]:
    """The observations and masks of the player to move at every decision of random hands."""
    rng = np.random.default_rng(seed)
    rows, masks = [], []
    for index in range(hands):
        state = GameState.deal(Rules.preset(sorted(PRESETS)[index % len(PRESETS)]), seed=seed + index)
        while not state.done:
            seen = observe(state, state.player, layout)
            rows.append(seen["observation"])
            masks.append(seen["action_mask"])
            state.apply(int(rng.choice(state.legal_actions())))
    return np.array(rows), np.array(masks)


def numpy_logits(network: Network, observations: np.ndarray) -> np.ndarray:
    """The forward pass in float64 numpy, from the file's own arrays."""
    values = observations.astype(np.float64) * network.weights.input_scale
    for index, (weights, biases) in enumerate(network.weights.layers):
        values = values @ weights.astype(np.float64).T + biases
        if index < len(network.weights.layers) - 1:
            values = np.maximum(values, 0)
    return values


NETWORKS = [("learner", (256, 256)), ("compact", ()), ("openspiel", (48,)), ("learner", (64, 32, 16)),
            ("learner", (200, 72))]  # widths that are not whole blocks of the vector kernels' 64 and 128 outputs


def each_vector_unit() -> Iterator[str]:
    """Set the network's kernels to each kind this processor has in turn (then back as they were): every
    network is checked on each without loading it again (a process holds at most 64)."""
    before = vector_unit()
    try:
        for name in VECTOR_UNIT_NAMES:
            if vector_unit(name) == name:
                yield name
    finally:
        vector_unit(before)


@pytest.mark.parametrize("layout, hidden", NETWORKS)
def test_native_forward_is_numpys(tmp_path: Path, test_seed: int, layout: str, hidden: tuple[int, ...]) -> None:
    network = network_of(random_network(tmp_path, test_seed, layout, hidden))
    observations, masks = real_observations(layout, test_seed)
    everything = np.ones_like(masks)
    expected = numpy_logits(network, observations)
    spread = float(np.abs(expected).max())
    for unit in each_vector_unit():
        logits, actions = network.forward(observations, everything)
        np.testing.assert_allclose(logits, expected, rtol=1e-4, atol=1e-5 * spread, err_msg=unit)
        # the choice among the legal actions: the greatest logit (float32 may order near-ties otherwise)
        legal_logits, chosen = network.forward(observations, masks)
        for row in range(len(observations)):
            legal = np.flatnonzero(masks[row])
            assert masks[row, chosen[row]] and legal_logits[row, chosen[row]] == legal_logits[row, legal].max()
            best = expected[row, legal].max()
            assert expected[row, chosen[row]] >= best - 1e-4 * spread, unit
        assert np.isinf(legal_logits[masks == 0]).all()


@pytest.mark.parametrize("layout, hidden", NETWORKS[:2])
def test_native_forward_is_pytorchs(tmp_path: Path, test_seed: int, layout: str, hidden: tuple[int, ...]) -> None:
    torch = pytest.importorskip("torch")
    network = network_of(random_network(tmp_path, test_seed, layout, hidden))
    modules = []
    for index, (weights, biases) in enumerate(network.weights.layers):
        linear = torch.nn.Linear(weights.shape[1], weights.shape[0])
        with torch.no_grad():
            linear.weight.copy_(torch.from_numpy(weights))
            linear.bias.copy_(torch.from_numpy(biases))
        modules += [linear] + ([torch.nn.ReLU()] if index < len(network.weights.layers) - 1 else [])
    model = torch.nn.Sequential(*modules)
    observations, masks = real_observations(layout, test_seed + 1)
    with torch.no_grad():
        inputs = torch.from_numpy(observations.astype(np.float32) * network.weights.input_scale)
        expected = model(inputs).numpy()
    for unit in each_vector_unit():
        logits, _ = network.forward(observations, np.ones_like(masks))
        np.testing.assert_allclose(logits, expected, rtol=1e-4, atol=1e-5 * float(np.abs(expected).max()),
                                   err_msg=unit)


def test_the_vector_units_agree(tmp_path: Path, test_seed: int) -> None:
    """AVX2's and AVX-512's kernels give the same logits to the bit; the baseline's differ from theirs in the
    last bits only, and so choose the same action but where two legal logits are as near as that."""
    available = list(each_vector_unit())
    if len(available) < 2:
        pytest.skip("this processor has no vector unit the kernels use")
    networks = [network_of(random_network(tmp_path, test_seed, "learner", (384, 384))),
                network_of(default_network(Rules()).path)]
    observations, masks = real_observations("learner", test_seed, hands=10)
    for network in networks:
        found = {name: network.forward(observations, masks) for name in each_vector_unit()}
        for name in available[2:]:
            np.testing.assert_array_equal(found[name][0], found["avx2+fma"][0])
        base_logits, base_actions = found["baseline"]
        logits, actions = found["avx2+fma"]
        legal = masks.astype(bool)
        spread = float(np.abs(base_logits[legal]).max())
        np.testing.assert_allclose(logits[legal], base_logits[legal], rtol=1e-5, atol=1e-6 * spread)
        for row in np.flatnonzero(actions != base_actions):
            gap = abs(base_logits[row, actions[row]] - base_logits[row, base_actions[row]])
            assert gap <= 1e-5 * spread, (row, gap)


def test_an_unknown_vector_unit_is_refused() -> None:
    with pytest.raises(InputError, match="vector unit: one of baseline, avx2"):
        vector_unit("sse9")


def _records(engine: Engine, first: int, count: int) -> dict[str, np.ndarray]:
    return engine.play_hands(11, 12, first, count)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_learned_plays_its_policy_under_every_preset(tmp_path: Path, test_seed: int, preset: str) -> None:
    """Natively, the learned strategy makes the moves the same network makes as a PolicyStrategy (the
    native forward pass called from Python): the knock as one action mapped onto the hand loop's
    questions, the upcard offer, the draw and big gin alike."""
    rules = Rules.preset(preset)
    path = random_network(tmp_path, test_seed, "learner", (32,), rules)
    network = network_of(path)

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(network.forward(observation, mask)[1][0])

    config = native_config(rules)
    for opponent in ("random", "marjj"):
        native = _records(Engine(config, [learned_player(path, rules), native_spec(opponent, rules)]), 0, 40)
        python = _records(Engine(config, [native_spec(PolicyStrategy(policy, observation="learner"), rules),
                                          native_spec(opponent, rules)]), 0, 40)
        for column in native:
            np.testing.assert_array_equal(native[column], python[column], err_msg=column)
    both = _records(Engine(config, [learned_player(path), learned_player(path)]), 0, 30)
    assert set(both["outcome"]) <= {0, 1, 2, 3, 4} and (both["turns"] > 0).all()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), hidden=st.lists(st.integers(1, 40), max_size=3),
       layout=st.sampled_from(["learner", "compact", "openspiel"]), preset=st.sampled_from(sorted(PRESETS)))
@pytest.mark.slow
def test_learned_always_moves_legally(tmp_path_factory: pytest.TempPathFactory, seed: int, hidden: list[int],
                                      layout: str, preset: str) -> None:
    """Any network plays whole hands of any rules: every move it makes is legal (an illegal one would be
    refused by GameState.apply, and the native hands agree with those)."""
    rules = Rules.preset(preset)
    path = random_network(tmp_path_factory.mktemp("net"), seed, layout, tuple(hidden), rules)
    network = network_of(path)
    for index in range(3):
        state = GameState.deal(rules, seed=seed + index)
        while not state.done:
            seen = observe(state, state.player, layout)
            if layout != "openspiel":
                seen["observation"][478:480] = 0
            action = int(network.forward(seen["observation"], seen["action_mask"])[1][0])
            assert seen["action_mask"][action]
            state.apply(action)
    players = [learned_player(path), native_spec("random", rules)]
    hands = Engine(native_config(rules), players).play_hands(1, seed, 0, 20)
    assert len(hands["points"]) == 20


def test_learned_hands_are_reproducible(tmp_path: Path, test_seed: int) -> None:
    path = random_network(tmp_path, test_seed)
    engine = Engine(native_config(Rules()), [learned_player(path), native_spec("marjj", Rules())])
    whole = _records(engine, 0, 30)
    first, second = _records(engine, 0, 12), _records(engine, 12, 18)
    again = _records(Engine(native_config(Rules()), [learned_player(path), native_spec("marjj", Rules())]), 0, 30)
    for column in whole:
        np.testing.assert_array_equal(whole[column], np.concatenate([first[column], second[column]]))
        np.testing.assert_array_equal(whole[column], again[column])


def test_networks_load_once_and_pickle_as_their_file(tmp_path: Path, test_seed: int) -> None:
    path = random_network(tmp_path, test_seed)
    network = network_of(path)
    assert network_of(str(path)) is network and learned_player(path)[1] is network
    assert pickle.loads(pickle.dumps(network)) is network
    engine = Engine(native_config(Rules()), [learned_player(path), native_spec("simple", Rules())])
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(engine)).play_hands(1, 2, 0, 5)["points"],
                                  engine.play_hands(1, 2, 0, 5)["points"])
    sent = pickle.dumps(network)
    random_network(tmp_path, test_seed + 1).replace(path)
    with pytest.raises(InputError, match="changed after it was loaded"):
        pickle.loads(sent)


def test_refusals(tmp_path: Path, test_seed: int) -> None:
    path = random_network(tmp_path, test_seed, rules=Rules.preset("oklahoma"))
    with pytest.raises(InputError, match="trained for other rules: oklahoma True"):
        learned_player(path, Rules())
    with pytest.raises(InputError, match="no network 9999 is loaded"):
        Engine(native_config(Rules()), [(STRATEGY_KINDS["learned"], 9999), native_spec("simple", Rules())])
    with pytest.raises(InputError, match=r"weights must be the path of an existing \.npz file, or none"):
        native_spec("learned:3", Rules())
    with pytest.raises(InputError, match="learned has no parameter 'weight'"):
        native_spec(f"learned(weight={str(path)!r})", Rules())
    with pytest.raises(InputError, match="no such file"):
        learned_player(tmp_path / "missing.npz")
    network = network_of(path)
    with pytest.raises(InputError, match="reads rows of 636 values"):
        network.forward(np.zeros((1, 480), np.int8), np.ones((1, 107), np.int8))


def test_the_weights_are_a_typed_parameter(tmp_path: Path, test_seed: int) -> None:
    """learned(weights=PATH) plays the file as learned_player(PATH) does, in any run; the name carries
    the file's absolute path, the run's identity its SHA-256, so a changed file is another run."""
    from ginsim import simulate
    from ginsim.gin.game.native import run_key
    from ginsim.gin.game.players import run_identity

    path = random_network(tmp_path, test_seed, rules=Rules())
    name = f"learned(weights={str(path.resolve())!r})"
    assert name == player_name(f"learned:{path}") == player_name(f" Learned( weights = '{path}' ) ")
    by_name = simulate(Rules(), [name, "marjj"], 30, test_seed, workers=2, chunk_size=7)
    key = run_key(test_seed)
    players = [learned_player(path), native_spec("marjj", Rules())]
    by_engine = Engine(native_config(Rules()), players).play_hands(*key, 0, 30)
    for column in ("points", "winner", "turns", "knocker_deadwood"):
        assert by_name[column].tolist() == by_engine[column].tolist()
    identity = run_identity([name, "marjj"])
    assert identity["parameter_files"][0]["weights"] == hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_shipped_weights_are_part_of_a_runs_identity(tmp_path: Path, test_seed: int) -> None:
    """learned with no weights plays the package's shipped files: a stored run holds their SHA-256, so a
    run stored with other shipped weights (another release's) is refused, not resumed and mixed."""
    import json
    from importlib import resources

    from ginsim.gin.game.players import run_identity
    from ginsim.gin.game.policy.learned import SHIPPED
    from tests.cli_runner import invoke

    shipped = b"".join((resources.files("ginsim.gin") / "data" / name).read_bytes() for name in SHIPPED)
    identity = run_identity(["learned", "simple"])
    assert identity["parameter_files"] == [{"weights": hashlib.sha256(shipped).hexdigest()}, None]
    out = tmp_path / "run"
    command = ("run", "--players", "learned,simple", "--hands", "12", "--seed", str(test_seed), "--out", str(out))
    assert invoke(*command)[0] == 0
    stored = json.loads((out / "_run.json").read_text())
    assert stored["parameter_files"] == identity["parameter_files"]
    stored["parameter_files"][0]["weights"] = hashlib.sha256(b"other weights").hexdigest()
    (out / "_run.json").write_text(json.dumps(stored))
    parts = sorted(out.glob("*.parquet"))
    code, printed, err = invoke(*command)
    assert code == 2 and printed == "" and len(err.strip().splitlines()) == 1
    assert "holds a different run: parameter_files" in err
    assert sorted(out.glob("*.parquet")) == parts


def test_a_policy_plays_only_the_hands_it_was_trained_for(tmp_path: Path, test_seed: int) -> None:
    """A game's target, bonuses and dealer may differ from those of its training; a hand rule may not, and
    learned(weights=...) under other hand rules is refused in one line, by simulate and by the CLI."""
    from ginsim import simulate
    from tests.cli_runner import invoke, one_line_error

    path = random_network(tmp_path, test_seed, hidden=(16,), rules=Rules(target=250, game_bonus=50))
    name = f"learned(weights={str(path)!r})"
    assert len(simulate(Rules.preset("eaai"), [name, "simple"], 5, test_seed, workers=1)) == 5
    for rules, field in ((Rules.preset("knock5"), "knock_limit 10 (not 5)"),
                         (Rules.preset("oklahoma"), "oklahoma False (not True)"),
                         (Rules(exhaustion="reshuffle"), "exhaustion 'draw' (not 'reshuffle')")):
        with pytest.raises(InputError, match=re.escape(f"was trained for other rules: {field}")):
            simulate(rules, [name, "simple"], 5, test_seed, workers=1)
    assert Rules(max_reshuffles=3).hand_play() == Rules().hand_play()  # ignored where the stock is not reshuffled
    code, out, err = invoke("run", "--rules", "knock5", "--players", f"{name},simple", "--hands", "3")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "trained for other rules: knock_limit 10 (not 5)" in err
    # The file is named without its directory, and oklahoma's own fields are not listed after it: one
    # short line (it was 176 columns with the path and every field the oklahoma rules bring).
    err = one_line_error(["run", "--rules", "oklahoma", "--players", f"{name},simple", "--hands", "3"],
                         f"Error: {path.name} was trained for other rules: oklahoma False (not True)\n")
    assert str(path.parent) not in err and len(err.replace(path.name, "policy.npz")) <= 81



def test_a_network_never_takes_back_its_own_discard(tmp_path: Path, test_seed: int) -> None:
    """Two networks that take back each other's discards cycled until the engine's 5,000-draw cap (the
    shipped Oklahoma policy against itself, seed 1, hand 2139). A network that takes the face-up card
    whenever it may, against itself, natively and as a PolicyStrategy (the same moves), never takes
    from the pile a card it discarded itself, and its hands end long before the cap."""
    from ginsim import play_hand
    from ginsim.gin.game.actions import KNOCK, REFUSE, TAKE, Action, MoveKind
    from ginsim.gin.game.state import Phase

    assert play_hand(Rules.preset("oklahoma"), ["learned", "learned"], 1, 2139).turns < 100  # it reached 5,000
    rng = np.random.default_rng(test_seed)
    size = observation_size("learner")
    biases = rng.normal(size=107)
    biases[TAKE], biases[REFUSE], biases[KNOCK:KNOCK + 52] = 100.0, 0.0, -100.0  # always take, never knock
    path = save_policy(tmp_path / "grabber.npz", [(np.zeros((107, size)), biases)], layout="learner",
                       rules=Rules(), input_scale=np.ones(size))
    network = network_of(path)

    def grabber() -> PolicyStrategy:
        return PolicyStrategy(lambda observation, mask: int(network.forward(observation, mask)[1][0]),
                              observation="learner")

    name = f"learned(weights={str(path)!r})"
    for players in ([name, name], [grabber(), grabber()]):
        for index in range(10):
            played = play_hand(Rules(), players, test_seed, index)
            assert played.turns < 300, played.turns
            state, discarded = GameState.deal(Rules(), test_seed, index), ([], [])
            for number in played.actions:
                action = Action(number)
                if action.kind is MoveKind.TAKE and state.phase is Phase.DRAW:
                    assert state.pile[-1] not in discarded[state.player]
                if action.kind in (MoveKind.DISCARD, MoveKind.KNOCK):
                    discarded[state.player].append(action.card)
                state.apply(number)
    assert [play_hand(Rules(), [name, name], test_seed, index).actions for index in range(3)] == \
        [play_hand(Rules(), [grabber(), grabber()], test_seed, index).actions for index in range(3)]


def test_learned_alone_plays_the_shipped_weights_of_the_games_variant() -> None:
    from ginsim import simulate
    from ginsim.gin.game.policy.learned import default_network

    for preset in ("standard", "eaai", "oklahoma"):
        rules = Rules.preset(preset)
        assert default_network(rules).weights.trained_for(rules)
        assert len(simulate(rules, ["learned", "simple"], 3, 1, workers=1)) == 3
    assert default_network(Rules.preset("oklahoma")) != default_network(Rules.preset("standard"))
    with pytest.raises(InputError, match=r"no shipped weights were trained for the hands of straight rules "
                                         r"\(shipped: eaai rules, oklahoma rules\); train a policy"):
        simulate(Rules.preset("straight"), ["learned", "simple"], 3, 1, workers=1)


def test_learned_shows_the_match_scores_only_to_a_network_trained_seeing_them(tmp_path: Path, test_seed: int) -> None:
    """A network that takes the face-up card exactly when its own match score is above 0: natively, it
    sees the scores only when its file says it was trained seeing them (``meta["sees_scores"]``); any
    other network sees 0-0, as in the single hands it learnt on."""
    from ginsim.gin.game.actions import REFUSE, TAKE
    from ginsim.gin.game.native import NativePlayers
    from ginsim.gin.game.policy.observations import field_slots

    size = observation_size("learner")
    weights, biases = np.zeros((107, size)), np.zeros(107)
    weights[TAKE, field_slots("scores", "learner").start] = 1.0  # the mover's own score, unscaled
    biases[TAKE], biases[REFUSE] = -0.5, 0.0
    rules = Rules.preset("eaai")
    files = {sees: save_policy(tmp_path / f"scores-{sees}.npz", [(weights, biases)], layout="learner", rules=rules,
                               input_scale=np.ones(size), meta={"sees_scores": True} if sees else {})
             for sees in (True, False)}
    for index in range(4):
        for scores in ((30, 10), (0, 10), (10, 0)):
            state = GameState.deal(rules, test_seed, index, scores=scores)
            own = scores[state.player]
            for sees, path in files.items():
                players = NativePlayers([native_spec(f"learned(weights={str(path)!r})", rules)] * 2)
                chosen = state.choose(players, test_seed)
                assert chosen == (TAKE if sees and own > 0 else REFUSE), (sees, scores, state.player)
