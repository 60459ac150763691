/* A cache prefetch hint where the compiler has one (_policies.pyx). */
#ifndef FIVECROWNS_PREFETCH_H
#define FIVECROWNS_PREFETCH_H

#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define FIVECROWNS_PREFETCH(p) __builtin_prefetch(p)
#else
#define FIVECROWNS_PREFETCH(p) ((void)(p))
#endif

#endif
