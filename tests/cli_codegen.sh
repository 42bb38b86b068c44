#!/usr/bin/env bash
# cli_codegen.sh - `sortnet gen --format c|opencl` and `sortnet gpu batch`
# through the real binary: derived function names, the proof line of the
# header, a generated C file compiled with -Werror and run against `sortnet
# run`, usage errors (exit 2); gpu batch's verdicts, JSON and exit codes when
# an OpenCL platform exists (its part is skipped otherwise).
. "$(dirname "$0")/lib.sh"

expect 0 "$S" gen --help
out_has "opencl"
out_has "--payload"
expect 0 "$S" gen best:16 --format c
out_has "void sort16_best(int32_t *v)"
out_has "Proved to sort every input"
out_has "size = 60 comparators, depth = 10 layers"
expect 0 "$S" gen bitonic:8 --format c --type f32 --payload
out_has "void sort8_bitonic_f32_kv(float *v, uint32_t *p)"
out_has "totalOrder"
expect 0 "$S" gen oddeven-merge:6 --format opencl --type u32
out_has "__kernel void sort6_oddeven_merge_u32_columns(__global uint *keys, const uint m)"
out_has "void sort6_oddeven_merge_u32_rows("

# a file network: its name from the file; one that does not sort says so
printf '[(0,1),(2,3)]\n[(0,2),(1,3)]\n' >"$T/my-net.txt"
expect 0 "$S" gen "$T/my-net.txt" --format c -o "$T/bad.c"
grep -qF "void sort4_my_net(int32_t *v)" "$T/bad.c" || fail "file network's function name"
grep -qF "DOES NOT SORT" "$T/bad.c" || fail "broken network not flagged in the header"
expect 0 "$S" gen best:60 --format c
grep -qE "Proved|Not checked" "$T/out" || fail "best:60: no proof line"
# a proof that takes minutes (the split's merge of two 2048-wire halves) is
# stopped at gen's limit: the code comes, its header says why it is unproved
# (the limit once waited on progress calls that method never makes)
expect 0 "$S" gen bitonic:4096 --format c -o "$T/big.c"
grep -qF "no quick proof: stopped after 2 s" "$T/big.c" || fail "bitonic:4096: the proof was not stopped"
# past straight-line code's limit: refused at once, nothing proved or written
expect 2 "$S" gen bitonic:32768 --format c -o "$T/huge.c"
err_has "straight-line code is limited to"
[ ! -e "$T/huge.c" ] || fail "bitonic:32768: a file was written"

# usage errors
expect 2 "$S" gen best:8 --format rust
err_has "'rust' is not a format"
expect 2 "$S" gen best:8 --type f32
err_has "applies to --format c or opencl only"
expect 2 "$S" gen best:8 --format c --type f64
err_has "'f64' is not i32, u32 or f32"

# the generated C compiled warning-free and run against the reference
if command -v cc >/dev/null; then
    "$S" gen best:11 --format c --type i32 -o "$T/s.c" || fail "gen -o"
    cat >"$T/main.c" <<'C'
#include <stdio.h>
#include <stdint.h>
void sort11_best(int32_t *v);
int main(void)
{
    int32_t v[11] = {5, -3, 99, 0, -2147483647 - 1, 7, 7, 2147483647, -1, 12, 3};
    sort11_best(v);
    for (int i = 0; i < 11; i++)
        printf(i ? ",%d" : "%d", v[i]);
    printf("\n");
    return 0;
}
C
    cc -std=c99 -Wall -Wextra -Wconversion -Werror -o "$T/s" "$T/s.c" "$T/main.c" ||
        fail "generated C does not compile warning-free"
    got=$("$T/s")
    want=$("$S" run best:11 --input 5,-3,99,0,-2147483648,7,7,2147483647,-1,12,3 --json |
        python3 -c "import json,sys; print(','.join(map(str, json.load(sys.stdin)['output'])))")
    [ "$got" = "$want" ] || fail "generated C gave $got, reference $want"
fi

# gpu batch: only where sortnet has OpenCL and a platform exists (a gpu
# list that fails otherwise is a failure: lib.sh has_gpu)
has_gpu || { echo "note: no OpenCL (not built, or no platform): gpu batch not run" >&2; finish cli_codegen; }
mkdir -p "$T/novendors" # no OpenCL platform at all: exit 3
expect 3 env OCL_ICD_VENDORS="$T/novendors" "$S" gpu batch best:8 --arrays 4
err_has "no OpenCL platform"
expect 3 env OCL_ICD_VENDORS="$T/novendors" "$S" gpu bench --variant batch best:8
expect 0 "$S" gpu batch --help
out_has "--layout"
# gpu batch and its bench share cli_gpu_options and cli_bad_option with the
# other gpu commands: one wording for a bad option
expect 2 "$S" gpu batch best:8 --arrays 4 --bogus
err_has "sortnet: gpu batch: unknown option '--bogus' (see --help)"
expect 2 "$S" gpu batch best:8 --arrays
err_has "option '--arrays' needs a value"
expect 2 "$S" gpu batch best:8 --arrays 4 --device x
err_has "'x' is not a device"
expect 2 "$S" gpu batch best:8 --arrays 4 --inject-fault 3
err_has "is not ARRAY:WIRE"
expect 0 "$S" gpu bench --variant batch --help
out_has "net_ms"
expect 2 "$S" gpu bench --variant batch best:8 --bogus
err_has "sortnet: gpu bench: unknown option '--bogus' (see --help)"
expect 2 "$S" gpu bench --variant batch best:8 --reps
err_has "option '--reps' needs a value"
expect 2 "$S" gpu batch best:8
err_has "--arrays M is required"
expect 2 "$S" gpu batch best:8 --arrays 0
expect 2 "$S" gpu batch best:8 --arrays 4 --layout diagonal
err_has "'diagonal' is not rows or columns"
expect 2 "$S" gpu batch bitonic:300 --arrays 4
err_has "n must be 1..256"
expect 0 "$S" gpu batch best:12 --arrays 37 --layout columns --type u32 --payload
out_has "identical: all 37 arrays match"
expect 0 "$S" gpu batch "$T/my-net.txt" --arrays 2^6 --keys bits --json
[ "$(json 'd["identical"] and d["unsorted"] > 0')" = True ] ||
    fail "a network that does not sort: unsorted arrays not counted"
expect 1 "$S" gpu batch best:9 --arrays 5 --inject-fault 4:8 --json
[ "$(json 'd["first_mismatch"]["array"], d["first_mismatch"]["wire"]')" = "4 8" ] ||
    fail "injected fault not named at array 4, wire 8"
expect 2 "$S" gpu batch best:9 --arrays 5 --inject-fault 5:0
err_has "no array 5 wire 0"
expect 0 "$S" gpu bench --variant batch best:8 bitonic:8 --arrays 100 --reps 1 --csv "$T/b.csv"
out_has "vs_first"
grep -q "batch-rows,800," "$T/b.csv" || fail "bench CSV lacks the batch rows"
finish cli_codegen
