/* The engine's thread-local memos of draw tables and best discards (_policies.pyx says why). */
#ifndef FIVECROWNS_DRAW_MEMO_H
#define FIVECROWNS_DRAW_MEMO_H

#include <stdint.h>

#if defined(_MSC_VER)
#define FIVECROWNS_THREAD_LOCAL __declspec(thread)
#else
#define FIVECROWNS_THREAD_LOCAL __thread
#endif
#define FIVECROWNS_MEMO_BITS 12
typedef struct {
    uint64_t key[8];    /* the row's 56 counts, then the wild and the decks */
    uint64_t valid;     /* bit t: table[t] is the row's entry (the rest not filled) */
    int32_t table[56];
} fivecrowns_memo_entry;
static FIVECROWNS_THREAD_LOCAL fivecrowns_memo_entry
    fivecrowns_memo[1 << FIVECROWNS_MEMO_BITS];
static fivecrowns_memo_entry* fivecrowns_memo_at(unsigned int i) {
    return &fivecrowns_memo[i];
}
typedef struct {
    uint64_t key[8];    /* as above, for the hand before its discard */
    int32_t card;
} fivecrowns_card_entry;
static FIVECROWNS_THREAD_LOCAL fivecrowns_card_entry
    fivecrowns_cards[1 << FIVECROWNS_MEMO_BITS];
static fivecrowns_card_entry* fivecrowns_card_at(unsigned int i) {
    return &fivecrowns_cards[i];
}

#endif
