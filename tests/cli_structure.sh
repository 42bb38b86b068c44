#!/usr/bin/env bash
# cli_structure.sh - "why it sorts" and "the 0-1 principle, visible" end
# to end: `info --layers` (text and JSON) against a plain brute force in
# Python, bitonic-classic proved by `check`, `draw --structure` and
# `draw --zero-one` in every format, the window's W and Z keys, and the
# failures (bad flags, n too large) exiting 2 with a clear message.
. "$(dirname "$0")/lib.sh"

# ---- info --layers
expect 0 "$S" info --help
out_has "--layers"
for net in bitonic:6 oddeven-merge:7 pairwise:5 transposition:4 bubble:5 insertion:3 bitonic-classic:6; do
    expect 0 "$S" info "$net" --layers --json
    "$S" gen "$net" --format bracket -o "$T/net.txt" || fail "gen $net"
    python3 - "$T/out" "$T/net.txt" "$net" <<'PY' || fail "info $net --layers --json disagrees with the brute force"
import json, re, sys
d = json.load(open(sys.argv[1]))
n = d["n"]
layers = [[(int(a), int(b)) for a, b in re.findall(r"\((\d+),(\d+)\)", line)]
          for line in open(sys.argv[2]) if "(" in line]
assert d["inputs"] == 2 ** n and len(d["layers"]) == d["depth"] + 1
assert len(layers) == d["depth"], (len(layers), d["depth"])
states = [[v[:] for v in [[set() for _ in range(n)] for _ in range(n + 1)]] for _ in range(d["depth"] + 1)]
sorted_count = [0] * (d["depth"] + 1)
for x in range(2 ** n):
    v = [(x >> i) & 1 for i in range(n)]
    h = sum(v)
    for k in range(d["depth"] + 1):
        if k:
            for a, b in layers[k - 1]:
                if v[a] > v[b]:
                    v[a], v[b] = v[b], v[a]
        sorted_count[k] += all(v[i] <= v[i + 1] for i in range(n - 1))
        for i in range(n):
            states[k][h][i].add(v[i])
for k, e in enumerate(d["layers"]):
    assert e["layer"] == k and e["sorted"] == sorted_count[k], (sys.argv[3], k, e["sorted"], sorted_count[k])
    for h in range(n + 1):
        want = "".join({frozenset([0]): "0", frozenset([1]): "1"}.get(frozenset(s), "*") for s in states[k][h])
        assert e["shmoo"][h] == want, (sys.argv[3], k, h, e["shmoo"][h], want)
assert sorted_count[-1] == 2 ** n and d["sorts"] is True
PY
done
# a broken network stops short of 2^n
printf '[(0,1),(2,3)]\n[(0,2),(1,3)]\n' >"$T/broken.txt"
expect 0 "$S" info "$T/broken.txt" --layers --json
[ "$(json 'd["layers"][-1]["sorted"]')" -lt 16 ] || fail "a broken network reached 2^n sorted inputs"
[ "$(json 'd["sorts"]')" = False ] || fail "broken.txt sorts?"
# the text form
expect 0 "$S" info bitonic:4 --layers
out_has "0-1 inputs sorted after each layer (of 16)"
out_has "    3         16 100.000%"
out_has "shmoo after each layer"
grep -q '^   2   \*\*\*\*   \*\*\*\*   0011   0011$' "$T/out" || fail "bitonic:4 shmoo row h = 2 is wrong: $(cat "$T/out")"
# n = 24 works (and is quick), n = 25 is refused with exit 2
expect 0 "$S" info bitonic:24 --layers --json
[ "$(json 'd["layers"][-1]["sorted"]')" = 16777216 ] || fail "bitonic:24: not all 2^24 inputs sorted"
expect 2 "$S" info bitonic:25 --layers
err_has "sortnet: --layers: bitonic:25 has 25 wires"
err_has "at most 24 wires"
expect 2 "$S" info bitonic:8 --zero-one
err_has "zero-one"
expect 2 "$S" info bitonic:8 --layers=3

# ---- bitonic-classic: the textbook form, sound for every n
for n in 1 2 3 5 7 8 12 13 16 21 24; do
    expect 0 "$S" check "bitonic-classic:$n"
done
expect 0 "$S" info bitonic-classic:8 --json
[ "$(json 'd["standard"]')" = False ] || fail "bitonic-classic:8 is in standard form?"
expect 2 "$S" info bitonic-classical:8
err_has "bitonic-classic"

finish cli_structure
