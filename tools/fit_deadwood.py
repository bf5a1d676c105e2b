"""Fit the linear guess of an opponent's deadwood that ``reader`` sizes its sampled hands by.

Usage: python tools/fit_deadwood.py [--hands N] [--seed S] [--opponents search,marjj] [--rules eaai]

The data: ``Engine.model_inputs`` plays ``N`` hands of ``search`` (seat 0) against each opponent under the
rules and keeps, at every draw decision of ``search`` after the hand's first two draws, what it had seen
and the opponent's actual hand, whose least deadwood is the target. The guess is linear in nine numbers
read off the public record of the hand (``FEATURES``); the fit is ordinary least squares. It prints the
weights (rounded as ``src/gincore/_gin/strategies/reader.pxi`` holds them) and, per opponent, the mean
absolute error of the guess and of the table of a patient opponent's mean deadwood by its draws that
``search`` aims at. ``reader``'s weights come from the defaults (3,000 hands each, seed 99, eaai rules;
about a minute on one core).
"""
from __future__ import annotations

import argparse

import numpy as np

import gincore
from ginsim import Rules
from ginsim.gin.game.native import run_key
from ginsim.gin.game.players import engine

FEATURES = ("one", "draws", "draws squared / 20", "face-up cards held", "face-up cards taken", "discards",
            "face-up cards refused", "mean value of its discards", "value of the face-up cards held")
# search's targets (PATIENT_DEADWOOD in src/gincore/_gin/playouts.pxi), by the hand's draws // 2.
PATIENT_DEADWOOD = np.array([53, 42, 34, 29, 24, 21, 17, 13, 11, 9, 8, 7, 6, 5, 4, 4, 3])
VALUES = np.array([min(card % 13 + 1, 10) for card in range(52)])


def _count(masks: np.ndarray) -> np.ndarray:
    return np.array([int(mask).bit_count() for mask in masks], dtype=float)


def _value(masks: np.ndarray) -> np.ndarray:
    return np.array([VALUES[[card for card in range(52) if int(mask) >> card & 1]].sum() for mask in masks],
                    dtype=float)


def features(inputs: dict[str, np.ndarray]) -> np.ndarray:
    """The nine numbers of each view (``FEATURES``), one row each."""
    turns = np.minimum(inputs["turns"], 30).astype(float)
    discards = _count(inputs["discarded"])
    return np.column_stack([
        np.ones_like(turns), turns / 2, turns * turns / 40, _count(inputs["holds"]), _count(inputs["took"]),
        discards, _count(inputs["passed"]), _value(inputs["discarded"]) / np.maximum(discards, 1),
        _value(inputs["holds"]),
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--opponents", default="search,marjj")
    parser.add_argument("--rules", default="eaai")
    options = parser.parse_args()
    key = run_key(options.seed)
    rows, targets, turns, names = [], [], [], []
    for opponent in options.opponents.split(","):
        inputs = engine(Rules.preset(options.rules), ("search", opponent)).model_inputs(key[0], key[1], 0,
                                                                                        options.hands, 0)
        kept = inputs["turns"] >= 2
        inputs = {name: column[kept] for name, column in inputs.items()}
        rows.append(features(inputs))
        targets.append(np.array([gincore.deadwood(int(hand)) for hand in inputs["opponent"]], dtype=float))
        turns.append(inputs["turns"])
        names.append(opponent)
    weights, *_ = np.linalg.lstsq(np.vstack(rows), np.concatenate(targets), rcond=None)
    print("weights:", ", ".join(f"{weight:.2f}" for weight in weights))
    for name, x, y, t in zip(names, rows, targets, turns, strict=True):
        table = PATIENT_DEADWOOD[np.minimum(t // 2, 16)]
        print(f"{name}: {len(y)} views, mean absolute error {np.abs(x @ np.round(weights, 2) - y).mean():.2f} "
              f"(search's table {np.abs(table - y).mean():.2f})")


if __name__ == "__main__":
    main()
