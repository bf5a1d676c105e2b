"""What the review page shows of a game record: every position of every hand with both hands open (the
game is over, or the hand is), the decisions with their marks and options from
:func:`~ginsim.gin.review.analysis.analyze`, the chance to win the game after each decision, and each
player's error rate, rating and luck.

>>> from ginsim import Rules, play_hand
>>> from ginsim.gin.review.replay import GameRecord
>>> record = GameRecord.of_hand(play_hand(Rules(), "simple,greedy", seed=1, index=5))
>>> board = positions(record)
>>> board["hands"][0]["steps"][0]["kind"], len(board["hands"][0]["steps"][0]["hands"])
('offer', 2)
"""
from __future__ import annotations

import math
from typing import Any

import pandas as pd

import gincore
from ginsim.gin.game.equity_tables import shipped_equity
from ginsim.gin.game.rules import Rules
from ginsim.gin.game.state import GameState
from ginsim.gin.review.analysis import analyze, decide, summarize_analysis
from ginsim.gin.review.replay import GameRecord
from ginsim.gin.studies.equity import MatchEquity, equity_lookup
from ginsim.web.game import card_name

__all__ = ["analysis_of", "equity_for", "hint_of", "positions"]


def _cards(mask: int) -> list[str]:
    return [card_name(card) for card in gincore.cards_of(mask)]


def positions(record: GameRecord) -> dict[str, Any]:
    """Every hand of ``record`` decision by decision: who moved, what, and the table before the move."""
    hands = []
    for hand in record.hands:
        steps = []
        for state, decision in hand.replay(record.rules):
            steps.append({"player": decision.player, "kind": decision.kind, "choice": decision.choice,
                          "hands": [_cards(state.hands[0]), _cards(state.hands[1])],
                          "pile": [card_name(card) for card in state.pile], "stock": len(state.stock),
                          "deadwood": [gincore.deadwood(state.hands[0]), gincore.deadwood(state.hands[1])]})
        final = hand.final(record.rules)
        result = hand.result
        steps.append({"player": -1, "kind": "end", "choice": "",
                      "hands": [_cards(final.hands[0]), _cards(final.hands[1])],
                      "pile": [card_name(card) for card in final.pile], "stock": len(final.stock),
                      "deadwood": [gincore.deadwood(final.hands[0]), gincore.deadwood(final.hands[1])]})
        # The record's own number of the hand, as the analysis names it (a hand taken from a run keeps its own).
        hands.append({"hand": hand.hand, "dealer": hand.dealer, "upcard": card_name(hand.upcard),
                      "scores": None if hand.scores is None else list(hand.scores),
                      "result": None if result is None else {"outcome": result.outcome.value, "winner": result.winner,
                                                             "points": result.points},
                      "steps": steps})
    return {"players": list(record.players), "rules": record.rules.to_dict(), "hands": hands,
            "totals": None if record.totals is None else list(record.totals)}


def _number(value: Any) -> float | None:
    number = float(value)
    return None if math.isnan(number) else round(number, 4)


def equity_for(rules: Rules) -> MatchEquity | None:
    """The shipped match equity of a game under ``rules`` (to 50, 100 or 250 under standard or Oklahoma rules);
    ``None`` when none ships for them, for a single deal, and under Hollywood scoring, whose match no pair of
    scores decides."""
    table = shipped_equity(rules) if rules.target is not None and not rules.hollywood else None
    return None if table is None else equity_lookup(table)


def _rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return [{str(name): value for name, value in row.items()} for row in frame.to_dict("records")]


def analysis_of(record: GameRecord, deals: int, workers: int = 1) -> dict[str, Any]:
    """The analysis of both players' decisions in ``record`` with ``deals`` play-outs an option, in
    chances to win the game where a match equity table ships for its rules (else in points); each
    decision with its place (hand, step), its mark and options, and the game's curve: seat 0's chance
    to win (or expected points) after each decision."""
    equity = equity_for(record.rules)
    frame = analyze(record, deals=deals, equity=equity, workers=workers)
    decisions = []
    for row in _rows(frame):
        value = _number(row["value"])
        seat0 = None if value is None else (value if row["player"] == 0 else (1 - value if equity else -value))
        decisions.append({"hand": int(row["hand"]), "step": int(row["step"]), "player": int(row["player"]),
                          "kind": row["kind"], "choice": row["choice"], "best": row["best"],
                          "loss": _number(row["loss"]), "mark": row["mark"], "value": value, "seat0": seat0,
                          "options": [{"choice": option["choice"], "mean": _number(option["mean"]),
                                       "low": _number(option["low"]), "high": _number(option["high"])}
                                      for option in row["options"]]})
    summary = summarize_analysis(frame)
    players = []
    for row in _rows(summary[summary["hand"] == "game"]):
        players.append({"player": int(row["player"]), **{name: int(row[name]) for name in
                                                        ("decisions", "dubious", "mistakes", "blunders")},
                        **{name: _number(row[name]) for name in ("error_rate", "rating", "luck")}})
    return {"unit": "equity" if equity is not None else "points", "deals": deals, "decisions": decisions,
            "players": players}


def hint_of(state: GameState, deals: int) -> dict[str, Any]:
    """Every option of the decision of the player to move in ``state``, valued as ``ginsim play --hints``
    values it: in points and, where a match equity table ships for the rules, as the chance to win the
    game. From the player's information only: every card it has not seen is dealt again."""
    points = decide(state, deals, workers=1)
    equity = equity_for(state.rules)
    chances = None if equity is None else decide(state, deals, workers=1, equity=equity)
    by_choice = {} if chances is None else {option.choice: option for option in chances.options}
    return {"close": points.close, "options": [
        {"action": option.action.number, "choice": option.choice, "points": round(option.mean, 2),
         "low": round(option.low, 2), "high": round(option.high, 2),
         "equity": None if option.choice not in by_choice else round(by_choice[option.choice].mean, 4)}
        for option in points.options]}
