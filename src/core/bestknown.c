/* bestknown.c - best known sorting network sizes, n = 1..64.
 *
 * Each entry is the comparator count of the smallest network of the public
 * SorterHunter list (Sort_N_L_D.json files; for n <= 36 the same as the
 * list's table, above that the size of the smallest network the file list
 * actually holds). The shipped network library will replace this table
 * with its own metadata. */
#include "core/bestknown.h"

static const unsigned short best_size[65] = {
    0,                                                     /* n = 0: unknown */
    0,   1,   3,   5,   9,   12,  16,  19,  25,  29,        /* 1..10 */
    35,  39,  45,  51,  56,  60,  71,  77,  85,  91,        /* 11..20 */
    99,  106, 114, 120, 130, 138, 147, 155, 164, 172,       /* 21..30 */
    180, 185, 199, 209, 220, 227, 240, 250, 259, 265,       /* 31..40 */
    282, 291, 303, 309, 324, 332, 340, 346, 365, 376,       /* 41..50 */
    387, 395, 411, 421, 432, 438, 454, 465, 476, 483,       /* 51..60 */
    497, 506, 515, 521,                                     /* 61..64 */
};

size_t sn_best_known_size(uint32_t n)
{
    return n < sizeof best_size / sizeof best_size[0] ? best_size[n] : 0;
}
