"""Train a policy that the ``learned`` strategy ships, by its recipe, in one command.

Usage: python tools/make_learned.py {standard,oklahoma} [--runs runs/learned] [--install] [--print]

``standard`` makes ``src/ginsim/gin/data/learned_standard.npz`` (trained under ``eaai`` rules) and
``oklahoma`` makes ``learned_oklahoma.npz``. Each stage of the recipe is a ``ginsim train`` run in a
directory of its own, ``RUNS/POLICY/STAGE``, going on from the stage before it (``--start-from``); the
first clones ``marjj``. A stopped recipe resumes: the same command again finds each finished stage done
(it writes that stage's policy file again and goes on) and resumes the stopped one from its last
checkpoint, as ``ginsim train`` does. ``--install`` then copies the last stage's policy file over the
shipped one; ``--print`` prints the stages' commands and exits. docs/learning.md prints these commands;
``tests/docs/test_learned_recipe.py`` checks that the page and this script agree.

The shipped files came from these stages' settings and seeds, run in other directories (not by this
script end to end). Each policy file's ``meta`` holds the command of the stage that made it, with its
whole configuration.
"""
from __future__ import annotations

import argparse
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "src" / "ginsim" / "gin" / "data"
NETWORK = "--layout learner --hidden 384,384"
CLONE = ("--imitate marjj --imitate-against marjj --imitate-hands 120000 --imitate-fresh --imitate-lr 0.001 "
         "--imitate-lr-end 0.00005 --opponents simple,marjj --steps 163840 --envs 128 --rollout 64 --lr 0.0001 "
         "--entropy 0.003 --checkpoint-every 10")
PPO = "--envs 128 --rollout 128 --lr 0.00005 --entropy 0.003 --checkpoint-every 5"
FINE_PPO = PPO.replace("--lr 0.00005", "--lr 0.00002")  # a smaller step, once the larger one stopped gaining

RECIPES: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "standard": ("eaai", (
        ("clone", f"{CLONE} --imitate-epochs 16 --seed 2030"),
        ("ppo1", f"--opponents marjj --steps 3000000 {PPO} --seed 2035"),
        ("ppo2", f"--opponents simple,marjj --steps 12000000 {PPO} --seed 2039"),
        ("search1", f"--opponents marjj,search --steps 6000000 {PPO} --seed 2051"),
        ("search2", f"--opponents simple,marjj,search --steps 8000000 {PPO} --seed 2053"),
        ("search3", f"--opponents simple,marjj,search --steps 8000000 {PPO} --seed 2059"),
        ("search4", f"--opponents simple,marjj,search --steps 8000000 {PPO} --seed 2067"),
        ("search5", f"--opponents simple,marjj,search --steps 8000000 {PPO} --seed 2071"),
        ("marjj1", f"--opponents marjj --steps 6000000 {PPO} --seed 2077"),
        ("search6", f"--opponents simple,marjj,search --steps 8000000 {PPO} --seed 2079"),
        ("search7", f"--opponents simple,marjj,search --steps 8000000 {FINE_PPO} --seed 2097"),
    )),
    "oklahoma": ("oklahoma", (
        ("clone", f"{CLONE} --imitate-epochs 10 --seed 2031"),
        ("ppo1", f"--opponents marjj --steps 3000000 {PPO} --seed 2045"),
        ("ppo2", f"--opponents simple,marjj --steps 12000000 {PPO} --seed 2049"),
        ("ppo3", f"--opponents simple,marjj --steps 12000000 {PPO} --seed 2061"),
        ("ppo4", f"--opponents simple,marjj --steps 12000000 {PPO} --seed 2063"),
        ("ppo5", f"--opponents simple,marjj --steps 12000000 {PPO} --seed 2069"),
        ("ppo6", f"--opponents simple,marjj --steps 12000000 {PPO} --seed 2073"),
        ("ppo7", f"--opponents simple,marjj --steps 12000000 {PPO} --seed 2083"),
    )),
}
"""Per shipped policy: the rules it is trained under, and its stages (name, ``ginsim train`` options)."""


def commands(policy: str, runs: Path) -> list[list[str]]:
    """The ``ginsim train`` command of each stage of ``policy``'s recipe, its runs under ``runs``."""
    rules, stages = RECIPES[policy]
    made: list[list[str]] = []
    before: Path | None = None
    for name, options in stages:
        out = runs / policy / name
        start = [] if before is None else ["--start-from", str(before / "policy.npz")]
        made.append(["ginsim", "train", "--out", str(out), "--rules", rules, *NETWORK.split(), *start,
                     *shlex.split(options)])
        before = out
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("policy", choices=sorted(RECIPES), help="the shipped policy to make")
    parser.add_argument("--runs", type=Path, default=Path("runs/learned"),
                        help="the stages' directories go under RUNS/POLICY (default %(default)s)")
    parser.add_argument("--install", action="store_true", help="copy the result over the shipped policy file")
    parser.add_argument("--print", action="store_true", help="print the stages' commands and exit")
    arguments = parser.parse_args()
    stages = commands(arguments.policy, arguments.runs)
    if arguments.print:
        print("\n".join(shlex.join(command) for command in stages))
        return
    ginsim = shutil.which("ginsim")
    if ginsim is None:
        sys.exit("make_learned.py: the ginsim command is not on PATH; install the package: "
                 "pip install -e '.[train]'")
    for number, command in enumerate(stages, 1):
        print(f"stage {number} of {len(stages)}: {shlex.join(command)}", flush=True)
        finished = subprocess.run([ginsim, *command[1:]])
        if finished.returncode != 0:
            sys.exit(f"make_learned.py: stage {number} stopped (exit {finished.returncode}); "
                     "the same command again resumes it")
    result = Path(stages[-1][3]) / "policy.npz"
    if arguments.install:
        target = DATA / f"learned_{arguments.policy}.npz"
        shutil.copyfile(result, target)
        print(f"{result} copied to {target}")
    else:
        print(f"the policy: {result} (--install copies it over the shipped one)")


if __name__ == "__main__":
    main()
