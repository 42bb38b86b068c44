/* fuzz_json.c - libFuzzer target for the JSON format ({"N":..,"nw":[..]}, needs jansson). */
#define FUZZ_FORMAT SN_FORMAT_JSON
#include "fuzz_reader.h"
