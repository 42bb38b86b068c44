#!/usr/bin/env bash
# time_test_command.sh - time the README's test command as a new user meets
# it: a fresh clone of this checkout's HEAD (or of REV), pocl's kernel cache
# empty, and optionally busy loops beside it; prints each stage's time.
#
#   tools/time_test_command.sh [--busy N] [--rev REV] [--keep] [--dir D]
#
#   --busy N   run N busy loops (one core each) beside the test command,
#              as on a machine where other work runs (default 0: idle)
#   --rev REV  clone this commit instead of HEAD (to time an older tree
#              the same way: the baseline of docs/testing.md)
#   --dir D    where the clone goes (default: a new folder under /tmp);
#              the clone sits in D/sortnet, so nothing beside it is read
#   --keep     keep the clone afterwards (default: removed on success)
#
# The cache is emptied by pointing XDG_CACHE_HOME (pocl's default cache
# lives under it) at a new folder, and POCL_CACHE_DIR is unset, so a cache
# the test command sets up for itself starts empty too. apt-get is skipped
# (SORTNET_SKIP_INSTALL=1): install first with `tools/setup.sh build`, so
# the figure is the tests' time, not the download's.
#
# Output: one line per stage (the test command's "setup: stage" markers),
# its wall time and the machine's busy cores over it (sampled from
# /proc/stat every 2 s into D/cpu.log: the builds ahead and any --busy
# loops count there), then the total, the test command's own summary (each
# stage's CPU time and the cores it kept busy on average) and the verdict;
# the whole log is kept in D/test.log. Exit status: the test command's.
set -euo pipefail

busy=0
rev=HEAD
keep=0
dir=
usage() { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case $1 in
    --busy) busy=${2:?--busy needs a count}; shift 2 ;;
    --rev) rev=${2:?--rev needs a commit}; shift 2 ;;
    --dir) dir=${2:?--dir needs a folder}; shift 2 ;;
    --keep) keep=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "time_test_command.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
case $busy in '' | *[!0-9]*) echo "time_test_command.sh: --busy needs a whole number, not '$busy'" >&2; exit 2 ;; esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
commit=$(git -C "$root" rev-parse --verify --quiet "$rev^{commit}") || {
    echo "time_test_command.sh: '$rev' is not a commit of $root" >&2
    exit 2
}
[ -n "$dir" ] || dir=$(mktemp -d /tmp/sortnet-timing.XXXXXX)
mkdir -p "$dir"
clone=$dir/sortnet
if [ -e "$clone" ]; then
    echo "time_test_command.sh: $clone already exists; give another --dir" >&2
    exit 2
fi
git clone -q --no-checkout "$root" "$clone"
git -C "$clone" checkout -q "$commit"
mkdir -p "$dir/cache"

pids=()
# The machine's busy cores, sampled every 2 s from /proc/stat (all CPUs:
# the test command, its builds ahead, and any --busy loops): a stage whose
# cores sit idle shows here even where its own CPU count cannot (what a
# stage starts in the background is counted when it is waited for).
cpulog=$dir/cpu.log
sample_cpu() {
    local t0=$1 cpu user nice sys idle iow irq sirq steal rest
    while :; do
        read -r cpu user nice sys idle iow irq sirq steal rest </proc/stat
        echo "$(($(date +%s) - t0)) $((user + nice + sys + irq + sirq + steal)) $((idle + iow))"
        sleep 2
    done >"$cpulog"
}
stop_busy() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap stop_busy EXIT
for ((i = 0; i < busy; i++)); do
    (while :; do :; done) &
    pids+=($!)
done

log=$dir/test.log
echo "time_test_command.sh: $(git -C "$clone" log -1 --format='%h %s' | cut -c1-72)" >&2
echo "time_test_command.sh: clone $clone, pocl cache empty, $busy busy loop(s), $(nproc) cores" >&2
start=$(date +%s)
sample_cpu "$start" &
pids+=($!)
# Each line gets the seconds since the start; the stage markers are the
# test command's "setup: ..." lines (and its first build, before any).
set +e
(cd "$clone" && env -u POCL_CACHE_DIR XDG_CACHE_HOME="$dir/cache" SORTNET_SKIP_INSTALL=1 \
    bash tools/setup.sh test) 2>&1 |
    while IFS= read -r line; do printf '%6d %s\n' $(($(date +%s) - start)) "$line"; done >"$log"
rc=${PIPESTATUS[0]}
set -e
end=$(date +%s)
stop_busy
trap - EXIT

# Stage times: from one marker to the next.
awk -v total=$((end - start)) '
    function flush(t) { if (name != "" && t > from) printf "%7d s  %s\n", t - from, name }
    /^ *[0-9]+ setup: / {
        t = $1; sub(/^ *[0-9]+ setup: /, "")
        # not stage starts: the verdict, and the summary of the test command
        if ($0 ~ /^(FAILED|every stage passed|installing|\(|the stages|  *[0-9]+ s )/) next
        sub(/^\[[0-9]+ min\] /, "")
        flush(t); name = $0; from = t; next
    }
    NR == 1 { name = "build, then the test suite (ctest)"; from = 0 }
    END { flush(total) }' "$log" >"$dir/stages"
# each stage's line gets the machine's busy cores over its span (cpu.log)
awk -v cores="$(nproc)" '
    FNR == NR { t[NR] = $1; b[NR] = $2; i[NR] = $3; n = NR; next }
    function at(x, k) { for (k = 1; k < n && t[k] < x; k++); return k }
    {
        from = to; to = from + $1; k0 = at(from); k1 = at(to)
        db = b[k1] - b[k0]; di = i[k1] - i[k0]
        busy = db + di > 0 ? sprintf("%4.2f", cores * db / (db + di)) : "   -"
        printf "%s  (machine %s cores busy)\n", $0, busy
    }' "$cpulog" "$dir/stages"
printf '%7d s  total (%d min %d s)\n' $((end - start)) $(((end - start) / 60)) $(((end - start) % 60))
# the test command's own summary: each stage's wall and CPU time, and the
# cores it kept busy on average (where a stage leaves a core idle)
grep -E '^ *[0-9]+ setup: +[0-9]+ s +[0-9]+ s CPU' "$log" | sed 's/^ *[0-9]* setup: /  /' || true
grep -E 'setup: (FAILED|every stage passed)|Timeout|\*\*\*Failed|Not Run|\(Skipped\)' "$log" | sed 's/^ *[0-9]* /  /' | head -40 || true
echo "time_test_command.sh: log in $log" >&2
if [ "$rc" -eq 0 ] && [ "$keep" = 0 ]; then
    rm -rf "$clone" "$dir/cache"
fi
exit "$rc"
