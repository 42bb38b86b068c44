/* fuzz_detect.c - libFuzzer target for format detection: any text, format guessed from content. */
#define FUZZ_FORMAT SN_FORMAT_UNKNOWN
#include "fuzz_reader.h"
