#!/usr/bin/env bash
# make_pictures.sh - make every picture the README shows, and the package's
# icon, with sortnet itself (run it after a change that alters them, and
# commit what it writes):
#
#   tools/make_pictures.sh [SORTNET [OUTDIR [ICONDIR]]]
#
# SORTNET defaults to build/src/cli/sortnet, OUTDIR to docs/pictures and
# ICONDIR to packaging/icons. It writes into OUTDIR:
#   window.gif        the window stepping bitonic:8 (view --record, headless)
#   phone.png         the page (sortnet web) in a phone-sized headless
#                     chromium; left out, with a note, where chromium or the
#                     page is missing
#   structure.png     a diagram with structure labels (draw --structure)
#   merge_split.png   the merge-split picture (draw dist:4)
#   gpu_verify.svg    a GPU verify line (gpu verify on the first OpenCL
#                     device) as a terminal picture; left out, with a note,
#                     without an OpenCL device
# and into ICONDIR the icon: sortnet.svg (bitonic:4 drawn by sortnet on a
# square) and sortnet-16.png ... sortnet-256.png (rsvg-convert).
# Exit 2 with the cause when a picture that can be made fails.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
S=${1:-$root/build/src/cli/sortnet}
out=${2:-$root/docs/pictures}
icons=${3:-$root/packaging/icons}
[ -x "$S" ] || { echo "make_pictures: no sortnet binary at $S (build first)" >&2; exit 2; }
mkdir -p "$out" "$icons"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "make_pictures: $*" >&2; exit 2; }

# the window stepping a network: a scripted session recorded as a GIF
# (headless without a display: the same frames as the window's)
keys="wait:600 right wait:500 right wait:500 right wait:500 right wait:500 right wait:500 right wait:1200"
env -u DISPLAY -u WAYLAND_DISPLAY "$S" view bitonic:8 --random 3 --size 560x360 \
    --script "$keys" --record "$tmp/window.gif" >"$tmp/log" 2>&1 ||
    die "view --record failed: $(tail -3 "$tmp/log")"
cp "$tmp/window.gif" "$out/window.gif"

# a diagram with structure labels, and the merge-split picture
"$S" draw bitonic:16 --structure --width 720 -o "$out/structure.png" ||
    die "draw --structure failed"
"$S" draw dist:4 --keys 3 --seed 2 --width 720 -o "$out/merge_split.png" ||
    die "draw dist:4 failed"

# the page on a phone (390 x 844 CSS pixels, as an iPhone 12-15)
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -n "$chrome" ] && "$S" web -o "$tmp/page.html" 2>"$tmp/log"; then
    "$chrome" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --force-device-scale-factor=1 --window-size=390,844 --virtual-time-budget=4000 \
        --screenshot="$tmp/phone.png" "file://$tmp/page.html" >"$tmp/log" 2>&1 ||
        die "chromium failed: $(tail -3 "$tmp/log")"
    cp "$tmp/phone.png" "$out/phone.png"
else
    echo "make_pictures: no chromium or no page (sortnet web): phone.png not remade" >&2
fi

# a GPU verify line, drawn as a terminal
if "$S" gpu verify bitonic:65536 --random 1 >"$tmp/verify" 2>"$tmp/log"; then
    python3 - "$tmp/verify" "$out/gpu_verify.svg" <<'EOF'
import html, sys
lines = ["$ sortnet gpu verify bitonic:65536 --random 1"]
lines += open(sys.argv[1]).read().rstrip("\n").split("\n")
w = 14 + 8.4 * max(len(l) for l in lines)
h = 16 + 20 * len(lines)
svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h}">',
       f'<rect width="100%" height="100%" rx="6" fill="#1e1e1e"/>']
for i, l in enumerate(lines):
    colour = "#9cdcfe" if i == 0 else "#e0e0e0"
    svg.append(f'<text x="7" y="{24 + 20 * i}" fill="{colour}" font-size="14" '
               f'font-family="DejaVu Sans Mono, monospace" xml:space="preserve">'
               f'{html.escape(l)}</text>')
svg.append("</svg>")
open(sys.argv[2], "w").write("\n".join(svg) + "\n")
EOF
else
    case $? in
    3) echo "make_pictures: no OpenCL device: gpu_verify.svg not remade" >&2 ;;
    *) die "gpu verify failed: $(tail -3 "$tmp/log")" ;;
    esac
fi

# the icon: bitonic:4 as sortnet draws it, centred on a square
"$S" draw bitonic:4 -o "$tmp/net.svg" || die "draw bitonic:4 failed"
python3 - "$tmp/net.svg" "$icons/sortnet.svg" <<'EOF'
import re, sys
src = open(sys.argv[1]).read()
src = re.sub(r"^<\?xml[^>]*>\s*", "", src)
m = re.search(r'<svg[^>]*\bwidth="([0-9.]+)(?:px|pt)?"[^>]*\bheight="([0-9.]+)(?:px|pt)?"', src)
if not m:
    sys.exit("make_pictures: no width and height in sortnet's SVG")
w, h = float(m.group(1)), float(m.group(2))
side = max(w, h) + 12
src = src.replace("<svg ", f'<svg x="{(side - w) / 2:.2f}" y="{(side - h) / 2:.2f}" ', 1)
open(sys.argv[2], "w").write(
    f'<?xml version="1.0" encoding="UTF-8"?>\n'
    f'<svg xmlns="http://www.w3.org/2000/svg" width="{side:.0f}" height="{side:.0f}" '
    f'viewBox="0 0 {side:.2f} {side:.2f}">\n'
    f'<rect width="100%" height="100%" rx="{side / 8:.1f}" fill="#ffffff"/>\n{src}</svg>\n')
EOF
for size in 16 32 48 64 128 256; do
    rsvg-convert -w "$size" -h "$size" "$icons/sortnet.svg" -o "$icons/sortnet-$size.png" ||
        die "rsvg-convert failed on the icon"
done
echo "make_pictures: wrote $(ls "$out" | tr '\n' ' ')and the icon in $icons" >&2
