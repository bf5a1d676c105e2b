"""Experiment: the native value head (``_engine.value_of``) against numpy on random sparse observations.

Usage: PYTHONPATH=src python benchmarks/value_head_check.py  (prints the largest absolute difference)
"""
import numpy as np

from ginsim import Rules
from ginsim.gin.game.policy.learned import default_network
from gincore import _engine

network = default_network(Rules.preset("eaai"))
saved = np.load(network.path)
_engine.set_reader_value(int(network), saved["value_W"], float(saved["value_b"][0]))
rng = np.random.default_rng(0)
worst = 0.0
for _ in range(200):
    observation = ((rng.random(636) < 0.08) * rng.integers(1, 4, 636)).astype(np.int8)
    hidden = np.maximum(saved["W0"] @ (observation * saved["input_scale"]) + saved["b0"], 0)
    hidden = np.maximum(saved["W1"] @ hidden + saved["b1"], 0)
    expected = float((saved["value_W"] @ hidden + saved["value_b"])[0])
    worst = max(worst, abs(expected - _engine.value_of(int(network), observation)))
print(f"largest difference over 200 observations: {worst:.2e}")
