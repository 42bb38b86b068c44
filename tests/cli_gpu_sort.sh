#!/usr/bin/env bash
# cli_gpu_sort.sh - end-to-end tests of `sortnet gpu sort` through the real
# binary: every algorithm verified (text and the JSON shape of the issue),
# payload and key types, n = 0 and 1, the special inputs, early exit's
# rounds, a planted bug reported as a mismatch (exit 1), bad usage (exit 2),
# no OpenCL platform (exit 3). Skips (77) only when sortnet is built
# without OpenCL or no OpenCL platform exists (lib.sh require_gpu).
. "$(dirname "$0")/lib.sh"

require_part OpenCL
mkdir -p "$T/novendors"
expect 3 env OCL_ICD_VENDORS="$T/novendors" "$S" gpu sort radix:100
err_has "no OpenCL platform"
require_gpu

expect 0 "$S" gpu sort --help
out_has "transposition-local"
out_has "--nearly-sorted"
expect 0 "$S" gpu --help
out_has "gpu sort ALGO:N"
expect 2 "$S" gpu sort
expect 2 "$S" gpu sort quick:10
err_has "'quick' is not a sort"
expect 2 "$S" gpu sort radix
err_has "ALGO:N"
expect 2 "$S" gpu sort radix:2^32
expect 2 "$S" gpu sort radix:10 --digit-bits 6
expect 2 "$S" gpu sort merge:10 --digit-bits 4
err_has "only with radix"
expect 2 "$S" gpu sort merge:10 --full-rounds
expect 2 "$S" gpu sort merge:10 --bogus
err_has "sortnet: gpu sort: unknown option '--bogus' (see --help)"
expect 2 "$S" gpu sort merge:10 --reps
err_has "option '--reps' needs a value"
expect 2 "$S" gpu sort merge:10 --device x
err_has "'x' is not a device"
expect 2 "$S" gpu sort rank:2^21
err_has "--force"
err_has "comparisons, estimated"
# an O(n^2) sort is estimated before it starts and refused past the limit
# with the estimate; rounds come from how far keys must travel, so a sorted
# input of the same size runs
expect 2 "$S" gpu sort transposition:1000000
err_has "sortnet: gpu sort: transposition on 1000000 keys: 500001 rounds of 2 launches"
err_has "estimated"
err_has "--force runs it, with progress on stderr"
expect 0 "$S" gpu sort transposition:1000000 --sorted --json
[ "$(json 'd["identical"], d["rounds"]')" = "True 1" ] || fail "sorted 10^6: $(cat "$T/out")"
expect 2 "$S" gpu sort merge:10 --nearly-sorted 1 --reverse
expect 2 "$S" gpu sort merge:10 --nearly-sorted x
expect 2 "$S" gpu sort merge:3 --input 1,2
err_has "expected 3 values"

# the whole matrix is tests/test_sorts.c; here each algorithm once per
# kind of input through the binary (key types rotate)
types=(i32 u32 f32)
i=0
for a in transposition transposition-local rank rank-global merge radix hybrid; do
    t=${types[$((i % 3))]}
    i=$((i + 1))
    expect 0 "$S" gpu sort $a:777 --type $t --payload --random 5 --json
    [ "$(json 'd["identical"], d["algorithm"], d["n"], d["first_mismatch"]')" = "True $a 777 None" ] ||
        fail "$a $t: $(cat "$T/out")"
    expect 0 "$S" gpu sort $a:7 --input -3,5,-3,0,5,5,-3 --payload
    out_has identical
done
expect 0 "$S" gpu sort merge:0
out_has identical
expect 0 "$S" gpu sort radix:1 --type f32 --payload
out_has identical
expect 0 "$S" gpu sort radix:5000 --digit-bits 4 --type f32 --input "$(python3 -c 'import random; r=random.Random(1); print(",".join(r.choice(["nan","-nan","inf","-inf","-0","0","1.5","-2"]) for _ in range(5000)))')" --payload
out_has "4-bit digits"
out_has identical

# keys from a file: ALGO alone takes n from it, ALGO:N must match it;
# --output writes the verified keys (text or raw)
printf '5 -1 3\n# two more\n-1 0\n' >"$T/keys.txt"
expect 0 "$S" gpu sort merge --input-file "$T/keys.txt" --payload --json
[ "$(json 'd["n"], d["identical"]')" = "5 True" ] || fail "merge from a file: $(cat "$T/out")"
expect 0 "$S" gpu sort radix:5 --input-file "$T/keys.txt" --output "$T/sorted.txt"
[ "$(tr '\n' ' ' <"$T/sorted.txt")" = "-1 -1 0 3 5 " ] || fail "--output: $(cat "$T/sorted.txt")"
expect 0 "$S" gpu sort merge --input "3 1 2 2" --json
[ "$(json 'd["n"], d["identical"]')" = "4 True" ] || fail "merge from --input: $(cat "$T/out")"
expect 2 "$S" gpu sort radix:6 --input-file "$T/keys.txt"
err_has "5 keys, but radix:6 asks for 6"
expect 0 "$S" gpu sort hybrid:2^12 --random 4 --type f32 --output "$T/sorted.bin" --binary
[ "$(stat -c %s "$T/sorted.bin")" = 16384 ] || fail "--binary output size"
expect 0 "$S" gpu sort radix --input-file "$T/sorted.bin" --binary --type f32 --json
[ "$(json 'd["n"], d["identical"], d["merge"]')" = "4096 True None" ] || fail "binary round trip: $(cat "$T/out")"
# a wrong device output is never written
expect 1 env SN_SORT_BUG=all "$S" gpu sort radix:3000 --random 2 --output "$T/bad.txt"
[ ! -e "$T/bad.txt" ] || fail "a differing output was written"
err_has "not written"

# early exit: a sorted input stops after one round; 1% out of place near
# their place takes far fewer rounds than the n/2 of the network
expect 0 "$S" gpu sort transposition:3000 --sorted --json
[ "$(json 'd["rounds"]')" = 1 ] || fail "sorted: $(cat "$T/out")"
expect 0 "$S" gpu sort transposition:20000 --nearly-sorted 1,20 --json
r=$(json 'd["rounds"]')
[ "$r" -gt 1 ] && [ "$r" -lt 100 ] || fail "nearly sorted: $r rounds"
expect 0 "$S" gpu sort transposition:3000 --full-rounds --reverse
out_has "rounds: 1500 "
out_has identical

# host to host through the pinned staging (docs/gpu-sorts.md): chunks made
# tiny (SN_GPU_STAGE_CHUNK keys, rounded up to the device's alignment) so a
# few thousand keys cross several chunks and a short last one, the first
# pass (the ordered map, onesweep's histograms) on each chunk as it
# arrives; every key type, payload, odd sizes; 0: no staging
for t in i32 u32 f32; do
    expect 0 env SN_GPU_STAGE_CHUNK=64 "$S" gpu sort radix:30011 --type $t --payload --random 9
    out_has identical
    out_has "host to host: upload "
    expect 0 env SN_GPU_STAGE_CHUNK=64 SN_RADIX_ONESWEEP=1 "$S" gpu sort radix:20001 --type $t --random 8
    out_has identical
done
# a team of copy threads (one a 2^18 keys at most: 600000 keys take 2 or
# more), each its piece of every chunk
expect 0 env SN_GPU_STAGE_CHUNK=5000 SN_GPU_STAGE_THREADS=3 "$S" gpu sort radix:600001 --type i32 --payload --random 5
out_has identical
# the slots the copies rotate through (SN_GPU_STAGE_SLOTS, 2 to 8): fewer and
# more than the chunks' count, the team meeting without barriers (3 and 4
# members, a short last chunk of an odd size), f32 with payload
expect 0 env SN_GPU_STAGE_CHUNK=4099 SN_GPU_STAGE_THREADS=3 SN_GPU_STAGE_SLOTS=2 "$S" gpu sort radix:600007 --type f32 --payload --random 11
out_has identical
expect 0 env SN_GPU_STAGE_CHUNK=100003 SN_GPU_STAGE_THREADS=4 SN_GPU_STAGE_SLOTS=8 "$S" gpu sort radix:800011 --type u32 --random 12
out_has identical
expect 2 env SN_GPU_STAGE_SLOTS=1 "$S" gpu sort radix:100
err_has "SN_GPU_STAGE_SLOTS='1' is not a whole number from 2 to 8"
expect 0 env SN_GPU_STAGE_CHUNK=100 "$S" gpu sort merge:9999 --type f32 --payload --random 3
out_has identical
expect 0 env SN_GPU_STAGE_CHUNK=100 SN_RADIX_ONESWEEP=1 "$S" gpu sort radix:5000 --digit-bits 4 --type f32 --payload --input "$(python3 -c 'import random; r=random.Random(2); print(",".join(r.choice(["nan","-nan","inf","-inf","-0","0","1.5","-2"]) for _ in range(5000)))')"
out_has identical
expect 0 env SN_GPU_STAGE_CHUNK=0 "$S" gpu sort radix:7001 --type i32 --payload --random 4
out_has identical
expect 2 env SN_GPU_STAGE_CHUNK=x "$S" gpu sort radix:100
err_has "SN_GPU_STAGE_CHUNK='x' is not a whole number from 0 to 1073741824"
expect 2 env SN_GPU_STAGE_THREADS=0 "$S" gpu sort radix:100
err_has "SN_GPU_STAGE_THREADS"
expect 2 env SN_GPU_SORT_RUN=-1 "$S" gpu sort radix:100
err_has "SN_GPU_SORT_RUN"
# a block larger than one device sort: runs (SN_GPU_SORT_RUN keys) merged on
# the device where they fit (kernels/merge_runs.cl), on the host with
# SN_GPU_STAGE_MERGE=0; stable (payload, 7 distinct keys), an odd and an
# even number of merge passes, a short last run
expect 0 env SN_GPU_SORT_RUN=1000 SN_GPU_STAGE_CHUNK=300 "$S" gpu sort radix:7777 --type f32 --payload --random 6 --json
[ "$(json 'd["identical"], d["runs"], d["merge"]["on"]')" = "True 8 device" ] || fail "runs: $(cat "$T/out")"
dups=$(python3 -c 'import random; r=random.Random(4); print(",".join(str(r.randint(-3, 3)) for _ in range(3000)))')
for m in 1 0; do
    expect 0 env SN_GPU_STAGE_MERGE=$m SN_GPU_SORT_RUN=999 "$S" gpu sort merge:3000 --type i32 --payload --input "$dups"
    out_has "$([ $m = 1 ] && echo device || echo host) merge of 4 runs"
    out_has identical
    expect 0 env SN_GPU_STAGE_MERGE=$m SN_GPU_SORT_RUN=2000 "$S" gpu sort radix:5000 --type u32 --random 1
    out_has "$([ $m = 1 ] && echo device || echo host) merge of 3 runs"
    out_has identical
    expect 0 env SN_GPU_STAGE_MERGE=$m SN_GPU_SORT_RUN=2000 "$S" gpu sort radix:5000 --type u32 --random 1 --json
    [ "$(json 'd["merge"]["on"], d["identical"]')" = "$([ $m = 1 ] && echo device || echo host) True" ] ||
        fail "merge in JSON: $(cat "$T/out")"
done
# the device's merge: 5 runs (3 passes, the last pass's pair short),
# pieces of a pair both inside one run and across the two, f32 with payload
# through tiny staging chunks and 2 slots
expect 0 env SN_GPU_SORT_RUN=20011 SN_GPU_STAGE_CHUNK=777 SN_GPU_STAGE_SLOTS=2 "$S" gpu sort radix:90001 --type f32 --payload --random 13
out_has "device merge of 5 runs"
out_has identical
expect 2 env SN_GPU_STAGE_MERGE=2 "$S" gpu sort radix:100
err_has "SN_GPU_STAGE_MERGE='2' is not a whole number from 0 to 1"

# the sorts' tuning knobs (docs/gpu-speed.md): other tile and chunk sizes
# than the defaults pocl builds (NVIDIA's keys-only merge tiles of 32 keys a
# work-item, the PG-ary partition search) still sort; a bad value is named
expect 0 env SN_MERGE_TILE_E=32 "$S" gpu sort merge:70001 --random 2
out_has identical
expect 0 env SN_MERGE_E=8 SN_MERGE_TILE_E=4 SN_MERGE_PG=4 "$S" gpu sort merge:70001 --random 2
out_has identical
expect 0 env SN_MERGE_E=8 SN_MERGE_PG=32 "$S" gpu sort hybrid:70001 --random 2 --payload
out_has identical
expect 2 env SN_MERGE_TILE_E=3 "$S" gpu sort merge:100
err_has "SN_MERGE_TILE_E=3 is not a power of two"
expect 2 env SN_RADIX_E=0 "$S" gpu sort radix:100
err_has "SN_RADIX_E"

# a planted bug (test-only switch; "all": the build test_sorts made, so pocl
# has it cached) must be reported as a mismatch, exit 1
expect 1 env SN_SORT_BUG=all "$S" gpu sort radix:3000 --random 2
out_has "differs: first at index"
expect 1 env SN_SORT_BUG=all "$S" gpu sort merge:3000 --random 2 --json
[ "$(json 'd["identical"], d["first_mismatch"] is not None')" = "False True" ] ||
    fail "planted merge bug: $(cat "$T/out")"
# gpu bench: the sorts as variants beside the networks', same CSV columns
expect 0 "$S" gpu bench transposition --sizes 1000 --variants closed,radix,merge --reps 1 \
    --csv "$T/b.csv"
grep -q '^[^,]*,sort,radix,1000,' "$T/b.csv" || fail "no radix row: $(cat "$T/b.csv")"
grep -q '^[^,]*,sort,merge,1000,' "$T/b.csv" || fail "no merge row"
grep -q '^[^,]*,transposition,closed,1000,' "$T/b.csv" || fail "no closed row"
grep -q ',naive,' "$T/b.csv" && fail "naive ran though not asked for"
expect 2 "$S" gpu bench --variants fused,quick
err_has "'quick' is not a variant"
finish cli_gpu_sort
