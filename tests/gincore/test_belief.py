"""The experimental belief network's native forward pass against torch's, on random weights and views."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from gincore._engine import belief_forward, load_belief  # noqa: E402


def test_native_forward_matches_torch() -> None:
    rng = np.random.default_rng(5)
    torch.manual_seed(5)
    net = torch.nn.Sequential(torch.nn.Linear(262, 64), torch.nn.ReLU(), torch.nn.Linear(64, 32), torch.nn.ReLU(),
                              torch.nn.Linear(32, 53))
    linear = [module for module in net if isinstance(module, torch.nn.Linear)]
    load_belief([(m.weight.detach().numpy(), m.bias.detach().numpy()) for m in linear], True)
    for _ in range(200):
        owner = rng.integers(0, 4, 52)  # 0 unknown, 1 mine, 2 pile, 3 held face-up by the opponent
        bits = lambda cards: sum(1 << int(c) for c in cards)  # noqa: E731
        mine, pile, holds = (bits(np.flatnonzero(owner == k)) for k in (1, 2, 3))
        discarded, passed, took = (bits(np.flatnonzero(rng.random(52) < 0.1)) for _ in range(3))
        turns = int(rng.integers(0, 40))
        odds, deadwood = belief_forward(0, mine, pile, holds, took, discarded, passed, 10, turns)
        masks = [discarded, passed, took | holds, holds, mine | pile]
        x = [float(m >> c & 1) for m in masks for c in range(52)] + [min(turns, 30) / 30, (min(turns, 30) / 30) ** 2]
        with torch.no_grad():
            out = net(torch.tensor([x], dtype=torch.float32))[0].double().numpy()
        unknown = np.flatnonzero(owner == 0)
        np.testing.assert_allclose(odds[unknown], 1 / (1 + np.exp(-out[unknown])), atol=1e-5)
        assert (odds[np.flatnonzero(owner == 3)] == 1).all() and (odds[np.flatnonzero((owner == 1) | (owner == 2))] == 0).all()
        assert deadwood == max(1, int(10 * out[52] + 0.5))
