from typing import SupportsIndex

import numpy as np
import numpy.typing as npt

WEIGHTS: tuple[float, ...]
FEATURES: tuple[str, ...]

def opponent_odds(mine: SupportsIndex, pile: SupportsIndex = 0, holds: SupportsIndex = 0,
                  took: SupportsIndex = 0, discarded: SupportsIndex = 0, passed: SupportsIndex = 0,
                  size: int = 10,
                  weights: tuple[float, ...] | list[float] | None = None) -> npt.NDArray[np.float64]: ...
def card_features(card: int, mine: SupportsIndex, pile: SupportsIndex = 0, holds: SupportsIndex = 0,
                  took: SupportsIndex = 0, discarded: SupportsIndex = 0,
                  passed: SupportsIndex = 0) -> tuple[int, ...]: ...
