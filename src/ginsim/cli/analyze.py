"""``ginsim analyze``: every decision of a recorded game valued against the other options, with
marks, error rates, ratings and luck.

>>> import json, tempfile, os
>>> from click.testing import CliRunner
>>> from ginsim import Rules, play_hand
>>> from ginsim.gin.review.replay import GameRecord
>>> path = os.path.join(tempfile.mkdtemp(), "hand.json")
>>> _ = GameRecord.of_hand(play_hand(Rules(), "random,greedy", seed=2, index=0)).save(path)
>>> result = CliRunner().invoke(analyze_command, [path, "--deals", "8", "--player", "0", "--letters"])
>>> result.exit_code, result.output.splitlines()[0]
(0, 'Analysis of a hand under standard rules: player 0 random, player 1 greedy')
>>> data = json.loads(CliRunner().invoke(analyze_command, [path, "--deals", "8", "--json"]).output)
>>> sorted(data), data["decisions"][0]["kind"]
(['deals', 'decisions', 'format', 'policy', 'summary'], 'offer')
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import click

from ginsim.cli.options import json_option, seed_option, symbols_option, use_symbols, workers_option
from ginsim.gin.review.analysis import DEFAULT_DEALS, ENDGAME, ENDGAME_STOCK, POLICY

__all__ = ["analyze_command"]


def _plain(value: Any) -> Any:
    """A value of an analysis table as JSON takes it: numbers as numbers, NaN as null."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if hasattr(value, "item"):  # numpy scalars
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


@click.command(name="analyze")
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--player", type=click.IntRange(0, 1), help="Analyse this seat's decisions only  [default: both]")
@click.option("--deals", type=click.IntRange(2, 1 << 16), default=DEFAULT_DEALS, show_default=True,
              help="Play-outs per option of each decision: more is slower and more precise.")
@click.option("--options", "shown", type=click.IntRange(0, 30), default=0, show_default=True,
              help="Show each decision's N best options with their values.")
@seed_option
@workers_option("Threads")
@symbols_option
@json_option("the analysis", ": a row per decision, then each hand's and the game's summary")
def analyze_command(path: Path, player: int | None, deals: int, shown: int, seed: int, workers: int | None,
                    symbols: bool | None, as_json: bool) -> None:
    """Analyse the game recorded in FILE (``ginsim play --save``, ``ginsim replay ... --json``, or a
    position written by hand): every decision of each player (or of --player) with the best option,
    the loss of the choice with its 95% interval and a mark (?! ? ??) where the loss is real; each
    hand's and the game's error rate, performance rating and luck.

    Each option is valued by play-outs of marjj against itself from the deals of what the player had
    not seen (search:16 near the end of the stock); the same deals for every option. --seed picks the
    deals.

    \b
    Examples:
      ginsim play --save game.json
      ginsim analyze game.json --player 0
      ginsim replay --players marjj,greedy --seed 3 --match 0 --json > match.json
      ginsim analyze match.json --deals 128 --options 3
    """
    from ginsim.gin.review.analysis import analyze, summarize_analysis
    from ginsim.gin.review.analysis_text import analysis_text
    from ginsim.gin.review.replay import GameRecord

    record = GameRecord.load(path)
    table = analyze(record, player=player, deals=deals, seed=seed, workers=workers)
    if not as_json:
        click.echo(analysis_text(table, record, use_symbols(symbols), shown))
        return
    summary = summarize_analysis(table) if table.attrs.get("hands") else None
    data = {"format": "ginsim-analysis", "deals": deals,
            "policy": f"{POLICY} ({ENDGAME} with {ENDGAME_STOCK} cards or fewer in the stock)",
            "decisions": _plain(table.to_dict(orient="records")),
            "summary": [] if summary is None else _plain(summary.to_dict(orient="records"))}
    click.echo(json.dumps(data, indent=1))
