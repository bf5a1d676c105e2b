# The driver: asks the players' strategies (through the table) for each move and makes it, until the
# hand ends. The whole-hand loop, the Monte-Carlo play-outs and GameState.play_out all run on it.

cdef inline bint decide_takes(State* state, Player* who, Rng* rng) noexcept nogil:
    """Whether the player to move takes the face-up card."""
    cdef StrategyEntry* entry = &STRATEGY_TABLE[who.kind]
    cdef int card = top_card(state)
    if state.context.log_capacity and state.player == state.context.watched:
        log_view(state, state.player)
    if not entry.takes_back_discards and state.discarded[state.player] & card_bit(card):
        return False
    return entry.takes(state, who, rng, card, state.phase == PHASE_OFFER)


cdef inline int decide_discard(State* state, Player* who, Rng* rng, bint* goes_out) noexcept nogil:
    """The card the player to move discards from 11, and whether it goes out with it (only when legal)."""
    cdef StrategyEntry* entry = &STRATEGY_TABLE[who.kind]
    cdef int knock = -1, left, card
    state.discard_deadwood = -1
    card = entry.discard(state, who, rng, discard_candidates(state), &knock)
    if knock < 0:
        left = state.discard_deadwood
        if left < 0:
            left = deadwood_of(state.held[state.player] ^ card_bit(card))
        knock = left <= state.knock_limit and entry.knocks(state, who, rng, left)
    goes_out[0] = knock
    return card


cdef inline int choose_action(State* state, Player* who, Rng* rng) noexcept nogil:
    """The move the player to move (``who``) chooses, as an action number (meaningless when a Python
    strategy failed while choosing: the hand is then aborted)."""
    cdef bint goes_out
    cdef int card
    if state.phase != PHASE_DISCARD:
        return ACTION_TAKE if decide_takes(state, who, rng) else ACTION_REFUSE
    if big_gin_possible(state) and STRATEGY_TABLE[who.kind].big_gin(state, who, rng):
        return ACTION_BIG_GIN
    card = decide_discard(state, who, rng, &goes_out)
    return ACTION_KNOCK + card if goes_out else card


cdef inline void move(State* state, Player* who, Rng* rng) noexcept nogil:
    """The player to move (``who``) chooses its next move, which is made unless a Python strategy
    failed while choosing. The hand loop, the environments' opponents and the decision recorder move
    through this."""
    cdef int action = choose_action(state, who, rng)
    if not state.context.aborted:
        apply_action(state, action, rng)


cdef void drive(State* state, Player* players, Rng* rng) noexcept nogil:
    """Play on from the state until the hand ends, each move chosen by the player to move."""
    while state.phase != PHASE_DONE and not state.context.aborted:
        move(state, &players[state.player], rng)
    if state.context.aborted and state.phase != PHASE_DONE:
        abort_hand(state)
