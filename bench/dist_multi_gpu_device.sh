#!/usr/bin/env bash
# dist_multi_gpu_device.sh - THE command of issue 32's multi-GPU run of
# `sortnet dist sort` (written here, not run yet): on one host with G
# NVIDIA GPUs, mpirun -np G with one rank per GPU (each rank takes the GPU
# of its local rank: src/mpi picks the (local rank mod G)-th GPU), at
# 2^30, 2^32 and 2^33 u32 keys, the networks (best:G, and bitonic:G) against
# sample sort, and the single-GPU baseline (`gpu sort radix` on one GPU, and
# `dist sort` on one rank), every run verified (sorted blocks, ordered
# boundaries, the multiset hash; N > 2^24 is not gathered). From the
# repository root, on the GPU machine:
#
#   bench/dist_multi_gpu_device.sh        # results in $OUT/dist (or /tmp/dmg/dist)
#
# Set-up as bench/device.sh (shared/DEVICE.md): the OpenCL .debs in
# .dev/debs; Open MPI too when the machine has none: its .debs beside them,
#   (cd .dev/debs && apt-get download libopenmpi-dev libopenmpi3 openmpi-bin \
#       openmpi-common libpmix2 libhwloc15 libevent-core-2.1-7 \
#       libevent-pthreads-2.1-7 libfabric1 libucx0 libpsm2-2 libibverbs1 \
#       librdmacm1 libnl-3-200 libnl-route-3-200 libxnvctrl0)
# (dpkg -x makes no alternatives links: mpirun.openmpi and mpicc.openmpi are
# used by name when mpirun is missing). Memory: 2^33 keys on 8 ranks is 2^30
# keys (4 GiB) a rank, about 16 GiB of host memory each; with fewer GPUs
# 2^33 is refused (more than 2^30 keys a rank). LOGS="30 32" and G=N
# override the sizes and the rank count. Each run has --timeout so a stuck
# rank cannot hold the machine.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != --inner ]; then
    exec bench/device.sh "bash bench/dist_multi_gpu_device.sh --inner"
fi
O=${OUT:-/tmp/dmg}/dist
mkdir -p "$O"
MPIRUN=$(command -v mpirun || echo /usr/bin/mpirun.openmpi)
MPICC=$(command -v mpicc || echo /usr/bin/mpicc.openmpi)
build=${SN_BUILD:-/tmp/snb}
# device.sh built core + OpenCL; add the MPI layer (jansson may be absent:
# the text report is parsed)
cmake -S . -B "$build" -DSORTNET_WITH_MPI=ON -DMPI_C_COMPILER="$MPICC" >/dev/null &&
    cmake --build "$build" -j "$(nproc)" >/dev/null || { echo "build with MPI failed" >&2; exit 3; }
SN=$build/src/cli/sortnet
"$SN" dist --help >/dev/null || { echo "sortnet has no MPI layer (Open MPI missing?)" >&2; exit 3; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
G=${G:-$(nvidia-smi -L | wc -l)}
LOGS=${LOGS:-30 32 33}
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader | tee "$O/gpus.txt"
lscpu | grep -E 'Model name|^CPU\(s\)' | tee -a "$O/gpus.txt"

run() { # NAME NP ARGS...: one verified run, its report in $O/NAME.txt
    local name=$1 np=$2
    shift 2
    echo "== $name: mpirun -np $np sortnet $*" | tee -a "$O/summary.txt"
    timeout 590 "$MPIRUN" --oversubscribe --bind-to none -np "$np" "$SN" "$@" --local gpu \
        --timeout 580 >"$O/$name.txt" 2>"$O/$name.err"
    echo "   exit $?; $(grep -E '^local sort|^keys per second|^bytes sent|^identical|NOT identical' "$O/$name.txt" | tr '\n' ';')" |
        tee -a "$O/summary.txt"
}

# the single-GPU baseline: the radix sort on one GPU (host to host), and
# dist sort on one rank (the same path without exchanges)
"$SN" gpu sort radix:2^30 --reps 3 >"$O/gpu_sort_radix_2^30.txt" 2>&1
echo "== single GPU: gpu sort radix:2^30: $(tr '\n' ';' <"$O/gpu_sort_radix_2^30.txt")" | tee -a "$O/summary.txt"
run single_dist_2^30 1 dist sort --keys 2^30 --type u32

for lg in $LOGS; do
    run "network_best_${lg}" "$G" dist sort --network auto --keys "2^$lg" --type u32
    run "network_bitonic_${lg}" "$G" dist sort --network "bitonic:$G" --keys "2^$lg" --type u32
    run "sample_${lg}" "$G" dist sort --algorithm sample --keys "2^$lg" --type u32
done
echo "results: $O (summary.txt)"
