"""``ginsim play``: a whole game from a script on stdin, quitting, the end of the input, bad answers.

Most games here are played to a low target with the default answers (Enter to every question: refuse
the upcard, draw from the stock, discard the suggested card, never knock, always go gin), or through
the ``Console`` hook of :mod:`ginsim.gin.review.interactive` with a small policy that answers from the prompt.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

import gincore
from ginsim import Rules, View
from ginsim.cli import main
from ginsim.gin.review.interactive import HELP, Console, GameResult, HumanStrategy, play_game
from ginsim.gin.review.replay import GameRecord

ENTER_ONLY = "\n" * 4000
FINAL = re.compile(r"Game over after (\d+) hands?: (you|greedy|simple) wins?, (\d+) to (\d+)\.")


def play(*args: str, answers: str = ENTER_ONLY) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["play", *args], input=answers)
    return result.exit_code, result.stdout, result.stderr


def scripted(rules: Rules, opponent: str, seed: int,
             answer: Callable[[str, list[str]], str | None]) -> tuple[GameResult, list[str], list[str]]:
    """Play a game whose every answer comes from ``answer(prompt, lines shown so far)``; returns the
    result, the lines shown and the prompts asked."""
    shown: list[str] = []
    prompts: list[str] = []

    def read(prompt: str) -> str | None:
        prompts.append(prompt)
        shown.append(prompt)
        return answer(prompt, shown)

    return play_game(rules, opponent, seed, Console(read, shown.append)), shown, prompts


def knock_at_once(prompt: str, shown: list[str]) -> str:
    return "y" if prompt.startswith("Knock") else ""


def check_final_lines(text: str, rules: Rules) -> tuple[int, int, int]:
    """The winner's and loser's totals and the hands played, checked against the breakdown lines."""
    match = FINAL.search(text)
    assert match, text[-2000:]
    lines = text[match.end():].strip().splitlines()[:2]
    for line in lines:
        numbers = line.split("=")
        parts = numbers[0].split("+")
        points = int(parts[0].split()[-2])
        boxes = int(parts[1].split()[0])
        subtotal = points + boxes * rules.box_bonus + (rules.game_bonus if len(parts) == 3 else 0)
        total = int(numbers[-1])
        assert total == (2 * subtotal if "shutout x 2" in line else subtotal), line
    return int(match[3]), int(match[4]), int(match[1])


def test_a_game_to_the_end_from_a_script_on_stdin() -> None:
    code, out, err = play("--target", "30", "--seed", "11", "--against", "greedy", "--letters")
    assert code == 0, err
    assert err == ""
    assert " ".join(out.split()).startswith(  # the first line, wrapped at 80 columns
        "Gin Rummy, standard rules with target=30: you against greedy, a game to 30, seed 11.")
    winner_total, loser_total, hands = check_final_lines(out, Rules(target=30))
    assert winner_total >= 30 + 25 + 100 > loser_total
    assert out.count("=== Hand ") == hands
    scored = [int(points) for points in re.findall(r"(?:you|greedy) scores? (\d+)", out)]
    drawn = out.count("the hand is drawn")
    assert len(scored) + drawn == hands
    last = re.findall(r"Points so far: you (\d+), greedy (\d+)\.", out)[-1]
    assert sum(map(int, last)) == sum(scored)
    assert "Traceback" not in out


def test_the_same_seed_and_answers_play_the_same_game() -> None:
    first = play("--target", "20", "--seed", "4", "--against", "simple")
    again = play("--target", "20", "--seed", "4", "--against", "simple")
    assert first[0] == 0 and first == again
    other = play("--target", "20", "--seed", "5", "--against", "simple")
    assert other[1] != first[1]


def test_oklahoma_shows_each_hands_limit_and_multiplier() -> None:
    rules = Rules.preset("oklahoma").replace(target=40)
    code, out, _ = play("--rules", "oklahoma", "--target", "40", "--seed", "3", "--letters")
    assert code == 0
    deals = re.findall(r"(?:You deal|\w+ deals)\. Upcard (\w\w): ([^.]*)\.", out)
    assert deals
    for upcard_text, description in deals:
        upcard = gincore.parse_cards(upcard_text).bit_length() - 1
        limit = rules.knock_limit_for(upcard)
        assert (f"knock at {limit} or less" if limit else "gin only (knock limit 0)") in description
        assert ("scores x2 this hand" in description) == (rules.multiplier_for(upcard) == 2)
    check_final_lines(out, rules)


def test_a_knocking_player_is_asked_only_when_a_knock_is_legal() -> None:
    rules = Rules(target=60)
    result, shown, prompts = scripted(rules, "simple", 23, knock_at_once)
    assert result.finished and result.stopped_by is None
    knocks = [re.search(r"deadwood (\d+) \(limit (\d+)\)", prompt) for prompt in prompts
              if prompt.startswith("Knock")]
    assert knocks and all(int(found[1]) <= int(found[2]) for found in knocks)
    assert any(line.startswith("You knock") for line in shown)
    text = "\n".join(shown)
    assert (result.match["total_0"], result.match["total_1"]) == result.totals
    winner_total, loser_total, hands = check_final_lines(text, rules)
    assert sorted(result.totals) == [loser_total, winner_total] and hands == result.hands


def test_single_hand_and_hollywood_games_end() -> None:
    code, out, _ = play("--target", "none", "--seed", "2", "--against", "simple")
    assert code == 0 and "one scoring hand, no bonuses" in out
    code, out, _ = play("--hollywood", "true", "--target", "10", "--seed", "2", "--against", "simple")
    assert code == 0 and "three Hollywood games" in out and FINAL.search(out)


def test_q_quits_with_status_0() -> None:
    code, out, err = play("--seed", "11", answers="q\n")
    assert code == 0 and err == ""
    assert ("You quit the game in hand 0 (points so far: you 0, greedy 0). The same deals again: --seed 11."
            in " ".join(out.split()))  # wrapped at 80 columns
    result, shown, _ = scripted(Rules(target=100), "greedy", 11,
                                lambda prompt, shown: "q" if any(line.startswith("=== Hand 1") for line in shown)
                                else "")
    assert not result.finished and result.stopped_by == "quit" and result.hands == 1
    first_hand = next(line for line in shown if "Points so far" in line or "no score" in line)
    assert result.totals == ((0, 0) if "no score" in first_hand else
                             tuple(map(int, re.findall(r"you (\d+), greedy (\d+)", first_hand)[-1])))


@pytest.mark.parametrize("answers", ["", "\n\n\n"])
def test_the_end_of_the_input_abandons_the_game_with_status_1(answers: str) -> None:
    code, out, err = play("--seed", "11", answers=answers)
    assert code == 1
    assert err.strip() == "The input ended in hand 0 (points so far: you 0, greedy 0): game abandoned."
    assert "Traceback" not in out + err and "Your hand:" in out


def test_bad_answers_are_asked_again_with_a_reason() -> None:
    code, out, err = play("--seed", "11", answers="maybe\nq\n")
    assert code == 0 and err == ""
    assert re.search(r"\? \[(y/N|S/p)\] maybe\n  'maybe'\? Answer (y or n|s to draw)", out)
    code, out, err = play("--seed", "11", answers="y" * 100_000 + "\nq\n")  # not repeated back whole
    assert code == 0 and len(out) < 5_000 and "An answer of 100,000 characters? Answer in a few letters" in out
    asked: dict[str, int] = {}
    expected: list[tuple[str, str]] = []   # (bad answer, the reason it should get)
    state: dict[str, int] = {}
    checked: list[str] = []

    def answer(prompt: str, shown: list[str]) -> str:
        if expected:  # the line before this prompt gives the reason for the answer before
            bad, reason = expected.pop(0)
            assert shown[-2].startswith("  ") and reason in shown[-2], (bad, shown[-3:])
            checked.append(bad)
        kind = prompt.split()[0]
        asked[kind] = asked.get(kind, 0) + 1
        if kind == "Take" and asked[kind] == 1:
            expected.append(("maybe", "Answer y or n"))
            return "maybe"
        if kind == "Draw":
            top = re.search(r"take (\w\w) from the pile", prompt)[1]
            if asked[kind] == 1:
                expected.append(("x", "Answer s to draw from the stock or p to take"))
                return "x"
            if asked[kind] == 2:
                state["not_held"] = gincore.parse_cards(top).bit_length() - 1
                return "s"
            if asked[kind] == 3:
                state["taken"] = gincore.parse_cards(top).bit_length() - 1
                return "p"
        if kind == "Discard":
            if "not_held" in state:
                card = gincore.card_text(state.pop("not_held"))
                expected.append((card, f"you do not hold {card}."))
                return card
            if "taken" in state:
                card = gincore.card_text(state.pop("taken"))
                expected.append((card, f"you just took {card} from the pile: discard another card."))
                return card.lower()
            if "queue" not in state:
                expected.extend([("99", "no card number 99: choose 1 to 11"), ("ZZ", "unknown card 'ZZ'"),
                                 ("AC 2C", "name one card"), ("0", "no card number 0")])
                state["queue"] = 4
            if state.get("queue"):
                state["queue"] -= 1
                return ("99", "ZZ", "AC 2C", "0")[3 - state["queue"]]
        if kind == "Knock" and asked[kind] == 1:
            expected.append(("perhaps", "Answer y or n"))
            return "perhaps"
        return "q" if asked.get("Discard", 0) > 12 else ""

    result, shown, _ = scripted(Rules(), "greedy", 11, answer)
    assert result.stopped_by == "quit" and not expected
    assert {"maybe", "x", "99", "ZZ", "AC 2C", "0"} <= set(checked) and len(checked) >= 8
    assert asked["Take"] >= 1 and asked["Draw"] >= 4 and asked["Discard"] > 12


def test_help_numbers_and_suit_symbols() -> None:
    lines: list[str] = []
    discarded: list[str] = []

    def read(prompt: str) -> str:
        lines.append(prompt)
        if not discarded and prompt.startswith(("Take", "Draw")) and "Answer each question" not in "\n".join(lines):
            return "?"
        if prompt.startswith("Discard"):
            cards, numbers = lines[-3].split(), lines[-2].split()
            if not discarded:  # the suggested card, written as shown: rank and suit symbol
                discarded.append(re.search(r"Enter: (\S+),", prompt)[1])
                return discarded[-1]
            if len(discarded) == 1:  # the last position: a deadwood card
                discarded.append(cards[-1].strip("[]"))
                return numbers[-1]
            return "q"
        return ""

    result = play_game(Rules(), "greedy", 11, Console(read, lines.append, symbols=True))
    assert result.stopped_by == "quit" and len(discarded) == 2
    text = "\n".join(lines)
    assert "Answer each question, or type q to quit" in text
    assert not re.search(r"\b[A2-9TJQK][CDHS]\b", text.replace(HELP, ""))
    assert re.search("[\u2663\u2666\u2665\u2660]", text)
    assert not any(line.startswith("  ") and "Answer" in line for line in lines)  # no answer refused
    for card in discarded:  # each discard shows up on the pile (or taken from it by the opponent)
        assert re.search(rf"(pile .*{card}.*\]|took {card} from the pile)", text), card
    code, out, _ = play("--seed", "11", "--symbols", answers="q\n")
    assert code == 0 and re.search("[\u2663\u2666\u2665\u2660]", out)


def test_knock_gin_and_big_gin_questions() -> None:
    lines: list[str] = []
    answers = iter(["", "yes", "", "n"])
    human = HumanStrategy(Console(lambda prompt: lines.append(prompt) or next(answers), lines.append), "greedy")
    melded = gincore.parse_cards("AC 2C 3C 4C 5D 5H 5S 9S TS JS")
    knocking = gincore.parse_cards("AC 2C 3C 5D 5H 5S 9S TS JS 2H")
    view = View(0, knocking, (30,), (-1,), 0, 0, 20, 10, 1, 1, 30, 5, 27, False, 0, (0, 0))
    assert human.knock(view) is False  # Enter: no knock
    assert lines[-1] == "Knock with deadwood 2 (limit 10)? [y/N] "
    assert human.knock(view) is True
    assert human.knock(replace(view, hand=melded)) is True  # Enter: gin
    assert lines[-1] == "Your ten cards all meld. Go gin? [Y/n] "
    eleven = melded | gincore.parse_cards("QS")
    assert human.big_gin(replace(view, hand=eleven)) is False
    assert lines[-1] == "Go big gin now, without a discard? [Y/n] "
    assert "Your eleven cards all meld: [AC 2C 3C 4C] [5D 5H 5S] [9S TS JS QS]" in lines


@pytest.mark.parametrize("answered", [0, 60])
def test_ctrl_c_stops_the_game_and_keeps_the_hands_played(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                         answered: int) -> None:
    """Ctrl-C (or SIGTERM, made one) after ``answered`` answers: status 130, and the hands played to their
    end are saved as at the end of the input."""
    asked: list[str] = []

    def answer_then_interrupt(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) > answered:
            raise KeyboardInterrupt
        return ""

    monkeypatch.setattr("ginsim.gin.review.interactive.read_line", answer_then_interrupt)
    saved = tmp_path / "game.json"
    code, out, err = play("--seed", "1", "--save", str(saved))
    assert code == 130 and err.startswith("Interrupted: the game stopped in hand ") and "--seed 1." in err, err
    assert len(err.strip().splitlines()) == 1
    if answered:
        assert "The game's record (" in out and GameRecord.load(saved).hands
    else:
        assert "No hand was played to its end" in out and not saved.exists()


@pytest.mark.parametrize("args, message", [
    (["--against", "smiple"], "did you mean 'simple'"),
    (["--against", "threshold:12"], "knock_at must be an integer from 0 to 10, got 12"),
    (["--target", "0"], "target"),
    (["--seed", "-1"], "-1 is not in the range x>=0"),
    (["--rules", "okla"], "'okla' is not one of"),
])
def test_bad_options_are_one_line_errors(args: list[str], message: str) -> None:
    code, out, err = play(*args)
    assert code == 2 and out == ""
    assert err.startswith("Error: ") and message in err and len(err.strip().splitlines()) == 1
