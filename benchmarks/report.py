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
    if len(sys.argv) != 2:
        sys.exit("usage: python benchmarks/report.py BENCH.json")
    main(sys.argv[1])
