"""The native Gin hand: the rules' transitions, the strategies, whole hands and open positions.

One compiled unit made of the files in ``_gin/``, so that the hand loop, the strategies and their
play-outs call each other directly: ``transitions.pxi`` (the only copy of the rules), ``views.pxi``
(what a player sees), ``table.pxi`` and ``strategies/*.pxi`` (one file per strategy, each registered
once in the table of function pointers), ``driver.pxi`` (asks the strategies and moves),
``playouts.pxi`` (Monte-Carlo shared by sampler, search and reader), ``bridge.pxi`` (records, views
and rules for Python), ``engine.pxi`` (whole hands in batches), ``state.pxi`` (an open position),
``vector.pxi`` (observations and the environments' tables), ``strategies/learned.pxi`` (a
trained network, which reads the observations ``vector.pxi`` writes) and ``decisions.pxi`` (what
players saw and chose, for learning). The types
are declared in ``_engine.pxd``.

A whole hand runs without the GIL and without a Python call per turn. Each hand draws all its
randomness (who deals in a run of independent hands, the shuffle, the strategies' coin flips, the
reshuffles) from one xoshiro256** stream keyed by (run key, hand index), so hand ``i`` of a run is the
same whatever the chunking (the stream is in ``_random.pxd``). Strategies see only what their player
may see.
"""
from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

import operator
from collections import namedtuple

cimport numpy as cnp
import numpy as np

from gincore.errors import InputError, StrategyError
from gincore._records import check_layout, column_names, columns_of, record_dtype, row_of

from gincore._bits cimport FULL_DECK, card_bit, lowest_card, popcount64, rank_cards
from gincore._cards cimport NO_CARD, NO_PLAYER, card_value, mask_value, shuffled_deck
from gincore._random cimport Rng, below, hand_key, next_random, pick, seed_rng, shuffle_cards
from gincore._odds cimport MODEL_WEIGHTS, Seen, model_odds, unknown_cards
from gincore._melds cimport (MAX_LEAVES, DiscardChoice, all_melded, best_discards, deadwood_after_each, deadwood_of,
                             in_some_meld, layoff_of, least_deadwood_among, meld_exposure, min_set_choices,
                             run_cards)

cnp.import_array()

include "_gin/transitions.pxi"
include "_gin/views.pxi"
include "_gin/table.pxi"
include "_gin/strategies/random.pxi"
include "_gin/strategies/simple.pxi"
include "_gin/strategies/greedy.pxi"
include "_gin/strategies/threshold.pxi"
include "_gin/strategies/defensive.pxi"
include "_gin/strategies/marjj.pxi"
include "_gin/strategies/patient.pxi"
include "_gin/strategies/python.pxi"
include "_gin/playouts.pxi"
include "_gin/strategies/sampler.pxi"
include "_gin/strategies/search.pxi"
include "_gin/strategies/reader.pxi"
include "_gin/driver.pxi"
include "_gin/bridge.pxi"
include "_gin/engine.pxi"
include "_gin/state.pxi"
include "_gin/vector.pxi"
include "_gin/strategies/learned.pxi"
include "_gin/decisions.pxi"
