"""``ginsim hand``: one Gin hand analysed — deadwood, arrangements, discards and the showdown of a knock.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(hand, ["7H 8H 9H 9C 9S 9D 2S 3S 4S KD"])
>>> result.exit_code, result.output.splitlines()[1]
(0, 'deadwood: 10')
"""
from __future__ import annotations

import json
import re
import textwrap
from typing import Any

import click

import gincore
from gincore.errors import InputError
from ginsim.cli.options import json_option, rules_options
from ginsim.cli.report import WIDTH
from ginsim.gin.game.hand import MOST_ANALYSED_CARDS, analyse_hand, knock_showdown
from ginsim.gin.game.rules import Rules

__all__ = ["CardParam", "CardsParam", "HandParam", "hand"]


class CardsParam(click.ParamType):
    """Card text such as ``"7H 8H 9H KD"``."""

    name = "cards"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        try:
            return gincore.parse_cards(str(value))
        except InputError as error:
            self.fail(str(error), param, ctx)


class HandParam(click.ParamType):
    """A hand as card text; one card in brackets (``... KD [5D]``) is the card just drawn. Gives
    ``(mask, drawn card index or None)``."""

    name = "cards"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> tuple[int, int | None]:
        if isinstance(value, tuple):
            return value
        text = str(value)
        marked = re.findall(r"\[([^\]]*)\]", text)
        try:
            if len(marked) > 1 or text.count("[") != len(marked):
                raise InputError(f"put one card, the one just drawn, in brackets, e.g. '... KD [5D]'; got {text!r}")
            drawn = gincore.parse_cards(marked[0]) if marked else None
            if drawn is not None and bin(drawn).count("1") != 1:
                raise InputError(f"the brackets hold the one card just drawn, got [{marked[0]}]")
            mask = gincore.parse_cards(text.replace("[", " ").replace("]", " "))
        except InputError as error:
            self.fail(str(error), param, ctx)
        return mask, None if drawn is None else drawn.bit_length() - 1


class CardParam(CardsParam):
    """One card, e.g. ``7S``; gives its index."""

    name = "card"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        mask = super().convert(value, param, ctx)
        if bin(mask).count("1") != 1:
            self.fail(f"give one card, e.g. 7S; got {value!r}", param, ctx)
        return mask.bit_length() - 1


@click.command()
@click.argument("held", metavar="CARDS", type=HandParam())
@rules_options
@click.option("--upcard", type=CardParam(), help="The hand's upcard: under Oklahoma rules it sets the knock limit "
              "and the multiplier (required there).")
@click.option("--from-pile", is_flag=True, help="The card in brackets was taken from the discard pile, so it may "
              "not be discarded this turn.")
@click.option("--any-size", is_flag=True, help="Analyse a hand of any number of cards up to "
              f"{MOST_ANALYSED_CARDS}, not only 10 or 11.")
@click.option("--defender", type=CardsParam(), help="The opponent's 10 cards: show the showdown of a knock.")
@json_option("the analysis")
def hand(held: tuple[int, int | None], rules: Rules, upcard: int | None, from_pile: bool, any_size: bool,
         defender: int | None, as_json: bool) -> None:
    """Analyse a Gin hand of 10 cards, or 11 after drawing: its deadwood, every optimal arrangement,
    and for 11 cards every discard. Put the card just drawn in brackets ([5D]) to say which it is; with
    --from-pile it is left out of the discards, as the rules require. With --defender: the knock
    against those cards, the defender's best lay-off and the score. The knock limit, the bonuses and
    big gin come from the rules options.

    \b
    Examples:
      ginsim hand "7H 8H 9H 9C 9S 9D 2S 3S 4S KD"
      ginsim hand "7H 8H 9H 9C 9S 9D 2S 3S 4S KD [5D]" --knock-limit 5
      ginsim hand "7H 8H 9H 9C 9S 9D 2S 3S 4S KD [5D]" --from-pile
      ginsim hand "6H 7H 8H 9C 9D 9S 2S 3S 4S 5D KD" \\
        --defender "2H 3H 4H QC QD QH QS 9H 7S AC"
      ginsim hand "7H 8H 9H 9C 9S 9D 2S 3S 4S KD [5D]" --rules oklahoma \\
        --upcard 5S
      ginsim hand "AS 2S 3S 5D" --any-size
    """
    cards, drawn = held
    size = bin(cards).count("1")
    if not any_size and size not in (10, 11):
        raise InputError(f"a Gin hand has 10 cards, or 11 after drawing; got {size} ({gincore.format_cards(cards)}); "
                         f"--any-size analyses up to {MOST_ANALYSED_CARDS}")
    if drawn is not None and size != 11:
        raise InputError(f"the card in brackets is the one just drawn: it goes with 11 cards, got {size}")
    if from_pile and drawn is None:
        raise InputError("--from-pile needs the card taken from the pile in brackets, e.g. '... KD [5D]'")
    if defender is not None and (bin(defender).count("1") != 10 or size not in (10, 11)):
        raise InputError("--defender needs a 10-card hand against a knocker of 10 or 11 cards")
    report = analyse_hand(cards, rules, drawn=drawn, from_pile=from_pile, upcard=upcard)
    if defender is not None:
        report["showdown"] = knock_showdown(cards, defender, rules, upcard=upcard)
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    source = " from the pile" if from_pile else ""
    click.echo(f"hand: {report['cards']} ({size} cards" + (f"; drew {report['drawn']}{source})" if drawn is not None
                                                           else ")"))
    click.echo(f"deadwood: {report['deadwood']}")
    click.echo(f"optimal arrangements: {len(report['arrangements'])}")
    for number, arrangement in enumerate(report["arrangements"], 1):
        melds = " ".join(f"[{meld}]" for meld in arrangement["melds"]) or "(no melds)"
        click.echo(f"  {number}. {melds}  deadwood: {arrangement['deadwood_cards'] or '-'}")
    if report.get("big_gin"):
        click.echo("big gin: all eleven cards meld, the hand goes out without a discard")
    if "discards" in report:
        kept = f"; {report['drawn']} was taken from the pile and stays" if from_pile else ""
        doubled = f", scores x{report['multiplier']}" if "multiplier" in report else ""
        click.echo(f"discards (knock limit {report['knock_limit']}{doubled}{kept}):")
        for option in report["discards"]:
            verdict = option["ends_hand"] or ""
            click.echo(f"  {option['card']:>2}  leaves {option['deadwood']:>3}  {verdict}".rstrip())
    if "showdown" in report:
        showdown = report["showdown"]
        discard = f", discarding {showdown['knock_discard']}" if "knock_discard" in showdown else ""
        doubled = " (doubled)" if "multiplier" in showdown else ""
        click.echo(f"knock against {showdown['defender']}{discard}: knocker deadwood {showdown['knocker_deadwood']}")
        if "verdict" in showdown:
            click.echo(f"  {showdown['verdict']}")
        for option in showdown.get("showdowns", []):
            melds = " ".join(f"[{meld}]" for meld in option["melds"]) or "(no melds)"
            laid = f", lays off {option['laid_off']}" if option["laid_off"] else ""
            outcome = option["outcome"].replace("_", " ")
            click.echo(textwrap.fill(f"showing {melds}: defender deadwood {option['defender_deadwood']}{laid}; "
                                     f"{outcome}, the {option['winner']} scores {option['points']}{doubled}", WIDTH,
                                     initial_indent="  ", subsequent_indent="    "))
