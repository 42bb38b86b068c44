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

# ---- draw --structure / --zero-one
if has_part "cairo drawing"; then
    expect 0 "$S" draw --help
    out_has "--structure"
    out_has "--zero-one"
    pngsize() { python3 -c 'import struct,sys;d=open(sys.argv[1],"rb").read(24);print(*struct.unpack(">II",d[16:24]))' "$1"; }
    for ext in svg png pdf tex; do
        expect 0 "$S" draw bitonic:16 --structure -o "$T/s.$ext"
        expect 0 "$S" draw bitonic-classic:8 --structure --zero-one --ones 3 -o "$T/z.$ext"
    done
    # the labels are in the SVG as glyphs: compare with the TikZ text
    grep -q '{merge 16}' "$T/s.tex" || fail "s.tex lacks the merge 16 label"
    grep -q '{sort 8}' "$T/s.tex" || fail "s.tex lacks a sort 8 label"
    grep -q 'sort 4 \$\\uparrow\$' "$T/z.tex" || fail "z.tex lacks 'sort 4 up' in math arrows"
    grep -q 'sorted 0-1 inputs: 256 of 256 after 6 layers (it sorts)' "$T/z.tex" ||
        fail "z.tex lacks the chart caption"
    grep -q 'inputs with 3 ones' "$T/z.tex" || fail "--ones 3 not used"
    xmllint --noout "$T/s.svg" 2>/dev/null || python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$T/s.svg" ||
        fail "s.svg is not XML"
    head -c 5 "$T/s.pdf" | grep -q "%PDF-" || fail "s.pdf is not a PDF"
    # the structure needs room: wider than the plain picture; the chart is taller
    # (at one scale: a default PNG is scaled to fill a slide)
    expect 0 "$S" draw bitonic:16 -o "$T/plain.png" --scale 1
    expect 0 "$S" draw bitonic:16 --structure -o "$T/s.png" --scale 1
    read -r pw ph < <(pngsize "$T/plain.png")
    read -r sw sh < <(pngsize "$T/s.png")
    [ "$sw" -gt "$pw" ] && [ "$sh" = "$ph" ] || fail "structure: ${sw}x$sh vs plain ${pw}x$ph"
    expect 0 "$S" draw bitonic:16 --zero-one -o "$T/zo.png" --scale 1
    read -r zw zh < <(pngsize "$T/zo.png")
    [ "$zh" -gt "$ph" ] || fail "--zero-one added no chart: ${zw}x$zh vs ${pw}x$ph"
    # values, a step and both parts together
    expect 0 "$S" draw oddeven-merge:12 --structure --zero-one --random 2 --step 3 --theme dark -o "$T/all.png"
    # a network without structure still draws, with a note
    expect 0 "$S" draw bubble:6 --structure -o "$T/bubble.svg"
    err_has "no recursive structure"
    # failures: exit 2, a clear message, no file left
    expect 2 "$S" draw bitonic:25 --zero-one -o "$T/x1.svg"
    err_has "sortnet: --zero-one: bitonic:25 has 25 wires"
    expect 2 "$S" draw bitonic:8 --ones 3 -o "$T/x2.svg"
    err_has "--ones: goes with --zero-one"
    expect 2 "$S" draw bitonic:8 --zero-one --ones 9 -o "$T/x3.svg"
    err_has "9 is more ones than bitonic:8 has wires"
    expect 2 "$S" draw bitonic:8 --zero-one --ones x -o "$T/x4.svg"
    expect 2 "$S" draw bitonic:8 --structure=2 -o "$T/x5.svg"
    for x in x1 x2 x3 x4 x5; do [ ! -e "$T/$x.svg" ] || fail "$x.svg left behind"; done
fi

# ---- the window: W and Z
if has_part "SDL2 window" && has_offscreen; then
    expect 0 "$S" view --help
    out_has " t w z "
    for size in 1280x720 1920x1080; do
        for theme in light dark; do
            expect 0 env SDL_VIDEODRIVER=offscreen "$S" view bitonic:16 --size "$size" --theme "$theme" \
                --script "w z right right right" --screenshot "$T/v-$size-$theme.png"
            [ "$(pngsize "$T/v-$size-$theme.png")" = "${size/x/ }" ] || fail "screenshot $size: $(pngsize "$T/v-$size-$theme.png")"
        done
    done
    # with and without: different pictures
    expect 0 env SDL_VIDEODRIVER=offscreen "$S" view bitonic:8 --script "" --screenshot "$T/v0.png"
    expect 0 env SDL_VIDEODRIVER=offscreen "$S" view bitonic:8 --script "w" --screenshot "$T/v1.png"
    cmp -s "$T/v0.png" "$T/v1.png" && fail "W changed nothing on screen"
    expect 0 env SDL_VIDEODRIVER=offscreen "$S" view bitonic:8 --bits 01100101 --script "z end" \
        --dump-state "$T/state"
    grep -q "0-1 principle" "$T/state" || fail "Z left no message: $(cat "$T/state")"
    # the same state, the same picture: W switched off and on again while a
    # step animates (the layout, its cached image and the labels follow)
    expect 0 env SDL_VIDEODRIVER=offscreen "$S" view bitonic-classic:16 --size 1280x720 \
        --script "w right right w w" --screenshot "$T/w1.png"
    expect 0 env SDL_VIDEODRIVER=offscreen "$S" view bitonic-classic:16 --size 1280x720 \
        --script "right right w" --screenshot "$T/w2.png"
    cmp -s "$T/w1.png" "$T/w2.png" || fail "W off and on changed the picture"
    # 24 wires: over the window's limit of 20, a note instead of a chart
    expect 0 env SDL_VIDEODRIVER=offscreen "$S" view bitonic:24 --script "z" --screenshot "$T/v24.png"
fi

finish cli_structure
