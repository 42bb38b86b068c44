#!/usr/bin/env bash
# search_bench.sh - `sortnet search` against the best known sizes, and what
# each part of the method buys (docs/search.md). Runs the real binary and
# reads its improvement lines (stderr), so a build without jansson works.
#
#   bench/search_bench.sh [--sortnet BIN] [--seeds S] [--time T] [--big-time T2]
#                         [--big "13 14 15 16"] [--threads T] [--parts reach,big,ablation]
#                         [--jobs J] [--sorterhunter BIN --sh-config FILE]
#                         [--peer-time "10:60 13:120 15:150"] [--large-time T3]
#                         [--depth-time T4] [--csv FILE]
#
# reach:    n = 9..12, --time T (default 60) each, S seeds (default 3): the
#           median time to the best known size (not reached: counted as T).
# big:      n in --big (default 13..16), --time T2 (default 600), seed 1.
# ablation: n = 10, 11, 12, S seeds, in one run: the default method against
#           --prefix none, --symmetric and --threads 1; ratios of median
#           times to the best known size (> 1: the variant is slower).
# peer:     SorterHunter beside `sortnet search` (both one thread), n = 10..16,
#           S seeds: the seconds from the start of the process to the first
#           network of the best known size, on the same clock (this script's)
#           for both, each run ended at that size or at the cap of its n
#           (--peer-time "N:SECONDS ...", from that n on). --sorterhunter is a
#           SorterHunter binary built from its public source (this script never
#           downloads), --sh-config its sample_config.txt: only Ninputs and
#           RandomSeed are changed. Its improvement lines are read from stdout
#           (" {'N':..,'L':29,..." or "L=29") through `stdbuf -oL` (it prints
#           with printf and never exits: into a pipe its lines would wait in a
#           4 KiB buffer). The runs go n by n, seed by seed, SorterHunter then
#           sortnet, --jobs at a time, so both meet the same load.
# large:    n = 17..32, --large-time T3 (default 600) each, seed 1, one thread:
#           `sortnet search N` from scratch and `--prefix green --from C` (C the
#           smallest classic construction sortnet builds), against the best
#           known (best:N) and C.
# depth:    --goal depth for n = 8..10, S seeds, one thread, --depth-time T4
#           (default 60): the time to the optimal depth (6, 7, 7).
# --jobs J runs J searches at once (a machine with spare cores; each takes
# --threads cores; peer, large and depth take one). The machine's load is
# printed first and last: read every figure against it. --csv FILE: one row
# per run of peer, large and depth.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
S=${SORTNET:-$here/build/src/cli/sortnet}
seeds=3 t=60 big_t=600 big="13 14 15 16" threads=2 parts=reach,big,ablation jobs=1
shbin= shcfg= peer_t="10:60 13:120 15:150" large_t=600 depth_t=60 csv=
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
    --sorterhunter) shbin=$2; shift ;;
    --sh-config) shcfg=$2; shift ;;
    --peer-time) peer_t=$2; shift ;;
    --large-time) large_t=$2; shift ;;
    --depth-time) depth_t=$2; shift ;;
    --csv) csv=$2; shift ;;
    -h | --help) sed -n '2,/^set -u/{/^set -u/d;p}' "$0"; exit 0 ;;
    *) echo "search_bench.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
[ -x "$S" ] || { echo "search_bench.sh: no sortnet binary at $S (build first, or --sortnet BIN)" >&2; exit 3; }
export SEARCH_BENCH_BIN=$S SEARCH_BENCH_SEEDS=$seeds SEARCH_BENCH_TIME=$t SEARCH_BENCH_BIG_TIME=$big_t
export SEARCH_BENCH_BIG=$big SEARCH_BENCH_THREADS=$threads SEARCH_BENCH_PARTS=$parts SEARCH_BENCH_JOBS=$jobs
export SEARCH_BENCH_SH=$shbin SEARCH_BENCH_SH_CONFIG=$shcfg SEARCH_BENCH_PEER_TIME=$peer_t
export SEARCH_BENCH_LARGE_TIME=$large_t SEARCH_BENCH_DEPTH_TIME=$depth_t SEARCH_BENCH_CSV=$csv
case ,$parts, in
*,peer,*)
    [ -x "$shbin" ] && [ -r "$shcfg" ] || {
        echo "search_bench.sh: the peer part needs --sorterhunter BIN and --sh-config FILE (built from SorterHunter's public source)" >&2
        exit 3
    } ;;
esac
exec python3 - <<'EOF'
import os, re, shutil, statistics, subprocess, tempfile, time, json
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

# ---- peer, large, depth: one clock (this script's) for every program ----
SIZE_RE = re.compile(r"(?:'L':|\bL=| )(\d+) comparators|(?:'L':|\bL=)(\d+)")
DEPTH_RE = re.compile(r"(\d+) layers|'D':(\d+)|\bD=(\d+)")
rows = []

def stream(cmd, stop, cap, use_stderr):
    """Run cmd for at most cap seconds; stop(size, depth) -> True ends it.
    Returns (seconds to the first line that stopped it or None, best size, best depth)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL if use_stderr else subprocess.PIPE,
                         stderr=subprocess.PIPE if use_stderr else subprocess.DEVNULL, text=True, bufsize=1)
    f = p.stderr if use_stderr else p.stdout
    import threading
    killer = threading.Timer(cap, p.kill)
    killer.start()
    reach, best, bestd = None, None, None
    for line in f:
        m, d = SIZE_RE.search(line), DEPTH_RE.search(line)
        if not m or "done after" in line or "interrupted after" in line:
            continue
        c = int(m.group(1) or m.group(2))
        dd = int(next(g for g in d.groups() if g)) if d else None
        best = c if best is None else min(best, c)
        if dd is not None:
            bestd = dd if bestd is None else min(bestd, dd)
        if reach is None and stop(c, dd):
            reach = time.monotonic() - t0
            p.kill()
            break
    killer.cancel()
    p.kill()
    p.wait()
    return reach, best, bestd

def cap_for(n):
    cap = None
    for part in E["SEARCH_BENCH_PEER_TIME"].split():
        k, v = part.split(":")
        if n >= int(k):
            cap = float(v)
    return cap or 60.0

def sh_job(n, seed, tmp):
    cfg = os.path.join(tmp, f"sh_{n}_{seed}.txt")
    with open(E["SEARCH_BENCH_SH_CONFIG"]) as src, open(cfg, "w") as dst:
        for line in src:
            if re.match(r"^\s*#?\s*(Ninputs|RandomSeed)\s*=", line):
                continue
            dst.write(line)
        dst.write(f"Ninputs={n}\nRandomSeed={seed}\n")
    sb = ["stdbuf", "-oL"] if shutil.which("stdbuf") else []
    r, b, d = stream(sb + [E["SEARCH_BENCH_SH"], cfg], lambda c, dd: c <= BEST[n], cap_for(n), False)
    return ("peer", "SorterHunter", n, seed, cap_for(n), r, b, d)

def sn_job(n, seed):
    r, b, d = stream([BIN, "search", str(n), "--threads", "1", "--seed", str(seed), "--time", "0",
                      "--target", str(BEST[n])], lambda c, dd: c <= BEST[n], cap_for(n), True)
    return ("peer", "sortnet", n, seed, cap_for(n), r, b, d)

def net_size(spec):
    """Comparators and layers of NET (bracket format: one layer a line)."""
    out = subprocess.run([BIN, "transform", spec, "--format", "bracket"], capture_output=True,
                         text=True).stdout
    layers = [l for l in out.splitlines() if "(" in l]
    return sum(l.count("(") for l in layers), len(layers)

CLASSIC = ["pairwise", "oddeven-merge", "bitonic", "merge-exchange", "bose-nelson", "hibbard",
           "balanced", "bitonic-classic"]

def large_job(n, variant, classic):
    T3 = float(E["SEARCH_BENCH_LARGE_TIME"])
    extra = [] if variant == "scratch" else ["--prefix", "green", "--from", classic]
    r, b, d = stream([BIN, "search", str(n), "--threads", "1", "--seed", "1", "--time", str(T3)] + extra,
                     lambda c, dd: False, T3 + 30, True)
    return ("large", variant, n, 1, T3, r, b, d)

def depth_job(n, seed):
    T4 = float(E["SEARCH_BENCH_DEPTH_TIME"])
    opt = {8: 6, 9: 7, 10: 7}[n]
    r, b, d = stream([BIN, "search", str(n), "--goal", "depth", "--threads", "1", "--seed", str(seed),
                      "--time", "0", "--target-depth", str(opt)], lambda c, dd: dd is not None and dd <= opt,
                     T4, True)
    return ("depth", "sortnet", n, seed, T4, r, b, d)

jobs = []
if "peer" in PARTS:
    tmp = tempfile.mkdtemp(prefix="search_bench.")
    for n in range(10, 17):
        for s in range(1, SEEDS + 1):
            jobs.append((cap_for(n), lambda n=n, s=s: sh_job(n, s, tmp)))
            jobs.append((cap_for(n) / 2, lambda n=n, s=s: sn_job(n, s)))
classics = {}
if "large" in PARTS:
    for n in range(17, 33):
        sizes = sorted((net_size(f"{g}:{n}")[0], i, g) for i, g in enumerate(CLASSIC))
        classics[n] = (sizes[0][2], sizes[0][0], net_size(f"best:{n}")[0])
        jobs.append((float(E["SEARCH_BENCH_LARGE_TIME"]) + 1, lambda n=n: large_job(n, "scratch", None)))
        jobs.append((float(E["SEARCH_BENCH_LARGE_TIME"]) + 1,
                     lambda n=n: large_job(n, "from", f"{classics[n][0]}:{n}")))
if "depth" in PARTS:
    for n in (8, 9, 10):
        for s in range(1, SEEDS + 1):
            jobs.append((float(E["SEARCH_BENCH_DEPTH_TIME"]) / 4, lambda n=n, s=s: depth_job(n, s)))
if jobs:
    if "peer" not in PARTS:  # the peer's runs stay interleaved seed by seed
        jobs.sort(key=lambda j: -j[0])  # the longest first: the J slots fill evenly
    import threading
    lock = threading.Lock()
    csvf = open(E["SEARCH_BENCH_CSV"], "w") if E["SEARCH_BENCH_CSV"] else None
    if csvf:
        csvf.write("part,program,n,seed,cap_s,seconds_to_target,best_size,best_depth\n")

    def one(j):  # each row goes to the CSV as it comes: a run cut short keeps them
        r = j[1]()
        with lock:
            if csvf:
                csvf.write(",".join("" if x is None else (f"{x:.3f}" if isinstance(x, float) else str(x))
                                    for x in r) + "\n")
                csvf.flush()
        return r
    with ThreadPoolExecutor(max_workers=JOBS) as ex:
        rows = list(ex.map(one, jobs))

def med(xs, cap):
    return statistics.median([x if x is not None else cap for x in xs])

if "peer" in PARTS:
    print(f"\n## SorterHunter beside sortnet: median seconds to the best known size, seeds 1..{SEEDS},"
          " one thread each (not reached: counted as the cap)")
    print("| n | best known | cap (s) | SorterHunter | reached | sortnet | reached | ratio SH/sortnet |")
    for n in range(10, 17):
        a = [r for r in rows if r[0] == "peer" and r[1] == "SorterHunter" and r[2] == n]
        b = [r for r in rows if r[0] == "peer" and r[1] == "sortnet" and r[2] == n]
        ma, mb = med([r[5] for r in a], cap_for(n)), med([r[5] for r in b], cap_for(n))
        ga, gb = sum(r[5] is not None for r in a), sum(r[5] is not None for r in b)
        print(f"| {n} | {BEST[n]} | {cap_for(n):g} | {ma:.2f} s | {ga}/{len(a)} | {mb:.2f} s | {gb}/{len(b)} | {ma / max(mb, 1e-3):.1f} |")
if "large" in PARTS:
    print(f"\n## n = 17..32: comparators after {E['SEARCH_BENCH_LARGE_TIME']} s, seed 1, one thread")
    print("| n | best known | smallest classic | from scratch | --prefix green --from classic |")
    for n in range(17, 33):
        a = [r for r in rows if r[0] == "large" and r[1] == "scratch" and r[2] == n][0]
        b = [r for r in rows if r[0] == "large" and r[1] == "from" and r[2] == n][0]
        g, cs, bk = classics[n]
        print(f"| {n} | {bk} | {cs} ({g}) | {a[6]} ({a[7]} layers) | {b[6]} ({b[7]} layers) |")
if "depth" in PARTS:
    print(f"\n## --goal depth: seconds to the optimal depth, seeds 1..{SEEDS}, one thread")
    for n in (8, 9, 10):
        a = [r for r in rows if r[0] == "depth" and r[2] == n]
        print(f"n={n}: median {med([r[5] for r in a], float(E['SEARCH_BENCH_DEPTH_TIME'])):.2f} s, "
              f"reached {sum(r[5] is not None for r in a)}/{len(a)}, times "
              + " ".join("-" if r[5] is None else f"{r[5]:.2f}" for r in a))
print(f"\nload after: {load()}  {time.strftime('%Y-%m-%d %H:%M:%S %Z')}")
EOF
