#!/bin/bash
# cli_dist.sh - `mpirun -np P sortnet dist sort` and the distributed 0-1
# proof (`mpirun -np P sortnet check NET --method bruteforce`), end to end
# with Open MPI's mpirun --oversubscribe (registered only when sortnet is
# built with MPI; skips when mpirun is missing). Small N: the machine is
# shared; no check looks at a time.
. "$(dirname "$0")/lib.sh"
command -v mpirun >/dev/null || { echo "SKIP: no mpirun (openmpi-bin)" >&2; exit 77; }
require_part "MPI (sortnet dist)"
command -v python3 >/dev/null || { echo "SKIP: python3 needed to read JSON" >&2; exit 77; }
mpi_env
# P ranks; `timeout` so that no check can hang the suite
mpi() { local p=$1; shift; timeout 120 mpirun --oversubscribe -np "$p" "$S" "$@"; }
# ranks that run pocl: under ASan, LeakSanitizer's exit-time scan of pocl's
# and Open MPI's threads has crashed in its own tracer ("Tracer caught signal
# 11 ... LeakSanitizer has encountered a fatal error") on a loaded machine,
# failing a run whose memory was fine; these rows keep ASan's other checks
# and leave the leak scan to the one-process GPU tests
mpi_cl() { ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" mpi "$@"; }
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

# too little memory for a slice: a clear message, exit 5
expect 5 mpi 2 --max-memory 1K dist sort --keys 100000
err_has "too little memory"

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

# the distributed proof: same verdict, counterexample and exit code as one process
printf '[(0,1),(2,3),(4,5)]\n[(0,2),(1,3)]\n[(1,2),(3,4)]\n' >nosort6.txt
for net in best:12 oddeven-merge:10 nosort6.txt; do
    "$S" check $net --method bruteforce >"$T/one"
    want=$?
    for p in 2 3; do
        mpi $p check $net --method bruteforce >"$T/many" 2>/dev/null
        got=$?
        [ $got = $want ] || fail "check $net on $p ranks exited $got, one process $want"
        grep -q "checked on: $p MPI ranks" "$T/many" || fail "check $net: not split over $p ranks"
        diff <(grep -v 'checked on\|proved by\|brute force over' "$T/one") \
            <(grep -v 'checked on\|proved by\|brute force over' "$T/many") >/dev/null ||
            fail "check $net on $p ranks differs: $(cat "$T/many")"
    done
done
expect 1 mpi 2 check nosort6.txt --method bruteforce --json
[ "$(json 'd["sorts"], "".join(map(str, d["counterexample"]))')" = "False 100000" ] ||
    fail "distributed check's JSON: $(head -c 300 "$T/out")"

# one rank under mpirun: nothing to split, the check runs as without mpirun
expect 0 mpi 1 check best:6 --method bruteforce
out_has "sorts"
grep -q "checked on" "$T/out" && fail "mpirun -np 1: the check said it was split"
[ -s "$T/err" ] && fail "mpirun -np 1 check: $(head -c 300 "$T/err")"

# a check that is not split (the default method, a median) under mpirun:
# one verdict from rank 0, the others silent, and rank 0 says why
for args in "best:8" "nosort6.txt" "median:9" "best:6 --select 2"; do
    "$S" check $args >"$T/one" 2>/dev/null
    want=$?
    expect $want mpi 2 check $args
    [ "$(grep -c '^' "$T/out")" = "$(grep -c '^' "$T/one")" ] ||
        fail "check $args on 2 ranks printed $(grep -c '^' "$T/out") lines, one process $(grep -c '^' "$T/one")"
    [ "$(grep -c 'each of the 2 ranks checks alone' "$T/err")" = 1 ] ||
        fail "check $args on 2 ranks: rank 0's note: $(head -c 300 "$T/err")"
done

# the distributed proof on the ranks' OpenCL devices (pocl here: one CPU
# device the ranks share): the same verdict, counts, counterexample and
# redundant comparators as one process; nosort6 and the 3-wire network
# have fewer than 64 inputs a rank (some ranks' ranges are empty), the
# 4-wire one a redundant comparator
if has_gpu; then
    printf '[(0,1)]\n[(1,2)]\n' >nosort3.txt
    printf '[(0,1),(2,3)]\n[(0,2),(1,3)]\n[(1,2)]\n[(0,3)]\n' >redund4.txt
    for net in best:12 oddeven-merge:10 nosort6.txt nosort3.txt redund4.txt; do
        "$S" check $net --method bruteforce >"$T/one"
        want=$?
        for p in 2 3; do
            mpi_cl $p check $net --method bruteforce --device opencl >"$T/many" 2>"$T/err"
            got=$?
            [ $got = $want ] || fail "check $net --device on $p ranks exited $got, one process $want: $(head -c 300 "$T/err")"
            grep -q "checked on: $p MPI ranks, each its range of the 0-1 inputs on .*(every rank)" "$T/many" ||
                fail "check $net --device: not split over $p ranks' devices: $(cat "$T/many")"
            diff <(grep -v 'checked on\|proved by\|brute force over' "$T/one") \
                <(grep -v 'checked on\|proved by\|brute force over' "$T/many") >/dev/null ||
                fail "check $net --device on $p ranks differs: $(cat "$T/many")"
        done
    done
    # with --device the method may be left out (the device runs the brute force)
    expect 1 mpi_cl 2 check nosort6.txt --device opencl
    out_has "checked on: 2 MPI ranks"
    # the JSON: failing count and counterexample reduced over 3 ranks
    "$S" check oddeven-merge:10 --method bruteforce --json >"$T/out"
    want=$(json 'd["sorts"], d["counterexample"], d["redundant"]')
    expect 1 mpi_cl 3 check nosort6.txt --method bruteforce --device opencl --json
    [ "$(json 'd["sorts"], "".join(map(str, d["counterexample"]))')" = "False 100000" ] ||
        fail "distributed device check's JSON: $(head -c 300 "$T/out")"
    expect 0 mpi_cl 3 check oddeven-merge:10 --method bruteforce --device opencl:0:0 --json
    [ "$(json 'd["sorts"], d["counterexample"], d["redundant"]')" = "$want" ] ||
        fail "distributed device check on opencl:0:0: $(head -c 300 "$T/out")"
else
    echo "note: no OpenCL platform: the distributed proof on devices is not tested here" >&2
fi

finish cli_dist
