#!/usr/bin/env bash
# host10e9_device.sh - the host side of `gpu verify` at 10^9 keys, on the
# GPU machine (16 cores): run from the repository root, with .dev/debs as
# shared/DEVICE.md describes:
#
#   bench/host10e9_device.sh        # results in $OUT/host10e9 (or /tmp/h10out)
#
# 1. bench_exec at 2^30 int32 keys: the reference executor on all cores,
#    with sweeps and without (every global layer in a pass of its own, as
#    before), bitonic and odd-even merge, one run each (about 2 minutes);
# 2. `gpu verify oddeven-merge-pad:1000000000 --random 1 --variant fused`,
#    wall time, with the phase lines it prints on stderr (making the
#    random input, the copies, the device run, the reference executor
#    during it, the comparison).
# About 4 minutes in all. SMOKE=1 runs the same steps at small sizes (to
# try the script on pocl: SMOKE=1 SN=build/src/cli/sortnet
# bench/host10e9_device.sh --inner).
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != --inner ]; then
    exec bench/device.sh "bash bench/host10e9_device.sh --inner"
fi
O=${OUT:-/tmp/h10out}/host10e9
mkdir -p "$O"
if [ "${SMOKE:-0}" = 1 ]; then
    LOG2N=20 BIG_N=20000000
else
    LOG2N=30 BIG_N=1000000000
fi
log() { echo "== $*" | tee -a "$O/log.txt"; }
nproc | sed 's/^/cores: /' | tee -a "$O/log.txt"

log "1. bench_exec at 2^$LOG2N keys (exec_s: now; nosweep_s: one pass per global layer)"
# device.sh builds without benchmarks: bench_exec in a build of its own,
# the same flags otherwise
B=${SN_BENCH_BUILD:-/tmp/snb_bench}
if timeout 240 cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DSORTNET_WITH_SDL=OFF \
    -DSORTNET_WITH_CAIRO=OFF -DSORTNET_WITH_JANSSON=OFF -DSORTNET_WITH_OPENCL=OFF \
    -DSORTNET_BUILD_TESTS=OFF -DSORTNET_BUILD_BENCH=ON >"$O/build.txt" 2>&1 &&
    timeout 240 cmake --build "$B" -j "$(nproc)" --target bench_exec >>"$O/build.txt" 2>&1; then
    timeout 200 "$B/bench/bench_exec" 1 $LOG2N 2>&1 | tee "$O/bench_exec.txt" | tee -a "$O/log.txt"
    echo "rc=${PIPESTATUS[0]}" | tee -a "$O/log.txt"
else
    log "bench_exec did not build (see $O/build.txt)"
fi

log "2. gpu verify oddeven-merge-pad:$BIG_N --random 1 --variant fused"
s=$(date +%s.%N)
timeout 200 "$SN" gpu verify oddeven-merge-pad:$BIG_N --random 1 --variant fused >"$O/verify.txt" 2>&1
echo "rc=$? wall_s=$(awk "BEGIN{print $(date +%s.%N) - $s}")" >>"$O/verify.txt"
tee -a "$O/log.txt" <"$O/verify.txt"
