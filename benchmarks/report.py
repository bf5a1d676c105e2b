"""Print a pytest-benchmark JSON file as a Markdown table of items per second (from the medians).

Usage: python benchmarks/report.py bench.json
"""
from __future__ import annotations

import json
import sys


def main(path: str) -> None:
    with open(path) as handle:
        data = json.load(handle)
    print("| group | benchmark | items per round | median (s) | items/s |")
    print("| --- | --- | ---: | ---: | ---: |")
    for bench in data["benchmarks"]:
        info = bench.get("extra_info", {})
        median = bench["stats"]["median"]
        per_second = info.get("per_second")
        shown = f"{per_second:,.0f}" if per_second else "-"
        print(f"| {bench['group']} | {bench['name'].removeprefix('test_')} | {info.get('items', '-'):,} "
              f"| {median:.4f} | {shown} |")
    machine = data.get("machine_info", {})
    print(f"\n{machine.get('cpu', {}).get('brand_raw', 'unknown CPU')}, Python {machine.get('python_version')}")


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        print(__doc__.strip(), file=sys.stderr if len(sys.argv) != 2 or sys.argv[1] not in ("-h", "--help") else
              sys.stdout)
        sys.exit(0 if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help") else 2)
    try:
        main(sys.argv[1])
    except (OSError, ValueError, KeyError) as error:  # not a pytest-benchmark JSON file: one line
        sys.exit(f"{sys.argv[1]}: not a pytest-benchmark JSON file ({type(error).__name__}: {error})")
