#!/usr/bin/env bash
# gpu_batch_device.sh - every figure of "many small sorts at once" (sortnet gpu
# batch) on an NVIDIA GPU in ONE run, then a table of the targets:
#
#   T1  2^22 arrays of 16 u32 keys, best:16, rows layout (the (2^22, 16)
#       tensor's own layout): >= 5x faster than torch.sort along the last
#       axis, and within 1.5x of a plain device copy of the same bytes
#   T2  2^20 arrays of 64 u32 keys, best:64: faster than torch.sort and
#       cupy.sort along the last axis
#   T3  best:16 faster than bitonic:16 (and oddeven-merge:16) in the same
#       run; the time ratio beside the comparator ratio 60/80, and the
#       networks' own cost (net_ms: what 16 more applications of the network
#       add to the kernel, per application) whose ratio should track 60/80
#       even where the whole kernel runs at the memory floor
#
# Run from the repository root on the GPU machine (shared/DEVICE.md: the
# .deb files in .dev/debs; name .dev in carry):
#
#   bench/gpu_batch_device.sh            # builds through bench/device.sh
#
# Output: the raw `sortnet gpu bench --variant batch` tables, the anchors,
# the verification runs, then "TARGETS" with PASS/MISS per target. CSV files
# go to $OUT (the device tool's folder) or /tmp/issue17.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != --measure ]; then
    exec bench/device.sh 'bash bench/gpu_batch_device.sh --measure'
fi
out=${OUT:-/tmp/issue17}
mkdir -p "$out"
SN=${SN:?run through bench/device.sh, which builds sortnet and sets SN}
REPS=${REPS:-20}
# the issue's sizes; smaller ones only for a dry run (e.g. on pocl)
L16=${L16:-22} # 2^L16 arrays of 16 keys
L64=${L64:-20} # 2^L64 arrays of 64 keys
bench() { # NAME ARGS...: one gpu bench --variant batch run into $out/NAME.csv
    local name=$1
    shift
    echo
    echo "== sortnet gpu bench --variant batch $*"
    "$SN" gpu bench --variant batch "$@" --reps "$REPS" --csv "$out/$name.csv" ||
        echo "!! $name failed (exit $?)"
}

echo "== device"
"$SN" gpu list
# correctness on the GPU: every key type, payload and layout, array by
# array against the reference executor (exit 1 on any mismatch)
echo
echo "== verification (sortnet gpu batch)"
file=$(ls assets/networks/best/Sort_23_*.json | head -1) # a network read from a file
for net in best:16 best:64 "$file"; do
    types="i32 u32 f32"
    [ "$net" = "$file" ] && types=f32
    for t in $types; do
        for l in rows columns; do
            for p in "" --payload; do
                printf '%-14s %-4s %-8s %-10s ' "$(basename "$net")" $t $l "${p:-keys}"
                "$SN" gpu batch "$net" --arrays 100003 --type $t --layout $l $p --keys dups |
                    tail -1
            done
        done
    done
done 2>&1 | sed 's/^/  /'

bench b16 best:16 bitonic:16 oddeven-merge:16 --arrays 2^$L16 --type u32 --layout both
bench b16kv best:16 bitonic:16 oddeven-merge:16 --arrays 2^$L16 --type u32 --layout rows --payload
bench b64 best:64 bitonic:64 oddeven-merge:64 --arrays 2^$L64 --type u32 --layout both
bench b64kv best:64 --arrays 2^$L64 --type u32 --layout rows --payload
echo
echo "== anchors: torch.sort / cupy.sort along the last axis, device copy"
rm -f "$out/anchors.csv"
python3 bench/gpu_anchors.py --sizes "" --shapes 2^${L16}x16,2^${L64}x64 --reps "$REPS" \
    --csv "$out/anchors.csv"

echo
echo "== TARGETS (kernel times, medians of $REPS runs; H200 figures)"
python3 - "$out" "$L16" "$L64" <<'PY'
import csv, os, sys
out = sys.argv[1]
L16, L64 = int(sys.argv[2]), int(sys.argv[3])
rows = []
for f in ("b16", "b16kv", "b64", "b64kv", "anchors"):
    p = os.path.join(out, f + ".csv")
    if os.path.exists(p):
        with open(p) as fh:
            names = ["device", "network", "variant", "n", "median_ms", "keys_per_s"]
            rows += [r for r in csv.DictReader(fh, fieldnames=names) if r["n"] != "n"]

def ms(network, variant, n):
    for r in rows:
        if r["network"] == network and r["variant"] == variant and int(float(r["n"])) == n:
            return float(r["median_ms"])
    return None

def show(label, value, goal, ok):
    verdict = "n/a " if ok is None else ("PASS" if ok else "MISS")
    print(f"  {verdict}  {label:72s} {value:>8s}   goal {goal}")

def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b

def fmt(x, unit="x"):
    return "missing" if x is None else f"{x:.4f}{unit}" if unit == " ms" else f"{x:.2f}{unit}"

K16, K64 = (1 << L16) * 16, (1 << L64) * 64
S16, S64 = f"{1 << L16}x16", f"{1 << L64}x64"  # the anchors' (M, n) shapes
b16 = ms("best:16", "batch-rows", K16)
b16kv = ms("best:16", "batch-rows-kv", K16)
copy16 = ms("copy:16", "batch-copy", K16)
t16 = ms(S16, "torch.sort", K16)
tc16 = ms(S16, "torch.copy", K16)
print(f"  T1: best:16 rows {fmt(b16, ' ms')}, with payload {fmt(b16kv, ' ms')}; "
      f"torch.sort {fmt(t16, ' ms')}; copy {fmt(copy16, ' ms')} (OpenCL), {fmt(tc16, ' ms')} (torch)")
r = ratio(t16, b16)
show("T1 torch.sort / best:16 (keys only)", fmt(r), ">= 5", None if r is None else r >= 5)
r = ratio(t16, b16kv)
show("T1 torch.sort / best:16 with payload (torch returns indices)", fmt(r), ">= 5 (info)",
     None if r is None else r >= 5)
r = ratio(b16, copy16)
show("T1 best:16 / OpenCL copy of the same bytes", fmt(r), "<= 1.5", None if r is None else r <= 1.5)
r = ratio(b16, tc16)
show("T1 best:16 / torch copy of the same bytes", fmt(r), "<= 1.5 (info)",
     None if r is None else r <= 1.5)
b64 = ms("best:64", "batch-rows", K64)
b64kv = ms("best:64", "batch-rows-kv", K64)
t64 = ms(S64, "torch.sort", K64)
c64 = ms(S64, "cupy.sort", K64)
print(f"  T2: best:64 rows {fmt(b64, ' ms')}, with payload {fmt(b64kv, ' ms')}; "
      f"torch.sort {fmt(t64, ' ms')}; cupy.sort {fmt(c64, ' ms')}")
r = ratio(t64, b64)
show("T2 torch.sort / best:64", fmt(r), "> 1", None if r is None else r > 1)
r = ratio(c64, b64)
show("T2 cupy.sort / best:64", fmt(r), "> 1", None if r is None else r > 1)
r = ratio(t64, b64kv)
show("T2 torch.sort / best:64 with payload", fmt(r), "> 1 (info)", None if r is None else r > 1)
for lay in ("rows", "columns"):
    b = ms("best:16", f"batch-{lay}", K16)
    for other, comps in (("bitonic:16", 80), ("oddeven-merge:16", 63)):
        o = ms(other, f"batch-{lay}", K16)
        r = ratio(b, o)
        show(f"T3 {lay}: best:16 / {other} time (comparators 60/{comps} = {60 / comps:.2f})",
             fmt(r), "< 1", None if r is None else r < 1)
        r = ratio(ms("best:16", f"batch-network-{lay}", K16),
                  ms(other, f"batch-network-{lay}", K16))
        show(f"   ... the networks' own cost (net_ms), same ratio", fmt(r),
             f"~{60 / comps:.2f} (info)", None)
print("\n  all rows (CSV in " + out + "):")
for r in rows:
    print(f"    {r['network']:>18s} {r['variant']:>16s} n={int(float(r['n'])):>10d} "
          f"{float(r['median_ms']):9.4f} ms  {float(r['keys_per_s']) / 1e9:8.2f} Gkeys/s")
PY
