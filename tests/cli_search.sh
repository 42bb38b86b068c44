#!/usr/bin/env bash
# cli_search.sh - `sortnet search` end to end: improvement lines, the saved
# file is a network that sorts, --json's trail, the same seed on one thread
# gives the same trail, --median, --from, and Ctrl+C keeps the saved best.
# Every run is bounded by --iterations or --target, never by the clock.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 needed to read JSON" >&2; exit 77; }

# improvement lines on stderr, the best saved with -o (format by extension)
expect 0 "$S" search 6 --threads 1 --iterations 3000 --time 0 -o "$T/b6.json"
grep -qE '^search: +[0-9.]+ s +[0-9]+ comparators +[0-9]+ layers +\(proved\)$' "$T/err" ||
    fail "no improvement line: $(head -c 300 "$T/err")"
err_has "search: done after"
expect 0 "$S" check "$T/b6.json"
head -c 1 "$T/b6.json" | grep -q '{' || fail "b6.json is not JSON"

# without -o the network goes to stdout in the format asked
expect 0 "$S" search 5 --threads 1 --iterations 500 --time 0 --format sn
out_has "Inputs: 5"

# the optimum for 8 wires (19) with --target; --json reports the trail
expect 0 "$S" search 8 --threads 1 --target 19 --iterations 300000 --time 0 --json
[ "$(json 'd["size"]')" = 19 ] || fail "n=8: size $(json 'd["size"]'), not 19"
[ "$(json 'all(a["size"] > b["size"] or (a["size"] == b["size"] and a["depth"] > b["depth"]) for a, b in zip(d["trail"], d["trail"][1:]))')" = True ] ||
    fail "the trail does not improve at every step"
[ "$(json 'd["trail"][-1]["size"] == d["size"] and sum(len(l) for l in d["layers"]) == d["size"]')" = True ] ||
    fail "the trail's last entry or the layers disagree with size"
python3 -c "import json; d=json.load(open('$T/out')); print('\n'.join(','.join('(%d,%d)' % tuple(c) for c in l) for l in d['layers']))" |
    sed 's/^/[/; s/$/]/' >"$T/fromjson.txt"
expect 0 "$S" check "$T/fromjson.txt"

# the same seed on one thread: the same trail (sizes, depths, steps)
trail() { python3 -c "import json; d=json.load(open('$T/out')); print([(e['size'], e['depth'], e['iteration']) for e in d['trail']], d['layers'])"; }
expect 0 "$S" search 9 --threads 1 --seed 42 --iterations 4000 --time 0 --json
trail >"$T/trail1"
expect 0 "$S" search 9 --threads 1 --seed 42 --iterations 4000 --time 0 --json
trail >"$T/trail2"
cmp -s "$T/trail1" "$T/trail2" || fail "seed 42 gave two different trails"

# --median: the result selects the median (check --select)
expect 0 "$S" search 7 --median --threads 1 --iterations 20000 --time 0 -o "$T/med7.txt"
expect 0 "$S" check "$T/med7.txt" --select 3

# --from: the first network reported is no larger than the one given
expect 0 "$S" search 6 --from bubble:6 --threads 1 --iterations 2000 --time 0 --json
[ "$(json 'd["trail"][0]["size"] <= 15 and d["size"] <= 15')" = True ] || fail "--from bubble:6 got worse"

# --from above 22 wires: NET's first layer becomes the prefix, the start is NET itself
expect 0 "$S" search 24 --from oddeven-merge:24 --threads 1 --iterations 1 --time 0 --json
[ "$(json 'd["trail"][0]["size"]')" = 127 ] || fail "--from oddeven-merge:24 did not start at its 127"

# --prefix green[:L]: Green's first layers (the cube of 8 wires: 4 comparators a layer)
expect 0 "$S" search 8 --prefix green:2 --threads 1 --iterations 500 --time 0 --json
[ "$(json 'd["prefix_size"]')" = 8 ] || fail "--prefix green:2 on 8 wires: prefix of $(json 'd["prefix_size"]'), not 8"
expect 2 "$S" search 8 --prefix green:9 --time 0 --iterations 1
err_has "number of layers"
# 12 wires: mirror pairs and a greedy prefix of 10 by default (measured,
# docs/search.md); not with --prefix, --from or --asymmetric
expect 0 "$S" search 12 --threads 1 --iterations 1 --time 0 --json
[ "$(json 'd["symmetric"], d["prefix_size"]')" = "True 10" ] ||
    fail "12 wires: symmetric, prefix $(json 'd["symmetric"], d["prefix_size"]'), not True 10"
expect 0 "$S" search 12 --asymmetric --threads 1 --iterations 1 --time 0 --json
[ "$(json 'd["symmetric"], d["prefix_size"]')" = "False 6" ] ||
    fail "12 wires --asymmetric: $(json 'd["symmetric"], d["prefix_size"]'), not False 6"
expect 0 "$S" search 12 --from bubble:12 --threads 1 --iterations 1 --time 0 --json
[ "$(json 'd["symmetric"]')" = False ] || fail "12 wires --from: mirror pairs by default"
# from 14 wires on the default prefix is Green's (25 comparators on 14 wires)
expect 0 "$S" search 14 --threads 1 --iterations 1 --time 0 --json
[ "$(json 'd["prefix_size"]')" = 25 ] || fail "14 wires: default prefix of $(json 'd["prefix_size"]'), not Green's 25"

# --goal depth: mirror pairs by default on even N (--asymmetric turns them
# off); --target-depth stops at the optimal 6 layers for 8 wires
expect 0 "$S" search 8 --goal depth --target-depth 6 --seed 3 --threads 1 --iterations 100000 --time 0 --json
[ "$(json 'd["depth"]')" = 6 ] || fail "--goal depth on 8 wires: $(json 'd["depth"]') layers, not 6"
[ "$(json 'd["symmetric"]')" = True ] || fail "--goal depth on 8 wires is not symmetric by default"
expect 0 "$S" search 8 --goal depth --asymmetric --threads 1 --iterations 10 --time 0 --json
[ "$(json 'd["symmetric"]')" = False ] || fail "--asymmetric did not turn mirror pairs off"
expect 2 "$S" search 8 --target-depth 0 --time 0
err_has "--target-depth"

# Ctrl+C: the search ends cleanly (exit 0) and the saved file holds a
# network that sorts. Wait for the first save, not for a time.
"$S" search 12 --time 0 --threads 1 -o "$T/c12.txt" >"$T/cout" 2>"$T/cerr" &
pid=$!
for _ in $(seq 3000); do
    [ -s "$T/c12.txt" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
[ -s "$T/c12.txt" ] || fail "no file saved while the search ran"
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" = 0 ] || fail "Ctrl+C: exit $rc, expected 0: $(head -c 300 "$T/cerr")"
grep -q "search: interrupted after" "$T/cerr" || fail "Ctrl+C: no 'interrupted' line"
expect 0 "$S" check "$T/c12.txt"
ls "$T"/.c12.txt* "$T"/c12.txt.* 2>/dev/null | grep -q . && fail "a temporary file was left behind"

finish cli_search
