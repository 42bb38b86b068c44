#!/bin/bash
# cli_dist_check.sh - the distributed 0-1 proof (`mpirun -np P sortnet check
# NET --method bruteforce`, on the CPU and on the ranks' OpenCL devices),
# end to end: the same verdict, counterexample and exit code as one
# process. Registered only when sortnet is built with MPI (as cli_dist.sh,
# the distributed sort); skips when mpirun is missing.
. "$(dirname "$0")/lib.sh"
dist_session
cd "$T" || exit 1

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

finish cli_dist_check
