/* check_loop.h - how the device 0-1 checker (check.c) lays out its work,
 * for the tests and for tuning.
 *
 * A work-item takes 2^L consecutive 32-input words: wires 0..4 are the
 * lanes (fixed bit patterns), wires 5..4+L the loop counter, and the wires
 * above are fixed for the whole work-item. The comparators that only ever
 * see fixed wires (the first layers among the high wires, and those among
 * the lanes) are evaluated once per work-item, before the loop. */
#ifndef SN_GPU_CHECK_LOOP_H
#define SN_GPU_CHECK_LOOP_H

#include <stddef.h>
#include <stdint.h>

#include "core/network.h"

/* The most loop bits a work-item takes (2^12 words, 2^17 inputs). */
#define SN_GPU_CHECK_MAX_LOOP_BITS 12

/* From now on the checker uses L = bits (clipped to what n allows: at most
 * n - 5, and 0 below 5 wires) instead of choosing it; -1 goes back to
 * choosing. For the tests, which reach the loop on small networks. */
void sn_gpu_check_force_loop_bits(int bits);

/* How the comparators of net split with L loop bits: *shared gets those
 * evaluated once per work-item, *looped those in the loop (shared +
 * looped = comparators). */
void sn_gpu_check_split(const sn_network *net, unsigned loop_bits, size_t *shared, size_t *looped);

#endif
