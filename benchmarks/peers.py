"""gincore beside the Gin Rummy code of OpenSpiel and RLCard: speed, and answers on the same hands.

Usage: python benchmarks/peers.py [--hands N] [--games G] [--ours-hands H] [--seed S] [--show K]
                                 [--json out.json]

Needs the optional extra ``peers`` (``pip install -e '.[peers]'``: ``open-spiel`` and ``rlcard``);
a peer that is not installed is reported as such and left out. Everything runs on one core.

What is compared, on the same seeded hands:

* **10-card minimum deadwood** of N uniformly random hands: ``gincore.deadwood_many`` (one batch
  call), OpenSpiel's ``pyspiel.gin_rummy.GinRummyUtils.min_deadwood`` and RLCard's
  ``melding.get_best_meld_clusters`` + ``utils.get_deadwood_count`` (one Python call per hand).
* **11-card least deadwood after one discard** of N random hands: ``gincore.best_discards_many``,
  OpenSpiel's ``min_deadwood`` on 11 cards (what its game uses to decide whether to offer a knock:
  it keeps the first best arrangement of all 11 cards and drops that arrangement's highest deadwood
  card, which can miss a lower count reached through another arrangement), and RLCard's meld
  clusters (``melding.get_meld_clusters``; the least over clusters of deadwood minus the cluster's
  largest deadwood card). The same is run on "knock-range" hands — random 11-card hands kept when
  gincore finds deadwood 10 or less after a discard — where a wrong answer changes whether a knock is
  legal; RLCard's ``judge.get_going_out_cards`` (can the hand knock or go gin?) is checked there too.
* **Whole hands per second**: gincore's native hand loop (``ginsim.gin.game.native.engine(...).play_hands``,
  standard rules) against OpenSpiel's ``gin_rummy`` game played through Python with its simple bot
  (``pyspiel.make_simple_gin_rummy_bot``) or uniformly random legal actions, and RLCard's
  ``gin-rummy`` environment with its novice rule agents or random agents. OpenSpiel is dealt the very
  decks gincore plays (its deal and every stock draw are chance actions, fed in deck order), and
  gincore replays those decks with ``play_traced`` for a side-by-side outcome mix; RLCard shuffles with
  its own seeded generator (it deals the non-dealer 11 cards and has no upcard offer, so a gincore deck
  cannot be replayed there).

Rules are not the same everywhere, so outcome mixes are context, not a check: gincore plays docs/rules.md
(ties undercut; the last two stock cards are never drawn; lay-offs). OpenSpiel's default game has the
same knock limit (10), gin and undercut bonuses (25), player 0 always moves first, a knock that ties
scores 0 (no undercut), and at the wall (2 stock cards) the next player may pick up the discard to
knock; its simple bot, as defender, passes at every lay-off decision (none of its hands here has a
lay-off), which with the strict tie rule leaves it almost no undercuts. RLCard deals 11 cards to the non-dealer, has no lay-offs, scores training payoffs rather than
points, and its novice agent draws from the stock or the discard pile at random; its undercuts below
are counted from the deadwood it reports (defender's deadwood at most the knocker's).

Card encodings differ (gincore: ``suit*13+rank`` with suits C D H S; OpenSpiel: ``suit*13+rank``
with suits s c d h; RLCard: ``rank+13*suit`` with suits S H D C). The translation tables are built
from each library's own card-text parser and checked on every card and on the example hand of docs/rules.md#melds-and-deadwood
before anything is measured.
"""
from __future__ import annotations

import argparse
import importlib.metadata
import json
import platform
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import gincore
import ginsim
from gincore import RANKS, SUITS, best_discards_many, card_text, deadwood_many, format_cards
from gincore._engine import OUTCOME_NAMES
from ginsim import Rules
from ginsim.gin.game.native import run_key
from ginsim.gin.game.players import engine

EXAMPLE_HAND = "7H 8H 9H 9C 9S 9D 2S 3S 4S KD"  # docs/rules.md#melds-and-deadwood: deadwood 10 (the king)
EXAMPLE_DEADWOOD = 10
KNOCK_LIMIT = 10
OUTCOMES = ("knock", "undercut", "gin", "draw")
MIN_TIMING_SECONDS = 0.5  # batch calls of gincore are repeated at least this long for a stable rate


# ----------------------------------------------------------------------------------------------
# Hands and timing


def random_hands(count: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` uniformly random hands of ``size`` cards, one row of card indices each."""
    return np.argsort(rng.random((count, 52)), axis=1)[:, :size].astype(np.int64)


def masks_of(hands: np.ndarray) -> np.ndarray:
    """The uint64 card masks of hands given as rows of card indices."""
    return np.bitwise_or.reduce(np.uint64(1) << hands.astype(np.uint64), axis=1)


def knock_range_hands(count: int, rng: np.random.Generator) -> np.ndarray:
    """Random 11-card hands that can knock (deadwood 10 or less after one discard), by rejection."""
    kept: list[np.ndarray] = []
    found = 0
    while found < count:
        batch = random_hands(200_000, 11, rng)
        good = batch[best_discards_many(masks_of(batch))[0] <= KNOCK_LIMIT]
        kept.append(good)
        found += len(good)
    return np.concatenate(kept)[:count]


def timed(function: Callable[[], Any]) -> tuple[Any, float]:
    """The result of one call and the seconds it took."""
    started = time.perf_counter()
    result = function()
    return result, time.perf_counter() - started


def batch_rate(function: Callable[[], Any], items: int) -> float:
    """Items per second of a fast batch call, repeated until at least MIN_TIMING_SECONDS have passed."""
    function()  # warm the tables and caches once
    calls, spent = 0, 0.0
    while spent < MIN_TIMING_SECONDS:
        _, seconds = timed(function)
        calls += 1
        spent += seconds
    return items * calls / spent


# ----------------------------------------------------------------------------------------------
# Results


@dataclass
class SolverRow:
    task: str
    library: str
    api: str
    hands: int
    per_second: float
    disagreements: int | None = None
    note: str = ""


@dataclass
class PlayRow:
    library: str
    players: str
    deals: str
    hands: int
    per_second: float
    rates: dict[str, float]
    mean_draws: float | None = None


@dataclass
class Report:
    solver: list[SolverRow] = field(default_factory=list)
    play: list[PlayRow] = field(default_factory=list)
    disagreements: list[dict[str, Any]] = field(default_factory=list)
    peers: dict[str, str] = field(default_factory=dict)
    compared: list[str] = field(default_factory=list)

    def disagree(self, task: str, peer: Any, hands: np.ndarray, ours: np.ndarray,
                 theirs: Sequence[int]) -> int:
        """Count (and keep, as card text) the hands where a peer's answer differs from gincore's.

        Where an 11-card hand can knock by gincore's count but not by OpenSpiel's ``min_deadwood``,
        OpenSpiel's game itself is asked whether it offers the knock."""
        differ = [i for i in range(len(hands)) if int(ours[i]) != int(theirs[i])]
        for i in differ:
            item = {"task": task, "library": peer.name, "hand": format_cards(int(masks_of(hands[i:i + 1])[0])),
                    "gincore": int(ours[i]), "peer": int(theirs[i])}
            if (peer.name == "OpenSpiel" and hands.shape[1] == 11 and "deadwood" in task
                    and int(ours[i]) <= KNOCK_LIMIT < int(theirs[i])):
                item["game_offers_knock"] = peer.offers_knock(hands[i].tolist())
            self.disagreements.append(item)
        return len(differ)


def outcome_rates(outcomes: Sequence[str]) -> dict[str, float]:
    """Knock (undercuts included, as in ginsim summaries), undercut, gin and draw rates."""
    counts = Counter(outcomes)
    total = max(len(outcomes), 1)
    return {"knock": (counts["knock"] + counts["undercut"]) / total, "undercut": counts["undercut"] / total,
            "gin": (counts["gin"] + counts["big_gin"]) / total, "draw": counts["draw"] / total}


# ----------------------------------------------------------------------------------------------
# OpenSpiel


class OpenSpiel:
    """OpenSpiel's gin_rummy game and utilities, reached through pyspiel."""

    name = "OpenSpiel"

    def __init__(self) -> None:
        import pyspiel

        self.pyspiel = pyspiel
        self.module = pyspiel.gin_rummy
        self.utils = self.module.GinRummyUtils(13, 4, 10)
        self.version = importlib.metadata.version("open-spiel")
        # gincore card -> OpenSpiel card, through OpenSpiel's own parser ("As", "Tc": rank then suit)
        self.card = np.array([self.utils.card_int(RANKS[c % 13] + SUITS[c // 13].lower()) for c in range(52)])
        back = [self.utils.card_string(int(self.card[c])) for c in range(52)]
        if sorted(self.card) != list(range(52)) or any(
                text.upper() != card_text(c).upper().replace("10", "T") for c, text in enumerate(back)):
            raise RuntimeError("OpenSpiel card translation does not round-trip")
        example = self.convert(np.array([gincore.cards_of(gincore.parse_cards(EXAMPLE_HAND))]))[0]
        if self.utils.min_deadwood(example) != EXAMPLE_DEADWOOD:
            raise RuntimeError("OpenSpiel scores the docs/rules.md example hand differently: encoding problem")

    def convert(self, hands: np.ndarray) -> list[list[int]]:
        return self.card[hands].tolist()

    def min_deadwood(self, hands: list[list[int]]) -> list[int]:
        score = self.utils.min_deadwood
        return [score(hand) for hand in hands]

    def can_knock(self, hands: list[list[int]]) -> list[int]:
        """1 where some discard leaves deadwood within the limit (``legal_discards``, exact per 10 cards)."""
        legal = self.utils.legal_discards
        return [int(bool(legal(hand, KNOCK_LIMIT))) for hand in hands]

    def offers_knock(self, hand: Sequence[int]) -> bool:
        """Whether OpenSpiel's game lets a player holding these 11 gincore cards knock: the first ten are
        dealt to player 0, the eleventh is the upcard, and player 0 takes it."""
        game = self.pyspiel.load_game("gin_rummy")
        state = game.new_initial_state()
        held = [int(self.card[c]) for c in hand]
        others = [card for card in range(52) if card not in held]
        for card in held[:10] + others[:10] + held[10:]:
            state.apply_action(card)
        state.apply_action(self.module.DRAW_UPCARD_ACTION)
        return self.module.KNOCK_ACTION in state.legal_actions()

    def play(self, decks: np.ndarray, players: str, seed: int) -> tuple[list[str], list[int], float]:
        """Play one hand per deck (gincore order: cards alternate from the non-dealer, then the upcard,
        then the stock top first); OpenSpiel's player 0 is the non-dealer. Outcomes, draws per hand
        (the upcard taken at the first turn included) and seconds."""
        game = self.pyspiel.load_game("gin_rummy")
        chooser = random.Random(seed)
        if players == "simple":
            bots = [self.pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), p) for p in (0, 1)]
        draw_actions = (self.module.DRAW_UPCARD_ACTION, self.module.DRAW_STOCK_ACTION)
        outcomes, draw_counts = [], []
        started = time.perf_counter()
        for deck in decks:
            ordered = [int(self.card[c]) for c in np.concatenate((deck[0:20:2], deck[1:20:2], deck[20:]))]
            state = game.new_initial_state()
            if players == "simple":
                for bot in bots:
                    bot.restart()
            dealt, draws = 0, 0
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(ordered[dealt])
                    dealt += 1
                    continue
                if players == "simple":
                    action = bots[state.current_player()].step(state)
                else:
                    action = chooser.choice(state.legal_actions())
                draws += action in draw_actions
                state.apply_action(action)
            outcomes.append(self._outcome(state))
            draw_counts.append(draws)
        return outcomes, draw_counts, time.perf_counter() - started

    @staticmethod
    def _outcome(state: Any) -> str:
        knocked = state.knocked()
        if not any(knocked):
            return "draw"
        knocker = 0 if knocked[0] else 1
        if state.deadwood()[knocker] == 0:
            return "gin"
        return "undercut" if state.returns()[knocker] < 0 else "knock"


# ----------------------------------------------------------------------------------------------
# RLCard


class RLCard:
    """RLCard's gin rummy meld utilities and its gin-rummy environment."""

    name = "RLCard"

    def __init__(self) -> None:
        from rlcard.games.gin_rummy import judge
        from rlcard.games.gin_rummy.utils import melding, utils

        self.judge, self.melding, self.utils = judge, melding, utils
        self.version = importlib.metadata.version("rlcard")
        # gincore card -> RLCard card id, through RLCard's own card text ("AS", "TC": rank then suit)
        self.card_id = np.array([utils.get_card_id(utils.card_from_text(RANKS[c % 13] + SUITS[c // 13]))
                                 for c in range(52)])
        back = [str(utils.get_card(int(self.card_id[c]))) for c in range(52)]
        if sorted(self.card_id) != list(range(52)) or any(
                text.upper() != card_text(c).upper().replace("10", "T") for c, text in enumerate(back)):
            raise RuntimeError("RLCard card translation does not round-trip")
        example = self.convert(np.array([gincore.cards_of(gincore.parse_cards(EXAMPLE_HAND))]))[0]
        if self.min_deadwood([example])[0] != EXAMPLE_DEADWOOD:
            raise RuntimeError("RLCard scores the docs/rules.md example hand differently: encoding problem")

    def convert(self, hands: np.ndarray) -> list[list[Any]]:
        get = self.utils.get_card
        return [[get(int(card)) for card in row] for row in self.card_id[hands]]

    def min_deadwood(self, hands: list[list[Any]]) -> list[int]:
        best_clusters, count, value = (self.melding.get_best_meld_clusters, self.utils.get_deadwood_count,
                                       self.utils.get_deadwood_value)
        scores = []
        for hand in hands:
            clusters = best_clusters(hand)
            scores.append(count(hand, clusters[0]) if clusters else sum(value(card) for card in hand))
        return scores

    def after_discard(self, hands: list[list[Any]]) -> list[int]:
        clusters_of, value = self.melding.get_meld_clusters, self.utils.get_deadwood_value
        scores = []
        for hand in hands:
            lefts = []
            for cluster in clusters_of(hand) + [[]]:  # the empty cluster: no meld at all
                melded = {card for meld in cluster for card in meld}
                values = [value(card) for card in hand if card not in melded]
                lefts.append(sum(values) - max(values, default=0))
            scores.append(min(lefts))
        return scores

    def can_knock(self, hands: list[list[Any]]) -> list[int]:
        going_out = self.judge.get_going_out_cards
        return [int(any(going_out(hand, KNOCK_LIMIT))) for hand in hands]

    def play(self, games: int, players: str, seed: int) -> tuple[list[str], list[int], float]:
        """Play ``games`` hands of RLCard's environment: outcomes, draws per hand, seconds."""
        import rlcard
        from rlcard.agents import RandomAgent
        from rlcard.games.gin_rummy.utils.action_event import (
            DrawCardAction,
            GinAction,
            KnockAction,
            PickUpDiscardAction,
        )
        from rlcard.games.gin_rummy.utils.move import ScoreNorthMove, ScoreSouthMove
        from rlcard.models.gin_rummy_rule_models import GinRummyNoviceRuleAgent

        env = rlcard.make("gin-rummy", config={"seed": seed})
        np.random.seed(seed)  # the novice agent chooses with numpy's global generator
        if players == "novice":
            env.set_agents([GinRummyNoviceRuleAgent(), GinRummyNoviceRuleAgent()])
        else:
            env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in (0, 1)])
        outcomes, draw_counts = [], []
        started = time.perf_counter()
        for _ in range(games):
            env.run(is_training=False)
            game_round = env.game.round
            action = game_round.going_out_action
            if isinstance(action, GinAction):
                outcomes.append("gin")
            elif isinstance(action, KnockAction):
                scored = {move.player.player_id: move.deadwood_count for move in game_round.move_sheet
                          if isinstance(move, (ScoreNorthMove, ScoreSouthMove))}
                knocker = game_round.going_out_player_id
                outcomes.append("undercut" if scored[1 - knocker] <= scored[knocker] else "knock")
            else:
                outcomes.append("draw")
            draw_counts.append(sum(isinstance(taken, (DrawCardAction, PickUpDiscardAction))
                             for taken in env.game.actions))
        return outcomes, draw_counts, time.perf_counter() - started


def load_peers() -> tuple[list[Any], dict[str, str]]:
    """The peers that import and pass the encoding checks; a status line for every peer."""
    peers, status = [], {}
    for name, module, factory in (("OpenSpiel", "pyspiel", OpenSpiel), ("RLCard", "rlcard", RLCard)):
        try:
            __import__(module)
        except ImportError:
            status[name] = "not installed (pip install -e '.[peers]')"
            continue
        try:
            peer = factory()
        except (RuntimeError, AttributeError, ImportError) as error:
            status[name] = f"not usable: {error}"
            continue
        peers.append(peer)
        status[name] = f"{peer.version}"
    return peers, status


# ----------------------------------------------------------------------------------------------
# The measurements


def compare_solvers(report: Report, peers: list[Any], hands: int, rng: np.random.Generator) -> None:
    ten = random_hands(hands, 10, rng)
    eleven = random_hands(hands, 11, rng)
    near = knock_range_hands(hands, rng)
    cases = (("10 cards: minimum deadwood", ten), ("11 cards: least deadwood after one discard", eleven),
             ("11 cards, knock range: least deadwood after one discard", near))
    for task, cards in cases:
        masks = masks_of(cards)
        if cards.shape[1] == 10:
            ours = deadwood_many(masks)
            rate = batch_rate(lambda: deadwood_many(masks), len(masks))
            api = "deadwood_many"
        else:
            ours = best_discards_many(masks)[0]
            rate = batch_rate(lambda: best_discards_many(masks), len(masks))
            api = "best_discards_many"
        report.solver.append(SolverRow(task, "gincore", api, len(masks), rate, None, "one batch call"))
        for peer in peers:
            converted = peer.convert(cards)
            if cards.shape[1] == 10:
                theirs, seconds = timed(lambda: peer.min_deadwood(converted))
                api = "GinRummyUtils.min_deadwood" if peer.name == "OpenSpiel" else "get_best_meld_clusters"
            elif peer.name == "OpenSpiel":
                theirs, seconds = timed(lambda: peer.min_deadwood(converted))
                api = "GinRummyUtils.min_deadwood (11 cards)"
            else:
                theirs, seconds = timed(lambda: peer.after_discard(converted))
                api = "get_meld_clusters"
            differ = report.disagree(task, peer, cards, ours, theirs)
            report.solver.append(SolverRow(task, peer.name, api, len(cards), len(cards) / seconds, differ,
                                           "a Python call per hand"))
        if cards is near:
            can = np.ones(len(near), dtype=np.int64)  # every knock-range hand can knock, by construction
            for peer in peers:
                converted = peer.convert(cards)
                theirs, seconds = timed(lambda: peer.can_knock(converted))
                api = "legal_discards" if peer.name == "OpenSpiel" else "judge.get_going_out_cards"
                differ = report.disagree("11 cards, knock range: can knock or go gin", peer, cards, can,
                                         theirs)
                report.solver.append(SolverRow("11 cards, knock range: can knock or go gin", peer.name, api,
                                               len(cards), len(cards) / seconds, differ,
                                               "a Python call per hand"))


def compare_play(report: Report, peers: list[Any], games: int, ours_hands: int, seed: int) -> None:
    rules = Rules()
    key = run_key(seed)
    for players in ("simple", "random"):
        hand_engine = engine(rules, (players, players))
        hand_engine.play_hands(key[0], key[1], 0, 1000)  # warm up
        columns, seconds = timed(lambda: hand_engine.play_hands(key[0], key[1], 0, ours_hands))
        names = np.array(OUTCOME_NAMES)
        report.play.append(PlayRow("gincore", f"{players} x2 (native play_hands)", "its own seeded deals",
                                   ours_hands, ours_hands / seconds,
                                   outcome_rates(names[columns["outcome"]].tolist()),
                                   float(np.mean(columns["turns"]))))
    # The decks OpenSpiel is dealt: gincore's own shuffles of hands 0..games-1 of this seed.
    simple = engine(rules, ("simple", "simple"))
    traced, seconds = timed(lambda: [simple.play_traced(key[0], key[1], index) for index in range(games)])
    decks = np.array([hand["deck"] for hand in traced])
    report.play.append(PlayRow("gincore", "simple x2 (play_traced, one hand per call)", "shared decks", games,
                               games / seconds, outcome_rates([hand["record"]["outcome"] for hand in traced]),
                               float(np.mean([hand["record"]["turns"] for hand in traced]))))
    # play_traced deals with the hand's own dealer; OpenSpiel's player 0 (first to act) is the non-dealer,
    # and the deck alternates from the non-dealer, so the same deck gives both the same hands.
    for peer in peers:
        for players in (("simple", "random") if peer.name == "OpenSpiel" else ("novice", "random")):
            if peer.name == "OpenSpiel":
                outcomes, draws, seconds = peer.play(decks, players, seed)
                deals = "shared decks"
                label = "simple bot x2" if players == "simple" else "uniform random actions"
            else:
                outcomes, draws, seconds = peer.play(games, players, seed)
                deals = "its own seeded deals"
                label = "novice rule agents x2" if players == "novice" else "random agents x2"
            report.play.append(PlayRow(peer.name, label, deals, games, games / seconds, outcome_rates(outcomes),
                                       float(np.mean(draws))))


# ----------------------------------------------------------------------------------------------
# Printing


def print_report(report: Report, show: int) -> None:
    print("Peers: " + "; ".join(f"{name} {status}" for name, status in report.peers.items()))
    print("Compared: the answers of each library's own deadwood code on the same hands (cards translated "
          "through each library's card text), and whole-hand throughput under each library's own rules "
          "(see this script's docstring for how they differ from docs/rules.md).")
    print("\nSolver, one core, the same random hands for every library")
    print("| task | library | API | hands | hands/s | gincore is x faster | disagreements |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    ours_rate = {row.task: row.per_second for row in report.solver if row.library == "gincore"}
    for row in report.solver:
        base = ours_rate.get(row.task) or ours_rate.get(row.task.replace("can knock or go gin",
                                                                          "least deadwood after one discard"))
        ratio = "-" if row.library == "gincore" or not base else f"{base / row.per_second:,.0f}"
        differ = "-" if row.disagreements is None else f"{row.disagreements:,}"
        print(f"| {row.task} | {row.library} | `{row.api}` | {row.hands:,} | {row.per_second:,.0f} | {ratio} "
              f"| {differ} |")
    print("\nWhole hands, one core (rates are fractions of all hands; draws: cards drawn per hand)")
    print("| library | players | deals | hands | hands/s | gincore is x faster | knock | undercut | gin "
          "| draw | mean draws |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    native = {row.players.split(" ")[0]: row.per_second for row in report.play
              if row.library == "gincore" and "native" in row.players}
    for played in report.play:
        # peers' rule-based bots are set against gincore's simple, their random players against its random
        kind = "random" if "random" in played.players else "simple"
        ratio = "-" if played.library == "gincore" else f"{native[kind] / played.per_second:,.0f}"
        rates = " | ".join(f"{played.rates[name]:.3f}" for name in OUTCOMES)
        draws = "-" if played.mean_draws is None else f"{played.mean_draws:.1f}"
        print(f"| {played.library} | {played.players} | {played.deals} | {played.hands:,} "
              f"| {played.per_second:,.0f} | {ratio} | {rates} | {draws} |")
    if not report.compared:
        print("\nNo peer could be run: nothing to compare answers with.")
        return
    if not report.disagreements:
        print("\nNo disagreement with gincore on any hand.")
        return
    print("\nDisagreements with gincore (first few of each task and library):")
    shown: Counter[tuple[str, str]] = Counter()
    for item in report.disagreements:
        group = (item["task"], item["library"])
        shown[group] += 1
        if shown[group] <= show:
            offered = item.get("game_offers_knock")
            consequence = "" if offered is None else (
                "; its game offers the knock" if offered else "; its game does not offer the knock")
            print(f"  {item['library']:9} {item['task']}: {item['hand']}  gincore {item['gincore']}, "
                  f"{item['library']} {item['peer']}{consequence}")
    for group, count in shown.items():
        if count > show:
            print(f"  ... {count - show} more for {group[1]}, {group[0]}")
    checked = [item for item in report.disagreements if "game_offers_knock" in item]
    if checked:
        missed = sum(not item["game_offers_knock"] for item in checked)
        print(f"  OpenSpiel's game withholds a legal knock in {missed} of these {len(checked)} hands "
              "(its 11-card min_deadwood, which decides the offer, is above the limit).")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000,
                        help="random hands scored by every library, per task (default 20,000)")
    parser.add_argument("--games", type=int, default=1_000,
                        help="whole hands played by each peer and each way of playing (default 1,000)")
    parser.add_argument("--ours-hands", type=int, default=200_000,
                        help="hands played by gincore's native loop for its rate (default 200,000)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--show", type=int, default=5, help="disagreeing hands printed per task and library")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args(argv)
    if min(args.hands, args.games, args.ours_hands) < 1:
        parser.error("--hands, --games and --ours-hands must be positive")
    peers, status = load_peers()
    report = Report(peers={"gincore": ginsim.__version__, **status},
                    compared=[peer.name for peer in peers])
    rng = np.random.default_rng(args.seed)
    compare_solvers(report, peers, args.hands, rng)
    compare_play(report, peers, args.games, args.ours_hands, args.seed)
    print_report(report, args.show)
    if args.json:
        record = {"format": "ginsim-peers", "version": 1, "seed": args.seed, "hands": args.hands,
                  "games": args.games, "python": platform.python_version(), "machine": platform.machine(),
                  "processor": platform.processor(), "peers": report.peers,
                  "solver": [vars(row) for row in report.solver], "play": [vars(row) for row in report.play],
                  "disagreements": report.disagreements}
        with open(args.json, "w", encoding="utf-8") as stream:
            json.dump(record, stream, indent=1)
        print(f"\nWrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
