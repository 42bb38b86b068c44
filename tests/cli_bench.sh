#!/bin/bash
# cli_bench.sh - every bench program answers --help (exit 0, a usage line)
# and rejects a bad argument (exit 2, naming it) without running its
# measurement. The benchmarks themselves never run in tests (noisy).
. "$(dirname "$0")/lib.sh"
B=${SN_BUILD_DIR:?set SN_BUILD_DIR to the build folder}/bench
# the sanitizer pass of tools/setup.sh builds without them (SORTNET_BUILD_BENCH=OFF)
if [ ! -d "$B" ]; then
    echo "SKIP: the bench programs are not built here (SORTNET_BUILD_BENCH=OFF)" >&2
    exit 77
fi
found=0
for prog in "$B"/bench_*; do
    [ -x "$prog" ] || continue
    found=$((found + 1))
    name=$(basename "$prog")
    expect 0 "$prog" --help
    out_has "usage: $name"
    expect 0 "$prog" -h
    expect 2 "$prog" --frobnicate
    expect 2 "$prog" 1 2 3
    err_has "$name:"
done
[ $found -ge 2 ] || fail "found $found bench programs in $B"
# the ones that take a number check its range and form
expect 2 "$B/bench_exec" 0
err_has "REPS must be a whole number"
expect 2 "$B/bench_exec" --
expect 2 "$B/bench_check" 3x
err_has "THREADS must be"
finish cli_bench
