"""Exact enumeration of every hand of a size, natively: the public face of the compiled ``gincore._exact``.

Deadwood does not change when suits are permuted, so only canonical hands are scored, each standing for
its distinct suit permutations: about 24 times less work (the method is told in ``gincore._exact``). The
hands are cut into ``work_units`` (a unit fixes the suit sizes and the first suit's cards), which threads
score apart: ``histogram`` counts a set of units' hands by minimum deadwood (``HISTOGRAM_SIZE`` bins),
``canonical_counts`` says how many canonical hands each unit scores, ``hand_counts`` how many hands it
stands for.

>>> from gincore.exact import hand_counts, histogram, work_units
>>> units = work_units(3)
>>> int(hand_counts(units).sum()), int(histogram(units).sum())   # C(52, 3) three-card hands
(22100, 22100)
"""
from __future__ import annotations

from gincore._exact import HISTOGRAM_SIZE, canonical_counts, hand_counts, histogram, work_units

__all__ = ["HISTOGRAM_SIZE", "canonical_counts", "hand_counts", "histogram", "work_units"]
