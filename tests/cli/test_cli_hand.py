"""``ginsim hand``: a Gin hand is 10 or 11 cards, and the card in brackets is the one just drawn."""
from __future__ import annotations

import json
from typing import Any

import pytest

from tests.cli_runner import invoke

ELEVEN = "7H 8H 9H 9C 9S 9D 2S 3S 4S KD [5D]"



def test_the_drawn_card_is_named() -> None:
    code, out, _ = invoke("hand", ELEVEN)
    assert code == 0 and out.splitlines()[0].endswith("(11 cards; drew 5D)")
    assert "  5D  leaves" in out  # drawn from the stock: it may be thrown straight back


def test_a_card_from_the_pile_is_not_a_discard() -> None:
    code, out, _ = invoke("hand", ELEVEN, "--from-pile", "--json")
    report = json.loads(out)
    assert code == 0 and (report["drawn"], report["from_pile"]) == ("5D", True)
    assert [option["card"] for option in report["discards"]][0] == "KD"
    assert "5D" not in {option["card"] for option in report["discards"]} and len(report["discards"]) == 10
    code, out, _ = invoke("hand", ELEVEN, "--from-pile")
    assert "5D was taken from the pile and stays" in out and "  5D  leaves" not in out


def test_any_size_analyses_other_hands() -> None:
    code, out, _ = invoke("hand", "AS 2S 3S 5D", "--any-size")
    assert code == 0 and "deadwood: 5" in out and "discards" not in out


@pytest.mark.parametrize("args, message", [
    (["AS 2S"], "a Gin hand has 10 cards, or 11 after drawing; got 2 (AS 2S); --any-size analyses up to 36"),
    (["7H 8H 9H 9C 9S 9D 2S 3S 4S [5D]"], "the card in brackets is the one just drawn: it goes with 11 cards"),
    (["7H 8H 9H 9C 9S 9D 2S 3S 4S [KD] [5D]"], "put one card, the one just drawn, in brackets"),
    (["7H 8H 9H 9C 9S 9D 2S 3S 5D [KD 4S]"], "the brackets hold the one card just drawn"),
    (["7H 8H 9H 9C 9S 9D 2S 3S 4S 5D KD", "--from-pile"], "--from-pile needs the card taken from the pile"),
])
def test_hand_errors(args: list[str], message: str) -> None:
    code, out, err = invoke("hand", *args)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1



KNOCKER = "6H 7H 8H 9C 9D 9S 2S 3S 4S 5D KD"
DEFENDER = "2H 3H 4H QC QD QH QS 9H 7S AC"
GIN = "AC 2C 3C 4D 5D 6D 7H 8H 9H TH"
GIN_DEFENDER = "2S 3S 4S QC QD QH QS 7S 9S KC"  # deadwood 7 + 9 + 10 = 26
UNDERCUT = ("AC 2C 3C 4D 5D 6D 7H 8H 9H KS", "--defender", "KC KD KH 2S 3S 4S 5S 6S 7S 8S")  # 10 against 0


def showdown(*args: str) -> dict[str, Any]:
    code, out, err = invoke("hand", *args, "--json")
    assert code == 0, err
    shown: dict[str, Any] = json.loads(out)["showdown"]
    return shown


def test_the_showdown_scores_with_the_rules_bonuses() -> None:
    assert showdown(GIN, "--defender", GIN_DEFENDER)["showdowns"][0]["points"] == 25 + 26
    assert showdown(GIN, "--defender", GIN_DEFENDER, "--gin-bonus", "31")["showdowns"][0]["points"] == 31 + 26
    assert showdown(*UNDERCUT)["showdowns"][0]["points"] == 10 + 25
    assert showdown(*UNDERCUT, "--undercut-bonus", "10")["showdowns"][0]["points"] == 10 + 10
    code, out, _ = invoke("hand", GIN, "--defender", GIN_DEFENDER, "--gin-bonus", "31")
    assert code == 0 and "gin, the knocker scores 57" in " ".join(out.split())  # wrapped at 80 columns


def test_big_gin_goes_out_without_a_discard_when_the_rules_allow_it() -> None:
    eleven = GIN + " JH"
    plain = showdown(eleven, "--defender", GIN_DEFENDER)
    assert plain["knock_discard"] == "JH" and plain["showdowns"][0]["outcome"] == "gin"
    big = showdown(eleven, "--defender", GIN_DEFENDER, "--big-gin-bonus", "31")
    assert "knock_discard" not in big
    assert (big["showdowns"][0]["outcome"], big["showdowns"][0]["points"]) == ("big_gin", 31 + 26)
    code, out, _ = invoke("hand", eleven, "--big-gin-bonus", "31")
    assert code == 0 and "big gin: all eleven cards meld" in out


def test_oklahoma_takes_the_knock_limit_and_the_doubling_from_the_upcard() -> None:
    code, out, _ = invoke("hand", KNOCKER, "--rules", "oklahoma", "--upcard", "4C", "--defender", DEFENDER)
    assert code == 0 and "discards (knock limit 4):" in out and "cannot knock: deadwood 5 is over the limit 4" in out
    spade = showdown(KNOCKER, "--rules", "oklahoma", "--upcard", "7S", "--defender", DEFENDER)
    assert spade["multiplier"] == 2 and spade["showdowns"][0]["points"] == 2 * 3
    code, out, _ = invoke("hand", KNOCKER, "--rules", "straight")
    assert code == 0 and "discards (knock limit 0):" in out
    code, _, err = invoke("hand", KNOCKER, "--rules", "oklahoma")
    assert code == 2 and "under Oklahoma rules the upcard sets the knock limit" in err
    code, _, err = invoke("hand", KNOCKER, "--upcard", "7S 8S")
    assert code == 2 and "give one card" in err
