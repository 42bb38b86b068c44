#!/usr/bin/env bash
# cli_dist_view.sh - `sortnet view dist:P,NET` headless (SDL's offscreen
# driver) through the window's script and screenshot path: it opens, the
# step keys move through the layers (the frame changes, the state says the
# step), --keys and --random choose the blocks, and bad names exit 2 before
# any window.
. "$(dirname "$0")/lib.sh"
view_session
is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "$1 is not a PNG"; }

expect 0 "$S" view --help
out_has "dist:P[,NET]"

expect 0 view dist:4,best:4 --script "right" --screenshot "$T/s1.png"
is_png "$T/s1.png"
[ "$(field network)" = "dist:4,best:4" ] || fail "network: $(field network)"
[ "$(field step)" = 1 ] || fail "step after right: $(field step)"
expect 0 view dist:4,best:4 --script "right right" --screenshot "$T/s2.png"
[ "$(field step)" = 2 ] || fail "step after right right: $(field step)"
cmp -s "$T/s1.png" "$T/s2.png" && fail "layer 2 looks like layer 1"
expect 0 view dist:4 --script "end" --screenshot "$T/end.png"
[ "$(field step)" = 3 ] || fail "step after end: $(field step)"
# play runs to the end in virtual time
expect 0 view dist:8,bitonic:8 --script "space wait:10000"
[ "$(field step)" = "$(field layers)" ] || fail "play stopped at $(field step) of $(field layers)"
# --keys and --random choose the blocks: other pictures
expect 0 view dist:4 --keys 2 --script "right" --screenshot "$T/k2.png"
cmp -s "$T/k2.png" "$T/s1.png" && fail "--keys 2 drew 4 keys a rank"
expect 0 view dist:4 --random 5 --script "right" --screenshot "$T/r5.png"
cmp -s "$T/r5.png" "$T/s1.png" && fail "--random 5 drew the keys of seed 1"
# S saves the picture (the blocks, not the network) as SVG in the folder
mkdir -p "$T/save"
(cd "$T/save" && view dist:4 --script "right right s") >"$T/out" 2>"$T/err" ||
    fail "S in the dist view: $(head -c 300 "$T/err")"
svg=$(ls "$T/save"/*.svg 2>/dev/null | head -n 1)
if [ -z "$svg" ]; then
    fail "S saved no SVG"
else
    # the same size as `draw dist:4` (the blocks), not the network's diagram
    "$S" draw dist:4 -o "$T/drawn.svg" || fail "draw dist:4"
    size() { python3 -c 'import xml.dom.minidom,sys; e=xml.dom.minidom.parse(sys.argv[1]).documentElement; print(round(float(e.getAttribute("width").rstrip("ptx"))), round(float(e.getAttribute("height").rstrip("ptx"))))' "$1"; }
    [ "$(size "$svg")" = "$(size "$T/drawn.svg")" ] ||
        fail "$svg is $(size "$svg"), the blocks' picture is $(size "$T/drawn.svg")"
fi
# side by side with the ordinary view of the same network
expect 0 view dist:4 best:4 --script "right" --screenshot "$T/two.png"
is_png "$T/two.png"

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
