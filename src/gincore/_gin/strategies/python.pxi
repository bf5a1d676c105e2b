# python: a strategy written in Python (the slow path), called with the GIL through its adapter
# (ginsim.gin.game.strategies), which gets the player's view as a dict of View's fields. An exception or
# an illegal discard stops the hand at once; the Engine raises it as a StrategyError.

cdef object _ask(State* state, Player* who, str question, int player, int drawn, bint from_pile):
    """Call the Python adapter; on an exception, keep it on the owner of the hand and stop the hand."""
    if state.context.aborted:
        return None
    try:
        return getattr(<object>who.python, question)(view_fields(state, player, drawn, from_pile))
    except BaseException as error:
        (<object>state.context.engine).error = error
        state.context.aborted = True
        return None


cdef bint _python_takes(State* state, Player* who, Rng* rng, int card, bint offer) noexcept nogil:
    with gil:
        # a strategy that declares takes_back_discards = False is refused its own discards, as the
        # native ones that do not take them back are (by the driver, without asking)
        if state.discarded[state.player] & card_bit(card) and not (<object>who.python).takes_back_discards:
            return False
        answer = _ask(state, who, "take_upcard" if offer else "take_discard", state.player, -1, False)
        return bool(answer) if answer is not None else False


cdef int _python_discard(State* state, Player* who, Rng* rng, uint64_t candidates, int* knock) noexcept nogil:
    """The card the Python strategy discards (checked), and whether it then goes out (asked only when
    legal, with the view of the ten cards it would knock with)."""
    cdef int player = state.player, drawn = state.drawn, card
    cdef bint from_pile = state.drawn_from_pile
    knock[0] = False
    with gil:
        answer = _ask(state, who, "discard", player, drawn, from_pile)
        if answer is None:
            return lowest_card(candidates)
        try:
            card = answer
        except (TypeError, OverflowError) as error:  # the adapter returns ints; be safe all the same
            (<object>state.context.engine).error = error
            state.context.aborted = True
            return lowest_card(candidates)
        if card < 0 or card > 51 or not (candidates >> card) & 1:
            (<object>state.context.engine).reject(player, card, drawn, from_pile)
            state.context.aborted = True
            return lowest_card(candidates)
    if deadwood_of(state.held[player] ^ card_bit(card)) <= state.knock_limit:
        with gil:
            state.held[player] ^= card_bit(card)  # the view shows the ten cards it would knock with
            answer = _ask(state, who, "knock", player, drawn, from_pile)
            state.held[player] ^= card_bit(card)
            knock[0] = bool(answer) if answer is not None else False
    return card


cdef bint _python_big_gin(State* state, Player* who, Rng* rng) noexcept nogil:
    with gil:
        answer = _ask(state, who, "big_gin", state.player, state.drawn, state.drawn_from_pile)
        return bool(answer) if answer is not None else False


cdef int KIND_PYTHON = register_strategy("python", _python_takes, _python_discard, NULL, _python_big_gin,
                                         takes_back_discards=True)
