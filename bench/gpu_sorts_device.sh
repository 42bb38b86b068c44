#!/usr/bin/env bash
# gpu_sorts_device.sh - the GPU sorting lab's figures on the GPU machine, in
# one run (ratios are only meaningful side by side): run from the
# repository root, with .dev/debs as shared/DEVICE.md describes:
#
#   bench/gpu_sorts_device.sh            # results and a table in $OUT (or /tmp/i16out)
#
# 1. radix (8- and 4-bit digits), merge, hybrid and the fused bitonic network
#    at 2^24 and 2^26 u32 keys (gpu bench, kernel time, medians of 7), with
#    torch.sort and cupy.sort (bench/gpu_anchors.py) in the same run;
# 2. transposition at 2^20 keys with 1% of the keys out of place (near their
#    place, and anywhere) with early exit, against all n phases of the
#    network without it;
# 3. radix and merge at 10^9 u32 keys, verified against the stable
#    reference, kernel and host-to-host time; qsort at 10^9 on the same host
#    (a small C program, in the background meanwhile);
# 4. `gpu verify oddeven-merge:1000000000 --random 1 --variant fused`, wall.
# Everything lands in $OUT/i16/ and the table in $OUT/i16/table.txt.
# PARTS="1 2" runs only those parts (default all four; about 8 minutes in
# all, most of it making and checking the 10^9-key inputs; part 4 needs the
# multi-threaded reference executor to finish within its 200 s limit).
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != --inner ]; then
    exec bench/device.sh "bash bench/gpu_sorts_device.sh --inner"
fi
O=${OUT:-/tmp/i16out}/i16
mkdir -p "$O"
PARTS=${PARTS:-1 2 3 4}
# SMOKE=1: the same steps at small sizes (to try the script on pocl:
# SMOKE=1 SN=build/src/cli/sortnet bench/gpu_sorts_device.sh --inner)
if [ "${SMOKE:-0}" = 1 ]; then
    E1=14 E2=16 TR_N=2^12 BIG_N=1000000
else
    E1=24 E2=26 TR_N=2^20 BIG_N=1000000000
fi
part() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
log() { echo "== $*" | tee -a "$O/log.txt"; }

# 3'. qsort of 10^9 random u32 keys, meanwhile on one core
cat >"$O/qsort.c" <<'EOF'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static int cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}
int main(int argc, char **argv)
{
    size_t n = strtoull(argv[1], NULL, 10);
    uint32_t *k = malloc(n * 4);
    uint64_t s = 1;
    for (size_t i = 0; i < n; i++) {
        s += 0x9E3779B97F4A7C15ull;
        uint64_t z = s;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        k[i] = (uint32_t)(z ^ (z >> 31));
    }
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    qsort(k, n, 4, cmp);
    clock_gettime(CLOCK_MONOTONIC, &b);
    for (size_t i = 1; i < n; i++)
        if (k[i - 1] > k[i])
            return 1;
    printf("{\"n\":%zu,\"qsort_s\":%.3f}\n", n, (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
    return 0;
}
EOF
# QSORT=0 leaves qsort out (it takes minutes; its figure does not change)
QSORT=${QSORT:-1}
part 3 && [ "$QSORT" = 1 ] && gcc -O2 -o "$O/qsort" "$O/qsort.c" &&
    (timeout 540 "$O/qsort" $BIG_N >"$O/qsort.json" 2>&1 &)

if part 1; then
log "1. sorts vs the fused network at 2^24, 2^26 (u32, kernel time)"
timeout 240 "$SN" gpu bench bitonic --sizes 2^$E1,2^$E2 --type u32 --reps 7 --cpu-max 1 \
    --variants fused,radix,radix4,merge,hybrid --csv "$O/bench.csv" 2>>"$O/log.txt" | tee -a "$O/log.txt"
echo device,network,variant,n,median_ms,keys_per_s >"$O/anchors.csv"
timeout 120 python3 bench/gpu_anchors.py --sizes 2^$E1,2^$E2 --reps 21 --csv "$O/anchors.csv" 2>&1 |
    tee -a "$O/log.txt"
fi

if part 2; then
log "2. transposition, 2^20 keys, 1% out of place"
T="$SN gpu sort transposition:$TR_N --type u32 --force --json"
timeout 120 $T --nearly-sorted 1,16 >"$O/tr_near.json" 2>>"$O/log.txt"
timeout 120 $T --nearly-sorted 1,16 --full-rounds >"$O/tr_near_full.json" 2>>"$O/log.txt"
timeout 120 $T --nearly-sorted 1 >"$O/tr_any.json" 2>>"$O/log.txt"
cat "$O"/tr_*.json | tee -a "$O/log.txt"
fi

if part 3; then
log "3. 10^9 keys, verified"
for a in radix merge; do
    s=$(date +%s.%N)
    # text, not --json: bench/device.sh builds without jansson
    timeout 200 "$SN" gpu sort $a:$BIG_N --type u32 --random 1 >"$O/big_$a.txt" 2>>"$O/log.txt"
    echo "{\"wall_s\":$(awk "BEGIN{print $(date +%s.%N) - $s}")}" >"$O/big_${a}_wall.json"
    cat "$O/big_$a.txt" | tee -a "$O/log.txt"
done
fi

if part 4; then
log "4. gpu verify oddeven-merge-pad:1000000000 --random 1 --variant fused"
s=$(date +%s.%N)
# oddeven-merge:N is the balanced split (an explicit list, far too large
# here); the closed form that the GPU and the threaded reference run is -pad
timeout 200 "$SN" gpu verify oddeven-merge-pad:$BIG_N --random 1 --variant fused >"$O/verify.txt" 2>&1
echo "rc=$? wall_s=$(awk "BEGIN{print $(date +%s.%N) - $s}")" >>"$O/verify.txt"
cat "$O/verify.txt" | tee -a "$O/log.txt"
log "4b. odd-even merge (fused) at 10^9 keys: kernel and host-to-host"
timeout 150 "$SN" gpu bench oddeven-merge --sizes $BIG_N --variants fused --type u32 --reps 3 \
    --cpu-max 1 2>/dev/null | tee "$O/oem_big.txt" | tee -a "$O/log.txt"
log "4c. the same from pinned host memory (--pinned), and radix and merge"
timeout 150 "$SN" gpu bench oddeven-merge --sizes $BIG_N --variants fused --type u32 --reps 3 \
    --cpu-max 1 --pinned 2>/dev/null | tee "$O/oem_big_pinned.txt" | tee -a "$O/log.txt"
timeout 150 "$SN" gpu bench bitonic --sizes $BIG_N --variants radix,merge --type u32 --reps 3 \
    --cpu-max 1 --pinned 2>/dev/null | tee "$O/sorts_big_pinned.txt" | tee -a "$O/log.txt"
fi

part 3 && [ "$QSORT" = 1 ] && for i in $(seq 1 60); do [ -s "$O/qsort.json" ] && break; sleep 5; done
nproc >"$O/nproc.txt"
python3 - "$O" "$E1" "$E2" <<'EOF' | tee "$O/table.txt"
import csv, json, os, sys
O = sys.argv[1]
def load_text(name):
    """gpu sort's text report as the fields of its --json"""
    import re
    try:
        t = open(os.path.join(O, name)).read()
    except OSError as e:
        return {"error": str(e)}
    d = {"identical": "\nidentical" in "\n" + t}
    for key, pat in (("n", r": (\d+) keys"), ("kernel_ms", r"kernel time ([\d.]+) ms"),
                     ("host_ms", r"host to host ([\d.]+) ms"), ("reference_ms", r"on the host\) ([\d.]+) ms")):
        m = re.search(pat, t)
        if m:
            d[key] = float(m.group(1)) if "." in m.group(1) else int(m.group(1))
    return d
def load(name):
    try:
        with open(os.path.join(O, name)) as f:
            return json.load(f)
    except Exception as e:
        return {"error": str(e)}
rows = {}
for name in ("bench.csv", "anchors.csv"):
    try:
        for r in csv.DictReader(open(os.path.join(O, name))):
            rows[(r["network"], r["variant"], int(r["n"]))] = float(r["median_ms"])
    except Exception as e:
        print(f"({name}: {e})")
dev = next(iter(csv.DictReader(open(os.path.join(O, "bench.csv")))), {}).get("device", "?") if os.path.exists(os.path.join(O, "bench.csv")) else "?"
print(f"GPU sorting lab on {dev}; u32 keys, kernel time, medians (ms)\n")
def get(net, var, n):
    for (a, b, c), v in rows.items():
        if b == var and c == n and (net is None or a == net):
            return v
    return None
print(f"{'n':>6} {'radix8':>9} {'radix4':>9} {'merge':>9} {'hybrid':>9} {'fused bitonic':>13} {'torch.sort':>10} {'cupy.sort':>9}  radix/torch radix/cupy merge/fused")
for e in (int(sys.argv[2]), int(sys.argv[3])):
    n = 1 << e
    v = [get("sort", "radix", n), get("sort", "radix4", n), get("sort", "merge", n), get("sort", "hybrid", n),
         get("bitonic", "fused", n), get(None, "torch.sort", n), get(None, "cupy.sort", n)]
    f = lambda x: f"{x:.3f}" if x else "-"
    r = lambda a, b: f"{a / b:.2f}" if a and b else "-"
    print(f"{'2^%d' % e:>6} {f(v[0]):>9} {f(v[1]):>9} {f(v[2]):>9} {f(v[3]):>9} {f(v[4]):>13} {f(v[5]):>10} {f(v[6]):>9}  {r(v[0], v[5]):>11} {r(v[0], v[6]):>10} {r(v[2], v[4]):>11}")
print("targets: radix/torch < 1, radix/cupy <= 1.3, merge/fused < 1 at 2^26\n")
near, full, anyw = load("tr_near.json"), load("tr_near_full.json"), load("tr_any.json")
print(f"transposition, {near.get('n', '?')} keys, 1% of the keys out of place:")
for label, d in (("near their place (<= 16 away), early exit", near),
                 ("near their place, all n phases (the network)", full),
                 ("anywhere, early exit", anyw)):
    print(f"  {label:48} rounds {d.get('rounds', '-')!s:>8}  kernel {d.get('kernel_ms', 0):10.2f} ms  identical {d.get('identical')}")
if near.get("kernel_ms") and full.get("kernel_ms"):
    print(f"  early exit: {full['rounds'] / max(near['rounds'], 1):.0f}x fewer rounds, {full['kernel_ms'] / near['kernel_ms']:.0f}x less time\n")
q = load("qsort.json")
print(f"{load_text('big_radix.txt').get('n', '?')} u32 keys (qsort on this host: {q.get('qsort_s', '-')} s on one core, run meanwhile; {open(os.path.join(O, 'nproc.txt')).read().strip()} cores):")
for a in ("radix", "merge"):
    d, w = load_text(f"big_{a}.txt"), load(f"big_{a}_wall.json")
    kt, ht = d.get("kernel_ms"), d.get("host_ms")
    qs = q.get("qsort_s")
    sp = f"{qs / (ht / 1e3):.0f}x qsort host to host" if qs and ht else ""
    print(f"  {a:7} identical {d.get('identical')!s:5}  kernel {kt if kt is None else round(kt, 1)} ms  host to host {ht if ht is None else round(ht, 1)} ms  command wall {w.get('wall_s', '-')} s  {sp}")
print("\ngpu verify oddeven-merge:N --random 1 --variant fused at the same N (target at 10^9: < 60 s wall):")
try:
    print("  " + "  ".join(l.strip() for l in open(os.path.join(O, "verify.txt")) if l.strip() == "identical" or l.startswith("rc=") or "differs" in l))
except OSError:
    print("  (not run)")
EOF
