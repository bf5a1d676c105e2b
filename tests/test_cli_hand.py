"""``ginsim hand``: a Gin hand is 10 or 11 cards, and the card in brackets is the one just drawn."""
from __future__ import annotations

import json

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
    (["AS 2S"], "a Gin hand has 10 cards, or 11 after drawing; got 2 (AS 2S); --any-size analyses any number"),
    (["7H 8H 9H 9C 9S 9D 2S 3S 4S [5D]"], "the card in brackets is the one just drawn: it goes with 11 cards"),
    (["7H 8H 9H 9C 9S 9D 2S 3S 4S [KD] [5D]"], "put one card, the one just drawn, in brackets"),
    (["7H 8H 9H 9C 9S 9D 2S 3S 5D [KD 4S]"], "the brackets hold the one card just drawn"),
    (["7H 8H 9H 9C 9S 9D 2S 3S 4S 5D KD", "--from-pile"], "--from-pile needs the card taken from the pile"),
])
def test_hand_errors(args: list[str], message: str) -> None:
    code, out, err = invoke("hand", *args)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1
