#!/usr/bin/env bash
# gpu_refactor_compare_device.sh - the GPU tuning-record refactor must not change what
# the kernels compute or how fast: build sortnet from the base commit
# (2b62bf1) and from this working tree, then on the GPU machine
#   1. diff the generated fused kernels of both for a few networks and
#      sizes (the base writes them with SN_FUSED_CGDUMP, this tree with
#      `gpu verify --save-source`), and
#   2. run `gpu bench bitonic oddeven-merge --sizes 2^20,2^24` with both
#      binaries interleaved (base, new, base, new) in one command, printing
#      every table and a side-by-side summary of the fused rows.
# Run from the repository root, after bench/device.sh's set-up has what it
# needs (.dev/debs, see shared/DEVICE.md):
#
#   bench/gpu_refactor_compare_device.sh [BASE_SRC]
#
# BASE_SRC is the base commit's source tree. The GPU machine gets a copy of
# the working tree without .git, so make it here and carry it, e.g.:
#   echo /.dev/ >> .git/info/exclude
#   mkdir -p .dev/base-src && git archive 2b62bf1 | tar -x -C .dev/base-src
#   (device run with carry [".dev"]): bench/gpu_refactor_compare_device.sh .dev/base-src
# Without BASE_SRC and with .git present, the script exports 2b62bf1 itself.
# $OUT (or /tmp/issue21-out) gets six files: sources.txt (the kernel
# comparison), bench-{base,new}-{1,2}.txt and summary.txt; the generated
# sources themselves stay in /tmp/issue21-work.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE_COMMIT=2b62bf1
out=${OUT:-/tmp/issue21-out}
work=/tmp/issue21-work
mkdir -p "$out" "$work"
base_src=${1:-}
if [ -z "$base_src" ]; then
    if [ -d .git ] || git rev-parse --git-dir >/dev/null 2>&1; then
        base_src=$(mktemp -d)
        git archive "$BASE_COMMIT" | tar -x -C "$base_src"
    else
        echo "gpu_refactor_compare_device.sh: no .git here: pass the base commit's source (see the top)" >&2
        exit 2
    fi
fi
[ -f "$base_src/CMakeLists.txt" ] || { echo "gpu_refactor_compare_device.sh: $base_src is no source tree" >&2; exit 2; }

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
build "$base_src" /tmp/i21-base &
build . /tmp/i21-new &
wait
BASE=/tmp/i21-base/src/cli/sortnet
NEW=/tmp/i21-new/src/cli/sortnet
"$NEW" gpu list

echo "== generated fused kernels, base against new" | tee "$out/sources.txt"
# (I21_CASES and I21_SIZES shrink the run for a dry run on a small machine)
cases=${I21_CASES:-"bitonic:1048576,u32 bitonic:16777216,u32 bitonic:100003,f32 oddeven-merge:1048576,u32 oddeven-merge:16777216,u32 oddeven-merge:70000,i32,--payload"}
for c in $cases; do
    IFS=, read -r -a parts <<<"$c"
    set -- "${parts[@]}"
    net=$1 type=$2 pay=${3:-}
    tag=$(echo "$net-$type$pay" | tr -c 'A-Za-z0-9\n' '_')
    w=$work
    SN_FUSED_CGDUMP="$w/base-$tag.cl" "$BASE" gpu verify "$net" --variant fused-local \
        --type "$type" --random 1 $pay >"$w/base-$tag.txt" 2>&1 || true
    # the new binary's bitonic:N / oddeven-merge:N are the balanced split for
    # n not a power of two: the padded closed form the base ran is NAME-pad:N
    newnet=${net/bitonic:/bitonic-pad:}
    newnet=${newnet/oddeven-merge:/oddeven-merge-pad:}
    "$NEW" gpu verify "$newnet" --variant fused-local --type "$type" --random 1 $pay \
        --save-source "$w/new-$tag.cl" >"$w/new-$tag.txt" 2>&1 || true
    if cmp -s "$w/base-$tag.cl" "$w/new-$tag.cl"; then
        echo "$net $type $pay: identical source ($(wc -c <"$w/new-$tag.cl") bytes); $(tail -1 "$w/new-$tag.txt")"
    else
        echo "$net $type $pay: SOURCE DIFFERS; base: $(tail -1 "$w/base-$tag.txt"); new: $(tail -1 "$w/new-$tag.txt")"
        diff "$w/base-$tag.cl" "$w/new-$tag.cl" | head -20 || true
    fi
done 2>&1 | tee -a "$out/sources.txt"
grep -c "identical source" "$out/sources.txt" | sed 's/^/sources identical: /' | tee -a "$out/sources.txt"

echo "== gpu bench, interleaved: base, new, base, new"
args=(gpu bench bitonic oddeven-merge --sizes "${I21_SIZES:-2^20,2^24}" --type u32 --reps 7 --cpu-max 2^20)
for round in 1 2; do
    for which in base new; do
        bin=$BASE
        [ $which = new ] && bin=$NEW
        echo "-- $which, round $round"
        "$bin" "${args[@]}" 2>/dev/null | tee "$out/bench-$which-$round.txt"
    done
done

echo "== fused rows (kernel ms): base and new, both rounds"
summary() {
    printf "%-14s %10s %-8s %10s %10s %10s %10s %9s\n" network n variant base1 base2 new1 new2 \
        new/base
    for which in base new; do
        for round in 1 2; do
            awk -v w="$which$round" '$3 == "fused" || $3 == "closed" { print $1, $2, $3, w, $5 }' \
                "$out/bench-$which-$round.txt"
        done
    done | awk '{ k = $1 " " $2 " " $3; v[k, $4] = $5; keys[k] = 1 }
        END {
            for (k in keys) {
                split(k, p, " ")
                b = (v[k, "base1"] + v[k, "base2"]) / 2; n = (v[k, "new1"] + v[k, "new2"]) / 2
                printf "%-14s %10s %-8s %10.4f %10.4f %10.4f %10.4f %9.3f\n", p[1], p[2], p[3],
                       v[k, "base1"], v[k, "base2"], v[k, "new1"], v[k, "new2"], (b > 0 ? n / b : 0)
            }
        }' | sort
}
summary | tee "$out/summary.txt"
