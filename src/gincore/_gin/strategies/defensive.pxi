# defensive: pays a little deadwood to keep its discards out of the opponent's likely melds, and
# holds out for gin unless the opponent looks close or the stock is nearly spent.

cdef int _defensive_discard(State* state, Player* who, Rng* rng, uint64_t candidates, int* knock) noexcept nogil:
    """Least deadwood plus half a point per unit of danger: a little deadwood traded for safety."""
    cdef int player = state.player, card, cost, best = 1 << 30
    cdef uint64_t hand = state.held[player], rest = candidates, chosen = 0
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        cost = 4 * deadwood_of(hand ^ card_bit(card)) + 2 * danger(state, player, card) - card_value(card)
        if cost < best:
            best = cost
            chosen = card_bit(card)
        elif cost == best:
            chosen |= card_bit(card)
    return lowest_card(pick(rng, chosen))


cdef bint _defensive_knocks(State* state, Player* who, Rng* rng, int left) noexcept nogil:
    """Gin; or knock with 5 or less once the opponent took two cards from the pile; or any legal
    knock when the stock is nearly spent."""
    cdef int threatening = popcount64(state.from_pile[1 - state.player])
    return left == 0 or (threatening >= 2 and left <= 5) or stock_size(state) <= 8


cdef int KIND_DEFENSIVE = register_strategy("defensive", greedy_takes, _defensive_discard, _defensive_knocks,
                                            always_big_gin, takes_back_discards=False)
