/* fuzz_bracket.c - libFuzzer target for the bracket-layer format ([(0,2),(1,3)] per line). */
#define FUZZ_FORMAT SN_FORMAT_BRACKET
#include "fuzz_reader.h"
