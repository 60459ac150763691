/* The solver core's tables of a suit's 11-bit rank masks (_solver_core.pyx), filled
   once at import by fc_init_tables, and the mask helpers that read them. Position p of
   a mask is rank p + 3; "spare wilds" are the wilds a run may still use. */
#ifndef FIVECROWNS_MELD_TABLES_H
#define FIVECROWNS_MELD_TABLES_H

#include <stdint.h>
#include "_bits.h"

enum { FC_RANKS = 11, FC_MASKS = 1 << 11, FC_MAX_TOP = 4 };

/* fc_value[m]: the value of the naturals at the positions of m; fc_count[m]: how many
   positions m holds (a table: wheels cannot assume a popcnt instruction). */
static int fc_value[FC_MASKS];
static uint8_t fc_count[FC_MASKS];
/* fc_starts[b][m]: the positions of m where a run could start with b spare wilds (b
   capped at 9, past which every position with a natural above it qualifies). */
static uint16_t fc_starts[FC_RANKS - 1][FC_MASKS];
/* fc_need[m]: the fewest spare wilds with which some position of m can start a run (99:
   none). Suits after the current one are untouched by the search, so this settles
   whether the search must stop in them without looking up fc_starts. */
static uint8_t fc_need[FC_MASKS];
/* fc_top[k][m]: the value of the k highest positions of m (all of them if fewer). */
static uint8_t fc_top[FC_MAX_TOP + 1][FC_MASKS];

/* The positions of m where a run could start: a natural of the same suit above it
   within budget + 1 places (with no wild to spare, the next two places held). */
static uint16_t fc_startable_slow(uint16_t m, int budget) {
    uint16_t near = 0;
    int k;
    if (budget <= 0)
        return m & (m >> 1) & (m >> 2);
    if (budget > FC_RANKS - 2)
        budget = FC_RANKS - 2;
    for (k = 1; k < budget + 2; k++)
        near |= m >> k;
    return m & near;
}

static void fc_init_tables(void) {
    int m, i, v, n;
    for (m = 0; m < FC_MASKS; m++) {
        v = 0;
        n = 0;
        for (i = 0; i < FC_RANKS; i++) {
            if (m >> i & 1) {
                v += i + 3;
                n += 1;
            }
        }
        fc_value[m] = v;
        fc_count[m] = (uint8_t)n;
    }
    for (n = 0; n < FC_RANKS - 1; n++)
        for (m = 0; m < FC_MASKS; m++)
            fc_starts[n][m] = fc_startable_slow((uint16_t)m, n);
    for (m = 0; m < FC_MASKS; m++) {
        v = 0;
        n = 0;
        for (i = FC_RANKS - 1; i >= 0; i--) {
            if (n <= FC_MAX_TOP)
                fc_top[n][m] = (uint8_t)v;
            if (m >> i & 1) {
                v += i + 3;
                n += 1;
            }
        }
        for (; n <= FC_MAX_TOP; n++)
            fc_top[n][m] = (uint8_t)v;
        fc_need[m] = 99;
        for (n = FC_RANKS - 2; n >= 0; n--)
            if (fc_starts[n][m])
                fc_need[m] = (uint8_t)n;
    }
}

/* fc_startable_slow from the table: it runs for every suit at every search node. */
static inline uint16_t fc_startable(uint16_t m, int budget) {
    return fc_starts[budget < FC_RANKS - 2 ? budget : FC_RANKS - 2][m];
}

/* The positions lo..hi. */
static inline uint16_t fc_span_of(int lo, int hi) {
    return (uint16_t)(((1 << (hi + 1)) - 1) & ~((1 << lo) - 1));
}

/* The value of the k highest positions of m (all of them if fewer). */
static inline int fc_top_value(uint16_t m, int k) {
    int i, value = 0;
    if (k <= FC_MAX_TOP)
        return fc_top[k][m];
    while (m && k > 0) {
        i = fc_high(m);
        m &= (uint16_t)~(1 << i);
        value += i + 3;
        k -= 1;
    }
    return value;
}

/* Where a run of the suit's naturals m starting at x may end: a natural up to max_end
   and below the (budget + 1)-th hole above x. None if a run of the suit ends at x - 1
   (ended): the merged run holds the same naturals with no more wilds, and it is tried
   when the first one starts. */
static inline uint16_t fc_run_ends(uint16_t m, int x, int max_end, int budget,
                                   uint16_t ended) {
    uint16_t avail, holes;
    int k;
    if (x > 0 && (ended >> (x - 1) & 1))
        return 0;
    avail = fc_span_of(x + 1, max_end);
    holes = avail & ~m;
    /* Drop the lowest budget holes (without a branch for up to 4 wilds). */
    holes &= holes - (budget > 0);
    holes &= holes - (budget > 1);
    holes &= holes - (budget > 2);
    holes &= holes - (budget > 3);
    for (k = budget - 4; k > 0 && holes; k--)
        holes &= holes - 1;
    return m & avail & ((holes & -holes) - 1);  /* no hole left: all of avail */
}

#endif
