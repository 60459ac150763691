/* The pool and its books, for the solver core (_solver_core.pyx). The pool holds the
   naturals that runs leave, per rank position, as a bit-sliced counter: bit j of the
   count at position p is bit p of cnt[j], so that a run, which takes one card from each
   position of a mask, decrements all of them at once, without a branch. Ranks held
   three times or more book free; singles (2 wilds make a book) and pairs (1 wild) share
   the wilds left: a knapsack. */
#ifndef FIVECROWNS_BOOKS_H
#define FIVECROWNS_BOOKS_H

#include <stdint.h>
#include "_bits.h"
#include "_meld_tables.h"

enum { FC_SLICES = 5 };  /* bits of a rank's natural count: at most 20, in party mode */

/* Decrement the counts cnt at each position of taken (all non-zero). */
static inline void fc_slices_take(uint16_t* cnt, uint16_t taken) {
    uint16_t borrow = taken, old;
    int j;
    for (j = 0; j < FC_SLICES; j++) {
        old = cnt[j];
        cnt[j] = old ^ borrow;
        borrow &= ~old;
    }
}

/* fc_slices_take for counts below 16: no party hand with 3+ copies gets there. */
static inline void fc_slices_take4(uint16_t* cnt, uint16_t taken) {
    uint16_t borrow = taken, old;
    int j;
    for (j = 0; j < 4; j++) {
        old = cnt[j];
        cnt[j] = old ^ borrow;
        borrow &= ~old;
    }
}

/* c = the counts cnt (below 15) plus one at the position bit. */
static inline void fc_slices_add4(uint16_t* c, const uint16_t* cnt, uint16_t bit) {
    uint16_t carry = bit, old;
    int j;
    for (j = 0; j < 4; j++) {
        old = cnt[j];
        c[j] = old ^ carry;
        carry &= old;
    }
}

/* The positions where the counts cnt are non-zero. */
static inline uint16_t fc_pool_ranks(const uint16_t* cnt) {
    return cnt[0] | cnt[1] | cnt[2] | cnt[3] | cnt[4];
}

static int fc_knapsack_many(uint16_t singles, uint16_t pairs, int budget);

/* The most value of single naturals and pairs that budget wilds book: j singles and the
   best pairs the rest buys, for the best j. Both kinds go from the highest rank down,
   which is optimal within a kind. */
static inline int fc_knapsack(uint16_t singles, uint16_t pairs, int budget) {
    int best, take, one, two;
    if (budget <= FC_MAX_TOP) {
        /* The common cases, from the top tables: no single, one or (four wilds) two. */
        best = 2 * fc_top[budget][pairs];
        take = budget >= 2 ? budget - 2 : 0;
        one = budget >= 2 ? fc_top[1][singles] + 2 * fc_top[take][pairs] : 0;
        two = budget >= 4 ? fc_top[2][singles] : 0;
        best = one > best ? one : best;
        best = two > best ? two : best;
        return best;
    }
    return fc_knapsack_many(singles, pairs, budget);
}

/* fc_knapsack for more than FC_MAX_TOP wilds (kept out of line, so that the common case
   inlines everywhere). */
static int fc_knapsack_many(uint16_t singles, uint16_t pairs, int budget) {
    int j, best = 0, value, take;
    if (2 * fc_count[singles] + fc_count[pairs] <= budget)
        return fc_value[singles] + 2 * fc_value[pairs];
    for (j = 0; j < budget / 2 + 1; j++) {
        if (j > fc_count[singles])
            break;
        take = budget - 2 * j;
        value = fc_top_value(singles, j) + 2 * fc_top_value(pairs, take);
        if (value > best)
            best = value;
    }
    return best;
}

/* The most value the books meld from a pool (bit slices cnt, total value pool_value)
   with at most budget wilds: ranks of 3+ are free, then the knapsack. */
static int fc_books_of(const uint16_t* cnt, int pool_value, int budget) {
    uint16_t high = cnt[2] | cnt[3] | cnt[4];  /* 4 or more */
    uint16_t singles = cnt[0] & ~(cnt[1] | high);
    uint16_t pairs = cnt[1] & ~(cnt[0] | high);
    return pool_value - fc_value[singles] - 2 * fc_value[pairs]
           + fc_knapsack(singles, pairs, budget);
}

/* fc_discard_leaf_of past its bound, from the pool's classes (present: every rank it
   holds), base (the runs and the free books) and whole (base and the books of the
   singles and pairs). A discard changes one rank's count, so the books are solved again
   from the pool's classes: a single leaves, a pair becomes a single, three become a
   pair, and from four on the rank stays a free book. */
static int fc_discard_options(uint16_t singles, uint16_t pairs, uint16_t threes,
                              uint16_t present, int base, int whole, int best,
                              int budget) {
    uint16_t bit;
    int value, v, i;
    if (budget >= 1) {
        value = base + fc_knapsack(singles, pairs, budget - 1);
        if (value > best)  /* best >= 0: options that meld nothing never count */
            best = value;
    }
    while (present) {
        i = fc_high(present);
        bit = (uint16_t)(1 << i);
        present &= ~bit;
        v = i + 3;
        /* Books only lose value when the pool loses a card: nothing lower beats best. */
        if (whole + v <= best)
            break;
        if (singles & bit)
            value = base + fc_knapsack(singles & ~bit, pairs, budget);
        else if (pairs & bit)
            value = base + fc_knapsack(singles | bit, pairs & ~bit, budget);
        else if (threes & bit)
            value = base - 3 * v + fc_knapsack(singles, pairs | bit, budget);
        else
            value = whole - v;
        if (value > 0 && value + v > best)
            best = value + v;
    }
    return best;
}

/* The best of keeping these runs and discarding one card (see best_discard_search): the
   most value melded plus the value of a natural discarded from the pool (bit slices
   pool), or the most value melded with one spare wild discarded; only options that meld
   something count. Returns best unless some option beats it. Inline up to the bound
   that most calls stop at; fc_discard_options does the rest. */
static inline int fc_discard_leaf_of(const uint16_t* pool, int pool_value, int best,
                                     int saved, int budget) {
    uint16_t high = pool[2] | pool[3] | pool[4];  /* 4 or more */
    uint16_t singles = pool[0] & ~(pool[1] | high);
    uint16_t pairs = pool[1] & ~(pool[0] | high);
    uint16_t threes = pool[0] & pool[1] & ~high;
    uint16_t present = singles | pairs | threes | high;
    /* the runs and the free books */
    int base = saved + pool_value - fc_value[singles] - 2 * fc_value[pairs];
    int whole = base + fc_knapsack(singles, pairs, budget);
    /* Every option here scores at most whole + the value of the pool's highest rank. */
    if (whole + fc_top[1][present] <= best)
        return best;
    return fc_discard_options(singles, pairs, threes, present, base, whole, best, budget);
}

/* The k highest positions of m (all of them if fewer). */
static uint16_t fc_top_mask(uint16_t m, int k) {
    uint16_t out = 0;
    int i;
    while (m && k > 0) {
        i = fc_high(m);
        m &= (uint16_t)~(1 << i);
        out |= (uint16_t)(1 << i);
        k -= 1;
    }
    return out;
}

/* The ranks the books of a pool (cnt) take with budget wilds, chosen as
   _solver_py.book_savings chooses them (on a tie, the fewest singles), so that both
   cores lay out the same partition. */
static uint16_t fc_booked(const uint16_t* cnt, int budget) {
    uint16_t high = cnt[2] | cnt[3] | cnt[4];  /* 4 or more */
    uint16_t singles = cnt[0] & ~(cnt[1] | high);
    uint16_t pairs = cnt[1] & ~(cnt[0] | high);
    int j, value, best = -1, best_j = 0;
    int most = fc_count[singles] < budget / 2 ? fc_count[singles] : budget / 2;
    for (j = 0; j < most + 1; j++) {
        value = 2 * fc_top_value(pairs, budget - 2 * j) + fc_top_value(singles, j);
        if (value > best) {
            best = value;
            best_j = j;
        }
    }
    return (uint16_t)((cnt[0] & cnt[1]) | high | fc_top_mask(pairs, budget - 2 * best_j)
                      | fc_top_mask(singles, best_j));
}

#endif
