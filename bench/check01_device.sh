#!/usr/bin/env bash
# check01_device.sh - the device 0-1 checker's figures on the GPU machine,
# before and after in one run (absolute times drift between machines).
# Run from the root of the BASE checkout (the code before: what the device
# tool ships), with .dev/debs as shared/DEVICE.md describes; this script's
# own checkout (the code after) is the one it lies in:
#
#   tar xzf .dev/after.tgz -C /tmp/after && bash /tmp/after/bench/check01_device.sh compare
#   ... && bash /tmp/after/bench/check01_device.sh prove48
#
# compare: builds both (core + OpenCL only, in parallel), then
#   1. the same verdict, counts, counterexample and redundant comparators
#      from both on networks that fail (a comparator left out: early, in the
#      middle, the last one), one with a redundant comparator appended (it
#      is tracked on the device), and best:36 that sorts;
#   2. `check best:40` and `check best:44 --method bruteforce --device
#      opencl` with each, wall times and the ratio after/before.
# prove48 [NET]: only the code after: `check NET` (default best:48;
#   mixed48: best:48 behind two butterfly layers, (i, i+24) for all i < 24
#   and (i, i+12) for i < 12 and 24 <= i < 36, a network the reduction
#   cannot shrink: `check --method reduce` refuses it at layer 3) with a
#   timeout of 590 s, its progress bar's lines every few percent.
# Results (small text) in $OUT/check01 (or /tmp/c01out).
# SMOKE=1 A=after/sortnet B=before/sortnet: the same steps on small
# networks with those binaries, on the default device (to try it on pocl).
set -uo pipefail
AFTER=$(cd "$(dirname "$0")/.." && pwd)
BASE=$(pwd)
MODE=${1:-compare}
O=${OUT:-/tmp/c01out}/check01
mkdir -p "$O"
log() { echo "== $*" | tee -a "$O/log.txt"; }
if [ "${SMOKE:-0}" = 1 ]; then
    N1="best:12 5" N2="best:12 30" N3="best:14 50" N4="best:16 -1 (0,15)" N5="best:13 -2" N6="best:16 -1"
    T1=best:18 T2=best:20 P48=best:20
else
    N1="best:32 5" N2="best:32 150" N3="best:34 200" N4="best:36 -1 (0,35)" N5="best:33 -2" N6="best:36 -1"
    T1=best:40 T2=best:44 P48=best:48
fi
T0=$(date +%s)
if [ "${SMOKE:-0}" != 1 ]; then
for f in "$BASE"/.dev/debs/*.deb; do dpkg -x "$f" /; done
ldconfig
mkdir -p /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
clinfo -l | tee -a "$O/log.txt"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader | tee -a "$O/log.txt"
build() { # SRC DIR
    cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DSORTNET_WITH_SDL=OFF \
        -DSORTNET_WITH_CAIRO=OFF -DSORTNET_WITH_JANSSON=OFF -DSORTNET_WITH_MPI=OFF \
        -DSORTNET_BUILD_BENCH=OFF -DSORTNET_BUILD_TESTS=OFF >/dev/null &&
        cmake --build "$2" -j 8 --target sortnet >/dev/null
}
build "$AFTER" /tmp/c01_after >"$O/build_after.log" 2>&1 &
if [ "$MODE" = compare ]; then
    build "$BASE" /tmp/c01_before >"$O/build_before.log" 2>&1 || { log "base build failed"; tail "$O/build_before.log"; }
fi
wait
A=/tmp/c01_after/src/cli/sortnet
B=/tmp/c01_before/src/cli/sortnet
[ -x "$A" ] || { log "build failed"; tail -20 "$O/build_after.log"; exit 1; }
log "built in $(($(date +%s) - T0)) s"
fi
dev="--method bruteforce --device opencl"

# NET DROP ADD: the bracket text of NET without comparator #DROP (counted in
# layer order from 0; -1: none), plus a last layer [ADD] when ADD is given
variant() {
    "$A" gen "$1" | python3 -c '
import ast, sys
drop, add = int(sys.argv[1]), sys.argv[2]
k = 0
for line in sys.stdin.read().split("\n"):
    if not line.strip():
        continue
    layer = []
    for c in ast.literal_eval(line):
        if k != drop:
            layer.append(c)
        k += 1
    if layer:
        print("[" + ",".join("(%d,%d)" % c for c in layer) + "]")
if add:
    print("[" + add + "]")
' "$2" "${3:-}"
}

if [ "$MODE" = compare ]; then
    log "1. the same results before and after (times cut)"
    same=0 cases=0
    for spec in "$N1" "$N2" "$N3" "$N4" "$N5" "$N6"; do
        set -- $spec
        net=$1 drop=$2 add=${3:-}
        if [ "$drop" = -2 ]; then # the last comparator
            drop=$(($("$A" info "$net" | awk '/^size:/ {print $2}') - 1))
        fi
        variant "$net" "$drop" "$add" >"/tmp/c01_net.txt"
        "$B" check /tmp/c01_net.txt $dev >/tmp/c01_b.txt 2>&1; rb=$?
        "$A" check /tmp/c01_net.txt $dev >/tmp/c01_a.txt 2>&1; ra=$?
        cut_t() { sed -E 's/ in [0-9.]+ (s|ms)//; /^checked on/d' "$1"; }
        cases=$((cases + 1))
        if [ $ra = $rb ] && [ "$(cut_t /tmp/c01_a.txt)" = "$(cut_t /tmp/c01_b.txt)" ]; then
            same=$((same + 1)); r=same
        else
            r=DIFFERENT
        fi
        log "$net less #$drop plus [$add]: exit $rb / $ra: $r"
        { echo "-- $net less #$drop plus [$add]: before (exit $rb)"; cat /tmp/c01_b.txt
          echo "-- after (exit $ra)"; cat /tmp/c01_a.txt; } >>"$O/same.txt"
    done
    log "same: $same of $cases"
    log "2. wall seconds, before and after"
    for net in $T1 $T2; do
        for side in before after; do
            bin=$B; [ $side = after ] && bin=$A
            s=$(date +%s.%N)
            "$bin" check $net $dev >"/tmp/c01_$side.txt" 2>&1
            rc=$?
            e=$(date +%s.%N)
            t=$(python3 -c "print('%.2f' % ($e - $s))")
            eval "t_$side=$t"
            log "$net $side: exit $rc, $t s: $(head -1 /tmp/c01_$side.txt)"
        done
        log "$net after/before: $(python3 -c "print('%.3f' % ($t_after / $t_before))")"
    done
else
    net=${2:-$P48}
    if [ "$net" = mixed48 ]; then
        { python3 -c "
print('[' + ','.join('(%d,%d)' % (i, i + 24) for i in range(24)) + ']')
print('[' + ','.join('(%d,%d)' % (i, i + 12) for i in list(range(12)) + list(range(24, 36))) + ']')"
          "$A" gen best:48; } >/tmp/mixed48.txt
        net=/tmp/mixed48.txt
        "$A" info $net | tee -a "$O/prove48.txt"
        "$A" check $net --method reduce 2>&1 | tee -a "$O/prove48.txt"
    fi
    P48=$net
    log "$P48 after (timeout 590 s)"
    s=$(date +%s)
    # a terminal for the progress bar (the CLI draws it only on one)
    script -qfec "timeout 590 $A check $P48 $dev --force" /dev/null | tr '\r' '\n' |
        awk '/%/ { p = $0; if (++k % 200 == 0) print } !/%/ { print } END { print p }' |
        tee -a "$O/prove48.txt"
    log "$P48: exit ${PIPESTATUS[0]} after $(($(date +%s) - s)) s"
fi
log "total $(($(date +%s) - T0)) s"
