#!/usr/bin/env bash
# dist_local_device.sh - a rank's GPU local sort through the staging
# against the pinned PCIe floor, the build before a change against the
# build after it, in one run on the two-GPU kind of the lent machines
# (2 NVIDIA GPUs, Open MPI, torch):
#
#   1. the floors (bench/pcie_floor.py, torch): pinned host<->device on one
#      GPU at the one-GPU sort's bytes and on both GPUs at once at a rank's
#      block, pageable, one core's and every core's memcpy;
#   2. `gpu sort radix:GPU_N` host to host (u32), before and after;
#   3. `dist sort --keys 2^DIST_LOG --local gpu` on 2 ranks, before and
#      after, REPS times each and interleaved (the host's copy rate
#      drifts), then the after build's staging swept by its knobs: chunk
#      keys and slots (CHUNK_SLOTS="KEYS:SLOTS ...": SN_GPU_STAGE_CHUNK,
#      SN_GPU_STAGE_SLOTS) and copy threads a rank (THREADS:
#      SN_GPU_STAGE_THREADS); then 2^CAP_LOG keys (default 34, 64 GiB: a
#      rank's slice is 4 runs of one GPU sort), before (the runs merged on
#      the rank's cores) and after (merged on its GPU); CAP_LOG= skips it
#      (and CHUNK_SLOTS= THREADS= the knobs);
#   4. MPI_Sendrecv of the bytes the layer sent;
#   then bench/pcie_floor_table.py's table: each phase as a multiple of its
#   floor of this run, and each run's total.
#
# From the after build's source folder, with the before build's source in
# OLD_SRC (or its binary in OLD_BIN) and the OpenCL .debs in DEBS (default
# .dev/debs); results in $OUT/dist_local_all.txt:
#
#   OLD_SRC=/path/to/main DEBS=/path/to/main/.dev/debs bench/dist_local_device.sh
#
# Dry run elsewhere (pocl, no torch): OLD_BIN=... NEW_BIN=build/src/cli/sortnet
# GPU_N=2000000 DIST_LOG=20 REPS=1 CHUNK_SLOTS="65536:3" THREADS=1 CAP_LOG=22 \
# SN_GPU_SORT_RUN=1000000 bench/dist_local_device.sh
set -uo pipefail
cd "$(dirname "$0")/.."
O=/tmp/dld_out
rm -rf "$O"
mkdir -p "$O" "${OUT:-/tmp/dld}"
. bench/device_env.sh # the OpenCL loader, mpirun as root, MPIRUN, MPICC
GPU_N=${GPU_N:-1000000000}
DIST_LOG=${DIST_LOG:-30}
build() { # SRC DIR: the sortnet binary of SRC, built in DIR
    cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DSORTNET_WITH_SDL=OFF \
        -DSORTNET_WITH_CAIRO=OFF -DSORTNET_BUILD_BENCH=OFF -DSORTNET_BUILD_TESTS=OFF \
        -DSORTNET_WITH_MPI=ON -DMPI_C_COMPILER="$MPICC" >"$O/build_$(basename "$2").txt" 2>&1 &&
        cmake --build "$2" -j "$(($(nproc) / 2))" --target sortnet >>"$O/build_$(basename "$2").txt" 2>&1
}
NEW=${NEW_BIN:-}
OLD=${OLD_BIN:-}
pids=()
[ -z "$NEW" ] && { build . /tmp/dld_new & pids+=($!); }
[ -z "$OLD" ] && { build "${OLD_SRC:?OLD_SRC or OLD_BIN}" /tmp/dld_old & pids+=($!); }
"$MPICC" -O2 -o /tmp/dld_sendrecv bench/sendrecv_floor.c 2>>"$O/build_sendrecv.txt" ||
    echo "sendrecv_floor.c: no build (no floor for the exchange)"
for p in "${pids[@]}"; do wait "$p" || { tail -20 "$O"/build_*.txt; exit 3; }; done
NEW=${NEW:-/tmp/dld_new/src/cli/sortnet}
OLD=${OLD:-/tmp/dld_old/src/cli/sortnet}
{
    date -u
    nvidia-smi --query-gpu=index,name,memory.total,pcie.link.gen.current,pcie.link.width.current \
        --format=csv,noheader || true
    lscpu | grep -E 'Model name|^CPU\(s\)|NUMA node\(s\)|L3|L2'
    grep -E 'MemTotal|MemAvailable' /proc/meminfo
    ldd --version | head -1
    echo "transparent_hugepage: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>&1)"
    "$MPIRUN" --version | head -1
} 2>&1 | tee "$O/host.txt"

# 1. the floors
timeout 120 python3 bench/pcie_floor.py $((GPU_N * 4)) $(((1 << DIST_LOG) / 2 * 4)) 2>&1 |
    tee "$O/floor.txt"

gs() { # NAME BIN ENV... -- ARGS: one gpu sort, verified
    local name=$1 bin=$2
    shift 2
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    timeout 150 env "${envs[@]}" "$bin" gpu sort "$@" >"$O/$name.txt" 2>"$O/$name.err"
    echo "== $name: exit $?; $(grep -E 'kernel time|host to host:|^identical|differs' "$O/$name.txt" | tr '\n' ' ')" |
        tee -a "$O/summary.txt"
}
ds() { # NAME BIN ENV... -- ARGS: one 2-rank dist sort, verified
    local name=$1 bin=$2
    shift 2
    local envs=()
    while [ "$1" != -- ]; do envs+=(-x "$1"); shift; done
    shift
    timeout "${DS_TO:-90}" "$MPIRUN" --bind-to none "${envs[@]}" -np 2 "$bin" dist sort "$@" \
        --local "${LOCAL:-gpu}" --timeout $((${DS_TO:-90} - 10)) >"$O/$name.txt" 2>"$O/$name.err"
    echo "== $name: exit $?; $(grep -E '^  (local sort|layer|total)|on the GPU|^identical|NOT identical' "$O/$name.txt" | tr -s ' ' | tr '\n' ';')" |
        tee -a "$O/summary.txt"
    tail -3 "$O/$name.err" >>"$O/summary.txt"
}
K=(--keys "2^$DIST_LOG" --type u32)
# 2. gpu sort host to host, before and after
gs gpu_before "$OLD" X=1 -- "radix:$GPU_N" --type u32 --reps 3
gs gpu_after "$NEW" X=1 -- "radix:$GPU_N" --type u32 --reps 3
# GPU_CHUNKS="K ...": the after build with chunks of K keys (SN_GPU_STAGE_CHUNK)
for c in ${GPU_CHUNKS:-}; do
    gs "gpu_after_c$c" "$NEW" SN_GPU_STAGE_CHUNK="$c" -- "radix:$GPU_N" --type u32 --reps 3
done
# 3. the 2-rank local sort, before and after (REPS times each, interleaved)
for r in $(seq "${REPS:-3}"); do
    ds "dist_${DIST_LOG}_before_$r" "$OLD" X=1 -- "${K[@]}"
    ds "dist_${DIST_LOG}_after_$r" "$NEW" X=1 -- "${K[@]}"
done
# the after build's knobs: chunk keys, slots, copy threads a rank
for cs in ${CHUNK_SLOTS-2097152:3 8388608:3 16777216:3 1048576:8 2097152:6}; do
    ds "dist_${DIST_LOG}_knob_c${cs%:*}_slots${cs#*:}" "$NEW" SN_GPU_STAGE_CHUNK="${cs%:*}" \
        SN_GPU_STAGE_SLOTS="${cs#*:}" -- "${K[@]}"
done
for t in ${THREADS-12}; do
    ds "dist_${DIST_LOG}_knob_t$t" "$NEW" SN_GPU_STAGE_THREADS="$t" -- "${K[@]}"
done
# more keys than one GPU sort: runs merged on the host (before) and on the
# GPU (after), the slice in ordinary memory
CAP_LOG=${CAP_LOG-34}
if [ -n "$CAP_LOG" ]; then
    DS_TO=240 ds "dist_${CAP_LOG}_before" "$OLD" X=1 -- --keys "2^$CAP_LOG" --type u32
    DS_TO=240 ds "dist_${CAP_LOG}_after" "$NEW" X=1 -- --keys "2^$CAP_LOG" --type u32
fi
# 4. the exchange's floor (MPI_Sendrecv of the busiest rank's bytes), the table
floor_finish "$O" "dist_${DIST_LOG}_after_1" /tmp/dld_sendrecv "${OUT:-/tmp/dld}/dist_local_all.txt"
