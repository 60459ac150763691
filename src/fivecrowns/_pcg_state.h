/* NumPy's PCG64 state behind a bitgen_t, mirrored for the engine's snapshots (_round_state.pyx). */
#ifndef FIVECROWNS_PCG_STATE_H
#define FIVECROWNS_PCG_STATE_H

#include <stdint.h>

/* numpy/random/src/pcg64/pcg64.h, the state behind a PCG64's or a PCG64DXSM's
   bitgen_t (unchanged since numpy 1.17): the 128-bit state and increment, and the
   half of a 64-bit draw kept for the next 32-bit one. */
typedef struct {
    unsigned char *pcg_state;
    int has_uint32;
    unsigned int uinteger;
} fc_pcg64_state;

#endif
