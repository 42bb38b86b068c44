#!/bin/bash
# cli_cover.sh - command-line outputs no other test reads (found by the
# coverage table, docs/testing.md): run's payload line for a long array,
# draw --follow, view --input-file,
# gpu batch's note on arrays a network leaves unsorted, its key file and
# its report of a mismatch in the payload, its other keys and usage
# errors, gpu bench's batch layouts and a wrong sort, and gpu sort's refusals with an
# estimate in minutes, hours and days. The gpu part skips without an
# OpenCL platform.
. "$(dirname "$0")/lib.sh"

# run: more than 256 keys are shortened, the payload line too
expect 0 "$S" run bitonic:512 --payload
grep -q "^from: .*[0-9],\.\.\.$" "$T/out" || fail "run --payload, 512 keys: $(grep from "$T/out" | head -c 200)"
grep -q "512 keys; --full prints all" "$T/out" || fail "run, 512 keys: not shortened"
expect 0 "$S" run bitonic:512 --payload --full
[ "$(grep "^from:" "$T/out" | tr ',' '\n' | wc -l)" = 512 ] || fail "run --payload --full: not 512 indices"

# draw --follow traces one element: a picture unlike the plain one
if has_part "cairo drawing"; then
    expect 0 "$S" draw bitonic:8 --follow 2 -o "$T/f.svg"
    expect 0 "$S" draw bitonic:8 -o "$T/g.svg"
    ! cmp -s "$T/f.svg" "$T/g.svg" || fail "draw --follow 2 drew the plain picture"
    expect 2 "$S" draw bitonic:8 --follow x -o "$T/h.svg"
    err_has "sortnet: --follow: 'x' is not a wire"
    [ ! -e "$T/h.svg" ] || fail "draw --follow x wrote a file"
fi

# view --input-file: n from the keys for a generator without :N (the
# default network too), for each network side by side; not with a lesson
if has_part "SDL2 window" && has_offscreen; then
    printf '8 7 6 5 4 3 2 1\n' >"$T/k8.txt"
    v() { SDL_VIDEODRIVER=offscreen "$S" view --size 640x400 --dump-state "$T/state" "$@"; }
    expect 0 v --input-file "$T/k8.txt" --script ""
    grep -qx "network: bitonic:8" "$T/state" || fail "view --input-file: $(grep network "$T/state")"
    grep -qx "values: 8,7,6,5,4,3,2,1" "$T/state" || fail "view --input-file: $(grep values "$T/state")"
    expect 0 v bitonic oddeven-merge --input-file "$T/k8.txt" --script ""
    grep -q "^view2: oddeven-merge:8 step 0 of 6, 0 swaps, -, values 8,7,6,5,4,3,2,1" "$T/state" ||
        fail "view A B --input-file: $(grep view2 "$T/state")"
    lesson=$(ls "${SN_SOURCE_DIR:?}"/assets/lessons/*.lesson | head -1)
    expect 2 v --lesson "$lesson" --input-file "$T/k8.txt" --script ""
    err_has "sortnet: --input-file: a lesson sets its own inputs"
fi

if ! has_gpu; then
    echo "note: no OpenCL (not built, or no platform): the gpu part not run" >&2
    finish cli_cover
fi
# a network that does not sort: the device agrees with the reference, and
# the note says how many arrays stay unsorted
echo "[(0,1),(2,3)]" >"$T/two.txt"
expect 0 "$S" gpu batch "$T/two.txt" --arrays 8
out_has "identical: all 8 arrays match"
grep -q "^note: [1-8] of 8 arrays are not sorted (first: array [0-9]*): the network does not sort them" \
    "$T/out" || fail "gpu batch, a network that does not sort: $(cat "$T/out")"
# keys from a file: two arrays of four
printf '4 3 2 1 8 7 6 5\n' >"$T/keys.txt"
expect 0 "$S" gpu batch bitonic:4 --input-file "$T/keys.txt"
out_has "arrays: 2, rows layout"
out_has "i32 keys from $T/keys.txt"
out_has "identical: all 2 arrays match"
# a fault with the payload carried: the mismatch, array and wire named
expect 1 "$S" gpu batch bitonic:4 --arrays 4 --inject-fault 1:2 --payload
out_has "DIFFERENT: first mismatch at array 1, wire 2: expected "
out_has ", with payload"
# gpu batch's keys: duplicates, 0/1 with a seed; its usage errors
expect 0 "$S" gpu batch bitonic:8 --arrays 4 --keys dups
out_has "i32 keys, duplicates (seed 1)"
out_has "identical: all 4 arrays match"
expect 0 "$S" gpu batch bitonic:8 --arrays 4 --keys bits --seed 7
out_has "i32 keys, 0/1 (seed 7)"
expect 2 "$S" gpu batch bitonic:8 --arrays 4 --keys foo
err_has "sortnet: --keys: 'foo' is not random, dups or bits"
expect 2 "$S" gpu batch bitonic:8 --arrays 4 --seed x
err_has "sortnet: --seed: 'x' is not a number"
expect 2 "$S" gpu batch bitonic:8
err_has "--arrays M is required (or --input-file FILE)"
expect 2 "$S" gpu batch bitonic:8 --arrays 4 --binary
err_has "sortnet: --binary: goes with --input-file"
expect 2 "$S" gpu batch bitonic:4 --input-file "$T/keys.txt" --keys dups
err_has "the keys come from the file: drop --keys and --seed"
expect 2 "$S" gpu batch bitonic:8 bitonic:4 --arrays 2
err_has "sortnet: gpu batch: expected one network"
expect 2 "$S" gpu batch bitonic:8 --arrays 2 --layout diag
err_has "sortnet: --layout: 'diag' is not rows or columns"
# gpu bench --variant batch: both layouts with a payload and u32 keys; a
# bad layout or count; a sort with a planted bug (SN_SORT_BUG) is caught
expect 0 "$S" gpu bench --variant batch best:8 --arrays 100 --reps 1 --layout both --payload --type u32
grep -q "^best:8 .* 100 rows " "$T/out" && grep -q "^best:8 .* 100 columns " "$T/out" ||
    fail "gpu bench --layout both: $(cat "$T/out")"
expect 2 "$S" gpu bench --variant batch best:8 --arrays 100 --layout diag
err_has "sortnet: --layout: 'diag' is not rows, columns or both"
expect 2 "$S" gpu bench --variant batch best:8 --arrays 100 --reps 0
err_has "sortnet: --reps: '0' is not a number in 1..1000"
expect 1 env SN_SORT_BUG=radix "$S" gpu bench transposition --sizes 1000 --variants radix --reps 1
err_has "sortnet: gpu bench: radix 1000: the output is wrong"
# gpu sort refuses what would take more than a minute, with an estimate
expect 2 "$S" gpu sort transposition:1000000
err_has "500001 rounds of 2 launches over 1000000 keys, estimated "
err_has "--force runs it"
expect 2 "$S" gpu sort rank:10000000
grep -qE "1e\+14 comparisons, estimated [0-9.]+ (h|days) on this" "$T/err" ||
    fail "gpu sort rank, 10^7 keys: $(cat "$T/err")"

finish cli_cover
