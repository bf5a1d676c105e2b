"""The ``ginsim`` command line.

Every mistake in the input ends with one line naming the problem and exit status 2, never a traceback.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(main, ["hand", "AC 2C 3C KD"])
>>> result.exit_code, result.output.splitlines()[1]
(0, 'deadwood: 10')
"""
from __future__ import annotations

import json
from typing import Any

import click

import gincore
from ginsim._version import __version__

__all__ = ["main"]


class CardsParam(click.ParamType):
    """Card text such as ``"7H 8H 9H KD"``; a card in brackets (``[5D]``) marks the card just drawn."""

    name = "cards"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        try:
            return gincore.parse_cards(str(value).replace("[", " ").replace("]", " "))
        except ValueError as error:
            self.fail(str(error), param, ctx)


CARDS = CardsParam()


def _analyse(hand: int, knock_limit: int) -> dict[str, Any]:
    arrangements = gincore.arrangements(hand)
    report: dict[str, Any] = {
        "cards": gincore.format_cards(hand),
        "deadwood": gincore.deadwood(hand),
        "arrangements": [
            {
                "melds": [gincore.format_cards(meld) for meld in melds],
                "deadwood_cards": gincore.format_cards(hand & ~sum(melds)),
            }
            for melds in arrangements
        ],
    }
    if bin(hand).count("1") == 11:
        after = gincore.deadwood_after_discard(hand)
        report["knock_limit"] = knock_limit
        report["discards"] = [
            {
                "card": gincore.card_text(card),
                "deadwood": left,
                "ends_hand": "gin" if left == 0 else "knock" if left <= knock_limit else None,
            }
            for card, left in sorted(after.items(), key=lambda item: (item[1], -item[0]))
        ]
    return report


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ginsim")
def main() -> None:
    """Exact, fast Gin Rummy analysis and simulation."""


@main.command()
@click.argument("cards", type=CARDS)
@click.option(
    "--knock-limit",
    type=click.IntRange(0, 10),
    default=10,
    show_default=True,
    help="Deadwood allowed for a knock, used to mark the discards of an 11-card hand.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
def hand(cards: int, knock_limit: int, as_json: bool) -> None:
    """Analyse a hand: its deadwood, every optimal arrangement, and for 11 cards every discard.

    \b
    Examples:
      ginsim hand "7H 8H 9H 9C 9S 9D 2S 3S 4S KD"
      ginsim hand "7H 8H 9H 9C 9S 9D 2S 3S 4S KD [5D]" --knock-limit 5
    """
    report = _analyse(cards, knock_limit)
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    size = bin(cards).count("1")
    click.echo(f"hand: {report['cards']} ({size} cards)")
    click.echo(f"deadwood: {report['deadwood']}")
    click.echo(f"optimal arrangements: {len(report['arrangements'])}")
    for number, arrangement in enumerate(report["arrangements"], 1):
        melds = " ".join(f"[{meld}]" for meld in arrangement["melds"]) or "(no melds)"
        click.echo(f"  {number}. {melds}  deadwood: {arrangement['deadwood_cards'] or '-'}")
    if "discards" in report:
        click.echo(f"discards (knock limit {knock_limit}):")
        for option in report["discards"]:
            verdict = option["ends_hand"] or ""
            click.echo(f"  {option['card']:>2}  leaves {option['deadwood']:>3}  {verdict}".rstrip())
