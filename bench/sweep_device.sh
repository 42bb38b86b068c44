#!/usr/bin/env bash
# sweep_device.sh - the sweep after the merges moved the GPU timing code
# (one clock, one reading of profiling events in src/gpu/run.c for run.c,
# sorts.c and batch.c) and the CLI around it; kernels and generated code
# must stay the same, and as fast. Builds sortnet from the base commit
# (main before the sweep, dab3176) and from this working tree, then on the
# GPU machine:
#   1. diffs the generated fused kernels of both (`gpu verify
#      --save-source`) for a few networks and sizes;
#   2. runs, interleaved (base, new, base, new) in one command:
#      `gpu bench bitonic oddeven-merge --sizes 2^20,2^24`,
#      `gpu sort radix:2^24` and `gpu sort merge:2^24` (--reps 7), and
#      `gpu bench --variant batch best:16 --arrays 2^20`;
#   3. prints the kernel times side by side (summary.txt).
# Run from the repository root, with bench/device.sh's set-up at hand
# (.dev/debs, see shared/DEVICE.md):
#
#   bench/sweep_device.sh [BASE_SRC]
#
# BASE_SRC is the base commit's source tree. The GPU machine gets a copy of
# the working tree without .git, so make it here and carry it:
#   echo /.dev/ >> .git/info/exclude
#   mkdir -p .dev/base-src && git archive dab3176 | tar -x -C .dev/base-src
#   (device run with carry [".dev"]): bench/sweep_device.sh .dev/base-src
# Without BASE_SRC and with .git present, the script exports dab3176 itself.
# SWEEP_SIZES and SWEEP_SORT_N shrink the run for a dry run on pocl.
# $OUT (or /tmp/sweep-out) gets sources.txt, the raw outputs and summary.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE_COMMIT=dab3176
out=${OUT:-/tmp/sweep-out}
work=/tmp/sweep-work
mkdir -p "$out" "$work"
base_src=${1:-}
if [ -z "$base_src" ]; then
    if git rev-parse --git-dir >/dev/null 2>&1; then
        base_src=$(mktemp -d)
        git archive "$BASE_COMMIT" | tar -x -C "$base_src"
    else
        echo "sweep_device.sh: no .git here: pass the base commit's source (see the top)" >&2
        exit 2
    fi
fi
[ -f "$base_src/CMakeLists.txt" ] || { echo "sweep_device.sh: $base_src is no source tree" >&2; exit 2; }

# the NVIDIA OpenCL set-up of bench/device.sh (shared/DEVICE.md)
if [ -d .dev/debs ]; then
    for f in .dev/debs/*.deb; do dpkg -x "$f" /; done
    ldconfig
    mkdir -p /etc/OpenCL/vendors
    echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
fi
clinfo -l || true
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader || true

build() { # SRC DIR
    cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DSORTNET_WITH_SDL=OFF \
        -DSORTNET_WITH_CAIRO=OFF -DSORTNET_WITH_JANSSON=OFF >/dev/null
    cmake --build "$2" -j "$(nproc)" --target sortnet >/dev/null
}
build "$base_src" /tmp/sweep-base &
build . /tmp/sweep-new &
wait
BASE=/tmp/sweep-base/src/cli/sortnet
NEW=/tmp/sweep-new/src/cli/sortnet
"$NEW" gpu list

echo "== generated fused kernels, base against new" | tee "$out/sources.txt"
for c in bitonic:1048576,u32 oddeven-merge:16777216,u32 oddeven-merge:70000,i32,--payload; do
    IFS=, read -r net type pay <<<"$c"
    tag=$(echo "$net-$type$pay" | tr -c 'A-Za-z0-9\n' '_')
    for which in base new; do
        bin=$BASE
        [ $which = new ] && bin=$NEW
        "$bin" gpu verify "$net" --variant fused-local --type "$type" --random 1 $pay \
            --save-source "$work/$which-$tag.cl" >"$work/$which-$tag.txt" 2>&1 || true
    done
    if cmp -s "$work/base-$tag.cl" "$work/new-$tag.cl"; then
        echo "$net $type $pay: identical source ($(wc -c <"$work/new-$tag.cl") bytes); $(tail -1 "$work/new-$tag.txt")"
    else
        echo "$net $type $pay: SOURCE DIFFERS (or not generated on this device); base: $(tail -1 "$work/base-$tag.txt"); new: $(tail -1 "$work/new-$tag.txt")"
    fi
done 2>&1 | tee -a "$out/sources.txt"

sizes=${SWEEP_SIZES:-2^20,2^24}
sort_n=${SWEEP_SORT_N:-2^24}
echo "== interleaved: base, new, base, new"
for round in 1 2; do
    for which in base new; do
        bin=$BASE
        [ $which = new ] && bin=$NEW
        echo "-- $which, round $round"
        "$bin" gpu bench bitonic oddeven-merge --sizes "$sizes" --type u32 --reps 7 \
            --cpu-max 2^20 2>/dev/null | tee "$out/bench-$which-$round.txt"
        for algo in radix merge; do
            "$bin" gpu sort "$algo:$sort_n" --random 1 --reps 7 2>&1 |
                tee "$out/sort-$algo-$which-$round.txt"
        done
        "$bin" gpu bench --variant batch best:16 --arrays 2^20 --reps 7 2>/dev/null |
            tee "$out/batch-$which-$round.txt"
    done
done

echo "== kernel ms: base and new, both rounds"
{
    printf "%-28s %10s %10s %10s %10s %9s\n" row base1 base2 new1 new2 new/base
    for which in base new; do
        for round in 1 2; do
            w=$which$round
            awk -v w="$w" '$3 == "fused" || $3 == "closed" || $3 == "naive" { print $1 ":" $2 ":" $3, w, $5 }' \
                "$out/bench-$which-$round.txt"
            for algo in radix merge; do
                sed -n "s/^kernel time \([0-9.]*\) ms.*/sort:$algo $w \1/p" \
                    "$out/sort-$algo-$which-$round.txt"
            done
            awk -v w="$w" '$1 == "best:16" { print "batch:" $1 ":" $4, w, $6 }' \
                "$out/batch-$which-$round.txt"
        done
    done | awk '{ v[$1, $2] = $3; keys[$1] = 1 }
        END {
            for (k in keys) {
                b = (v[k, "base1"] + v[k, "base2"]) / 2; n = (v[k, "new1"] + v[k, "new2"]) / 2
                printf "%-28s %10.4f %10.4f %10.4f %10.4f %9.3f\n", k, v[k, "base1"],
                       v[k, "base2"], v[k, "new1"], v[k, "new2"], (b > 0 ? n / b : 0)
            }
        }' | sort
} | tee "$out/summary.txt"
