"""Build the gincore Cython extensions.

Set ``GINCORE_DEBUG=1`` to build with bounds checks, ``-O0 -g`` and line tracing off:
``GINCORE_DEBUG=1 pip install -e . --no-build-isolation``.

On an x86-64 Linux machine whose processor counts bits in one instruction (every one since about
2009) the build uses it (``-mpopcnt``); set ``GINCORE_PORTABLE=1`` for a build that must also run on
older processors than the one it is built on. The network's kernels are built for the vector unit too
(AVX2 and FMA, AVX-512) and chosen when the module loads, whatever the build.

Set ``GINCORE_NATIVE=1`` to build everything for this machine's processor alone (``-march=native``:
its whole instruction set in every module): ``GINCORE_NATIVE=1 pip install -e . --no-build-isolation``.
Such a build may not run on another machine; it makes the same records (it fuses no multiply-adds the code
does not ask for), and ``benchmarks/ab.py`` measures what it gains.
"""
from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("GINCORE_DEBUG", "") not in ("", "0")
PORTABLE = os.environ.get("GINCORE_PORTABLE", "") not in ("", "0")
NATIVE = os.environ.get("GINCORE_NATIVE", "") not in ("", "0")


def has_popcount_instruction() -> bool:
    """Whether this is an x86-64 Linux machine whose processor has POPCNT. Elsewhere the compiler's
    ``__builtin_popcountll`` is already one instruction (arm64) or a library call (the safe default)."""
    if sys.platform != "linux" or platform.machine() != "x86_64":
        return False
    try:
        return "popcnt" in Path("/proc/cpuinfo").read_text().split()
    except OSError:
        return False


# Compiler directives live here and nowhere else.
DIRECTIVES = {
    "language_level": "3",
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "embedsignature": True,
}

if sys.platform == "win32":
    COMPILE_ARGS = ["/Od", "/Zi"] if DEBUG else ["/O2"]
else:
    COMPILE_ARGS = ["-O0", "-g"] if DEBUG else ["-O3"]
    if NATIVE and not PORTABLE:
        # this processor's whole instruction set (POPCNT included); no fused multiply-adds the code does not ask
        # for, so that every record stays what the portable build makes
        COMPILE_ARGS += ["-march=native", "-ffp-contract=off"]
    elif not PORTABLE and has_popcount_instruction():
        COMPILE_ARGS.append("-mpopcnt")  # hands are bit masks: counting cards is the kernels' commonest step

# Every private compiled module of gincore: src/gincore/_*.pyx.
MODULES = sorted(path.stem for path in Path("src/gincore").glob("_*.pyx"))

extensions = [
    Extension(
        f"gincore.{name}",
        [f"src/gincore/{name}.pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=COMPILE_ARGS,
    )
    for name in MODULES
]

# The modules are translated and compiled side by side, one a core: an install (and CI, which builds twice)
# waits for the largest module alone.
JOBS = os.cpu_count() or 1

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES, nthreads=JOBS),
      options={"build_ext": {"parallel": JOBS}})
