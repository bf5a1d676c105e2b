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


cdef void deal_from_model(State* world, State* state, int me, double* odds, Rng* rng, Context* quiet,
                          int tries, LastTurn* simple_turn=NULL) noexcept nogil:
    """A copy of the state whose hidden cards are dealt again: the opponent's unknown cards drawn
    one by one in proportion to the model's odds, the rest shuffled into the stock. The odds say
    which cards, not how well they fit together: of up to ``tries`` such hands the one kept is the
    closest to the deadwood a patient opponent typically has by now."""
    deal_near(world, state, me, odds, rng, quiet, tries, PATIENT_DEADWOOD[min(state.turns // 2, 16)],
              SAMPLE_TOLERANCE, simple_turn)


cdef void deal_near(State* world, State* state, int me, double* odds, Rng* rng, Context* quiet, int tries,
                    int target, int tolerance, LastTurn* simple_turn=NULL) noexcept nogil:
    """``deal_from_model`` keeping, of up to ``tries`` opponent hands, the first within ``tolerance``
    of deadwood ``target``, else the closest; with ``simple_turn``, hands a Simple player could not hold
    after that turn (``simple_could_hold``) only when no other is found."""
    cdef Seen seen
    cdef int opponent = 1 - me, count = 0, need, i, j, left, deadwood, try_, gap, best_gap = 1 << 30
    cdef uint8_t hidden[52]
    cdef uint8_t order[52]
    cdef double weight[52]
    cdef double base_total = 0, total, point, swap_weight
    cdef uint64_t rest, candidate, chosen = 0
    cdef uint8_t swap
    seen_by(state, me, &seen)
    rest = unknown_cards(&seen)
    while rest:
        hidden[count] = lowest_card(rest)
        weight[count] = odds[hidden[count]] + 1e-6
        base_total += weight[count]
        rest &= rest - 1
        count += 1
    need = seen.size - popcount64(seen.holds)
    for try_ in range(tries):
        candidate = seen.holds
        total = base_total
        left = count
        for i in range(need):  # hidden[left:] holds the cards drawn so far, as weighted choices
            point = total * (next_random(rng) >> 11) * (1.0 / 9007199254740992.0)
            j = 0
            while j < left - 1 and point >= weight[j]:
                point -= weight[j]
                j += 1
            candidate |= card_bit(hidden[j])
            total -= weight[j]
            left -= 1
            swap = hidden[j]
            hidden[j] = hidden[left]
            hidden[left] = swap
            swap_weight = weight[j]
            weight[j] = weight[left]
            weight[left] = swap_weight
        deadwood = deadwood_of(candidate)
        gap = abs(deadwood - target)
        if simple_turn != NULL and not simple_could_hold(candidate, deadwood, seen.holds, simple_turn):
            gap += UNLIKE_SIMPLE
        if gap < best_gap:
            best_gap = gap
            chosen = candidate
        if gap <= tolerance:
            break
    world[0] = state[0]
    world.context = quiet
    world.held[opponent] = chosen
    rest = unknown_cards(&seen) & ~chosen
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
