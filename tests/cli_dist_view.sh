#!/usr/bin/env bash
# cli_dist_view.sh - `sortnet view dist:P,NET` headless (SDL's offscreen
# driver) through the window's script and screenshot path: it opens, the
# step keys move through the layers (the frame changes, the state says the
# step), --keys and --random choose the blocks, and bad names exit 2 before
# any window. What the view shows is held to a reference: the picture S
# saves is `draw dist:4 --keys K --seed S --step N`'s, element for element
# (the title aside), a screenshot with --keys K is the one of dist:4xK, and
# side by side the dist pane is the dist view's own pane.
. "$(dirname "$0")/lib.sh"
view_session
is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "$1 is not a PNG"; }

# same_blocks A.svg B.svg: the same drawing (cairo's SVG: each glyph's
# outline, place and colour, every path and group), apart from the title
# (the top text row: the view names the network, draw the layer) and the
# background's width (the title's)
same_blocks() {
    python3 - "$1" "$2" <<'PY'
import re, sys
def items(path):
    t = open(path).read()
    glyphs = {m.group(1): m.group(2).strip() for m in
              re.finditer(r'<symbol[^>]*id="([^"]+)"[^>]*>(.*?)</symbol>', t, re.S)}
    out = []
    for m in re.finditer(r'<(/?[a-z]+)([^>]*)>', t[t.index('</defs>'):]):
        tag, attrs = m.group(1), m.group(2)
        if tag == 'use':
            a = dict(re.findall(r'([a-z:]+)="([^"]*)"', attrs))
            out.append(('use', glyphs[a['xlink:href'][1:]], float(a['x']), float(a['y'])))
        elif tag == 'g':
            out.append(('g', re.sub(r' id="[^"]*"', '', attrs)))
        elif tag == 'rect' and ' x="0" y="0" ' in attrs:
            out.append(('background',))
        else:
            out.append((tag, attrs))
    top = min(i[3] for i in out if i[0] == 'use')
    return [i for i in out if not (i[0] == 'use' and i[3] == top)]
a, b = items(sys.argv[1]), items(sys.argv[2])
if a != b:
    k = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
    sys.exit('element %d of %d/%d: %.160s vs %.160s' % (k, len(a), len(b), a[k:k + 1], b[k:k + 1]))
PY
}

# saved_blocks NAME ARGS...: S in `view ARGS` (its last script key) saves
# the blocks' picture as SVG; it lands in $T/NAME.svg
saved_blocks() {
    local name=$1
    shift
    rm -rf "$T/save" && mkdir -p "$T/save"
    (cd "$T/save" && view "$@") >"$T/out" 2>"$T/err" || fail "S in view $*: $(head -c 300 "$T/err")"
    local svg
    svg=$(ls "$T/save"/*.svg 2>/dev/null | head -n 1)
    if [ -n "$svg" ]; then mv "$svg" "$T/$name.svg"; else fail "S in view $* saved no SVG"; fi
}

# blocks_are SAVED.svg DRAW-ARGS...: the saved picture is `draw DRAW-ARGS`'s
blocks_are() {
    local saved=$1
    shift
    "$S" draw "$@" -o "$T/ref.svg" || fail "draw $*"
    [ -f "$saved" ] && { same_blocks "$saved" "$T/ref.svg" || fail "$saved is not the picture of draw $*"; }
}

# pane_diff A.png B.png FROM TO: how many pixels of rows [FROM, TO) (in
# hundredths of the height) differ between two screenshots of one size, and
# what per cent of those rows' pixels that is
pane_diff() {
    PYTHONPATH="$(dirname "$0")" python3 - "$@" <<'PY'
import sys
from png_rows import load
(w, h, bpp, a), (w2, h2, _, b) = load(sys.argv[1]), load(sys.argv[2])
assert (w, h) == (w2, h2), (w, h, w2, h2)
y0, y1 = h * int(sys.argv[3]) // 100, h * int(sys.argv[4]) // 100
n = sum(a[y][x:x + bpp] != b[y][x:x + bpp] for y in range(y0, y1) for x in range(0, w * bpp, bpp))
print(n, 100 * n // ((y1 - y0) * w))
PY
}

expect 0 "$S" view --help
out_has "dist:P[,NET]"

expect 0 view dist:4,best:4 --script "right" --screenshot "$T/s1.png"
is_png "$T/s1.png"
[ "$(field network)" = "dist:4,best:4" ] || fail "network: $(field network)"
[ "$(field step)" = 1 ] || fail "step after right: $(field step)"
[ "$(field window)" = "640x400 px" ] || fail "window: $(field window)"
expect 0 view dist:4,best:4 --script "right right" --screenshot "$T/s2.png"
[ "$(field step)" = 2 ] || fail "step after right right: $(field step)"
cmp -s "$T/s1.png" "$T/s2.png" && fail "layer 2 looks like layer 1"
# S saves the picture (the blocks, not the network) as SVG in the folder:
# after layer 2, draw's blocks after layer 2 (keys 4, seed 1)
saved_blocks layer2 dist:4,best:4 --script "right right s"
blocks_are "$T/layer2.svg" dist:4,best:4 --step 2
expect 0 view dist:4 --script "end" --screenshot "$T/end.png"
[ "$(field step)" = 3 ] || fail "step after end: $(field step)"
# play runs to the end in virtual time
expect 0 view dist:8,bitonic:8 --script "space wait:10000"
[ "$(field step)" = "$(field layers)" ] || fail "play stopped at $(field step) of $(field layers)"
# --keys and --random choose the blocks: other pictures, and the right ones
expect 0 view dist:4 --keys 2 --script "right" --screenshot "$T/k2.png"
cmp -s "$T/k2.png" "$T/s1.png" && fail "--keys 2 drew 4 keys a rank"
field message | grep -q "^4 ranks × 2 keys:" || fail "--keys 2: $(field message)"
[ "$(field input)" = "random (seed 1)" ] || fail "--keys 2: input $(field input)"
# the same window as K given in the name (dist:4x2)
expect 0 view dist:4x2 --script "right" --screenshot "$T/k2ref.png"
cmp -s "$T/k2.png" "$T/k2ref.png" || fail "--keys 2 does not look like dist:4x2"
saved_blocks k2 dist:4 --keys 2 --script "right s"
blocks_are "$T/k2.svg" dist:4 --keys 2 --step 1
expect 0 view dist:4 --random 5 --script "right" --screenshot "$T/r5.png"
cmp -s "$T/r5.png" "$T/s1.png" && fail "--random 5 drew the keys of seed 1"
[ "$(field input)" = "random (seed 5)" ] || fail "--random 5: input $(field input)"
field message | grep -q "^4 ranks × 4 keys:" || fail "--random 5: $(field message)"
saved_blocks r5 dist:4 --random 5 --script "right s"
blocks_are "$T/r5.svg" dist:4 --seed 5 --step 1
saved_blocks k3r7 dist:4 --keys 3 --random 7 --script "right right right s"
blocks_are "$T/k3r7.svg" dist:4 --keys 3 --seed 7 --step 3
# side by side with the ordinary view of the same network: two views at
# step 1, the first the blocks. Its pane (the top two fifths) is the one of
# two dist views pixel for pixel, and far from the network's picture (the
# blocks fill a good part of it: 45% of its pixels differ here, the
# network's name alone 3%); the second pane (rows 50-85%) is the ordinary
# view's (nearly: antialiasing moves 0.5% of it), far from the blocks'
expect 0 view dist:4 best:4 --script "right" --screenshot "$T/two.png"
is_png "$T/two.png"
[ "$(field networks)" = 2 ] || fail "side by side: networks $(field networks)"
[ "$(field network)" = "dist:4,best:4" ] || fail "side by side: network $(field network)"
[ "$(field step)" = 1 ] || fail "side by side: step $(field step)"
field view2 | grep -q "^best:4 step 1 of 3," || fail "side by side: view2 $(field view2)"
expect 0 view dist:4 dist:4 --script "right" --screenshot "$T/dd.png"
expect 0 view best:4 best:4 --script "right" --screenshot "$T/bb.png"
read -r n _ <<<"$(pane_diff "$T/two.png" "$T/dd.png" 0 40)"
[ "$n" = 0 ] || fail "side by side: the dist pane is not the blocks' (${n:-?} pixels off)"
read -r _ pc <<<"$(pane_diff "$T/two.png" "$T/bb.png" 0 40)"
[ "${pc:-0}" -ge 20 ] || fail "side by side: the dist pane looks like the network's (${pc:-?}% off it)"
read -r _ pc <<<"$(pane_diff "$T/two.png" "$T/bb.png" 50 85)"
[ "${pc:-99}" -le 2 ] || fail "side by side: the second pane is not best:4's (${pc:-?}% off it)"
read -r _ pc <<<"$(pane_diff "$T/two.png" "$T/dd.png" 50 85)"
[ "${pc:-0}" -ge 20 ] || fail "side by side: the second pane looks like the blocks (${pc:-?}% off them)"
saved_blocks two dist:4 best:4 --script "right s"
blocks_are "$T/two.svg" dist:4 --step 1

# bad names: exit 2 with the reason, no window needed
expect 2 env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER= "$S" view dist:3,bitonic:8
err_has "bitonic:8 has 8 wires but the picture has 3 ranks"
expect 2 "$S" view dist:0
err_has "1 rank or more"
expect 2 "$S" view bitonic:4 --keys 3
err_has "goes with dist:P,NET"
expect 2 "$S" view dist:4 --keys 0
err_has "--keys"
finish cli_dist_view
