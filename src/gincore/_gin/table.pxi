# The strategy table: every native strategy registers its entry once, from its own file, and is
# played through it (driver.pxi). Its kind is its index here; its parameters are a struct of its
# own laid over Player.params, registered with it so that the Python declaration of its parameters
# (ginsim.gin.game.specs) is checked against the struct's field names at import.

cdef StrategyEntry STRATEGY_TABLE[MAX_STRATEGIES]
cdef int STRATEGY_COUNT = 0

STRATEGY_KINDS = {}
"""The native strategies by name, each with its kind (its index in the table)."""

STRATEGY_PARAMETERS = {}
"""The field names of each native strategy's parameter struct, in their order in ``Player.params``."""


cdef int register_strategy(str name, TakesFn takes, DiscardFn discard, KnocksFn knocks, BigGinFn big_gin,
                           bint takes_back_discards, bint values_matches=False, dict parameters=None,
                           size_t parameters_size=0) except -1:
    """Add a strategy to the table; its kind. ``knocks`` may be NULL when ``discard`` always decides;
    ``values_matches``: under a target it reads the rules' match values (``NativeRules.prepare``);
    ``parameters``: its parameter struct as a dict (a zeroed instance: Cython gives its fields in
    order), of ``parameters_size`` bytes, int fields that must fit in ``Player.params``."""
    global STRATEGY_COUNT
    if STRATEGY_COUNT == MAX_STRATEGIES or name in STRATEGY_KINDS:
        raise ImportError(f"gincore._engine: cannot register strategy {name!r}")
    fields = tuple(parameters or ())
    if len(fields) > PARAMETER_SLOTS or parameters_size != sizeof(int32_t) * len(fields):
        raise ImportError(f"gincore._engine: the parameters of strategy {name!r} are not at most "
                          f"{PARAMETER_SLOTS} int fields")
    STRATEGY_TABLE[STRATEGY_COUNT] = StrategyEntry(takes=takes, discard=discard, knocks=knocks,
                                                   big_gin=big_gin, takes_back_discards=takes_back_discards,
                                                   values_matches=values_matches)
    STRATEGY_KINDS[name] = STRATEGY_COUNT
    STRATEGY_PARAMETERS[name] = fields
    STRATEGY_COUNT += 1
    return STRATEGY_COUNT - 1


cdef bint always_knocks(State* state, Player* who, Rng* rng, int left) noexcept nogil:
    return True


cdef bint always_big_gin(State* state, Player* who, Rng* rng) noexcept nogil:
    return True
