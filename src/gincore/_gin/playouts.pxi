# Monte-Carlo play-outs shared by sampler, search and reader (and GameState.determinize): deal again what a
# player has not seen, then play each option out on a copy of the deal with the same randomness.

# The mean deadwood of a Simple player after k of its own draws (measured over simple-vs-simple
# hands): a uniformly dealt hand (about 56) is far weaker than the hand an opponent has built.
cdef int OPPONENT_DEADWOOD[17]
OPPONENT_DEADWOOD[:] = [56, 47, 40, 35, 30, 27, 24, 22, 20, 19, 19, 18, 17, 17, 16, 15, 14]
# The same for an opponent that holds out for gin (marjj's or gin's hands, measured likewise): the
# search draws its opponents' hands near these. Against Simple's weaker hands this still won more.
cdef int PATIENT_DEADWOOD[17]
PATIENT_DEADWOOD[:] = [53, 42, 34, 29, 24, 21, 17, 13, 11, 9, 8, 7, 6, 5, 4, 4, 3]

cdef enum:
    MAX_SAMPLES = 4096       # deals per decision, at most
    MAX_CANDIDATES = 11      # discards compared, at most
    SAMPLE_TRIES = 24        # candidate opponent hands per sampled deal
    SAMPLE_TOLERANCE = 4     # accept a candidate this close to the expected deadwood
    UNLIKE_SIMPLE = 1000     # added to a candidate's distance when Simple could not hold it


cdef void quiet_copy(Context* quiet, Context* context) noexcept nogil:
    """A context for the play-outs: no trace, no log, the same match scores."""
    memset(quiet, 0, sizeof(Context))
    quiet.scores[0] = context.scores[0]
    quiet.scores[1] = context.scores[1]
    quiet.passed_knocks[0] = context.passed_knocks[0]
    quiet.passed_knocks[1] = context.passed_knocks[1]
    quiet.late_knocks[0] = context.late_knocks[0]
    quiet.late_knocks[1] = context.late_knocks[1]
    quiet.match = context.match


cdef struct LastTurn:
    # The opponent's last turn as the table shows it: what a Simple player's hand must agree with.
    int discard              # its discard (NO_CARD: it has not discarded this hand)
    int refused              # the face-up card it refused before drawing from the stock, else NO_CARD
    int knock_limit


cdef void last_turn(State* state, int opponent, LastTurn* turn) noexcept nogil:
    """Read the opponent's last turn off the pile: its discard is the top card (or the one ``state.player``
    just took), and the card under it was offered to it and refused unless it is its own earlier discard."""
    cdef int top = state.pile_size - 1
    turn.discard = turn.refused = NO_CARD
    turn.knock_limit = state.knock_limit
    if state.phase == PHASE_DISCARD and state.drawn_from_pile and state.discarded[opponent] >> state.drawn & 1:
        turn.discard = state.drawn
    elif top >= 0 and state.pile_by[top] == opponent:
        turn.discard = state.pile[top]
        top -= 1
    else:
        return
    if top >= 0 and state.pile_by[top] != opponent:
        turn.refused = state.pile[top]


cdef bint simple_could_hold(uint64_t hand, int left, uint64_t known, LastTurn* turn) noexcept nogil:
    """Whether a Simple player could hold ``hand`` (deadwood ``left``) after the last turn ``turn``: it
    knocks whenever it can, discards one of its least-deadwood choices, and refuses a face-up card only
    when the card does not meld with what it held (``hand`` and its discard, less the card it then drew
    from the stock: one of ``hand`` outside ``known``, the cards it is known to have taken from the pile)."""
    cdef uint64_t before, drawn
    if turn.discard == NO_CARD:
        return True
    if left <= turn.knock_limit or best_discards(hand | card_bit(turn.discard)).deadwood < left:
        return False
    if turn.refused == NO_CARD:
        return True
    before = hand | card_bit(turn.discard) | card_bit(turn.refused)
    drawn = hand & ~known
    while drawn:
        if not in_some_meld(before & ~(drawn & -drawn), turn.refused):
            return True
        drawn &= drawn - 1
    return False


cdef struct HiddenCards:
    # What a player has not seen, ready to be dealt again many times in one decision: the cards whose
    # place it does not know, weighted by the opponent model's odds, with an alias table (Vose) so that
    # a card is drawn in constant time; built once per decision by hidden_cards.
    uint64_t holds           # the face-up cards the opponent took and holds: always in its hand
    uint64_t unknown         # the cards in the opponent's hand or the stock
    int count                # how many there are
    int need                 # how many of them the opponent holds
    double total             # the sum of their weights
    uint8_t cards[52]
    double weight[52]
    uint64_t keep[52]        # alias table: slot i draws cards[i] with chance keep[i] / 2**32, else cards[alias[i]]
    uint8_t alias[52]


cdef void hidden_cards(State* state, int me, double* odds, HiddenCards* hidden) noexcept nogil:
    """Fill ``hidden`` with what ``me`` has not seen, weighted by ``odds`` (the opponent model's)."""
    cdef Seen seen
    cdef uint64_t rest
    cdef int count = 0
    seen_by(state, me, &seen)
    hidden.holds = seen.holds
    hidden.unknown = rest = unknown_cards(&seen)
    hidden.need = seen.size - popcount64(seen.holds)
    while rest:
        hidden.cards[count] = lowest_card(rest)
        hidden.weight[count] = odds[hidden.cards[count]] + 1e-6  # every unknown card can be drawn
        rest &= rest - 1
        count += 1
    hidden.count = count
    weigh_hidden(hidden)


cdef void weigh_hidden(HiddenCards* hidden) noexcept nogil:
    """The total and the alias table (Vose's method) of ``hidden``'s weights (at least one card)."""
    cdef int count = hidden.count, small_size = 0, large_size = 0, small, large, i
    cdef uint8_t smalls[52]
    cdef uint8_t larges[52]
    cdef double scaled[52]
    hidden.total = 0
    for i in range(count):
        hidden.total += hidden.weight[i]
    for i in range(count):  # slot i holds weight 1 on this scale: its card's share, topped up by a heavy card
        scaled[i] = hidden.weight[i] * count / hidden.total
        hidden.alias[i] = i
        if scaled[i] < 1:
            smalls[small_size] = i
            small_size += 1
        else:
            larges[large_size] = i
            large_size += 1
    while small_size and large_size:
        small_size -= 1
        small = smalls[small_size]
        large = larges[large_size - 1]
        hidden.keep[small] = <uint64_t>(scaled[small] * 4294967296.0)
        hidden.alias[small] = large
        scaled[large] -= 1 - scaled[small]
        if scaled[large] < 1:
            large_size -= 1
            smalls[small_size] = large
            small_size += 1
    while large_size:
        large_size -= 1
        hidden.keep[larges[large_size]] = 1ULL << 32
    while small_size:  # left only by rounding: their weight is a whole slot's
        small_size -= 1
        hidden.keep[smalls[small_size]] = 1ULL << 32


cdef inline double _uniform(Rng* rng) noexcept nogil:
    return (next_random(rng) >> 11) * (1.0 / 9007199254740992.0)


cdef inline int _draw_one(HiddenCards* hidden, uint64_t drawn, double drawn_weight, Rng* rng) noexcept nogil:
    """The index of one more card of ``hidden`` not in ``drawn`` (whose weights sum to ``drawn_weight``),
    chosen in proportion to its weight among those left. While most of the weight is left, a card is
    drawn from all of them and drawn again if taken already (the same law, in constant time, one
    random number a draw: its high half picks the slot, its low half the coin, each exact to 2**-32);
    then by a walk over those left."""
    cdef int i, j, aliased
    cdef double point
    cdef uint64_t bits
    if drawn_weight <= 0.85 * hidden.total:  # at most 1 / 0.15 draws on average: cheaper than the walk
        while True:
            bits = next_random(rng)
            i = <int>(((bits >> 32) * <uint64_t>hidden.count) >> 32)
            aliased = (bits & 0xFFFFFFFFULL) >= hidden.keep[i]  # a coin: chosen without a branch
            i = (hidden.alias[i] & -aliased) | (i & (aliased - 1))
            if not drawn >> hidden.cards[i] & 1:
                return i
    point = (hidden.total - drawn_weight) * _uniform(rng)
    i = -1
    for j in range(hidden.count):
        if drawn >> hidden.cards[j] & 1:
            continue
        i = j
        if point < hidden.weight[j]:
            break
        point -= hidden.weight[j]
    return i  # the last card left when rounding runs the walk past the end


cdef uint64_t draw_hidden(HiddenCards* hidden, Rng* rng) noexcept nogil:
    """``hidden.need`` of the cards, drawn one by one without replacement in proportion to their
    weights, as a mask."""
    cdef uint64_t drawn = 0
    cdef double drawn_weight = 0
    cdef int count, i
    for count in range(hidden.need):
        i = _draw_one(hidden, drawn, drawn_weight, rng)
        drawn |= card_bit(hidden.cards[i])
        drawn_weight += hidden.weight[i]
    return drawn


def _draw_hidden_counts(weights, int need, int samples, uint64_t key):
    """How often each card (indexed as ``weights``, at most 52) is among ``need`` drawn by
    ``draw_hidden``, in ``samples`` draws from the stream keyed by ``key``: for tests of its law."""
    cdef HiddenCards hidden
    cdef Rng rng
    cdef uint64_t drawn
    cdef int i, sample
    values = np.asarray(weights, np.float64)
    if not (0 < len(values) <= 52 and 0 <= need <= len(values) and (values > 0).all()):
        raise InputError("weights: 1 to 52 positive numbers, need at most as many")
    counts = np.zeros(len(values), np.int64)
    hidden.count = len(values)
    hidden.need = need
    for i in range(hidden.count):
        hidden.cards[i] = i
        hidden.weight[i] = values[i]
    weigh_hidden(&hidden)
    seed_rng(&rng, key)
    for sample in range(samples):
        drawn = draw_hidden(&hidden, &rng)
        for i in range(hidden.count):
            counts[i] += drawn >> i & 1
    return counts


cdef void deal_from_model(State* world, State* state, int me, HiddenCards* hidden, Rng* rng, Context* quiet,
                          int tries, LastTurn* simple_turn=NULL) noexcept nogil:
    """A copy of the state whose hidden cards are dealt again: the opponent's unknown cards drawn
    one by one in proportion to the model's odds (``hidden``), the rest shuffled into the stock. The odds
    say which cards, not how well they fit together: of up to ``tries`` such hands the one kept is the
    closest to the deadwood a patient opponent typically has by now."""
    deal_near(world, state, me, hidden, rng, quiet, tries, PATIENT_DEADWOOD[min(state.turns // 2, 16)],
              SAMPLE_TOLERANCE, simple_turn)


cdef void deal_near(State* world, State* state, int me, HiddenCards* hidden, Rng* rng, Context* quiet, int tries,
                    int target, int tolerance, LastTurn* simple_turn=NULL) noexcept nogil:
    """``deal_from_model`` keeping, of up to ``tries`` opponent hands, the first within ``tolerance``
    of deadwood ``target``, else the closest; with ``simple_turn``, hands a Simple player could not hold
    after that turn (``simple_could_hold``) only when no other is found."""
    cdef int count = 0, deadwood, try_, gap, best_gap = 1 << 30
    cdef uint8_t order[52]
    cdef uint64_t rest, drawn, chosen = 0
    for try_ in range(tries):
        drawn = draw_hidden(hidden, rng)
        deadwood = deadwood_of(hidden.holds | drawn)
        gap = abs(deadwood - target)
        if gap >= best_gap:
            continue  # not kept, whatever Simple could hold (nor kept by the tolerance: it would have stopped)
        if simple_turn != NULL and not simple_could_hold(hidden.holds | drawn, deadwood, hidden.holds, simple_turn):
            gap += UNLIKE_SIMPLE
        if gap < best_gap:
            best_gap = gap
            chosen = hidden.holds | drawn
        if gap <= tolerance:
            break
    world[0] = state[0]
    world.context = quiet
    world.held[1 - me] = chosen
    rest = hidden.unknown & ~chosen
    count = 0
    while rest:
        order[count] = lowest_card(rest)
        rest &= rest - 1
        count += 1
    new_stock(world, order, count, rng)


cdef double value_for(State* state, int me) noexcept nogil:
    """What the finished hand is worth to ``me``: in a match (with a table of match values) its
    chance to win the match after this hand, otherwise its signed points."""
    cdef Context* context = state.context
    cdef HandRules* rules = state.rules
    cdef int mine = context.scores[me], theirs = context.scores[1 - me], target = rules.target
    if not (context.match and target > 0 and rules.match_value != NULL):
        return score_for(&state.record, me)
    if state.record.winner == me:
        mine += state.record.points
    elif state.record.winner == 1 - me:
        theirs += state.record.points
    if mine >= target:
        return 1.0
    if theirs >= target:
        return 0.0
    return rules.match_value[mine * target + theirs]


cdef inline double finish_value(State* world, Player* players, int me, Rng* rng) noexcept nogil:
    """Play the deal out with the play-out players; what it is worth to ``me``."""
    drive(world, players, rng)
    return value_for(world, me)


cdef void face_up_values(State* world, Player* players, int me, Rng* rng, double* take,
                         double* refuse) noexcept nogil:
    """Add to ``take`` and ``refuse`` what taking and refusing the face-up card (``me`` to move) are
    worth to ``me``, each played out on a copy of the sampled deal with the same randomness."""
    cdef State trial = world[0]
    cdef Rng saved = rng[0], branch = rng[0]
    next_random(rng)
    refuse_face_up(&trial)
    refuse[0] += finish_value(&trial, players, me, &branch)
    branch = saved
    trial = world[0]
    take_face_up(&trial)
    take[0] += finish_value(&trial, players, me, &branch)


cdef void discard_values(State* world, Player* players, int me, int* options, bint* knocks, int count,
                         Rng* rng, double* totals) noexcept nogil:
    """Add to ``totals[i]`` what discarding ``options[i]`` (going out if ``knocks[i]``) is worth on
    the sampled deal, every option played out with the same randomness."""
    cdef Rng saved = rng[0], branch
    cdef State trial
    cdef int i
    next_random(rng)
    for i in range(count):
        branch = saved
        trial = world[0]
        discard_card(&trial, options[i], knocks[i], &branch)
        totals[i] += finish_value(&trial, players, me, &branch)


cdef int best_option(double* totals, int count) noexcept nogil:
    """The first option of the highest total."""
    cdef int best = 0, i
    for i in range(1, count):
        if totals[i] > totals[best]:
            best = i
    return best
