# greedy: takes a face-up card iff it lowers the deadwood after the best discard; discards to the
# least deadwood, then the highest card, then the card least useful to the opponent; knocks at once.
# Its draw and discard are threshold's, patient's and defensive's draw too.

cdef bint greedy_takes(State* state, Player* who, Rng* rng, int card, bint offer) noexcept nogil:
    return improves(state.held[state.player], card)


cdef uint64_t greedy_choices(State* state, int player, uint64_t candidates, Rng* rng, int* least) noexcept nogil:
    """The chosen discard as a one-card mask (ties at random), and the deadwood it leaves."""
    cdef int value, best_value = -1, best_danger = 1 << 30, card, card_danger
    cdef uint64_t rest = least_deadwood_among(state.held[player], candidates, least), chosen = 0
    while rest:  # ties: the highest card value, then the least use to the opponent
        card = lowest_card(rest)
        rest &= rest - 1
        value = card_value(card)
        card_danger = danger(state, player, card)
        if value > best_value or (value == best_value and card_danger < best_danger):
            best_value = value
            best_danger = card_danger
            chosen = card_bit(card)
        elif value == best_value and card_danger == best_danger:
            chosen |= card_bit(card)
    return pick(rng, chosen)


cdef int greedy_discard(State* state, Player* who, Rng* rng, uint64_t candidates, int* knock) noexcept nogil:
    return lowest_card(greedy_choices(state, state.player, candidates, rng, &state.discard_deadwood))


cdef int KIND_GREEDY = register_strategy("greedy", greedy_takes, greedy_discard, always_knocks, always_big_gin,
                                         takes_back_discards=False)
