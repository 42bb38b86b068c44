#!/usr/bin/env bash
# cli_library.sh - end-to-end tests of the shipped network library through
# the real binary: `sortnet list` (text and JSON), best:N / best-depth:N /
# lib:NAME in every command that takes NET, `info` giving the listed size
# and depth for every n = 2..64, `check` proving every listed network,
# clear errors (exit 2) for names the library does not have, and
# --version naming the parts built in.
. "$(dirname "$0")/lib.sh"

expect 0 "$S" list --help
out_has "usage: sortnet list"
out_has "best-depth:N"
expect 2 "$S" list --no-such-option
err_has "unknown option"
expect 2 "$S" list extra-argument
err_has "unexpected argument"
expect 2 "$S" list --n zero
err_has "not a number of inputs"
expect 2 "$S" list --n 0

# the text listing: at least 120 networks, every n of 2..64 with its best
expect 0 "$S" list
out_has "lib:Sort_16_60_10"
out_has "best:16"
[ "$(grep -c '^lib:' "$T/out")" -ge 120 ] || fail "list shows $(grep -c '^lib:' "$T/out") networks"
for n in $(seq 2 64); do
    grep -qE " best:$n( |$)" "$T/out" || fail "list: no best:$n"
    grep -qE " best-depth:$n( |$)" "$T/out" || fail "list: no best-depth:$n"
done
grep -E '^lib:Sort_10_29_8 ' "$T/out" | grep -q ' size ' || fail "Sort_10_29_8 not marked size-optimal"
expect 0 "$S" list --n 17
[ "$(grep -c '^lib:' "$T/out")" = 7 ] || fail "list --n 17: $(cat "$T/out")"
out_has "7 networks"
[ "$(grep -c ' median$' "$T/out")" = 4 ] || fail "list --n 17: not 4 median networks"

have_json=1
"$S" list --json >"$T/list.json" 2>"$T/err" || have_json=0
if [ $have_json = 1 ]; then
    cp "$T/list.json" "$T/out"
    [ "$(json 'len(d) >= 120 and {e["n"] for e in d} == set(range(2, 65))')" = True ] ||
        fail "list --json: not >= 120 networks covering n = 2..64"
    [ "$(json 'sorted(d[0].keys())')" = \
      "['also', 'depth', 'depth_optimal', 'file', 'kind', 'n', 'name', 'size', 'size_optimal', 'source']" ] ||
        fail "list --json keys: $(json 'sorted(d[0].keys())')"
    # info best:N --json gives the size and depth the list gives, every n
    mkdir "$T/info"
    for n in $(seq 2 64); do
        for fam in best best-depth; do
            "$S" info "$fam:$n" --json >"$T/info/$fam:$n" 2>"$T/err" ||
                fail "info $fam:$n: $(head -c 300 "$T/err")"
        done
    done
    python3 - "$T/list.json" "$T/info" <<'PY' || fail "info best:N disagrees with list"
import json, os, sys
listed = {a: (e["size"], e["depth"]) for e in json.load(open(sys.argv[1])) for a in e["also"]}
bad = 0
for n in range(2, 65):
    for fam in ("best", "best-depth"):
        name = f"{fam}:{n}"
        d = json.load(open(os.path.join(sys.argv[2], name)))
        if (d["size"], d["depth"]) != listed.get(name) or d["sorts"] is False:
            print(f"info {name}: {d['size']}/{d['depth']}, list says {listed.get(name)}")
            bad += 1
sys.exit(bad != 0)
PY
else
    grep -q "jansson" "$T/err" || fail "list --json without jansson: $(cat "$T/err")"
fi

# every listed network is proven to sort by `sortnet check`. Under the
# sanitizers (SN_SANITIZED=1, a Debug build about ten times slower) the
# proofs up to 24 inputs and three larger ones exercise the same code; the
# normal pass proves them all.
if [ "${SN_SANITIZED:-0}" = 1 ]; then
    names="$(for n in $(seq 2 24); do "$S" list --n $n | awk '/^lib:/ && $NF != "median" {print $1}'; done) best:32 best:48 best-depth:64"
    min=40
else
    names=$("$S" list | awk '/^lib:/ && $NF != "median" {print $1}')
    min=120
fi
count=0
for name in $names; do
    "$S" check "$name" >"$T/out" 2>"$T/err" || fail "check $name: $(head -c 300 "$T/err")"
    grep -q "sorts: yes" "$T/out" || fail "check $name: $(head -c 300 "$T/out")"
    count=$((count + 1))
done
[ $count -ge $min ] || fail "only $count networks checked"
echo "cli_library: $count library networks proven by sortnet check"

# every median network up to 24 inputs (16 under the sanitizers) selects
# its median: `check` asks that of a library median network by itself
mmax=24 mmin=30
[ "${SN_SANITIZED:-0}" = 1 ] && mmax=16 mmin=20
mcount=0
for name in $("$S" list | awk '/^lib:/ && $NF == "median" {print $1}'); do
    n=${name#lib:Median_}
    n=${n%%_*}
    [ "$n" -le $mmax ] || continue
    "$S" check "$name" >"$T/out" 2>"$T/err" || fail "check $name: $(head -c 300 "$T/err")"
    grep -q "selects: yes" "$T/out" || fail "check $name: $(head -c 300 "$T/out")"
    mcount=$((mcount + 1))
done
[ $mcount -ge $mmin ] || fail "only $mcount median networks checked (up to $mmax inputs)"
echo "cli_library: $mcount median networks proven to select by sortnet check"

# the names work in every command that takes NET
expect 0 "$S" info best:16
out_has "network:   best:16"
out_has "size:      60 comparators"
expect 0 "$S" gen best-depth:16 --format bracket
[ "$(grep -c '^\[' "$T/out")" = 9 ] || fail "gen best-depth:16: $(cat "$T/out")"
expect 0 "$S" run best:10 --input 9,8,7,6,5,4,3,2,1,0
out_has "0,1,2,3,4,5,6,7,8,9"
expect 0 "$S" run lib:16i-10s-60c-1 --reverse
expect 0 "$S" check best:64
out_has "sorts: yes"
if has_part "cairo drawing"; then
    expect 0 "$S" draw best:12 -o "$T/best12.svg"
    [ -s "$T/best12.svg" ] || fail "draw best:12 wrote nothing"
fi
if has_gpu; then
    expect 0 "$S" gpu verify best:24 --random 3 --payload
    out_has "identical"
else
    echo "note: no OpenCL (not built, or no platform): gpu verify best:24 not run" >&2
fi

# names the library does not have: exit 2, a clear message, no output
for bad in best:1 best:65 best-depth:100 best: best:x lib:nope lib:; do
    expect 2 "$S" info "$bad"
    [ ! -s "$T/out" ] || fail "info $bad printed: $(cat "$T/out")"
done
expect 2 "$S" check best:65
err_has "n = 2..64"
err_has "oddeven-merge:65"
expect 2 "$S" run lib:Sort_16_59_10
err_has "sortnet list"
expect 2 "$S" info nosuch:4
err_has "best:N"

# --version names the version and every part built in
expect 0 "$S" --version
out_has "sortnet "
for part in "SDL2 window" "cairo drawing" "OpenCL" "JSON (jansson)" "0-1 checker"; do
    out_has "$part"
done
out_has "networks embedded"

finish cli_library
