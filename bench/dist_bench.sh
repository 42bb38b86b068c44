#!/bin/bash
# dist_bench.sh - keys per second of `sortnet dist sort` on this machine:
# P = 1, 2, 4 ranks (mpirun --oversubscribe) x N = 2^20..2^24 keys, the
# networks (best:P; bitonic:4 beside it at P = 4) against sample sort, with
# the bytes each rank sent; and P = 1 against the single-process sort of
# the same keys (bench_dist_ref: the host's radix sort, no MPI), as a ratio.
# Never a test. Prints a table; CSV=FILE also writes it as CSV.
#
#   bench/dist_bench.sh [BUILD_DIR]      (env: PS="1 2 4" LOGS="20 21 22 23 24" REPS=3)
#
# keys/s counts the sort: the local sort and the exchanges (the slowest
# rank's time of each), not making the keys or verifying them. Every run is
# verified as always (for N <= 2^24 against the reference on rank 0).
set -u
B=${1:-build}
S=$B/src/cli/sortnet
REF=$B/bench/bench_dist_ref
PS=${PS:-1 2 4}
LOGS=${LOGS:-20 21 22 23 24}
REPS=${REPS:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[ -x "$S" ] && [ -x "$REF" ] || { echo "build first (sortnet with MPI, bench_dist_ref)" >&2; exit 3; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the single-process baseline, medians of 3 runs (2^20 up to the largest N)
max=20
for lg in $LOGS; do [ "$lg" -gt "$max" ] && max=$lg; done
"$REF" "$max" >"$tmp/ref"

echo "P,N,algorithm,network,keys_per_s,local_sort_s,exchange_s,bytes_sent_max,ratio_to_single" >"$tmp/csv"
printf '%-2s %-9s %-8s %-16s %12s %10s %10s %14s %s\n' P N algorithm network keys/s local_s exchange_s bytes/rank "P=1/single (keys/s)"
for p in $PS; do
    runs="network:auto sample:-"
    [ "$p" = 4 ] && runs="network:auto network:bitonic:4 sample:-"
    for lg in $LOGS; do
        n=$((1 << lg))
        for r in $runs; do
            alg=${r%%:*}
            net=${r#*:}
            args=(dist sort --keys "$n" --algorithm "$alg" --json)
            [ "$alg" = network ] && args+=(--network "$net")
            : >"$tmp/runs"
            for ((i = 0; i < REPS; i++)); do
                mpirun --oversubscribe -np "$p" "$S" "${args[@]}" >>"$tmp/runs" 2>/dev/null ||
                    echo "P=$p N=$n $r: failed" >&2
            done
            python3 - "$tmp/runs" "$tmp/ref" "$p" "$n" "$alg" >>"$tmp/csv" <<'PY'
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
ref = {int(l.split()[0]): float(l.split()[1]) for l in open(sys.argv[2])}
p, n, alg = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
if not runs or not all(r["identical"] for r in runs):
    print(f"{p},{n},{alg},?,failed,,,,"); sys.exit()
t = statistics.median(r["seconds"]["local_sort"] + r["seconds"]["exchange"] for r in runs)
loc = statistics.median(r["seconds"]["local_sort"] for r in runs)
ex = statistics.median(r["seconds"]["exchange"] for r in runs)
ratio = f"{ref[n] / t:.3f}" if p == 1 and n in ref else ""
print(f"{p},{n},{alg},{runs[0]['network'] or '-'},{n / t:.4g},{loc:.4f},{ex:.4f},"
      f"{max(runs[0]['bytes_sent'])},{ratio}")
PY
            tail -1 "$tmp/csv" | awk -F, '{printf "%-2s %-9s %-8s %-16s %12s %10s %10s %14s %s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9}'
        done
    done
done
echo "single process (bench_dist_ref, same keys): N seconds keys/s"
cat "$tmp/ref"
[ -n "${CSV:-}" ] && cp "$tmp/csv" "$CSV"
exit 0
