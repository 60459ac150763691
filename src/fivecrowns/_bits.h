/* Bit scans for the solver's core (_solver_core.pyx): MSVC's intrinsics or GCC's builtins,
   and the bytes of a word read as one mask. */
#ifndef FIVECROWNS_BITS_H
#define FIVECROWNS_BITS_H

#include <stdint.h>

#if defined(_MSC_VER)
#include <intrin.h>
static inline int fc_ctz(unsigned int x) {
    unsigned long i; _BitScanForward(&i, x); return (int)i;
}
static inline int fc_ctz64(unsigned long long x) {
    unsigned long i; _BitScanForward64(&i, x); return (int)i;
}
static inline int fc_high(unsigned int x) {
    unsigned long i; _BitScanReverse(&i, x); return (int)i;
}
#else
static inline int fc_ctz(unsigned int x) { return __builtin_ctz(x); }
static inline int fc_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
static inline int fc_high(unsigned int x) { return 31 - __builtin_clz(x); }
#endif

#define FC_BYTES 0x0101010101010101ULL  /* one in every byte */
#define FC_TOPS 0x8080808080808080ULL   /* the top bit of every byte */

/* The top bits of the 8 bytes of tops (nothing else set) as an 8-bit mask. */
static inline unsigned int fc_gather(uint64_t tops) {
    return (unsigned int)(((tops >> 7) * 0x0102040810204080ULL) >> 56);
}

#endif
