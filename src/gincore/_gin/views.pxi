# What a player may see, read off the state for the native strategies: its hand, the public record
# of the hand (the pile, what the opponent took, refused and discarded) and nothing hidden.

cdef void seen_by(State* state, int me, Seen* seen) noexcept nogil:
    """What ``me`` has seen of the hand: the opponent model's inputs, from the public record only."""
    cdef int opponent = 1 - me
    seen.mine = state.held[me]
    seen.pile = state.in_pile
    seen.holds = state.from_pile[opponent]
    seen.took = state.took[opponent]
    seen.discarded = state.discarded[opponent]
    seen.passed = state.passed[opponent]
    seen.size = popcount64(state.held[opponent])


cdef void odds_for(State* state, int me, double* odds) noexcept nogil:
    """The opponent model's chance that the opponent holds each card, from ``me``'s view."""
    cdef Seen seen
    seen_by(state, me, &seen)
    model_odds(&seen, MODEL_WEIGHTS, odds)


cdef void log_view(State* state, int player) noexcept nogil:
    """Keep what ``player`` has seen and the opponent's actual hand (for ``Engine.model_inputs``)."""
    cdef Context* context = state.context
    if context.log_size < context.log_capacity:
        seen_by(state, player, &context.seen_log[context.log_size])
        context.truth_log[context.log_size] = state.held[1 - player]
        context.turn_log[context.log_size] = state.turns
        context.log_size += 1


cdef inline bint improves(uint64_t hand, int card) noexcept nogil:
    """Whether taking ``card`` and then the best other discard leaves less deadwood than now: whether
    discarding the card again (which leaves the hand as it is now) is not among the best discards."""
    return not best_discards(hand | card_bit(card)).discards & card_bit(card)


cdef int danger(State* state, int player, int card) noexcept nogil:
    """How useful a discard looks to the opponent, from what it can see (0: no meld can use it).

    A card is dead when neither a set nor a run could still include it, counting as live only the
    cards the player has not seen go out of play. Otherwise it is worth 1, plus 2 for each card the
    opponent took from the pile that it would meld with, less 1 for each such card it refused.
    """
    cdef uint64_t live = FULL_DECK & ~(state.held[player] | state.in_pile)
    cdef int rank = card % 13
    cdef uint64_t same_rank = rank_cards(rank) & ~card_bit(card)
    cdef uint64_t below1 = card_bit(card - 1) if rank >= 1 else 0, below2 = card_bit(card - 2) if rank >= 2 else 0
    cdef uint64_t above1 = card_bit(card + 1) if rank <= 11 else 0, above2 = card_bit(card + 2) if rank <= 10 else 0
    cdef bint set_live = popcount64(live & same_rank) >= 2
    cdef bint run_live = ((below1 and below2 and (live & below1) and (live & below2))
                          or (below1 and above1 and (live & below1) and (live & above1))
                          or (above1 and above2 and (live & above1) and (live & above2)))
    cdef uint64_t partners = same_rank | below1 | below2 | above1 | above2
    if not (set_live or run_live):
        return 0
    return 1 + 2 * popcount64(state.from_pile[1 - player] & partners) \
        - popcount64(state.passed[1 - player] & partners)


cdef inline int score_for(Record* record, int me) noexcept nogil:
    """The finished hand's points, signed for ``me``."""
    if record.winner < 0:
        return 0
    return record.points if record.winner == me else -record.points
