#!/usr/bin/env bash
# cli_draw.sh - `sortnet draw` end to end: every format valid, stdout SVG,
# values at a step, and failures (unknown extension, unwritable directory,
# fail options, a PNG too large) exit 2 leaving no file behind.
. "$(dirname "$0")/lib.sh"
require_part "cairo drawing"
valid_svg() {
    if command -v xmllint >/dev/null; then
        xmllint --noout "$1" || fail "$1 is not XML"
    else
        python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$1" ||
            fail "$1 is not XML"
    fi
    if command -v rsvg-convert >/dev/null; then
        rsvg-convert -o "$1.png" "$1" || fail "rsvg-convert cannot render $1"
    fi
}
is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "$1 is not a PNG"; }

expect 0 "$S" draw --help
grep -q "usage: sortnet draw" "$T/out" || fail "--help prints no usage"

for net in bitonic:8 oddeven-merge:16 transposition:5 pairwise:12 insertion:6; do
    f=${net/:/_}
    expect 0 "$S" draw "$net" -o "$T/$f.svg"
    valid_svg "$T/$f.svg"
    expect 0 "$S" draw "$net" -o "$T/$f.png" --random 3 --step 2
    is_png "$T/$f.png"
done
expect 0 "$S" draw bitonic:10 -o "$T/b.pdf" --reverse --step 4 --theme dark
head -c 5 "$T/b.pdf" | grep -q "%PDF-" || fail "b.pdf is not a PDF"
if command -v pdftoppm >/dev/null; then
    pdftoppm -r 20 -png "$T/b.pdf" "$T/bp" || fail "pdftoppm cannot open b.pdf"
fi
expect 0 "$S" draw bitonic:8 -o "$T/b.tex" --input 8,7,6,5,4,3,2,1 --step 1
grep -q 'begin{tikzpicture}' "$T/b.tex" || fail "b.tex has no tikzpicture"
if command -v pdflatex >/dev/null; then
    (cd "$T" && pdflatex -interaction=nonstopmode -halt-on-error b.tex >/dev/null) ||
        fail "b.tex does not compile"
    # the page is the picture, as wide as the PDF export of the same drawing
    if command -v pdfinfo >/dev/null; then
        expect 0 "$S" draw bitonic:8 -o "$T/bsame.pdf" --input 8,7,6,5,4,3,2,1 --step 1
        w_tex=$(pdfinfo "$T/b.pdf" | sed -n 's/^Page size: *\([0-9.]*\) x.*/\1/p')
        w_pdf=$(pdfinfo "$T/bsame.pdf" | sed -n 's/^Page size: *\([0-9.]*\) x.*/\1/p')
        python3 -c "import sys; sys.exit(abs($w_tex - $w_pdf) > 0.02 * $w_pdf)" ||
            fail "TikZ page is ${w_tex}pt wide, the picture ${w_pdf}pt"
    fi
else
    echo "note: pdflatex not installed: b.tex not compiled"
fi

# -o - streams SVG
expect 0 "$S" draw bitonic:4 -o - --bits 0110
grep -q "<svg" "$T/out" || fail "-o - wrote no SVG"
cp "$T/out" "$T/stdout.svg" && valid_svg "$T/stdout.svg"

# options: scale and width change the size; values appear as text
expect 0 "$S" draw bitonic:8 -o "$T/w.png" --width 300
w=$(python3 -c 'import struct,sys;d=open(sys.argv[1],"rb").read(24);print(struct.unpack(">I",d[16:20])[0])' "$T/w.png")
[ "$w" = 300 ] || fail "--width 300 gave a $w pixel wide PNG"
expect 0 "$S" draw bitonic:8 -o "$T/s.png" --scale 2
w2=$(python3 -c 'import struct,sys;d=open(sys.argv[1],"rb").read(24);print(struct.unpack(">I",d[16:20])[0])' "$T/s.png")
expect 0 "$S" draw bitonic:8 -o "$T/s1.png" --scale 1
w1=$(python3 -c 'import struct,sys;d=open(sys.argv[1],"rb").read(24);print(struct.unpack(">I",d[16:20])[0])' "$T/s1.png")
[ $((w2 - 2 * w1)) -le 2 ] && [ $((2 * w1 - w2)) -le 2 ] || fail "--scale 2: $w2 px, not twice $w1"
# a default PNG fills a slide (1280x720) instead of being a thumbnail; SVG
# keeps scale 1 (one unit a point); one network or a stack
pngsize() { python3 -c 'import struct,sys;d=open(sys.argv[1],"rb").read(24);print(*struct.unpack(">II",d[16:24]))' "$1"; }
for args in "bitonic:8" "transposition:3" "bitonic:8 oddeven-merge:8 --random 1"; do
    expect 0 "$S" draw $args -o "$T/slide.png"
    read -r sw sh < <(pngsize "$T/slide.png")
    [ "$sw" -le 1280 ] && [ "$sh" -le 720 ] && { [ "$sw" -ge 1260 ] || [ "$sh" -ge 700 ]; } ||
        fail "default PNG of $args is ${sw}x$sh, not filling 1280x720"
done
expect 0 "$S" draw bitonic:64 -o "$T/big.png"
read -r bw bh < <(pngsize "$T/big.png")
expect 0 "$S" draw bitonic:64 -o "$T/big1.png" --scale 1
[ "$(pngsize "$T/big1.png")" = "$bw $bh" ] || fail "a PNG larger than a slide was scaled"
expect 0 "$S" draw bitonic:8 -o "$T/small.svg"
grep -q 'width="23[0-9]' "$T/small.svg" || fail "default SVG is not at scale 1: $(grep -o 'width="[0-9.]*' "$T/small.svg" | head -1)"
expect 0 "$S" draw --help
out_has "1280 x 720"
out_has "--force"
expect 0 "$S" draw bitonic:8 -o "$T/forced.svg" --force
expect 0 "$S" draw bitonic:4 -o "$T/v.tex" --input 40,30,20,10
for v in 40 30 20 10; do grep -q "{$v}" "$T/v.tex" || fail "value $v missing from v.tex"; done

# failures: exit 2 and nothing left behind
expect 2 "$S" draw bitonic:8 -o "$T/x.bmp"
expect 2 "$S" draw bitonic:8 -o "$T/nodir/x.svg"
expect 2 "$S" draw bitonic:8 -o "$T/x2.svg" --step 99
expect 2 "$S" draw bitonic:8 -o "$T/x3.svg" --theme purple
expect 2 "$S" draw bitonic:8 -o "$T/x4.svg" --scale 0
expect 2 "$S" draw bitonic:8 -o "$T/x5.svg" --frobnicate
expect 2 "$S" draw bitonic:8 -o "$T/x6.svg" --input 1,2,3
expect 2 "$S" draw nosuchnet:8 -o "$T/x7.svg"
expect 2 "$S" draw bitonic:8
expect 2 "$S" draw bitonic:1024 -o "$T/huge.png"
grep -q "too large" "$T/err" || fail "huge PNG: no 'too large' message"
# one size limit for every format, before anything is written
for ext in svg pdf png tex; do
    expect 2 "$S" draw bubble:2000 -o "$T/huge2.$ext"
    err_has "limit of 1000000"
    err_has "--force"
done
left=$(ls "$T" | grep -E '^(x|nodir|huge)' || true)
[ -z "$left" ] || fail "failed runs left files: $left"

# a real network from the shipped library
expect 0 "$S" draw best:16 -o "$T/best.svg" --step 5
valid_svg "$T/best.svg"
finish cli_draw
