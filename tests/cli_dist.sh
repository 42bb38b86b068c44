#!/bin/bash
# cli_dist.sh - `mpirun -np P sortnet dist sort`, end to end with Open
# MPI's mpirun --oversubscribe (registered only when sortnet is built with
# MPI; skips when mpirun is missing). The distributed 0-1 proof is
# cli_dist_check.sh: two tests, so that ctest runs them side by side (each
# is dozens of mpirun jobs). Small N: the machine is shared; no check looks
# at a time.
. "$(dirname "$0")/lib.sh"
dist_session
cd "$T" || exit 1

# --help, usage errors (no mpirun needed: one rank)
expect 0 "$S" dist --help
out_has "merge-split"
expect 0 "$S" dist sort --help
out_has "--inject-fault"
expect 2 "$S" dist
expect 2 "$S" dist shuffle
expect 2 "$S" dist sort
err_has "--keys N or --in FILE"
expect 2 "$S" dist sort --keys 10 --algorithm quick
expect 2 "$S" dist sort --keys 10 --inject-fault 3:1
expect 2 "$S" dist sort --keys 0

# P = 1 without mpirun, and P = 1, 2, 3, 4, 8 with it; N not a multiple of P
expect 0 "$S" dist sort --keys 1000
out_has "identical"
out_has "network empty:1"
for p in 1 2 3 4 8; do
    expect 0 mpi $p dist sort --keys 1001 --seed 7 --json
    [ "$(json 'd["identical"], d["ranks"], d["n"], len(d["bytes_sent"])')" = "True $p 1001 $p" ] ||
        fail "P=$p: $(head -c 300 "$T/out")"
    [ "$p" -gt 1 ] && { [ "$(json 'd["network"]')" = "best:$p" ] || fail "P=$p: auto is not best:$p"; }
    [ "$(json 'd["compared"] and d["multiset_kept"] and d["boundaries_ordered"]')" = True ] ||
        fail "P=$p: a check did not run"
done
# the keys do not depend on P: the same multiset hash for P = 2 and 3
mpi 2 dist sort --keys 777 --seed 3 >"$T/h2" 2>/dev/null
mpi 3 dist sort --keys 777 --seed 3 >"$T/h3" 2>/dev/null
[ "$(grep -o 'hash [0-9a-f]*' "$T/h2")" = "$(grep -o 'hash [0-9a-f]*' "$T/h3")" ] ||
    fail "P=2 and P=3 sorted different keys"
# more ranks than keys: empty blocks
expect 0 mpi 8 dist sort --keys 5 --payload
expect 0 mpi 4 dist sort --keys 3 --algorithm sample

# every key type, with and without payload, both algorithms; other networks
for t in i32 u32 f32; do
    expect 0 mpi 3 dist sort --keys 999 --type $t
    expect 0 mpi 3 dist sort --keys 999 --type $t --payload
    expect 0 mpi 4 dist sort --keys 1003 --type $t --payload --algorithm sample
    out_has "identical"
done
expect 0 mpi 4 dist sort bitonic:4 --keys 1000 --payload
expect 0 mpi 4 dist sort --network oddeven-merge:4 --keys 1000
expect 0 mpi 3 dist sort transposition:3 --keys 1000 --type f32
expect 0 mpi 8 dist sort --keys 4099 --algorithm sample --payload --json
[ "$(json 'd["algorithm"], d["network"], d["identical"]')" = "sample None True" ] ||
    fail "sample sort's JSON: $(head -c 300 "$T/out")"
# the merge-split cut into pieces by merge path (blocks of 2^16 keys and more,
# several threads a rank): the same sort
expect 0 mpi 4 dist sort --keys 300007 --payload --threads 3
expect 0 mpi 2 dist sort --keys 300007 --distinct 5 --threads 4 --type f32
out_has "identical"
expect 2 "$S" dist sort --keys 10 --threads 0
# the local sort on an OpenCL device (pocl in CI) when one is there
if has_gpu; then
    expect 0 mpi_cl 2 dist sort --keys 5001 --local gpu --payload --type f32 --json
    [ "$(json '"radix sort" in d["local_sort"][1] and not d["local_sort"][1].startswith("CPU,")')" = True ] ||
        fail "--local gpu did not sort on the OpenCL device: $(head -c 300 "$T/out")"
    # the slice sorted in place on the device becomes the block, keys left in
    # the ordered form: one rank, blocks padded (N not a multiple of P), sample
    # sort's uneven blocks; signed and float keys, where the ordered form differs
    expect 0 mpi_cl 1 dist sort --keys 3001 --local gpu --type i32 --payload
    out_has "identical"
    expect 0 mpi_cl 3 dist sort --keys 3001 --local gpu --type i32
    out_has "identical"
    expect 0 mpi_cl 3 dist sort --keys 3001 --local gpu --type f32 --algorithm sample --payload
    out_has "identical"
    # the slice in the device's pinned memory (SN_DIST_PINNED=1: the copies
    # by DMA, no staging); in ordinary memory (the default) through tiny
    # staging chunks; larger than one device sort (SN_GPU_SORT_RUN): runs
    # merged on the GPU (pinned: every copy by DMA, the merged block read
    # straight into the slice), or on the rank's cores (SN_GPU_STAGE_MERGE=0)
    # in the block's buffers, with the payload's in the merge-split's (an
    # odd number of passes: the runs go to the ordinary scratch through the
    # staging)
    SN_DIST_PINNED=1 expect 0 mpi_cl 2 dist sort --keys 5001 --local gpu --type i32 --payload
    out_has "on the GPU (the slice in pinned memory): upload "
    out_has "identical"
    SN_GPU_STAGE_CHUNK=64 expect 0 mpi_cl 2 dist sort --keys 5001 --local gpu --type i32 --payload
    out_has "on the GPU (through pinned staging): upload "
    out_has "identical"
    SN_DIST_PINNED=1 SN_GPU_STAGE_CHUNK=64 SN_GPU_SORT_RUN=700 expect 0 mpi_cl 2 dist sort \
        --keys 5001 --local gpu --type u32 --payload --distinct 50
    out_has "(the slice in pinned memory)"
    out_has "device merge"
    out_has "(4 runs)"
    out_has "identical"
    SN_GPU_STAGE_MERGE=0 SN_DIST_PINNED=1 SN_GPU_STAGE_CHUNK=64 SN_GPU_SORT_RUN=1300 expect 0 \
        mpi_cl 2 dist sort --keys 5001 --local gpu --type f32 --distinct 50
    out_has "(through pinned staging)"
    out_has "(2 runs)"
    out_has "identical"
    # runs merged on the rank's GPU (the default where they fit) or on its
    # cores (SN_GPU_STAGE_MERGE=0)
    for m in 1 0; do
        SN_GPU_STAGE_MERGE=$m SN_GPU_STAGE_CHUNK=64 SN_GPU_SORT_RUN=700 expect 0 mpi_cl 2 dist sort \
            --keys 5001 --local gpu --type f32 --payload --distinct 50
        out_has "on the GPU (through pinned staging): upload "
        out_has "$([ $m = 1 ] && echo device || echo host) merge"
        out_has "(4 runs)"
        out_has "identical"
    done
    SN_GPU_STAGE_CHUNK=64 SN_GPU_SORT_RUN=1000 expect 0 mpi_cl 3 dist sort --keys 9001 --local gpu \
        --type i32 --algorithm sample --payload
    out_has "identical"
    SN_GPU_SORT_RUN=300 expect 0 mpi_cl 2 dist sort --keys 3001 --local gpu --type u32 --json
    [ "$(json 'd["identical"] and d["compared"]')" = True ] || fail "runs, u32: $(head -c 300 "$T/out")"
    # a rank's copy team set by SN_GPU_STAGE_THREADS (before the rank's share
    # of the cores): 3 members a rank meeting without barriers, 2 slots,
    # chunks of an odd size, f32 with payload
    SN_GPU_STAGE_CHUNK=10007 SN_GPU_STAGE_THREADS=3 SN_GPU_STAGE_SLOTS=2 expect 0 mpi_cl 2 dist sort \
        --keys 1100003 --local gpu --type f32 --payload --threads 1
    out_has "on the GPU (through pinned staging): upload "
    out_has "identical"
    # a rank that dies after its local sort through the staging: every rank
    # ends, the rank named, no output and no temporary left
    SN_GPU_STAGE_CHUNK=64 SN_DIST_DIE=1 mpi_cl 2 dist sort --keys 5001 --local gpu --payload \
        --out died.bin --timeout 60 >"$T/out" 2>"$T/err"
    rc=$?
    { [ $rc -ne 0 ] && [ $rc -ne 124 ]; } || fail "a killed rank (GPU local sort): exit $rc"
    grep -q "rank 1" "$T/err" || fail "a killed rank (GPU) is not named: $(head -c 400 "$T/err")"
    ! ls died.bin* >/dev/null 2>&1 || fail "a killed rank (GPU) left output: $(ls died.bin*)"
fi
# the CPU sorts the slice straight into the block (ordered form), payload in place
expect 0 mpi 1 dist sort --keys 3001 --local cpu --type f32 --payload
out_has "identical"
expect 0 mpi 2 dist sort --keys 5001 --local cpu --json
[ "$(json 'd["local_sort"][0].startswith("CPU, ")')" = True ] || fail "--local cpu: $(head -c 300 "$T/out")"
# duplicates-heavy keys (3 values): stable with the payload, both algorithms
for a in network sample; do
    expect 0 mpi 4 dist sort --keys 2001 --distinct 3 --payload --algorithm $a
    expect 0 mpi 3 dist sort --keys 2001 --distinct 1 --type f32 --algorithm $a
done

# a merge-split moves only the keys that cross (merge path): sorted input
# sends none (every key equal; with --payload the global index keeps it
# sorted across ranks; N a multiple of P, so no padding sentinel has to
# move), random input about half a block, never the whole
# block the old exchange sent (c keys, 4 bytes each, 8 with the payload)
expect 0 mpi 2 dist sort --keys 4000 --distinct 1 --json
[ "$(json 'd["bytes_sent"], d["identical"]')" = "[0, 0] True" ] ||
    fail "sorted input sent keys: $(head -c 300 "$T/out")"
expect 0 mpi 3 dist sort --keys 3000 --distinct 1 --payload --type f32 --json
[ "$(json 'd["bytes_sent"], d["identical"]')" = "[0, 0, 0] True" ] ||
    fail "sorted input with payload sent keys: $(head -c 300 "$T/out")"
expect 0 mpi 2 dist sort --keys 100000 --json
[ "$(json 'all(50000 <= b <= 150000 for b in d["bytes_sent"]) and d["identical"]')" = True ] ||
    fail "random keys: not about half of a 50000-key block sent: $(head -c 300 "$T/out")"
expect 0 mpi 3 dist sort --keys 90001 --payload --json
[ "$(json 'all(0 < b < 30001 * 8 for b in d["bytes_sent"]) and d["identical"]')" = True ] ||
    fail "random keys with payload: a whole block sent: $(head -c 300 "$T/out")"
# the exchange in chunks (SN_DIST_CHUNK keys a message: many, a short last
# one) and the split search over several probe rounds: the same sort
SN_DIST_CHUNK=7 expect 0 mpi 3 dist sort --keys 30011 --payload --type f32 --distinct 40 --json
[ "$(json 'd["identical"] and d["compared"] and min(d["bytes_sent"]) > 7 * 8')" = True ] ||
    fail "chunked exchange: $(head -c 300 "$T/out")"
SN_DIST_CHUNK=5 expect 0 mpi 4 dist sort bitonic:4 --keys 20003 --threads 2
out_has "identical"
# sample sort's all-to-all in pieces of SN_DIST_CHUNK keys too (pairwise
# rounds, many pieces a bucket, uneven buckets), its P runs
# merged by merge path over the rank's threads: P = 3 and 4, payload, f32
for p in 3 4; do
    SN_DIST_CHUNK=37 expect 0 mpi $p dist sort --keys 10007 --algorithm sample --payload --type f32 \
        --distinct 40 --threads 2
    out_has "identical"
done
SN_DIST_CHUNK=1000 expect 0 mpi 3 dist sort --keys 300007 --algorithm sample --type i32 --threads 2
out_has "identical"

# file in and out (MPI-IO): raw little-endian keys, the sorted file renamed in
python3 -c "
import struct, random
random.seed(5)
k = [random.randint(-50, 50) for _ in range(1234)]
open('in.bin', 'wb').write(struct.pack('<%di' % len(k), *k))
open('want.bin', 'wb').write(struct.pack('<%di' % len(k), *sorted(k)))
u = [random.randint(0, 2**32 - 1) for _ in range(777)]
open('inu.bin', 'wb').write(struct.pack('<%dI' % len(u), *u))
open('wantu.bin', 'wb').write(struct.pack('<%dI' % len(u), *sorted(u)))"
for a in network sample; do
    rm -f out.bin
    expect 0 mpi 3 dist sort --in in.bin --out out.bin --algorithm $a --payload
    cmp -s out.bin want.bin || fail "--out with $a is not the sorted input"
done
expect 0 mpi 4 dist sort --in inu.bin --out outu.bin --type u32 --json
cmp -s outu.bin wantu.bin || fail "--out u32 is not the sorted input"
[ "$(json 'd["n"]')" = 777 ] || fail "--in: N is not the file's key count"
ls "$T" | grep -q 'tmp' && fail "a temporary output file was left: $(ls "$T")"
# f32 with -0.0, +0.0, NaNs of both signs and infinities, P not a power of
# two, payload: what crosses is cut in the ordered form, the same as the
# reference sort (compared) and the sorted file the same bytes
python3 -c "
import random, struct
random.seed(11)
w = [0x80000000, 0, 0x7FC00001, 0xFFC00000, 0x7F800000, 0xFF800000, 0x3FC00000, 0xBFC00000]
k = [random.choice(w) for _ in range(4099)]
open('f32sp.bin', 'wb').write(struct.pack('<%dI' % len(k), *k))"
for p in 3 5; do
    expect 0 mpi $p dist sort --in f32sp.bin --type f32 --payload --out f32sp_out.bin --json
    [ "$(json 'd["identical"] and d["compared"] and sum(d["bytes_sent"]) > 0')" = True ] ||
        fail "f32 specials on $p ranks: $(head -c 300 "$T/out")"
done
expect 0 mpi 3 dist sort --in wantu.bin --type u32 --json
[ "$(json 'd["bytes_sent"]')" = "[0, 0, 0]" ] || fail "a sorted file sent keys: $(head -c 300 "$T/out")"

# an output that is a device is written in place: /dev/null stays a device
# (a temporary renamed over it made it a regular file, as root)
expect 0 mpi 2 dist sort --in inu.bin --out /dev/null --type u32
[ -c /dev/null ] || fail "--out /dev/null: /dev/null is no longer a character device"
ls /dev | grep -q '^null\.tmp' && fail "--out /dev/null: a temporary was left in /dev"
# bad files: missing, not whole keys, empty; an output that cannot be written
expect 2 mpi 2 dist sort --in nosuch.bin
err_has "cannot read nosuch.bin"
head -c 10 in.bin >odd.bin
expect 2 mpi 2 dist sort --in odd.bin
err_has "not a whole number of 4-byte keys"
: >empty.bin
expect 2 mpi 2 dist sort --in empty.bin
err_has "no keys"
expect 2 mpi 2 dist sort --keys 100 --out nodir/out.bin
err_has "cannot write"
[ -e nodir/out.bin ] && fail "an output appeared in a missing folder"
expect 2 "$S" dist sort --in in.bin --keys 5

# a network whose n is not P; a broken network file (the verification says so)
expect 2 mpi 3 dist sort best:4 --keys 100
err_has "the network has 4 wires but the job has 3 ranks"
printf '[(0,1),(2,3)]\n[(1,2)]\n' >broken4.txt
expect 1 mpi 4 dist sort broken4.txt --keys 1000 --out never.bin
out_has "first broken boundary: rank"
out_has "NOT identical"
[ -e never.bin ] && fail "an unverified sort wrote its output"
expect 1 mpi 4 dist sort broken4.txt --keys 1000 --json
[ "$(json 'd["identical"], d["boundaries_ordered"], d["first_broken_boundary"] is not None')" = "False False True" ] ||
    fail "broken network's JSON: $(head -c 300 "$T/out")"

# an injected fault is caught (network and sample sort)
expect 1 mpi 3 dist sort --keys 1000 --inject-fault 1:5
out_has "multiset CHANGED"
out_has "first mismatch with the reference"
expect 1 mpi 4 dist sort --keys 1000 --algorithm sample --inject-fault 3:0 --json
[ "$(json 'd["identical"], d["multiset_kept"], d["first_mismatch"] is not None')" = "False False True" ] ||
    fail "fault's JSON: $(head -c 300 "$T/out")"
expect 2 mpi 2 dist sort --keys 10 --inject-fault 1:99
err_has "no index 99"

# too little memory for a slice: a clear message, exit 5; the memory a rank
# needs is said first; more than the host has is refused before any work,
# naming the limit (blocks past the old 2^30 keys are no longer refused as
# such: the network sort's MPI calls go in pieces)
expect 5 mpi 2 --max-memory 1K dist sort --keys 100000
err_has "too little memory"
out_has "memory: about "
out_has "--max-memory allows"
expect 5 mpi 2 dist sort --keys 2^40
err_has "too little memory: the 2 rank(s) on this host need about 8192.0 GiB each"
err_has "GiB it has available"
out_has "memory: about 8192.00 GiB a rank for 1099511627776 keys on 2 rank(s)"
expect 5 "$S" dist sort --keys 2^34 --local gpu
err_has "too little memory: the 1 rank(s) on this host need about 192.1 GiB each"
# sample sort past 2^30 keys a rank: no longer refused for its MPI counts,
# only for the memory it would need
expect 5 mpi 2 dist sort --keys 2^34 --algorithm sample
err_has "too little memory: the 2 rank(s) on this host need about 160.0 GiB each"

# a rank that dies: the job ends (mpirun's message, rank 0's line), non-zero
SN_DIST_DIE=1 mpi 3 dist sort --keys 1000 --timeout 60 >"$T/out" 2>"$T/err"
rc=$?
{ [ $rc -ne 0 ] && [ $rc -ne 124 ]; } || fail "a killed rank: exit $rc"
grep -q "rank 1" "$T/err" || fail "a killed rank is not named: $(head -c 400 "$T/err")"
# a rank that is stuck: --timeout ends the job with rank 0's message, exit 5
SN_DIST_DIE=2:stall mpi 3 dist sort --keys 1000 --timeout 2 >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 5 ] || fail "a stuck rank with --timeout: exit $rc"
err_has "--timeout reached"

finish cli_dist
