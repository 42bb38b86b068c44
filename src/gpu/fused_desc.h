/* fused_desc.h - the word layout of a fused pass's descriptor, shared by
 * the planner (fused.c) and the code generator (fused_cg.c); the
 * interpreting kernel (kernels/fused.cl) spells the same offsets. */
#ifndef SN_FUSED_DESC_H
#define SN_FUSED_DESC_H

#define E_MAX_BITS 5 /* kernels/fused.cl: E_BITS (4 or 5) per program */
#define E_MAX 32
/* pass header */
#define H_T 0
#define H_BMASK 1
#define H_AMASK 2
#define H_ABIT 3
#define H_NRUNS 4
#define H_RUNS 5
#define MAX_RUNS 8
#define H_NFLAT 29
#define H_FLAT 30
#define H_NROUNDS 31
#define H_ROUNDS 32
#define H_TAB 33 /* E_MAX words */
#define H_FIRST_DIRECT 65
#define H_LAST_DIRECT 66
#define H_EBITS 67 /* generated kernels: 2^EBITS elements per work-item */
#define H_CBITS 68 /* ... and 2^CBITS columns */
#define H_WORDS 69
/* a register round (kind 0): kind, cr, cmask, E_MAX_BITS R bits, nwr,
 * R_MAX_RUNS runs of (shift, len, pos), E words of R parts' global bits,
 * E words of their padded local offsets, the layer count, the codes; a
 * local-memory round (kind 1): kind, code */
#define R_CR 1
#define R_CMASK 2
#define R_NWR 8
#define R_MAX_RUNS 6
#define R_RUNS 9
#define R_TABR 27
#define R_TABL(e) (27 + (e))
#define R_NL(e) (27 + 2 * (e))
#define R_CODES(e) (28 + 2 * (e))

#endif
