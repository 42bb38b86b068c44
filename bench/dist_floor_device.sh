#!/usr/bin/env bash
# dist_floor_device.sh - the merge-split against its floor, in one run on
# a host with 2 NVIDIA GPUs and Open MPI (the two-GPU kind of the lent
# machines): `dist sort` at 2^28 and 2^30 u32 keys with -np 2 (best:2 is
# one merge-split layer), -np 1 and one process without mpirun, each rank
# sorting locally on its GPU; then MPI_Sendrecv of the bytes each -np 2
# run's busiest rank sent (bench/sendrecv_floor.c), so every
# layer is said as a multiple of its floor measured in the same run. With
# a second source tree (BASE=DIR, e.g. main's) its binary runs the same
# -np 2 rows beside this one ("before"). From the repository root:
#
#   BASE=/path/to/main bench/dist_floor_device.sh   # results in $OUT/dist_floor
#
# Set-up as bench/device.sh: the OpenCL .debs in .dev/debs (DEBS=DIR
# elsewhere). Every run is verified (sorted blocks, ordered boundaries,
# multiset hash) and has --timeout. LOGS="28 30" sets the sizes,
# SORTED_LOG=28 the sorted row's, LOCAL=cpu the local sort (a dry run),
# ONECHUNK=1 adds the largest row with unchunked exchanges.
set -uo pipefail
cd "$(dirname "$0")/.."
O=${OUT:-/tmp/dfl}/dist_floor
mkdir -p "$O"
. bench/device_env.sh # the OpenCL loader, mpirun as root, MPIRUN, MPICC
build() { # SRC DIR
    cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DSORTNET_WITH_SDL=OFF \
        -DSORTNET_WITH_CAIRO=OFF -DSORTNET_WITH_JANSSON=OFF -DSORTNET_BUILD_BENCH=OFF \
        -DSORTNET_BUILD_TESTS=OFF -DSORTNET_WITH_MPI=ON -DMPI_C_COMPILER="$MPICC" >"$2.log" 2>&1 &&
        cmake --build "$2" -j "$(nproc)" --target sortnet >>"$2.log" 2>&1
}
"$MPICC" -O2 -o /tmp/dfl_sendrecv bench/sendrecv_floor.c || { echo "sendrecv_floor.c: no build"; exit 3; }
# NEW_BIN / BASE_BIN: binaries already built (a dry run elsewhere)
NEW=${NEW_BIN:-}
BIN_BASE=${BASE_BIN:-}
if [ -z "$NEW" ]; then
    mkdir -p /tmp/dfl_new
    build "$PWD" /tmp/dfl_new &
    b1=$!
fi
if [ -z "$BIN_BASE" ] && [ -n "${BASE:-}" ]; then
    mkdir -p /tmp/dfl_base
    build "$BASE" /tmp/dfl_base &
    b2=$!
fi
if [ -z "$NEW" ]; then
    wait $b1 || { echo "build failed: $(tail -20 /tmp/dfl_new.log)"; exit 3; }
    NEW=/tmp/dfl_new/src/cli/sortnet
fi
if [ -z "$BIN_BASE" ] && [ -n "${BASE:-}" ]; then
    if wait "$b2"; then BIN_BASE=/tmp/dfl_base/src/cli/sortnet; else echo "base build failed: $(tail -20 /tmp/dfl_base.log)"; fi
fi
{
    date -u
    nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader || true
    lscpu | grep -E 'Model name|^CPU\(s\)'
    "$MPIRUN" --version | head -1
} | tee "$O/host.txt"

run() { # NAME NP BIN ARGS...: one verified run, its report in $O/NAME.txt (NP 0: no mpirun)
    local name=$1 np=$2 bin=$3
    shift 3
    if [ "$np" = 0 ]; then
        timeout 200 "$bin" "$@" --local "${LOCAL:-gpu}" --timeout 190 >"$O/$name.txt" 2>"$O/$name.err"
    else
        timeout 200 "$MPIRUN" --bind-to none -np "$np" "$bin" "$@" --local gpu \
            --timeout 190 >"$O/$name.txt" 2>"$O/$name.err"
    fi
    echo "== $name (np $np): exit $?; $(grep -E '^  (local sort|layer)|^keys per second|^bytes sent|^identical|NOT identical' "$O/$name.txt" | tr -s ' ' | tr '\n' ';')" |
        tee -a "$O/summary.txt"
}
LOGS=${LOGS:-28 30}
for lg in $LOGS; do
    run "new_np2_$lg" 2 "$NEW" dist sort --keys "2^$lg" --type u32
    [ -n "$BIN_BASE" ] && run "base_np2_$lg" 2 "$BIN_BASE" dist sort --keys "2^$lg" --type u32
    run "new_np1_$lg" 1 "$NEW" dist sort --keys "2^$lg" --type u32
    run "new_single_$lg" 0 "$NEW" dist sort --keys "2^$lg" --type u32
done
# ONECHUNK=1: the largest -np 2 row again with each exchange as one message
# (SN_DIST_CHUNK): what the 16 MiB chunks cost against the floor's one call
if [ -n "${ONECHUNK:-}" ]; then
    lg=${LOGS##* }
    name="new_np2_${lg}_onechunk"
    timeout 200 "$MPIRUN" --bind-to none -x SN_DIST_CHUNK=1073741824 -np 2 "$NEW" dist sort \
        --keys "2^$lg" --type u32 --local "${LOCAL:-gpu}" --timeout 190 >"$O/$name.txt" 2>"$O/$name.err"
    echo "== $name (np 2): exit $?; $(grep -E '^  layer|^bytes sent|^identical' "$O/$name.txt" | tr -s ' ' | tr '\n' ';')" |
        tee -a "$O/summary.txt"
fi
# sorted input (every key equal): nothing crosses
run "new_np2_sorted_${SORTED_LOG:=28}" 2 "$NEW" dist sort --keys "2^$SORTED_LOG" --type u32 --distinct 1
# the floor: MPI_Sendrecv of every byte count a -np 2 run's busiest rank sent
bytes=$(for f in "$O"/*_np2_[0-9]*.txt; do
    awk '/^bytes sent per rank:/ { m = 0; for (i = 5; i <= NF; i++) if ($i > m) m = $i; print m }' "$f"
done | sort -un | grep -v '^0$' | tr '\n' ' ')
echo "floor sizes: $bytes" | tee -a "$O/summary.txt"
# shellcheck disable=SC2086
timeout 200 "$MPIRUN" --bind-to none -np 2 /tmp/dfl_sendrecv $bytes 2>&1 |
    tee "$O/sendrecv.txt" | tee -a "$O/summary.txt"
python3 - "$O" <<'PY' | tee "$O/table.md"
import glob, os, re, sys
o = sys.argv[1]
floor = {}
for line in open(os.path.join(o, "sendrecv.txt")):
    m = re.match(r"sendrecv (\d+) first (\S+) best (\S+)", line)
    if m:
        floor[int(m.group(1))] = float(m.group(3))
print("| run | keys | local sort s | layer s | bytes sent (busiest rank) | Sendrecv of those bytes s | layer / Sendrecv | keys/s | verdict |")
print("|---|---|---|---|---|---|---|---|---|")
for f in sorted(glob.glob(os.path.join(o, "*.txt"))):
    name = os.path.basename(f)[:-4]
    if name in ("host", "summary", "sendrecv", "table"):
        continue
    t = open(f).read()
    n = re.search(r"dist sort: (\d+) keys", t)
    loc = re.search(r"^  local sort\s+(\S+)", t, re.M)
    lay = re.findall(r"^  layer \d+\s+(\S+)", t, re.M)
    by = re.search(r"^bytes sent per rank:(.*)$", t, re.M)
    kps = re.search(r"^keys per second[^:]*: (\S+)", t, re.M)
    b = max(int(x) for x in by.group(1).split()) if by else 0
    ls = ", ".join(lay) if lay else "-"
    fl = floor.get(b)
    ratio = "%.2f" % (float(lay[0]) / fl) if lay and fl else "-"
    print("| %s | %s | %s | %s | %d | %s | %s | %s | %s |" % (
        name, n.group(1) if n else "?", loc.group(1) if loc else "?", ls, b,
        "%.4f" % fl if fl else "-", ratio, kps.group(1) if kps else "?",
        "identical" if re.search(r"^identical$", t, re.M) else "NOT identical / failed"))
PY
echo "results: $O"
