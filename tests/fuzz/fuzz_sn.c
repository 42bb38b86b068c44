/* fuzz_sn.c - libFuzzer target for libsortnetwork's text format (Inputs: N, a b per line). */
#define FUZZ_FORMAT SN_FORMAT_SN
#include "fuzz_reader.h"
