#!/usr/bin/env bash
# onesweep_device.sh - the onesweep radix sort's figures on the GPU machine,
# in one run (ratios are only meaningful side by side): run from the
# repository root, with .dev/debs as shared/DEVICE.md describes, and
# optionally .dev/base.tar.gz (`git archive BASE | gzip`): the code before,
# built beside this one for the before/after rows.
#
#   bench/onesweep_device.sh     # results and table.txt in $OUT/onesweep (or /tmp/osout)
#
# 1. correctness: onesweep radix (the default on NVIDIA's) verified
#    identical against the stable reference: u32 keys only, i32 and f32
#    with payload at 2^26+3, 4-bit digits, and 10^9 keys (BIG=0: not);
# 2. u32 kernel time at 2^16, 2^20, 2^24 and 2^26 (gpu bench, medians of REPS):
#    onesweep (8-bit, and SN_RADIX_E 8/12/16) and the classic passes
#    (SN_RADIX_ONESWEEP=0), every kernel of the sort timed
#    (SN_GPU_STAGE_CHUNK=0: no staging, whose upload would run os_hist on
#    each chunk as it arrives, outside the sort's kernel time); XVARS adds
#    rows (below); regs.txt: the radix kernels' registers (-cl-nv-verbose);
# 3. torch.sort, cupy.sort (CUB's onesweep) and a device copy of the keys
#    (bench/gpu_anchors.py) in the same run;
# 4. before/after (with base.tar.gz; BA=0: not): radix, merge, hybrid and the fused
#    bitonic and odd-even merge networks from the base build and this one.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != --inner ]; then
    exec bench/device.sh "bash bench/onesweep_device.sh --inner"
fi
O=${OUT:-/tmp/osout}/onesweep
mkdir -p "$O"
# what does not come back (the device tool returns 8 files)
TMPD=$(mktemp -d)
REPS=${REPS:-9}
# SMOKE=1: the same steps at small sizes (to try the script on pocl:
# SMOKE=1 SN=build/src/cli/sortnet bench/onesweep_device.sh --inner)
if [ "${SMOKE:-0}" = 1 ]; then
    E1=12 E2=14 BIG_N=100003 EVARS="8"
else
    E1=24 E2=26 BIG_N=1000000000 EVARS=${EVARS:-"8 12 16"}
fi
log() { echo "== $*" | tee -a "$O/log.txt"; }
T0=$(date +%s)

# the base build, meanwhile (cores to spare while the first checks run)
if [ -f .dev/base.tar.gz ] && [ "${SMOKE:-0}" != 1 ] && [ "${BA:-1}" = 1 ]; then
    (mkdir -p /tmp/base_src && tar -xzf .dev/base.tar.gz -C /tmp/base_src &&
        cmake -S /tmp/base_src -B /tmp/base_build -DCMAKE_BUILD_TYPE=Release \
            -DSORTNET_WITH_SDL=OFF -DSORTNET_WITH_CAIRO=OFF -DSORTNET_WITH_JANSSON=OFF \
            -DSORTNET_BUILD_BENCH=OFF -DSORTNET_BUILD_TESTS=OFF >/dev/null &&
        cmake --build /tmp/base_build -j 8 >/dev/null && echo built >/tmp/base_build/ok) \
        >"$TMPD/base_build.log" 2>&1 &
fi

log "1. verified identical (onesweep, the default here)"
P=$((1 << E2))
for spec in "radix:2^$E1 --type u32" "radix:$((P + 3)) --type u32" \
    "radix:$((P + 3)) --type i32 --payload" "radix:$((P + 3)) --type f32 --payload" \
    "radix:$((P + 3)) --type f32 --payload --digit-bits 4" "radix:1000 --type f32 --payload"; do
    echo "-- $spec" >>"$O/verify.txt"
    timeout 120 "$SN" gpu sort $spec --random 7 >>"$O/verify.txt" 2>&1
    echo "rc=$?" >>"$O/verify.txt"
done
grep -E "^--|identical|differs|rc=|kernel" "$O/verify.txt" | tee -a "$O/log.txt"

log "2. kernel time, u32, medians of $REPS"
echo device,network,variant,n,median_ms,keys_per_s >"$O/bench.csv"
b() { # label, then env assignments
    local label=$1
    shift
    env SN_GPU_STAGE_CHUNK=0 "$@" timeout 120 "$SN" gpu bench bitonic --sizes 2^16,2^20,2^$E1,2^$E2 --type u32 --reps $REPS \
        --cpu-max 1 --variants radix --csv "$TMPD/b_$label.csv" >>"$O/log.txt" 2>&1
    tail -n +2 "$TMPD/b_$label.csv" | sed "s/,radix,/,$label,/" >>"$O/bench.csv"
}
b classic SN_RADIX_ONESWEEP=0
for e in $EVARS; do b "onesweep_e$e" SN_RADIX_ONESWEEP=1 SN_RADIX_E=$e; done
# XVARS="label:VAR=V,VAR=V ...": more onesweep rows under other environments
# ('+' in a value stands for a space: SN_RADIX_CLOPTS=-DOS_WIN=1+-DOS_EARLY=0)
for v in ${XVARS:-}; do
    envs=${v#*:}
    IFS=, read -r -a kv <<<"$envs"
    b "${v%%:*}" SN_RADIX_ONESWEEP=1 "${kv[@]//+/ }"
done
b onesweep SN_RADIX_ONESWEEP=1
b default
for v in 1 0; do # each launch's own time, onesweep and classic
    echo "-- SN_RADIX_ONESWEEP=$v" >>"$O/profile.txt"
    env SN_GPU_STAGE_CHUNK=0 SN_RADIX_ONESWEEP=$v timeout 60 "$SN" gpu bench bitonic --sizes 2^$E2 --type u32 \
        --reps 1 --cpu-max 1 --variants radix --profile >>"$O/profile.txt" 2>&1
done
grep -v "^profile" "$O/profile.txt" >/dev/null
for cap in 64 255; do # the radix kernels' registers, capped (the default) and not
    echo "-- -cl-nv-maxrregcount=$cap" >>"$O/regs.txt"
    python3 bench/cl_build_log.py --device NVIDIA --opts "-cl-std=CL1.2 -DWG=256 -DSN_NV=1 \
-DRADIX_E=16 -DMERGE_E=16 -DPG=1 -DTILE_E=32 -cl-nv-verbose -cl-nv-maxrregcount=$cap" \
        kernels/keys.cl kernels/sorts.cl kernels/onesweep.cl 2>&1 |
        grep -E "Compiling entry function|Used [0-9]+ registers|spill|clBuildProgram" >>"$O/regs.txt"
done
cat "$O/bench.csv" | tee -a "$O/log.txt"

log "3. anchors"
echo device,network,variant,n,median_ms,keys_per_s >"$O/anchors.csv"
timeout 120 python3 bench/gpu_anchors.py --sizes 2^$E1,2^$E2 --reps 21 --csv "$O/anchors.csv" 2>&1 |
    tee -a "$O/log.txt"
b onesweep_again SN_RADIX_ONESWEEP=1

if [ "${BIG:-1}" = 1 ]; then
    log "1b. $BIG_N keys, verified"
    for spec in "--type f32 --payload" "--type u32"; do
        s=$(date +%s)
        echo "-- radix:$BIG_N $spec" >>"$O/big.txt"
        timeout 150 "$SN" gpu sort radix:$BIG_N $spec --random 3 >>"$O/big.txt" 2>&1
        echo "rc=$? wall_s=$(($(date +%s) - s))" >>"$O/big.txt"
    done
    cat "$O/big.txt" | tee -a "$O/log.txt"
fi

if [ -f .dev/base.tar.gz ] && [ "${SMOKE:-0}" != 1 ] && [ "${BA:-1}" = 1 ]; then
    log "4. before/after"
    for i in $(seq 1 60); do [ -f /tmp/base_build/ok ] && break; sleep 2; done
    BASE=/tmp/base_build/src/cli/sortnet
    echo device,network,variant,n,median_ms,keys_per_s,build >"$O/ba.csv"
    for round in 1 2; do
        for w in base new; do
            bin=$SN
            [ $w = base ] && bin=$BASE
            [ -x "$bin" ] || continue
            rm -f "$TMPD"/ba_*.csv # (gpu bench --csv writes its file anew)
            SN_GPU_STAGE_CHUNK=0 timeout 120 "$bin" gpu bench bitonic oddeven-merge --sizes 2^20,2^24 --type u32 \
                --reps 7 --cpu-max 1 --variants fused,merge,hybrid --csv "$TMPD/ba_1.csv" \
                >>"$O/log.txt" 2>&1
            SN_GPU_STAGE_CHUNK=0 SN_RADIX_ONESWEEP=0 timeout 60 "$bin" gpu bench bitonic --sizes 2^24,2^26 --type u32 \
                --reps 7 --cpu-max 1 --variants radix --csv "$TMPD/ba_2.csv" >>"$O/log.txt" 2>&1
            for f in "$TMPD"/ba_*.csv; do tail -n +2 "$f" | sed "s/$/,$w$round/" >>"$O/ba.csv"; done
        done
    done
fi
echo "wall $(($(date +%s) - T0)) s" | tee -a "$O/log.txt"

python3 - "$O" "$E1" "$E2" <<'EOF' | tee "$O/table.txt"
import csv, os, sys
O, e1, e2 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = {}
dev = "?"
for name in ("bench.csv", "anchors.csv"):
    try:
        for r in csv.DictReader(open(os.path.join(O, name))):
            rows[(r["variant"], int(r["n"]))] = float(r["median_ms"])
            dev = r["device"] if name == "bench.csv" else dev
    except Exception as ex:
        print(f"({name}: {ex})")
print(f"onesweep radix on {dev}; u32 random keys, kernel time, medians (ms)\n")
vars_ = sorted({v for v, _ in rows})
es = sorted({n.bit_length() - 1 for _, n in rows})
print(f"{'variant':>16} " + " ".join(f"{'2^%d' % e:>9} {'/cupy':>6} {'/torch':>6} {'/copy':>6}" for e in es))
for v in vars_:
    cells = []
    for e in es:
        n = 1 << e
        x, c, t, cp = rows.get((v, n)), rows.get(("cupy.sort", n)), rows.get(("torch.sort", n)), rows.get(("torch.copy", n))
        f = lambda a, b: f"{a / b:6.2f}" if a and b else "     -"
        cells.append(f"{x:9.4f} {f(x, c)} {f(x, t)} {f(x, cp)}" if x else f"{'-':>9} {'-':>6} {'-':>6} {'-':>6}")
    print(f"{v:>16} " + " ".join(cells))
print("target: onesweep / cupy <= 0.95 at both sizes")
try:
    ba = {}
    for r in csv.DictReader(open(os.path.join(O, "ba.csv"))):
        ba.setdefault((r["network"], r["variant"], int(r["n"])), {})[r["build"]] = float(r["median_ms"])
    print("\nbefore/after (the base build and this one, alternating; radix classic):")
    print(f"{'network':>14} {'variant':>8} {'n':>9} {'base1':>8} {'new1':>8} {'base2':>8} {'new2':>8} {'new/base':>8}")
    for (net, var, n), d in sorted(ba.items()):
        b = [d.get(k) for k in ("base1", "new1", "base2", "new2")]
        f = lambda x: f"{x:8.4f}" if x else f"{'-':>8}"
        r = (b[1] + b[3]) / (b[0] + b[2]) if all(b) else None
        print(f"{net:>14} {var:>8} {n:>9} " + " ".join(f(x) for x in b) + (f" {r:8.3f}" if r else ""))
except OSError:
    pass
EOF
