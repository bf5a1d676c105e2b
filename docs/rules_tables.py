"""The tables of the docs that come from the code: in ``docs/rules.md`` every rule field of both games
(default, allowed values, command-line option) and every Gin preset; in ``docs/strategies.md`` every
built-in strategy and every parameter of each (from their declarations in ``ginsim.gin.game.specs``), and
the rating list as the shipped file holds it (``ginsim/gin/data/ratings.json``; ``python
tools/make_rating_list.py`` plays it again and writes both).

``python docs/rules_tables.py`` rewrites them in place between their ``<!-- generated: NAME -->`` and
``<!-- end: NAME -->`` markers; ``tests/docs/test_docs_pages.py`` fails when a page and the code disagree,
so a changed default or range cannot go unnoticed.
"""
from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

from ginsim import PRESETS, Rules, rummy
from ginsim.core.fields import RuleSet
from ginsim.gin.game.specs import SPECS
from ginsim.gin.studies.rating_list import markdown_block, shipped

DOCS = Path(__file__).resolve().parent
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


def strategies_table() -> str:
    """One row per built-in strategy: how to write it (with every default), its shorthand, what it does."""
    rows = ["| strategy | short | what it does |", "| --- | --- | --- |"]
    for spec in SPECS.values():
        short = f"`{spec.title}`" if spec.parameters else ""
        rows.append(f"| `{spec.signature}` | {short} | {spec.description} |")
    return "\n".join(rows) + "\n"


def parameters_table() -> str:
    """One row per parameter of a built-in strategy: its letter in the shorthand, values, default, meaning."""
    rows = ["| strategy | parameter | letter | allowed | default | what it sets |",
            "| --- | --- | --- | --- | --- | --- |"]
    for spec in SPECS.values():
        for parameter in spec.parameters:
            default = "required" if parameter.required else f"`{parameter.default}`"
            rows.append(f"| `{spec.name}` | `{parameter.name}` | {parameter.letter} | {parameter.kind.describe()} | "
                        f"{default} | {parameter.meaning} |")
    return "\n".join(rows) + "\n"


def tables(page: str = "rules.md") -> dict[str, str]:
    """Every generated table of a page (``rules.md`` or ``strategies.md``), by its marker name."""
    if page == "strategies.md":
        listed = shipped()
        return {"strategies": strategies_table(), "strategy-parameters": parameters_table(),
                "rating-list": markdown_block(listed) if listed else ""}
    return {"gin-fields": fields_table(Rules), "rummy-fields": fields_table(rummy.Rules), "presets": presets_table()}


PAGES = ("rules.md", "strategies.md")
"""The pages with generated tables."""


def page_tables(text: str) -> dict[str, str]:
    """The tables as the page holds them, by marker name."""
    return {match["name"]: match["body"] for match in BLOCK.finditer(text)}


def rewrite(text: str, page: str = "rules.md") -> str:
    """The page with every generated table replaced by the code's."""
    made = tables(page)
    return BLOCK.sub(lambda match: f"{match[1]}{made[match['name']]}{match[4]}", text)


if __name__ == "__main__":
    for name in PAGES:
        (DOCS / name).write_text(rewrite((DOCS / name).read_text(), name))
        sys.stdout.write(f"rewrote the tables of {DOCS / name}\n")
