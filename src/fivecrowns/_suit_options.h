/* A suit's options for the solver core (_solver_core.pyx): its canonical run sets, which
   depend on its own naturals and the wilds left, nothing else; listed once per suit,
   mostly from tables filled at import (fc_init_options), by the wilds they need. A suit's
   copies live in one word of 4 lanes of 16 bits: lane k holds the positions with more
   than k copies free of runs (the core's Search.layers). */
#ifndef FIVECROWNS_SUIT_OPTIONS_H
#define FIVECROWNS_SUIT_OPTIONS_H

#include <stdint.h>
#include <stdlib.h>
#include "_bits.h"
#include "_meld_tables.h"

typedef struct {
    uint16_t once;   /* positions where the suit's runs take at least one natural */
    uint16_t twice;  /* ... two naturals (both copies of two decks) */
    uint8_t need;    /* wilds the runs need */
    uint8_t value;   /* value of the naturals they take */
} fc_option;

enum {
    FC_TABLE_SIZE = 1 << 16,         /* room for the options of every single-copy suit */
    FC_DOUBLE_TABLE_SIZE = 1 << 15,  /* ... of every listed suit holding a natural twice */
    FC_MAX_DOUBLE = 4,               /* those suits are listed up to this many naturals */
    FC_DOUBLE_KEYS = 1 << 12,        /* room for their keys (all three checked at import) */
    FC_NO_NEED = 255                 /* the need of a list's end mark: more than any hand */
};

/* A position mask spread over every lane. */
#define FC_LANES 0x0001000100010001ULL

/* fc_suit_options[fc_options_at[m]:fc_options_at[m + 1] - 1]: the options of a suit whose
   naturals are the single copies of mask m, without repeats, in fc_option_order: "no
   run", then by need; then an end mark (fc_end_mark: it needs FC_NO_NEED wilds), so that
   a walk by need stops at the list's end without counting. */
static fc_option fc_suit_options[FC_TABLE_SIZE];
static fc_option fc_end_mark = {0, 0, FC_NO_NEED, 0};
static int fc_options_at[FC_MASKS + 1];
/* A suit holding some natural twice, up to FC_MAX_DOUBLE naturals: canonical run sets do
   not change when a suit's naturals all move down by the same number of places, so these
   are listed with the lowest natural at position 0. fc_double_key[m] (-1: not listed)
   numbers the suits with naturals m (m odd): key fc_double_key[m] + j for the subsets j
   of m held twice, as fc_squeeze numbers them; their options are
   fc_double_options[fc_double_at[key]:fc_double_at[key + 1]]. */
static fc_option fc_double_options[FC_DOUBLE_TABLE_SIZE];
static int fc_kept_at[FC_MASKS];  /* for fc_tidy_options at import: -1 between calls */
static int fc_double_key[FC_MASKS];
static int fc_double_at[FC_DOUBLE_KEYS + 1];

/* Append to out[:n] every canonical run set of one suit (lanes L) from position x on,
   with budget wilds; took holds the copies taken so far, one lane per copy. Returns the
   new count, or -1 past room. The loop is the core's search within one suit, step for
   step, so that both reach the same leaves. */
static int fc_gen_options(uint64_t L, int x, int budget, int max_end, uint16_t ends_at,
                          uint64_t took, int need, int value, fc_option* out, int n,
                          int room) {
    uint16_t m, cand, ends, span_mask, taken;
    uint64_t spread;
    int b, run_need, span;
    for (;;) {
        m = (uint16_t)((uint16_t)L >> x << x);
        cand = fc_startable(m, budget);
        if (!cand) {
            if (n >= room)
                return -1;
            out[n].once = (uint16_t)took;
            out[n].twice = (uint16_t)(took >> 16);
            out[n].need = (uint8_t)need;
            out[n].value = (uint8_t)value;
            return n + 1;
        }
        b = fc_ctz(cand);
        if (b != x) {
            max_end = FC_RANKS - 1;
            x = b;
        }
        m = (uint16_t)L;
        ends = fc_run_ends(m, x, max_end, budget, ends_at);
        while (ends) {
            b = fc_high(ends);
            ends &= ~(1 << b);
            span_mask = fc_span_of(x, b);
            taken = m & span_mask;
            span = b - x + 1;
            run_need = (span > 3 ? span : 3) - fc_count[taken];
            if (run_need > budget)
                continue;
            spread = span_mask * FC_LANES;
            n = fc_gen_options((L & ~spread) | ((L >> 16) & spread), x, budget - run_need,
                               b, ends_at | (uint16_t)(1 << b),
                               took | (((took << 16) | taken) & (taken * FC_LANES)),
                               need + run_need, value + fc_value[taken], out, n, room);
            if (n < 0)
                return -1;
        }
        x += 1;
        max_end = FC_RANKS - 1;
    }
}

/* The order of a suit's options, for qsort: "no run" first, then by need, then by value
   (highest first); ties by the naturals taken, so that every platform's sort gives the
   same lists. */
static int fc_option_order(const void* x, const void* y) {
    const fc_option* a = (const fc_option*)x;
    const fc_option* b = (const fc_option*)y;
    if ((a->value == 0) != (b->value == 0))
        return a->value == 0 ? -1 : 1;
    if (a->need != b->need)
        return a->need - b->need;
    if (a->value != b->value)
        return b->value - a->value;
    if (a->once != b->once)
        return a->once - b->once;
    return a->twice - b->twice;
}

/* Drop an option that takes the same naturals as another with no more wilds, then sort
   (see fc_option_order). Returns the new count. Only at_import may it use the shared
   fc_kept_at (threads list options at run time). */
static int fc_tidy_options(fc_option* opts, int n, int at_import) {
    int i, j, kept = 0, single = at_import;
    for (i = 0; i < n; i++)
        single = single && opts[i].twice == 0;
    for (i = 0; i < n; i++) {
        if (single) {  /* (the long lists: a look-up, not a scan) */
            j = fc_kept_at[opts[i].once];
        } else {
            j = 0;
            while (j < kept && (opts[j].once != opts[i].once || opts[j].twice != opts[i].twice))
                j += 1;
            j = j < kept ? j : -1;
        }
        if (j >= 0) {
            if (opts[i].need < opts[j].need)
                opts[j].need = opts[i].need;
        } else {
            if (single)
                fc_kept_at[opts[i].once] = kept;
            opts[kept] = opts[i];
            kept += 1;
        }
    }
    if (single)
        for (i = 0; i < kept; i++)
            fc_kept_at[opts[i].once] = -1;
    qsort(opts, (size_t)kept, sizeof(fc_option), fc_option_order);
    return kept;
}

/* The positions of sub (a subset of m) as bits of their ranks within m. */
static inline unsigned int fc_squeeze(uint16_t sub, uint16_t m) {
    unsigned int j = 0;
    while (sub) {
        j |= 1u << fc_count[m & ((sub & -sub) - 1)];
        sub &= sub - 1;
    }
    return j;
}

/* Fill the tables (after fc_init_tables); -1 if one overflows, else the entries of
   fc_double_options used. */
static int fc_init_options(void) {
    int m, n, j, bits, key = 0, at = 0;
    uint16_t sub, rest;
    for (m = 0; m < FC_MASKS; m++)
        fc_kept_at[m] = -1;
    for (m = 0; m < FC_MASKS; m++) {
        fc_options_at[m] = at;
        n = fc_gen_options((uint64_t)m, 0, FC_RANKS, FC_RANKS - 1, 0, 0, 0, 0,
                           fc_suit_options + at, 0, FC_TABLE_SIZE - at - 1);
        if (n < 0)
            return -1;
        at += fc_tidy_options(fc_suit_options + at, n, 1);
        fc_suit_options[at] = fc_end_mark;
        at += 1;
    }
    fc_options_at[FC_MASKS] = at;
    at = 0;
    for (m = 0; m < FC_MASKS; m++) {
        fc_double_key[m] = -1;
        if (!(m & 1) || fc_count[m] > FC_MAX_DOUBLE)
            continue;
        if (key + (1 << fc_count[m]) > FC_DOUBLE_KEYS)
            return -1;
        fc_double_key[m] = key;
        for (j = 0; j < (1 << fc_count[m]); j++) {
            sub = 0;  /* the subset of m numbered j */
            rest = (uint16_t)m;
            for (bits = j; rest; bits >>= 1) {
                if (bits & 1)
                    sub |= rest & -rest;
                rest &= rest - 1;
            }
            fc_double_at[key] = at;
            n = fc_gen_options((uint64_t)m | (uint64_t)sub << 16, 0, FC_RANKS, FC_RANKS - 1,
                               0, 0, 0, 0, fc_double_options + at, 0,
                               FC_DOUBLE_TABLE_SIZE - at);
            if (n < 0)
                return -1;
            at += fc_tidy_options(fc_double_options + at, n, 1);
            key += 1;
        }
    }
    fc_double_at[key] = at;
    return at;
}

#endif
