/* The generators of a vector environment's episode, derived in C as the Python twin
 * derives them with NumPy (envs/vector.py ``_seed_of``, envs/gym.py ``reset``,
 * envs/_vector_games.py ``CompiledGames.provide``), so that no Python runs when a game's
 * episode ends:
 *
 * - ``SeedSequence(entropy, spawn_key=...)`` and its ``generate_state``
 *   (numpy/random/bit_generator.pyx): a pool of four 32-bit words hashed from the
 *   entropy's words, then hashed out word by word;
 * - ``PCG64(seed)``: the 128-bit state and increment from ``generate_state(4, uint64)``
 *   (high word first), seeded as pcg64_srandom_r does, and PCG64's output function
 *   (XSL RR 128/64) with NumPy's buffering of 32-bit halves (numpy/random/src/pcg64);
 * - the ``Generator.integers`` draws are NumPy's own (random_bounded_uint64_fill), made
 *   on a ``bitgen_t`` that these functions fill.
 *
 * Plain C99 with 64-bit halves for the 128-bit products (MSVC has no __int128). The
 * tests compare every value with NumPy's (tests/test_envs_vector.py). */
#ifndef FIVECROWNS_EPISODE_SEEDS_H
#define FIVECROWNS_EPISODE_SEEDS_H

#include <stdint.h>

typedef struct { uint64_t hi, lo; } fc_u128;

typedef struct {
    fc_u128 state;
    fc_u128 inc;
    int has_uint32;
    uint32_t uinteger;
} fc_pcg64;

/* the low 128 bits of a * b */
static inline fc_u128 fc_mul128(fc_u128 a, fc_u128 b) {
    uint64_t a0 = a.lo & 0xFFFFFFFFu, a1 = a.lo >> 32;
    uint64_t b0 = b.lo & 0xFFFFFFFFu, b1 = b.lo >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    fc_u128 r;
    r.lo = (mid << 32) | (p00 & 0xFFFFFFFFu);
    r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32) + a.hi * b.lo + a.lo * b.hi;
    return r;
}

static inline fc_u128 fc_add128(fc_u128 a, fc_u128 b) {
    fc_u128 r;
    r.lo = a.lo + b.lo;
    r.hi = a.hi + b.hi + (r.lo < a.lo);
    return r;
}

static inline void fc_pcg64_step(fc_pcg64* g) {
    static const fc_u128 mult = {2549297995355413924ULL, 4865540595714422341ULL};
    g->state = fc_add128(fc_mul128(g->state, mult), g->inc);
}

static inline uint64_t fc_pcg64_next64(void* st) {
    fc_pcg64* g = (fc_pcg64*)st;
    uint64_t x;
    unsigned int rot;
    fc_pcg64_step(g);
    x = g->state.hi ^ g->state.lo;
    rot = (unsigned int)(g->state.hi >> 58);
    return (x >> rot) | (x << ((64u - rot) & 63u));
}

static inline uint32_t fc_pcg64_next32(void* st) {
    fc_pcg64* g = (fc_pcg64*)st;
    uint64_t next;
    if (g->has_uint32) {
        g->has_uint32 = 0;
        return g->uinteger;
    }
    next = fc_pcg64_next64(g);
    g->has_uint32 = 1;
    g->uinteger = (uint32_t)(next >> 32);
    return (uint32_t)(next & 0xFFFFFFFFu);
}

static inline double fc_pcg64_next_double(void* st) {
    return (double)(fc_pcg64_next64(st) >> 11) * (1.0 / 9007199254740992.0);
}

/* SeedSequence's constants */
#define FC_INIT_A 0x43b0d7e5u
#define FC_MULT_A 0x931e8875u
#define FC_INIT_B 0x8b51f9ddu
#define FC_MULT_B 0x58f38dedu
#define FC_MIX_L 0xca01f9ddu
#define FC_MIX_R 0x4973f715u
#define FC_XSHIFT 16

static inline uint32_t fc_hashmix(uint32_t value, uint32_t* hash_const) {
    value ^= *hash_const;
    *hash_const *= FC_MULT_A;
    value *= *hash_const;
    value ^= value >> FC_XSHIFT;
    return value;
}

static inline uint32_t fc_mix(uint32_t x, uint32_t y) {
    uint32_t r = FC_MIX_L * x - FC_MIX_R * y;
    r ^= r >> FC_XSHIFT;
    return r;
}

/* SeedSequence's pool (mix_entropy) from its assembled entropy: n words */
static void fc_seed_pool(const uint32_t* entropy, int n, uint32_t pool[4]) {
    uint32_t hc = FC_INIT_A;
    int i, src, dst;
    for (i = 0; i < 4; i++)
        pool[i] = fc_hashmix(i < n ? entropy[i] : 0u, &hc);
    for (src = 0; src < 4; src++)
        for (dst = 0; dst < 4; dst++)
            if (src != dst)
                pool[dst] = fc_mix(pool[dst], fc_hashmix(pool[src], &hc));
    for (src = 4; src < n; src++)
        for (dst = 0; dst < 4; dst++)
            pool[dst] = fc_mix(pool[dst], fc_hashmix(entropy[src], &hc));
}

/* SeedSequence.generate_state(n, uint32) */
static void fc_seed_state(const uint32_t pool[4], int n, uint32_t* out) {
    uint32_t hc = FC_INIT_B, v;
    int i;
    for (i = 0; i < n; i++) {
        v = pool[i % 4];
        v ^= hc;
        hc *= FC_MULT_B;
        v *= hc;
        v ^= v >> FC_XSHIFT;
        out[i] = v;
    }
}

/* An int's words as SeedSequence takes it (_int_to_uint32_array): little end first,
 * one word for 0; returns how many. */
static inline int fc_int_words(uint64_t x, uint32_t* out) {
    int n = 0;
    do {
        out[n++] = (uint32_t)(x & 0xFFFFFFFFu);
        x >>= 32;
    } while (x);
    return n;
}

/* PCG64(SeedSequence(seed)): the state NumPy's PCG64(seed) starts from, seed < 2**64 */
static void fc_pcg64_seed(fc_pcg64* g, uint64_t seed) {
    uint32_t words[2], pool[4], w[8];
    fc_u128 initstate, initseq;
    int n = fc_int_words(seed, words);
    fc_seed_pool(words, n, pool);
    fc_seed_state(pool, 8, w);  /* generate_state(4, uint64): pairs of words, low first */
    initstate.hi = (uint64_t)w[0] | ((uint64_t)w[1] << 32);
    initstate.lo = (uint64_t)w[2] | ((uint64_t)w[3] << 32);
    initseq.hi = (uint64_t)w[4] | ((uint64_t)w[5] << 32);
    initseq.lo = (uint64_t)w[6] | ((uint64_t)w[7] << 32);
    /* pcg_setseq_128_srandom_r */
    g->state.hi = 0;
    g->state.lo = 0;
    g->inc.hi = (initseq.hi << 1) | (initseq.lo >> 63);
    g->inc.lo = (initseq.lo << 1) | 1u;
    fc_pcg64_step(g);
    g->state = fc_add128(g->state, initstate);
    fc_pcg64_step(g);
    g->has_uint32 = 0;
    g->uinteger = 0;
}

/* envs.vector's _seed_of(i, k): SeedSequence(run, spawn_key=(i, k)).generate_state(2,
 * uint32), as one 63-bit int. ``run``: the run seed's words (n_run of them, at most
 * FC_MAX_RUN_WORDS). */
#define FC_MAX_RUN_WORDS 64
static uint64_t fc_episode_seed(const uint32_t* run, int n_run, uint64_t i, uint64_t k) {
    uint32_t entropy[FC_MAX_RUN_WORDS + 8], pool[4], out[2];
    int n = 0, j;
    for (j = 0; j < n_run; j++)
        entropy[n++] = run[j];
    while (n < 4)  /* a spawn key pads the run's entropy to the pool's size */
        entropy[n++] = 0u;
    n += fc_int_words(i, entropy + n);
    n += fc_int_words(k, entropy + n);
    fc_seed_pool(entropy, n, pool);
    fc_seed_state(pool, 2, out);
    return ((uint64_t)out[0] | ((uint64_t)out[1] << 32)) >> 1;
}

#endif
