#!/usr/bin/env bash
# cli_construct.sh - end-to-end tests of the constructions, the merging and
# selection checks, the split beyond 64 wires and `sortnet transform`
# through the real binary (the done-when list of the constructions issue).
. "$(dirname "$0")/lib.sh"

have_json=1
"$S" info bitonic:4 --json >/dev/null 2>&1 || have_json=0

# info oddeven-merge:N and bitonic:N for every n in 2..256: no larger and
# no deeper than the balanced-split recurrence (computed here in Python)
# (under the sanitizers, SN_SANITIZED=1, a sample of them)
sizes=$(seq 2 256)
[ "${SN_SANITIZED:-0}" = 1 ] && sizes="$(seq 2 33) 63 64 65 100 127 128 129 200 255 256"
if [ $have_json = 1 ]; then
    for n in $sizes; do
        for fam in oddeven-merge bitonic; do
            "$S" info "$fam:$n" --json >"$T/$fam-$n.json" 2>"$T/err" || fail "info $fam:$n"
        done
    done
    python3 - "$T" <<'PY' || fail "info sizes disagree with the recurrences"
import json, math, sys
from functools import lru_cache
@lru_cache(None)
def M(a, b):
    if a == 0 or b == 0: return 0
    if a == 1 and b == 1: return 1
    return M((a + 1) // 2, (b + 1) // 2) + M(a // 2, b // 2) + (a + b - 1) // 2
@lru_cache(None)
def B(m): return 0 if m < 2 else m // 2 + B((m + 1) // 2) + B(m // 2)
@lru_cache(None)
def S(n, f):
    if n < 2: return 0
    a, b = n // 2, n - n // 2
    return S(a, f) + S(b, f) + (M(a, b) if f == "oddeven-merge" else B(n))
bad = 0
import os
ns = sorted(int(x.split("-")[-1][:-5]) for x in os.listdir(sys.argv[1]) if x.startswith("bitonic-"))
assert len(ns) >= 40 and ns[-1] == 256, ns
for n in ns:
    t = math.ceil(math.log2(n))
    for f in ("oddeven-merge", "bitonic"):
        d = json.load(open(f"{sys.argv[1]}/{f}-{n}.json"))
        if d["size"] > S(n, f) or d["depth"] > t * (t + 1) // 2:
            print(f"{f}:{n}: {d['size']} / {d['depth']}, recurrence {S(n, f)} / {t*(t+1)//2}")
            bad += 1
sys.exit(bad != 0)
PY
    expect 0 "$S" info bitonic:10 --json
    [ "$(json 'd["size"], d["depth"]')" = "33 9" ] || fail "bitonic:10: $(cat "$T/out")"
    [ "$(json '"balanced split" in d["construction"]')" = True ] || fail "info: construction"
fi
expect 0 "$S" info oddeven-merge-pad:10
out_has "padded to the next power of two"
out_has "size:      32 comparators"
expect 0 "$S" info oddeven-merge:16
out_has "same network"

# every new generator sorts: a few sizes by brute force, one by the reduction
for g in bose-nelson hibbard merge-exchange balanced; do
    for n in 7 16 21; do
        expect 0 "$S" check "$g:$n"
        out_has "sorts: yes"
    done
done
expect 0 "$S" check merge-exchange:48 --method reduce
expect 0 "$S" gen --help
out_has "merge-exchange:N"
out_has "3^t - 2^t"

# check beyond 64 wires: Batcher's networks by the split
for net in oddeven-merge:128 bitonic:256; do
    expect 0 "$S" check "$net"
    out_has "sorts: yes"
    out_has "split"
done
# a broken one: the counterexample replays through `sortnet run`
"$S" gen bitonic:128 | sed '$d' >"$T/b128.txt"
echo "[(0,127)]" >>"$T/b128.txt"
expect 1 "$S" check "$T/b128.txt"
out_has "sorts: no"
input=$(sed -n 's/^  replay: sortnet run .* --input //p' "$T/out")
[ -n "$input" ] || fail "no replay line: $(cat "$T/out")"
expect 1 "$S" run "$T/b128.txt" --input "$input"
grep -q "^result: " "$T/out" && ! grep -q "^result:  sorted" "$T/out" ||
    fail "replayed counterexample sorts: $(head -c 300 "$T/out")"
expect 4 "$S" check transposition:70
err_has "2^"
# a network that splits off one wire at a time nests its parts n deep: a
# bound on what they hold refuses it instead of exhausting memory
# (insertion:3072 took 24 GB and was killed); not instrumented: seconds
expect 0 "$S" check insertion:200
out_has "sorts: yes"
if [ "${SN_SANITIZED:-0}" != 1 ]; then
    expect 4 "$S" check insertion:3072
    err_has "nested parts"
fi

# merging networks
expect 0 "$S" check merge:5,9 --merge 5
out_has "merges: yes"
expect 0 "$S" check bitonic-merge:12 --merge 6
expect 1 "$S" check half-cleaner:8 --merge 4
out_has "merges: no"
expect 0 "$S" check merge:100,60 --merge 100
expect 2 "$S" check merge:3,3 --merge 7
expect 2 "$S" check merge:3,3 --merge x
expect 2 "$S" check merge:3,3 --merge 3 --select 1
expect 2 "$S" info merge:3
err_has "merge:A,B"

# selection: median:N is proved without options; a pair for even n; a
# median network with a comparator removed is rejected with a
# counterexample
expect 0 "$S" check median:9
out_has "selects: yes (output 4)"
expect 0 "$S" check median:12
out_has "outputs 5 and 6"
expect 0 "$S" check lib:Median_9_19_7 --select 4
expect 0 "$S" gen median:9 -o "$T/m9.txt"
[ "$(tail -1 "$T/m9.txt")" = "[(3,4)]" ] || fail "median:9 changed: $(cat "$T/m9.txt")"
sed '$d' "$T/m9.txt" >"$T/m9-broken.txt" # its last comparator removed
expect 1 "$S" check "$T/m9-broken.txt" --select 4
out_has "selects: no"
out_has "counterexample"
expect 2 "$S" check median:9 --select 9
expect 2 "$S" check median:9 --select 3,3
expect 2 "$S" check median:9 --select 1,2,3
expect 2 "$S" info median:2
err_has "no median network"
expect 0 "$S" list --n 9
out_has "median:9"
if [ $have_json = 1 ]; then
    expect 0 "$S" check median:11 --json
    [ "$(json 'd["mode"], d["sorts"], d["counterexample"]')" = "select True None" ] ||
        fail "check --json: $(cat "$T/out")"
fi

# the network algebra: each result round-trips through check
expect 0 "$S" transform --help
out_has "--cut W:min|max"
expect 0 "$S" transform best:12 --cut 0:min --cut 10:max -o "$T/cut.txt"
err_has "12 wires, 39 comparators"
err_has "-> 11 wires"
expect 0 "$S" check "$T/cut.txt"
out_has "sorts: yes"
expect 0 "$S" info "$T/cut.txt"
out_has "inputs:    10"
"$S" transform bitonic:8 --concat bubble:8 --prune >"$T/pruned.txt" 2>"$T/err" || fail "prune"
grep -q "28 redundant removed" "$T/err" || fail "prune: $(cat "$T/err")"
expect 0 "$S" check "$T/pruned.txt"
out_has "redundant comparators: none"
"$S" transform oddeven-merge:11 --reflect >"$T/refl.txt" 2>/dev/null
expect 1 "$S" check "$T/refl.txt"
"$S" transform "$T/refl.txt" --normalize >"$T/norm.txt" 2>/dev/null
expect 0 "$S" check "$T/norm.txt"
expect 0 "$S" transform bitonic:4 --permute 3,2,1,0 --normalize --compact --format json
# insertion sort with one comparator a layer, regrouped into 2n-3 layers
for i in 1 2 3 4 5; do for j in $(seq $((i - 1)) -1 0); do echo "[($j,$((j + 1)))]"; done; done >"$T/ins.txt"
expect 0 "$S" transform "$T/ins.txt" --compact
err_has "15 comparators, 15 layers -> 6 wires, 15 comparators, 9 layers"
expect 2 "$S" transform bitonic:4 --cut 4:min
expect 2 "$S" transform bitonic:4 --cut 1:middle
expect 2 "$S" transform bitonic:4 --permute 0,1,2
expect 2 "$S" transform bitonic:4 --permute 0,1,2,2
err_has "repeats wire 2"
expect 2 "$S" transform bitonic:4 --concat bitonic:5
expect 2 "$S" transform bitonic:128 --prune
expect 2 "$S" transform bitonic:4 --format svg
expect 2 "$S" transform
# a failed transform leaves no partial output file
echo keep >"$T/keep.txt"
expect 2 "$S" transform bitonic:4 --cut 9:min -o "$T/keep.txt"
[ "$(cat "$T/keep.txt")" = keep ] || fail "output file changed by a failed transform"
# gen --standard still works
expect 0 "$S" gen bitonic-classic:8 --standard

finish cli_construct
