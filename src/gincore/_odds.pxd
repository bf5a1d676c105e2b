# The opponent model: for each card a player has not seen, the chance the opponent holds it, from
# what the opponent took, refused and discarded (the public record of the hand, nothing hidden).
# Inline, like _cards.pxd, so the hand loop compiles its own copy.
from libc.math cimport exp
from libc.stdint cimport uint64_t

from gincore._bits cimport FULL_DECK, card_bit, lowest_card, popcount64, rank_cards

cdef enum:
    MODEL_FEATURES = 10

cdef extern from *:
    """
    /* Log-odds weights of the model's features, in the order of model_features(), fitted by
       `python tools/calibrate_model.py --rules reshuffle --hands 100000 --test-hands 20000`:
       the Bernoulli maximum likelihood of the model's form over 27 million (view, unknown card)
       pairs of marjj against simple, greedy, gin, marjj and defensive (see there for the data, the
       fit and the calibration; until a stock runs out the hands are the standard rules' hands). */
    static const double GC_MODEL_WEIGHTS[10] = {
        -0.61, -0.40, -0.19,   /* it discarded a card of the same rank, a suit neighbour, one 2 away */
        -0.46, -0.25, -0.08,   /* it refused such a face-up card */
         0.32,  0.32,  0.25,   /* it took such a face-up card */
        -2.48                  /* the card itself: it discarded it (back in play after a reshuffle) */
    };
    """
    const double MODEL_WEIGHTS "GC_MODEL_WEIGHTS"[10]


cdef struct Seen:
    # What one player has seen of the hand so far: the inputs of the model, and nothing else.
    uint64_t mine            # the player's own hand
    uint64_t pile            # the face-up discard pile now
    uint64_t holds           # face-up cards the opponent took and still holds
    uint64_t took            # every face-up card the opponent took (held or discarded since)
    uint64_t discarded       # the cards the opponent discarded face up
    uint64_t passed          # the face-up cards the opponent refused
    int size                 # the opponent's hand size


cdef inline uint64_t unknown_cards(Seen* seen) noexcept nogil:
    """The cards whose place the player does not know: in the opponent's hand or the stock."""
    return FULL_DECK & ~(seen.mine | seen.pile | seen.holds)


cdef inline uint64_t _neighbours(int card, int distance) noexcept nogil:
    """The cards of the same suit ``distance`` ranks away (within the suit)."""
    cdef int rank = card % 13
    cdef uint64_t found = 0
    if rank >= distance:
        found |= card_bit(card - distance)
    if rank + distance <= 12:
        found |= card_bit(card + distance)
    return found


cdef inline void model_features(Seen* seen, int card, int* features) noexcept nogil:
    """The model's features of ``card``: how many of the opponent's discards, refusals and takes
    share its rank, sit next to it in its suit, or two ranks away; and whether it discarded it."""
    cdef uint64_t same_rank = rank_cards(card % 13) & ~card_bit(card)
    cdef uint64_t near = _neighbours(card, 1), far = _neighbours(card, 2)
    cdef uint64_t groups[3]
    cdef int i
    groups[0] = seen.discarded
    groups[1] = seen.passed
    groups[2] = seen.took
    for i in range(3):
        features[3 * i] = popcount64(groups[i] & same_rank)
        features[3 * i + 1] = popcount64(groups[i] & near)
        features[3 * i + 2] = popcount64(groups[i] & far)
    features[9] = (seen.discarded >> card) & 1


cdef inline double model_weight(Seen* seen, int card, const double* weights) noexcept nogil:
    """The relative chance that the opponent holds the unknown ``card``."""
    cdef int features[MODEL_FEATURES]
    cdef double total = 0
    cdef int i
    model_features(seen, card, features)
    for i in range(MODEL_FEATURES):
        total += weights[i] * features[i]
    return exp(total)


cdef inline void spread_odds(Seen* seen, double* share, double* odds) noexcept nogil:
    """``odds[c]``: the chance the opponent holds card ``c``, from the relative weights ``share`` of the
    unknown cards (1 for the face-up cards it took and holds, 0 for the cards the player sees
    elsewhere). The unknown cards share the opponent's unknown hand size in proportion to their
    weights, none above 1."""
    cdef uint64_t unknown = unknown_cards(seen), rest, capped = 0
    cdef double total, need
    cdef int card, _
    cdef bint newly_capped
    for card in range(52):
        odds[card] = 1.0 if (seen.holds >> card) & 1 else 0.0
    for _ in range(52):  # cards pushed to 1 leave the rest to share what is left (ends when none is)
        need = seen.size - popcount64(seen.holds) - popcount64(capped)
        total = 0
        rest = unknown & ~capped
        while rest:
            card = lowest_card(rest)
            rest &= rest - 1
            total += share[card]
        if total <= 0 or need <= 0:
            break
        newly_capped = False
        rest = unknown & ~capped
        while rest:
            card = lowest_card(rest)
            rest &= rest - 1
            odds[card] = need * share[card] / total
            if odds[card] >= 1.0:
                odds[card] = 1.0
                capped |= card_bit(card)
                newly_capped = True
        if not newly_capped:
            break


cdef inline void model_odds(Seen* seen, const double* weights, double* odds) noexcept nogil:
    """``odds[c]``: the chance the opponent holds card ``c`` by the model's weights (``spread_odds``)."""
    cdef uint64_t rest = unknown_cards(seen)
    cdef double share[52]
    cdef int card
    while rest:
        card = lowest_card(rest)
        rest &= rest - 1
        share[card] = model_weight(seen, card, weights)
    spread_odds(seen, share, odds)
