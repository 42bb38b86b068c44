#!/usr/bin/env bash
# onesweep_variants_device.sh - the onesweep radix sort's build-time
# variants (kernels/onesweep.cl's OS_* knobs, other build options; the
# register cap is SN_RADIX_MAXRREG, for the whole run) timed by one build
# in one run on the GPU machine, beside the classic passes and
# the anchors (CUB through cupy.sort, torch.sort, a device copy): run from
# the repository root, with .dev/debs as shared/DEVICE.md describes.
#
#   bench/onesweep_variants_device.sh            # $OUT/osv (or /tmp/osvout)
#   VARS="label:-DOS_WIN=4 ..." bench/onesweep_variants_device.sh
#
# Each variant is "label:build options" (options with spaces as '+'
# between them: "ew4:-DOS_EARLY=1+-DOS_WIN=4"), passed as SN_RADIX_CLOPTS;
# the default runs first, in the middle and last (drift). Every kernel of
# the sort is timed (SN_GPU_STAGE_CHUNK=0: a staged upload would run
# os_hist on its chunks, outside the kernel time; the first run of this
# script, docs/bench/h200-2026-11-28-onesweep-variants.txt, timed the
# scatters alone that way). Writes bench.csv
# (gpu bench rows, the variant's label in the variant column),
# anchors.csv, profile.txt (each launch's time at 2^E2: the default and
# the classic passes), regs.txt (each kernel's registers and local memory
# from -cl-nv-verbose, default and the variants), verify.txt (key+payload
# sorts verified at 2^22+3 under each variant) and table.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != --inner ]; then
    exec bench/device.sh "bash bench/onesweep_variants_device.sh --inner"
fi
O=${OUT:-/tmp/osvout}/osv
mkdir -p "$O"
TMPD=$(mktemp -d)
REPS=${REPS:-9}
E1=${E1:-24} E2=${E2:-26}
VARS=${VARS:-"win1:-DOS_WIN=1 win2:-DOS_WIN=2 win8:-DOS_WIN=8 late:-DOS_EARLY=0
 hc1:-DOS_HCOPIES=1 hc4:-DOS_HCOPIES=4 hc8:-DOS_HCOPIES=8"}
T0=$(date +%s)
# the radix kernels' program on NVIDIA's (src/gpu/sorts.c), with its register cap
BASEOPTS="-DWG=256 -DSN_SORT_BUG=0 -DSN_NV=1 -DRADIX_E=${SN_RADIX_E:-16} -DMERGE_E=16 -DPG=1 -DTILE_E=32 \
-cl-nv-maxrregcount=${SN_RADIX_MAXRREG:-64}"

regs() { # label, options: the kernels' registers as NVIDIA's compiler reports them
    echo "-- $1: $2" >>"$O/regs.txt"
    python3 bench/cl_build_log.py --device NVIDIA --opts "-cl-std=CL1.2 $BASEOPTS -cl-nv-verbose $2" \
        kernels/keys.cl kernels/sorts.cl kernels/onesweep.cl 2>&1 |
        grep -E "Compiling entry function|Used [0-9]+ registers|spill|error|clBuildProgram" \
        >>"$O/regs.txt"
}
echo device,network,variant,n,median_ms,keys_per_s >"$O/bench.csv"
b() { # label, then env assignments
    local label=$1
    shift
    env SN_GPU_STAGE_CHUNK=0 "$@" timeout 120 "$SN" gpu bench bitonic --sizes 2^$E1,2^$E2 --type u32 --reps $REPS \
        --cpu-max 1 --variants radix --csv "$TMPD/b.csv" >>"$O/log.txt" 2>&1 ||
        echo "$label: rc=$?" | tee -a "$O/log.txt"
    tail -n +2 "$TMPD/b.csv" | sed "s/,radix,/,$label,/" >>"$O/bench.csv"
    rm -f "$TMPD/b.csv"
}
regs default ""
b default SN_RADIX_ONESWEEP=1
b classic SN_RADIX_ONESWEEP=0
i=0
for v in $VARS; do
    label=${v%%:*} opts=${v#*:}
    opts=${opts//+/ }
    regs "$label" "$opts"
    b "$label" SN_RADIX_ONESWEEP=1 "SN_RADIX_CLOPTS=$opts"
    for t in "--type f32 --payload" "--type u32"; do
        echo "-- $label radix:$(((1 << 22) + 3)) $t" >>"$O/verify.txt"
        SN_RADIX_ONESWEEP=1 SN_RADIX_CLOPTS="$opts" timeout 60 "$SN" gpu sort \
            radix:$(((1 << 22) + 3)) $t --random 5 >>"$O/verify.txt" 2>&1
        echo "rc=$?" >>"$O/verify.txt"
    done
    i=$((i + 1))
    [ $i = 8 ] && b default_mid SN_RADIX_ONESWEEP=1
done
b default_end SN_RADIX_ONESWEEP=1
for v in 1 0; do
    echo "-- SN_RADIX_ONESWEEP=$v" >>"$O/profile.txt"
    env SN_RADIX_ONESWEEP=$v timeout 60 "$SN" gpu bench bitonic --sizes 2^$E2 --type u32 \
        --reps 1 --cpu-max 1 --variants radix --profile >>"$O/profile.txt" 2>&1
done
echo device,network,variant,n,median_ms,keys_per_s >"$O/anchors.csv"
timeout 120 python3 bench/gpu_anchors.py --sizes 2^$E1,2^$E2 --reps 21 --csv "$O/anchors.csv" \
    >>"$O/log.txt" 2>&1
echo "wall $(($(date +%s) - T0)) s" | tee -a "$O/log.txt"
grep -c identical "$O/verify.txt" | sed 's/^/identical: /' | tee -a "$O/log.txt"
grep -B3 "rc=[1-9]" "$O/verify.txt" | tee -a "$O/log.txt"

python3 - "$O" "$E1" "$E2" <<'EOF' | tee "$O/table.txt"
import csv, os, sys
O, e1, e2 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows, order = {}, []
for name in ("bench.csv", "anchors.csv"):
    for r in csv.DictReader(open(os.path.join(O, name))):
        rows[(r["variant"], int(r["n"]))] = float(r["median_ms"])
        if r["variant"] not in order:
            order.append(r["variant"])
ns = (1 << e1, 1 << e2)
d = {n: [rows[(v, n)] for v in ("default", "default_mid", "default_end") if (v, n) in rows] for n in ns}
dm = {n: sorted(x)[len(x) // 2] if x else None for n, x in d.items()}
print("u32 random keys, kernel time, medians (ms); /def: against the default's median of its 3 runs")
print(f"{'variant':>14} " + " ".join(f"{'2^%d' % e:>9} {'/def':>6} {'/cupy':>6} {'/torch':>6}" for e in (e1, e2)))
for v in order:
    cells = []
    for n in ns:
        x, c, t = rows.get((v, n)), rows.get(("cupy.sort", n)), rows.get(("torch.sort", n))
        f = lambda a, b: f"{a / b:6.3f}" if a and b else "     -"
        cells.append(f"{x:9.4f} {f(x, dm[n])} {f(x, c)} {f(x, t)}" if x else f"{'-':>9}")
    print(f"{v:>14} " + " ".join(cells))
print("target: onesweep / cupy <= 0.95 at both sizes")
EOF
