/* Bit scans for the solver (_solver.pyx): MSVC's intrinsics or GCC's builtins. */
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

#endif
