/* A row's masks and checks for the solver (_solver_core.pyx, _solver.pyx): with SSE2,
   16 counts at a time, or portably, 8 at a time in a word. */
#ifndef FIVECROWNS_ROW_MASKS_H
#define FIVECROWNS_ROW_MASKS_H

#include <stdint.h>
#include <string.h>

#include "_bits.h"

/* A row's masks with SSE2 (every x86-64 CPU has it): 16 counts per compare.
   Build with -DFC_NO_SSE2 to test the portable route on x86-64. */
#if (defined(__SSE2__) || defined(_M_X64) || defined(_M_AMD64)) && !defined(FC_NO_SSE2)
#include <emmintrin.h>
#define FC_SSE2 1
#define FC_GT(v, k) ((unsigned int)_mm_movemask_epi8(_mm_cmpgt_epi8((v), _mm_set1_epi8(k))))
#define FC_SLICE(v, j) ((unsigned int)_mm_movemask_epi8(_mm_slli_epi16((v), 7 - (j))))
/* The five suits of a row, one per register, lanes 0..10 (the rest is the next
   suit's). Each count at 0..54 lands in lanes 0..10 of exactly one register, and the
   joker in lane 15 of the last load (``*tail``): every count is read once. */
static inline void fc_load(const uint8_t* row, __m128i* v, __m128i* tail) {
    v[0] = _mm_loadu_si128((const __m128i*)row);
    v[1] = _mm_loadu_si128((const __m128i*)(row + 11));
    v[2] = _mm_loadu_si128((const __m128i*)(row + 22));
    v[3] = _mm_loadu_si128((const __m128i*)(row + 33));
    /* the last suit from the row's last 16 bytes, moved down: no read past the row */
    *tail = _mm_loadu_si128((const __m128i*)(row + 40));
    v[4] = _mm_srli_si128(*tail, 4);
}
/* The masks and slices of ``setup`` from the suits ``v`` (counts validated), their
   lane-wise sum and maximum. Returns whether some count is 3 or more. */
static inline int fc_masks(const __m128i* v, __m128i sum, __m128i top, int w,
                           uint64_t* layers, uint16_t* cnt, int* rank_wilds) {
    const unsigned int naturals = 0x7FFu & ~(1u << w);
    unsigned char sums[16];
    int s, deep;
    deep = (FC_GT(top, 2) & 0x7FFu) != 0;
    for (s = 0; s < 5; s++) {
        layers[s] = (uint64_t)(FC_GT(v[s], 0) & naturals)
                    | (uint64_t)(FC_GT(v[s], 1) & naturals) << 16;
        if (deep)
            layers[s] |= (uint64_t)(FC_GT(v[s], 2) & naturals) << 32
                         | (uint64_t)(FC_GT(v[s], 3) & naturals) << 48;
    }
    cnt[0] = (uint16_t)(FC_SLICE(sum, 0) & naturals);
    cnt[1] = (uint16_t)(FC_SLICE(sum, 1) & naturals);
    cnt[2] = (uint16_t)(FC_SLICE(sum, 2) & naturals);
    cnt[3] = (uint16_t)(FC_SLICE(sum, 3) & naturals);
    cnt[4] = (uint16_t)(FC_SLICE(sum, 4) & naturals);
    _mm_storeu_si128((__m128i*)sums, sum);
    *rank_wilds = sums[w];
    return deep;
}
#define FC_SUM(v) _mm_add_epi8(_mm_add_epi8(_mm_add_epi8((v)[0], (v)[1]), \
                                            _mm_add_epi8((v)[2], (v)[3])), (v)[4])
#define FC_TOP(v) _mm_max_epu8(_mm_max_epu8(_mm_max_epu8((v)[0], (v)[1]), \
                                            _mm_max_epu8((v)[2], (v)[3])), (v)[4])
static inline int fc_scan(const uint8_t* row, int w, uint64_t* layers, uint16_t* cnt,
                          int* rank_wilds) {
    __m128i v[5], tail;
    fc_load(row, v, &tail);
    return fc_masks(v, FC_SUM(v), FC_TOP(v), w, layers, cnt, rank_wilds);
}
/* ``fc_scan`` of a row that another thread may be writing, checked on the way as
   ``row_problem`` checks (limits ``decks``, sizes min_cards..max_cards): the masks
   come from the very counts checked, each read once. Returns -1 if the row breaks a
   rule, with the counts read in ``seen`` (60 bytes); else as ``fc_scan``, with the
   row's jokers in ``*jokers``. */
static inline int fc_scan_checked(const uint8_t* row, int w, int decks, int min_cards,
                                  int max_cards, uint64_t* layers, uint16_t* cnt,
                                  int* rank_wilds, int* jokers, uint8_t* seen) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i lanes = _mm_srli_si128(_mm_set1_epi32(-1), 5);  /* lanes 0..10 */
    __m128i v[5], tail, sum, top, sad;
    int joker, size;
    fc_load(row, v, &tail);
    /* Counts of at most 4 (checked first) sum to at most 20 a lane: no carry. */
    sum = FC_SUM(v);
    top = FC_TOP(v);
    joker = _mm_extract_epi16(tail, 7) >> 8;
    sad = _mm_sad_epu8(_mm_and_si128(sum, lanes), zero);
    size = _mm_cvtsi128_si32(_mm_add_epi64(sad, _mm_srli_si128(sad, 8))) + joker;
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(
            _mm_and_si128(_mm_subs_epu8(top, _mm_set1_epi8((char)decks)), lanes),
            zero)) != 0xFFFF
            || joker > 3 * decks || size < min_cards || size > max_cards) {
        /* in this order, each store's lanes 0..10 overwrite the last one's spill */
        _mm_storeu_si128((__m128i*)seen, v[0]);
        _mm_storeu_si128((__m128i*)(seen + 11), v[1]);
        _mm_storeu_si128((__m128i*)(seen + 22), v[2]);
        _mm_storeu_si128((__m128i*)(seen + 33), v[3]);
        _mm_storeu_si128((__m128i*)(seen + 44), v[4]);
        return -1;
    }
    *jokers = joker;
    return fc_masks(v, sum, top, w, layers, cnt, rank_wilds);
}
/* row_problem with SSE2: the 56 counts in four loads (the last one overlaps the
   third by 8 bytes, so nothing is read past the row). A count above decks leaves a
   non-zero byte after an unsigned saturating subtract; the size is the sum of the
   bytes (psadbw against zero), each byte counted once. */
static inline int fc_row_problem(const uint8_t* row, int decks, int min_cards,
                                 int max_cards) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i a = _mm_loadu_si128((const __m128i*)row);
    const __m128i b = _mm_loadu_si128((const __m128i*)(row + 16));
    const __m128i c = _mm_loadu_si128((const __m128i*)(row + 32));
    const __m128i d = _mm_loadu_si128((const __m128i*)(row + 40));  /* 40..55 */
    /* the joker (byte 55, lane 15 of d) has its own limit: dropped from the maximum */
    const __m128i d_naturals = _mm_srli_si128(_mm_slli_si128(d, 1), 1);
    const __m128i top = _mm_max_epu8(_mm_max_epu8(a, b), _mm_max_epu8(c, d_naturals));
    const __m128i over = _mm_subs_epu8(top, _mm_set1_epi8((char)decks));
    __m128i sad;
    unsigned long long size;
    int joker = row[55];
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(over, zero)) != 0xFFFF || joker > 3 * decks)
        return 1;
    /* d's sum of bytes 48..55 is its high half (its low half is c's 40..47 again) */
    sad = _mm_add_epi64(_mm_add_epi64(_mm_sad_epu8(a, zero), _mm_sad_epu8(b, zero)),
                        _mm_add_epi64(_mm_sad_epu8(c, zero),
                                      _mm_srli_si128(_mm_sad_epu8(d, zero), 8)));
    sad = _mm_add_epi64(sad, _mm_srli_si128(sad, 8));
    size = (unsigned long long)_mm_cvtsi128_si32(sad);
    return size < (unsigned long long)min_cards || size > (unsigned long long)max_cards;
}
#else
#define FC_SSE2 0
/* The portable route: eight counts at a time in a word. */
static inline uint64_t fc_load8(const uint8_t* p) {
    uint64_t word;
    memcpy(&word, p, 8);
    return word;
}
/* Positions 0..10 whose count is at least k >= 1, from the bytes of positions 0..7
   (lo) and 3..10 (hi); counts are validated small, so no byte carries. */
static inline unsigned int fc_at_least(uint64_t lo, uint64_t hi, int k) {
    uint64_t bias = (uint64_t)(128 - k) * FC_BYTES;
    return fc_gather((lo + bias) & FC_TOPS) | fc_gather((hi + bias) & FC_TOPS) << 3;
}
/* Positions 0..10 whose count has bit j set. */
static inline unsigned int fc_bit_slice(uint64_t lo, uint64_t hi, int j) {
    return fc_gather((lo >> j & FC_BYTES) << 7) | fc_gather((hi >> j & FC_BYTES) << 7) << 3;
}
static inline int fc_scan(const uint8_t* row, int w, uint64_t* layers, uint16_t* cnt,
                          int* rank_wilds) {
    const uint64_t bias3 = (128 - 3) * FC_BYTES;
    const unsigned int naturals = 0x7FFu & ~(1u << w);
    uint64_t lo, hi, sum_lo = 0, sum_hi = 0, over = 0;
    int s, j, deep;
    *rank_wilds = 0;
    for (s = 0; s < 5; s++) {
        lo = fc_load8(row + 11 * s);      /* positions 0..7 */
        hi = fc_load8(row + 11 * s + 3);  /* positions 3..10 (stays inside the row) */
        sum_lo += lo;
        sum_hi += hi;
        *rank_wilds += row[11 * s + w];
        layers[s] = (uint64_t)(fc_at_least(lo, hi, 1) & naturals)
                    | (uint64_t)(fc_at_least(lo, hi, 2) & naturals) << 16;
        over |= (lo + bias3) | (hi + bias3);
    }
    deep = (over & FC_TOPS) != 0;
    if (deep) {  /* party mode may hold 3 or 4 copies of a card: the upper lanes */
        for (s = 0; s < 5; s++) {
            lo = fc_load8(row + 11 * s);
            hi = fc_load8(row + 11 * s + 3);
            layers[s] |= (uint64_t)(fc_at_least(lo, hi, 3) & naturals) << 32
                         | (uint64_t)(fc_at_least(lo, hi, 4) & naturals) << 48;
        }
    }
    for (j = 0; j < 5; j++)
        cnt[j] = (uint16_t)(fc_bit_slice(sum_lo, sum_hi, j) & naturals);
    return deep;
}
/* Adding 127 - decks to every byte sets its top bit exactly when the count exceeds
   decks (a count of 128 or more has it already). */
static inline int fc_row_problem(const uint8_t* row, int decks, int min_cards,
                                 int max_cards) {
    uint64_t word, over = 0, size = 0;
    const uint64_t bias = (uint64_t)(127 - decks) * FC_BYTES;
    int k;
    for (k = 0; k < 7; k++) {
        memcpy(&word, row + 8 * k, 8);
        if (k == 6)
            word &= 0x00FFFFFFFFFFFFFFULL;  /* the joker, byte 55, is checked below */
        over |= word | ((word & 0x7F7F7F7F7F7F7F7FULL) + bias);
        size += (word * FC_BYTES) >> 56;  /* the sum of the 8 bytes (each small) */
    }
    if ((over & FC_TOPS) || row[55] > 3 * decks)
        return 1;
    size += row[55];
    return size < (uint64_t)min_cards || size > (uint64_t)max_cards;
}
/* On a private copy: each count read once. */
static inline int fc_scan_checked(const uint8_t* row, int w, int decks, int min_cards,
                                  int max_cards, uint64_t* layers, uint16_t* cnt,
                                  int* rank_wilds, int* jokers, uint8_t* seen) {
    uint8_t own[56];
    memcpy(own, row, 56);
    if (fc_row_problem(own, decks, min_cards, max_cards)) {
        memcpy(seen, own, 56);
        return -1;
    }
    *jokers = own[55];
    return fc_scan(own, w, layers, cnt, rank_wilds);
}
#endif

#endif
