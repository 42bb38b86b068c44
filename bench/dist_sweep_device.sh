#!/usr/bin/env bash
# dist_sweep_device.sh - issue 30's sweep on the lent GPU machine's host (one
# GPU, 16 cores; device kind nvidia-h100-x1): keys per second of `sortnet
# dist sort` against P ranks for N = 2^24..2^30 keys, the network (best:P)
# against sample sort, the CPU local sort and the GPU local sort (the ranks
# sharing the one GPU), the bytes each rank sent; P = 1 against the
# single-process sort of the same keys (CPU: bench_dist_ref; GPU: `gpu sort
# radix`, host to host); 2^30 keys over 2 ranks sharing the GPU with the
# fraction of the sort spent in exchanges. Every run is verified (blocks
# sorted, boundaries ordered, the multiset hash; N <= 2^24 also against the
# reference). From the repository root, on the GPU machine:
#
#   bench/dist_sweep_device.sh          # CSVs and logs in $OUT/sweep
#
# Set-up: the OpenCL .debs in .dev/debs (shared/DEVICE.md). Open MPI: the
# machine's when it has mpirun; else Debian's .debs in .dev/mpidebs,
#   (cd .dev/mpidebs && apt-get download libopenmpi-dev libopenmpi3 \
#       openmpi-bin openmpi-common libpmix2 libhwloc15 libevent-core-2.1-7 \
#       libevent-pthreads-2.1-7 libfabric1 libucx0 libpsm2-2 libibverbs1 \
#       librdmacm1 libnl-3-200 libnl-route-3-200 libxnvctrl0)
# unpacked with dpkg -x (mpirun.openmpi and mpicc.openmpi used by name).
# Env: PS="1 2 4 8 16" LOGS="24 27 30" LOCALS="cpu gpu" BUDGET=S (stop
# starting runs after S seconds; default 400). Rows come in priority order
# (baselines, the 2-rank 2^30 GPU run, then the sweep), each appended to
# the CSV as it ends, so a cut-off run still leaves what it measured.
set -uo pipefail
cd "$(dirname "$0")/.."
START=$SECONDS
O=${OUT:-/tmp/sweep}/sweep
mkdir -p "$O"
exec > >(tee -a "$O/log.txt") 2>&1
for f in .dev/debs/*.deb; do dpkg -x "$f" /; done
mkdir -p /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
if command -v mpirun >/dev/null; then
    echo "Open MPI of the machine: $(mpirun --version 2>&1 | head -1)"
else
    echo "no mpirun on the machine: Open MPI from .dev/mpidebs"
    for f in .dev/mpidebs/*.deb; do dpkg -x "$f" /; done
fi
ldconfig
MPIRUN=$(command -v mpirun || echo /usr/bin/mpirun.openmpi)
MPICC=$(command -v mpicc || echo /usr/bin/mpicc.openmpi)
"$MPIRUN" --version 2>&1 | head -1
clinfo -l
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader | tee "$O/host.txt"
lscpu | grep -E 'Model name|^CPU\(s\)' | tee -a "$O/host.txt"
free -g | head -2 | tee -a "$O/host.txt"
b=${SN_BUILD:-/tmp/snsweep}
t0=$SECONDS
cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release -DSORTNET_WITH_SDL=OFF -DSORTNET_WITH_CAIRO=OFF \
    -DSORTNET_WITH_JANSSON=OFF -DSORTNET_BUILD_TESTS=OFF -DSORTNET_BUILD_BENCH=ON \
    -DSORTNET_WITH_MPI=ON -DMPI_C_COMPILER="$MPICC" >"$O/cmake.txt" 2>&1 &&
    cmake --build "$b" -j "$(nproc)" --target sortnet bench_dist_ref >"$O/build.txt" 2>&1 ||
    { echo "build failed"; tail -30 "$O/cmake.txt" "$O/build.txt"; exit 3; }
echo "build: $((SECONDS - t0)) s"
SN=$b/src/cli/sortnet
REF=$b/bench/bench_dist_ref
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
PS=${PS:-1 2 4 8 16}
LOGS=${LOGS:-24 27 30}
LOCALS=${LOCALS:-cpu gpu}
BUDGET=${BUDGET:-400}
CSV=$O/dist-sweep.csv
echo "P,N,local,algorithm,network,keys_per_s,local_sort_s,exchange_s,total_s,bytes_sent_max,identical" >"$CSV"

run() { # NAME LOCAL NP ARGS...: one verified dist sort; a CSV row
    local name=$1 loc=$2 np=$3
    shift 3
    if [ $((SECONDS - START)) -gt "$BUDGET" ]; then
        echo "SKIPPED (budget): $name"
        return
    fi
    local f=$O/$name.txt
    timeout 200 "$MPIRUN" --oversubscribe --bind-to none -np "$np" "$SN" dist sort "$@" \
        --type i32 --local "$loc" --timeout 180 >"$f" 2>"$O/$name.err"
    local rc=$?
    python3 - "$f" "$np" "$loc" "$rc" >>"$CSV" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
np, loc, rc = sys.argv[2], sys.argv[3], sys.argv[4]
def num(p):
    m = re.search(p, t, re.M)
    return float(m.group(1)) if m else float("nan")
m = re.search(r"^dist sort: (\d+) keys .* rank\(s\), (\w+) ?(\S*)$", t, re.M)
n = int(m.group(1)) if m else 0
alg, net = (m.group(2), m.group(3) or "-") if m else ("?", "?")
kps = num(r"^keys per second \(local sort \+ exchanges\): (\S+)")
loc_s = num(r"^  local sort +(\S+)")
tot = num(r"^  total +(\S+)")
ex = n / kps - loc_s if kps == kps and kps > 0 else float("nan")
bm = re.search(r"^bytes sent per rank:(.*)$", t, re.M)
by = max(int(x) for x in bm.group(1).split()) if bm and bm.group(1).split() else 0
ident = "yes" if re.search(r"^identical$", t, re.M) else f"NO(exit {rc})"
print(f"{np},{n},{loc},{alg},{net},{kps:.4g},{loc_s:.4f},{ex:.4f},{tot:.3f},{by},{ident}")
PY
    echo "$name: $(tail -1 "$CSV")"
}

# 1. the single-process baselines (the same i32 keys, seed 1)
t0=$SECONDS
"$REF" 30 | tee "$O/single-cpu.txt" # N seconds keys/s, medians of 3 (bench_dist_ref)
echo "bench_dist_ref: $((SECONDS - t0)) s"
for lg in 24 30; do # the GPU radix sort, host to host, medians of 3 (kernels built before)
    "$SN" gpu sort "radix:2^$lg" --type i32 --reps 3 >"$O/single-gpu-$lg.txt" 2>&1
    echo "gpu sort radix:2^$lg: $(tr '\n' ';' <"$O/single-gpu-$lg.txt")"
done
# 2. P = 1 against them, and 2^30 keys over 2 ranks sharing the one GPU
for lg in 24 30; do
    run "p1_cpu_$lg" cpu 1 --keys "2^$lg"
    run "p1_gpu_$lg" gpu 1 --keys "2^$lg"
done
run p2_gpu_30_network gpu 2 --keys 2^30
run p2_gpu_30_sample gpu 2 --keys 2^30 --algorithm sample
# 3. the sweep: P ranks x N x local sort x algorithm
for lg in $LOGS; do
    for p in $PS; do
        for loc in $LOCALS; do
            [ "$p" = 1 ] && { [ "$lg" = 24 ] || [ "$lg" = 30 ]; } && continue # done above
            [ "$p" = 2 ] && [ "$lg" = 30 ] && [ "$loc" = gpu ] && continue
            run "p${p}_${loc}_${lg}_network" "$loc" "$p" --keys "2^$lg"
            [ "$p" = 1 ] && continue # one rank: sample sort is the local sort
            run "p${p}_${loc}_${lg}_sample" "$loc" "$p" --keys "2^$lg" --algorithm sample
        done
    done
done
echo "total: $((SECONDS - START)) s; results: $O (dist-sweep.csv, single-cpu.txt, single-gpu-*.txt)"
