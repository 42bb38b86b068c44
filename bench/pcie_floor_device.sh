#!/usr/bin/env bash
# pcie_floor_device.sh - host-to-host GPU sorts against the PCIe floor,
# and more keys than one GPU holds, in one run on the two-GPU kind of the
# lent machines (2 NVIDIA GPUs, Open MPI, torch):
#
#   1. the floors (bench/pcie_floor.py, torch): pinned and pageable
#      host<->device, both GPUs at once, one core's and every core's memcpy;
#   2. `gpu sort radix:N` (N = 10^9 u32 keys) host to host with the pinned
#      staging, and without it (SN_GPU_STAGE_CHUNK=0: the path before), and
#      i32 with payload;
#   3. `dist sort --keys 2^30 --local gpu` on 2 ranks and 1, with and
#      without staging: the local sort's upload, kernels and download;
#   4. `dist sort --keys 2^CAP` (2^34 u32, 64 GiB, more than one GPU holds)
#      on the 2 ranks, verified (sorted blocks, ordered boundaries, the
#      multiset hash);
#   5. MPI_Sendrecv of the bytes the 2^30 row's busiest rank sent;
#   then a table: each phase as a multiple of its floor of this run.
#
# From the repository root, with the OpenCL .debs in .dev/debs (DEBS=DIR
# elsewhere); results in $OUT/pcie_floor_all.txt (every file of the run):
#
#   bench/pcie_floor_device.sh
#
# Dry run elsewhere (pocl, no torch): NEW_BIN=build/src/cli/sortnet
# GPU_N=2000000 DIST_LOG=20 CAP_LOG=22 LOCAL=gpu bench/pcie_floor_device.sh
set -uo pipefail
cd "$(dirname "$0")/.."
# every file in a folder of its own; one file of them all under $OUT at the end
O=/tmp/pcf_out
rm -rf "$O"
mkdir -p "$O" "${OUT:-/tmp/pcf}"
. bench/device_env.sh # the OpenCL loader, mpirun as root, MPIRUN, MPICC
GPU_N=${GPU_N:-1000000000}
DIST_LOG=${DIST_LOG:-30}
CAP_LOG=${CAP_LOG:-34}
NEW=${NEW_BIN:-}
if [ -z "$NEW" ]; then
    B=/tmp/pcf_build
    cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DSORTNET_WITH_SDL=OFF \
        -DSORTNET_WITH_CAIRO=OFF -DSORTNET_BUILD_BENCH=OFF -DSORTNET_BUILD_TESTS=OFF \
        -DSORTNET_WITH_MPI=ON -DMPI_C_COMPILER="$MPICC" >"$O/build.txt" 2>&1 &&
        cmake --build "$B" -j "$(nproc)" --target sortnet >>"$O/build.txt" 2>&1 ||
        { echo "build failed: $(tail -20 "$O/build.txt")"; exit 3; }
    NEW=$B/src/cli/sortnet
fi
"$MPICC" -O2 -o /tmp/pcf_sendrecv bench/sendrecv_floor.c 2>>"$O/build.txt" ||
    echo "sendrecv_floor.c: no build (no floor for the exchange)"
{
    date -u
    nvidia-smi --query-gpu=index,name,memory.total,pcie.link.gen.current,pcie.link.width.current \
        --format=csv,noheader || true
    lscpu | grep -E 'Model name|^CPU\(s\)|NUMA node\(s\)'
    grep -E 'MemTotal|MemAvailable' /proc/meminfo
    "$MPIRUN" --version | head -1
} 2>&1 | tee "$O/host.txt"

# 1. the floors: 4 bytes a key of the one-GPU sort, and a rank's block of
# the 2-rank dist sort on each GPU at once
timeout 120 python3 bench/pcie_floor.py $((GPU_N * 4)) $(((1 << DIST_LOG) / 2 * 4)) 2>&1 |
    tee "$O/floor.txt"

gs() { # NAME ENV... -- ARGS: one gpu sort, verified
    local name=$1
    shift
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    timeout 150 env "${envs[@]}" "$NEW" gpu sort "$@" >"$O/$name.txt" 2>"$O/$name.err"
    echo "== $name: exit $?; $(grep -E 'kernel time|host to host:|^identical|differs' "$O/$name.txt" | tr '\n' ' ')" |
        tee -a "$O/summary.txt"
}
# 2. gpu sort host to host
gs gpu_staged X=1 -- "radix:$GPU_N" --type u32 --reps 3
gs gpu_direct SN_GPU_STAGE_CHUNK=0 -- "radix:$GPU_N" --type u32 --reps 2
gs gpu_staged_i32_payload X=1 -- "radix:$GPU_N" --type i32 --payload --reps 2
# STAGE_THREADS="8 16 ...": the staged sort again with that many copy
# threads each (SN_GPU_STAGE_THREADS); ONLY_GPU=1 stops here
for t in ${STAGE_THREADS:-}; do
    gs "gpu_staged_t$t" SN_GPU_STAGE_THREADS="$t" -- "radix:$GPU_N" --type u32 --reps 5
done
if [ -n "${ONLY_GPU:-}" ]; then
    python3 bench/pcie_floor_table.py "$O" | tee "$O/table.md"
    for f in "$O"/*; do
        echo "==> $(basename "$f") <=="
        cat "$f"
    done >"${OUT:-/tmp/pcf}/pcie_floor_all.txt"
    exit 0
fi

ds() { # NAME NP TIMEOUT ENV... -- ARGS: one dist sort, verified
    local name=$1 np=$2 to=$3
    shift 3
    local envs=()
    while [ "$1" != -- ]; do envs+=(-x "$1"); shift; done
    shift
    timeout "$to" "$MPIRUN" --bind-to none "${envs[@]}" -np "$np" "$NEW" dist sort "$@" \
        --local "${LOCAL:-gpu}" --timeout $((to - 10)) >"$O/$name.txt" 2>"$O/$name.err"
    echo "== $name (np $np): exit $?; $(grep -E '^memory|^  (local sort|layer)|on the GPU|^bytes sent|^identical|NOT identical' "$O/$name.txt" | tr -s ' ' | tr '\n' ';')" |
        tee -a "$O/summary.txt"
    tail -3 "$O/$name.err" >>"$O/summary.txt"
}
# 3. a rank's local sort at 2^DIST_LOG: the slice in ordinary memory
# through the staging (the default), in pinned memory (SN_DIST_PINNED=1),
# and the path before both (ordinary memory, whole-array copies)
ds "dist_np2_${DIST_LOG}_staged" 2 120 X=1 -- --keys "2^$DIST_LOG" --type u32
ds "dist_np2_$DIST_LOG" 2 120 SN_DIST_PINNED=1 -- --keys "2^$DIST_LOG" --type u32
ds "dist_np2_${DIST_LOG}_direct" 2 120 SN_GPU_STAGE_CHUNK=0 -- --keys "2^$DIST_LOG" --type u32
ds "dist_np1_${DIST_LOG}_staged" 1 120 X=1 -- --keys "2^$DIST_LOG" --type u32
ds "dist_np1_$DIST_LOG" 1 120 SN_DIST_PINNED=1 -- --keys "2^$DIST_LOG" --type u32
# 4. capacity: more keys than one GPU holds (the slice pinned: the run of
# 2026-11-28 that docs/distributed.md reports)
ds "dist_np2_$CAP_LOG" 2 330 SN_DIST_PINNED=1 -- --keys "2^$CAP_LOG" --type u32
# 5. the exchange's floor (MPI_Sendrecv of the busiest rank's bytes, the
# 2^DIST_LOG row), the table
floor_finish "$O" "dist_np2_${DIST_LOG}_staged" /tmp/pcf_sendrecv "${OUT:-/tmp/pcf}/pcie_floor_all.txt"
