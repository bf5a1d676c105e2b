"""Deprecated: ``ginsim.gin.runs`` is now :mod:`ginsim.gin.studies` (the executor is
:mod:`ginsim.core.execution`); ``ginsim.gin.runs.X`` is ``ginsim.gin.studies.X``, the same module, for one
release.

>>> import warnings
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore", DeprecationWarning)
...     from ginsim.gin.runs.summary import wilson
>>> from ginsim.gin.studies import summary
>>> wilson is summary.wilson
True
"""
from __future__ import annotations

import importlib
import pkgutil
import sys
import warnings

import ginsim.gin.studies as _studies

warnings.warn("ginsim.gin.runs is deprecated: import from ginsim.gin.studies (the same modules)", DeprecationWarning,
              stacklevel=2)

for _module in pkgutil.iter_modules(_studies.__path__):
    sys.modules[f"{__name__}.{_module.name}"] = importlib.import_module(f"{_studies.__name__}.{_module.name}")
