"""The tables of ``docs/rules.md`` that come from the code: every rule field of both games (default,
allowed values, command-line option) and every Gin preset.

``python docs/rules_tables.py`` rewrites them in place between their ``<!-- generated: NAME -->`` and
``<!-- end: NAME -->`` markers; ``tests/test_docs_pages.py`` fails when the page and the code disagree,
so a changed default or range cannot go unnoticed.
"""
from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

from ginsim import PRESETS, Rules, rummy
from ginsim.fields import RuleSet

RULES_PAGE = Path(__file__).resolve().parent / "rules.md"
BLOCK = re.compile(r"(<!-- generated: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- end: (?P=name) -->)", re.DOTALL)


def _shown(value: object) -> str:
    return f'`"{value}"`' if isinstance(value, str) else f"`{value}`"


def fields_table(rules_class: type[RuleSet]) -> str:
    """One row per field: name, default, allowed values, option and what it does."""
    rows = ["| field | default | allowed | option | what it sets |", "| --- | --- | --- | --- | --- |"]
    for field in dataclasses.fields(rules_class):
        kind, description = field.metadata["kind"], field.metadata["description"]
        option = f"`--{field.name.replace('_', '-')} VALUE`"
        rows.append(f"| `{field.name}` | {_shown(field.default)} | {kind.describe()} | {option} | {description} |")
    return "\n".join(rows) + "\n"


def presets_table() -> str:
    """One row per Gin preset: its name, option and the fields it changes from the standard game."""
    rows = ["| preset | option | fields that differ from `standard` |", "| --- | --- | --- |"]
    for name, preset in PRESETS.items():
        changes = ", ".join(f"`{change}`" for change in preset.changes_from(Rules())) or "none: the defaults"
        rows.append(f"| `{name}` | `--rules {name}` | {changes} |")
    return "\n".join(rows) + "\n"


def tables() -> dict[str, str]:
    """Every generated table of the rules page, by its marker name."""
    return {"gin-fields": fields_table(Rules), "rummy-fields": fields_table(rummy.Rules), "presets": presets_table()}


def page_tables(text: str) -> dict[str, str]:
    """The tables as the page holds them, by marker name."""
    return {match["name"]: match["body"] for match in BLOCK.finditer(text)}


def rewrite(text: str) -> str:
    """The page with every generated table replaced by the code's."""
    made = tables()
    return BLOCK.sub(lambda match: f"{match[1]}{made[match['name']]}{match[4]}", text)


if __name__ == "__main__":
    RULES_PAGE.write_text(rewrite(RULES_PAGE.read_text()))
    sys.stdout.write(f"rewrote the tables of {RULES_PAGE}\n")
