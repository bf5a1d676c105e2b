"""The opponent a person plays in the browser is the one measured: it knows what it knows in a simulated
match (the scores and what the earlier showdowns showed, which ``reader`` reads), and nothing more."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gincore.errors import InputError
from ginsim import GameState, Rules
from ginsim.gin.game.hand import MatchContext
from ginsim.gin.game.native import RECORD_COLUMNS, NativePlayers, RecordRow
from ginsim.gin.game.players import Player
from ginsim.gin.studies.matches import play_match
from ginsim.web.game import BOT, HUMAN, GameSettings, PlayedGame, choice_key

SAVED = Path(__file__).parent / "data" / "games_before_match_context.json"


class SteppedMatch:
    """The hands of a simulated match (``play_match`` scores it and tells each hand what the match has
    shown) played a decision at a time: each strategy chooses natively with the key a browser game gives
    that decision, so that a strategy's random choices are the same both ways."""

    def __init__(self, rules: Rules, players: tuple[str, str], seed: int) -> None:
        self.rules, self.seed = rules, seed
        self.players = NativePlayers([Player.of(name).native(rules) for name in players])
        self.moves: list[list[int]] = []
        self.contexts: list[MatchContext] = []

    def play_record(self, key0: int, key1: int, index: int, dealer: int = -1,
                    match: MatchContext | None = None) -> RecordRow:
        assert match is not None and dealer in (0, 1)
        self.contexts.append(match)
        state = GameState.deal(self.rules, self.seed, index, dealer=dealer, match=match)
        moves: list[int] = []
        while not state.done:
            moves.append(state.choose(self.players, choice_key(self.seed, index, len(moves))))
            state.apply(moves[-1])
        self.moves.append(moves)
        fields = state.record_fields()
        return RecordRow(*(fields[column] for column in RECORD_COLUMNS))


def browser_game(settings: GameSettings, seed: int, person: str) -> PlayedGame:
    """A browser game to its end, the person's moves chosen by the strategy ``person`` from seat 0's view."""
    game = PlayedGame(settings, seed)
    chooser = NativePlayers([Player.of(person).native(game.rules), Player.of(settings.opponent).native(game.rules)])
    while not game.over:
        hand = game.hand
        assert hand is not None
        if hand.state.done:
            game.next_hand()
            continue
        assert hand.state.player == HUMAN
        game.act(hand.state.choose(chooser, choice_key(seed, game.score.hands, len(hand.moves))))
    return game


@pytest.mark.parametrize(("person", "opponent", "target"), [("greedy", "reader", 100), ("marjj", "reader", 100),
                                                            ("defensive", "search", 50)])
def test_the_computer_decides_as_in_a_simulated_match(person: str, opponent: str, target: int) -> None:
    shown = []
    for seed in range(4):
        settings = GameSettings(opponent=opponent, target=target, first_dealer="you")
        game = browser_game(settings, seed, person)
        match = SteppedMatch(game.rules, (person, opponent), seed)
        row = play_match(match, game.rules, (0, 0), 0, first_dealer=HUMAN)
        # The same moves hand by hand, so the same decisions of the computer at every turn, and the same game.
        assert game.log() == match.moves
        assert game.score.result() == row
        shown += match.contexts
    # What reader reads was there to read: a person seen to knock late, or to pass up a knock.
    assert any(context.late[HUMAN] or context.passed[HUMAN] for context in shown)


def test_what_the_match_has_shown_changes_what_reader_does() -> None:
    """The test above can fail: reader plays otherwise once the match shows its opponent knocking late."""
    rules = Rules()
    players = NativePlayers([Player.of("reader").native(rules)] * 2)
    differ = 0
    for seed in range(12):
        plain = GameState.deal(rules, seed, match=MatchContext())
        read = GameState.deal(rules, seed, match=MatchContext(late=(3, 0)))
        while not plain.done and not differ:
            key = choice_key(seed, 0, len(plain.events()))
            chosen, chosen_read = plain.choose(players, key), read.choose(players, key)
            if plain.player == BOT and chosen != chosen_read:
                differ += 1
            plain.apply(chosen)
            read.apply(chosen)
    assert differ


def test_the_computer_sees_nothing_a_match_would_not_show() -> None:
    """What decides is the position and the match's context, not the person's hidden cards or the stock."""
    rules = Rules(target=100)
    context = MatchContext(scores=(40, 20), passed=(1, 0), late=(2, 0))
    state = GameState.deal(rules, 5, dealer=HUMAN, match=context)
    players = NativePlayers([Player.of("reader").native(rules)] * 2)
    assert state.player == BOT
    for tries in range(6):
        guess = state.determinize(BOT, seed=tries)  # the person's cards and the stock dealt again
        assert guess.view(BOT) == state.view(BOT)
        assert guess.choose(players, 9) == state.choose(players, 9)


@pytest.mark.parametrize("saved", json.loads(SAVED.read_text()), ids=lambda saved: str(saved["seed"]))
def test_a_game_saved_before_plays_again_as_it_was(saved: dict[str, Any]) -> None:
    """Saved before the computer knew the showdowns: its logged moves are made again as they were."""
    game = PlayedGame(GameSettings.stored(saved["settings"]), saved["seed"], saved["log"])
    assert game.log() == saved["log"] and game.over == saved["over"]
    ends = [hand.result for hand in game.record().hands]
    assert [[end.outcome.value, end.winner, end.points] for end in ends if end is not None] == saved["hands"]


def test_a_match_given_wrongly_is_refused_in_one_line() -> None:
    with pytest.raises(InputError, match="not both"):
        GameState.deal(Rules(), 1, scores=(0, 0), match=MatchContext())
    with pytest.raises(InputError, match=r"match.late\[1\]"):
        GameState.deal(Rules(), 1, match=MatchContext(late=(0, -1)))
    with pytest.raises(InputError, match="match.passed must give two values"):
        GameState.deal(Rules(), 1, match=MatchContext(passed=(1,)))  # type: ignore[arg-type]
