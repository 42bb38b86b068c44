#!/usr/bin/env bash
# search_bench.sh - `sortnet search` against the best known sizes, and what
# each part of the method buys (docs/search.md). Runs the real binary and
# reads its improvement lines (stderr), so a build without jansson works.
#
#   bench/search_bench.sh [--sortnet BIN] [--seeds S] [--time T] [--big-time T2]
#                         [--big "13 14 15 16"] [--threads T] [--parts reach,big,ablation]
#                         [--jobs J]
#
# reach:    n = 9..12, --time T (default 60) each, S seeds (default 3): the
#           median time to the best known size (not reached: counted as T).
# big:      n in --big (default 13..16), --time T2 (default 600), seed 1.
# ablation: n = 10, 11, 12, S seeds, in one run: the default method against
#           --prefix none, --symmetric and --threads 1; ratios of median
#           times to the best known size (> 1: the variant is slower).
# --jobs J runs J searches at once (a machine with spare cores; each takes
# --threads cores). The machine's load is printed first and last: read
# every figure against it.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
S=${SORTNET:-$here/build/src/cli/sortnet}
seeds=3 t=60 big_t=600 big="13 14 15 16" threads=2 parts=reach,big,ablation jobs=1
while [ $# -gt 0 ]; do
    case $1 in
    --sortnet) S=$2; shift ;;
    --seeds) seeds=$2; shift ;;
    --time) t=$2; shift ;;
    --big-time) big_t=$2; shift ;;
    --big) big=$2; shift ;;
    --threads) threads=$2; shift ;;
    --parts) parts=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "search_bench.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
[ -x "$S" ] || { echo "search_bench.sh: no sortnet binary at $S (build first, or --sortnet BIN)" >&2; exit 3; }
export SEARCH_BENCH_BIN=$S SEARCH_BENCH_SEEDS=$seeds SEARCH_BENCH_TIME=$t SEARCH_BENCH_BIG_TIME=$big_t
export SEARCH_BENCH_BIG=$big SEARCH_BENCH_THREADS=$threads SEARCH_BENCH_PARTS=$parts SEARCH_BENCH_JOBS=$jobs
exec python3 - <<'EOF'
import os, re, statistics, subprocess, time
from concurrent.futures import ThreadPoolExecutor

BEST = {9: 25, 10: 29, 11: 35, 12: 39, 13: 45, 14: 51, 15: 56, 16: 60}
E = os.environ
BIN, SEEDS, T = E["SEARCH_BENCH_BIN"], int(E["SEARCH_BENCH_SEEDS"]), float(E["SEARCH_BENCH_TIME"])
BIG_T, BIG = float(E["SEARCH_BENCH_BIG_TIME"]), [int(x) for x in E["SEARCH_BENCH_BIG"].split()]
TH, PARTS, JOBS = E["SEARCH_BENCH_THREADS"], E["SEARCH_BENCH_PARTS"].split(","), int(E["SEARCH_BENCH_JOBS"])
LINE = re.compile(r"^search: +([0-9.]+) s +([0-9]+) comparators +([0-9]+) layers")

def load():
    return open("/proc/loadavg").read().split()[0] + f" (load average, {os.cpu_count()} CPUs)"

def run(n, seed, budget, extra):
    """Seconds to the best known size (None: not reached) and the best size."""
    cmd = [BIN, "search", str(n), "--time", str(budget), "--seed", str(seed),
           "--target", str(BEST[n])] + (["--threads", TH] if "--threads" not in extra else []) + extra
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    reach, size = None, None
    for line in p.stderr.splitlines():
        m = LINE.match(line)
        if m:
            s, c = float(m.group(1)), int(m.group(2))
            size = c if size is None else min(size, c)
            if c <= BEST[n] and reach is None:
                reach = s
    return reach, size

def many(jobs):
    with ThreadPoolExecutor(max_workers=JOBS) as ex:
        return list(ex.map(lambda j: run(*j), jobs))

def median_time(results, budget):
    return statistics.median([r if r is not None else budget for r, _ in results])

def fmt(results, budget):
    got = sum(r is not None for r, _ in results)
    sizes = sorted(s for _, s in results if s is not None)
    return f"{median_time(results, budget):8.2f} s  reached {got}/{len(results)}  best sizes {sizes}"

print(f"sortnet search benchmark: {BIN}, --threads {TH}, {JOBS} search(es) at once")
print(f"load before: {load()}  {time.strftime('%Y-%m-%d %H:%M:%S %Z')}")
if "reach" in PARTS:
    print(f"\n## time to the best known size, n = 9..12, --time {T:g}, seeds 1..{SEEDS} (median)")
    for n in range(9, 13):
        res = many([(n, s, T, []) for s in range(1, SEEDS + 1)])
        print(f"n={n:2d} best known {BEST[n]:2d}: {fmt(res, T)}", flush=True)
if "big" in PARTS:
    print(f"\n## n = {BIG[0]}..{BIG[-1]}, --time {BIG_T:g}, seed 1")
    res = many([(n, 1, BIG_T, []) for n in BIG])
    for n, (r, s) in zip(BIG, res):
        print(f"n={n:2d} best known {BEST[n]:2d}: " +
              (f"reached in {r:.1f} s" if r is not None else f"not reached in {BIG_T:g} s: best {s}"),
              flush=True)
if "ablation" in PARTS:
    variants = [("default (greedy prefix, threads %s)" % TH, []), ("--prefix none", ["--prefix", "none"]),
                ("--symmetric", ["--symmetric"]), ("--threads 1", ["--threads", "1"])]
    print(f"\n## ablation: median time to the best known size over seeds 1..{SEEDS}, --time {T:g};"
          " ratio = variant / default (> 1: slower without the part)")
    for n in (10, 11, 12):
        base = None
        for name, extra in variants:
            res = many([(n, s, T, extra) for s in range(1, SEEDS + 1)])
            m = median_time(res, T)
            base = m if base is None else base
            print(f"n={n:2d} {name:38s} {fmt(res, T)}  ratio {m / base:5.2f}", flush=True)
print(f"\nload after: {load()}  {time.strftime('%Y-%m-%d %H:%M:%S %Z')}")
EOF
