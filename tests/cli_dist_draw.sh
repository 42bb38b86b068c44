#!/usr/bin/env bash
# cli_dist_draw.sh - `sortnet draw dist:P,NET` end to end: the merge-split
# picture written as SVG, PNG and PDF (the same seed the same picture, a
# network file that does not sort drawn too), and the errors (wires != P,
# P < 1, K < 1, too big, TikZ, options that do not go with it) exit 2
# leaving no file.
. "$(dirname "$0")/lib.sh"
require_part "cairo drawing"
is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "$1 is not a PNG"; }
xml_ok() {
    python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$1" ||
        fail "$1 is not XML"
}

expect 0 "$S" draw --help
out_has "dist:P[,NET]"
out_has "--keys K"

expect 0 "$S" draw dist:4,best:4 -o "$T/d4.svg"
xml_ok "$T/d4.svg"
[ -s "$T/d4.svg" ] || fail "d4.svg is empty"
expect 0 "$S" draw dist:4 -o "$T/d4b.svg"
cmp -s "$T/d4.svg" "$T/d4b.svg" || fail "dist:4 is not dist:4,best:4"
expect 0 "$S" draw dist:8,bitonic --keys 3 --seed 9 -o "$T/d8.png"
is_png "$T/d8.png"
expect 0 "$S" draw dist:6x2,oddeven-merge:6 --step 2 --theme dark -o "$T/d6.pdf"
head -c 5 "$T/d6.pdf" | grep -q "%PDF-" || fail "d6.pdf is not a PDF"
# the same seed, the same picture; another seed, other keys
expect 0 "$S" draw dist:4,best:4 -o - --seed 1
cmp -s "$T/out" "$T/d4.svg" || fail "-o - differs from the file of the same seed"
expect 0 "$S" draw dist:4,best:4 -o "$T/s2.svg" --seed 2
cmp -s "$T/s2.svg" "$T/d4.svg" && fail "--seed 2 drew the keys of seed 1"

# a network (a file) that does not sort is drawn too: the picture shows
# where a boundary breaks (test_dist_scene checks the marks themselves)
printf '[(0,2),(1,3)]\n[(0,1),(2,3)]\n' >"$T/almost.txt"
expect 0 "$S" draw "dist:4,$T/almost.txt" --seed 3 -o "$T/a.svg"
xml_ok "$T/a.svg"

# errors: exit 2, a clear message, no file left behind
expect 2 "$S" draw dist:4,bitonic:8 -o "$T/e1.svg"
err_has "bitonic:8 has 8 wires but the picture has 4 ranks"
[ -e "$T/e1.svg" ] && fail "e1.svg left behind"
expect 2 "$S" draw dist:0 -o "$T/e2.svg"
err_has "1 rank or more"
expect 2 "$S" draw dist:4x0,best:4 -o "$T/e3.svg"
err_has "1 key or more"
expect 2 "$S" draw dist:4,best:4 --keys 0 -o "$T/e4.svg"
err_has "--keys"
expect 2 "$S" draw dist:4,best:4 --keys 17 -o "$T/e4.svg"
err_has "--keys"
expect 2 "$S" draw dist:65 -o "$T/e5.svg"
err_has "too many to draw"
expect 2 "$S" draw dist:4x40 -o "$T/e5.svg"
err_has "too many to draw"
expect 2 "$S" draw dist:4 -o "$T/e6.tex"
err_has "no TikZ form"
expect 2 "$S" draw dist:4 bitonic:4 -o "$T/e7.svg"
err_has "stands alone"
expect 2 "$S" draw dist:4 --random 3 -o "$T/e8.svg"
err_has "makes its own keys"
expect 2 "$S" draw bitonic:4 --seed 3 -o "$T/e9.svg"
err_has "goes with dist:P,NET"
expect 2 "$S" draw dist:4 --step 9 -o "$T/e10.svg"
err_has "past the last layer"
expect 2 "$S" draw dist:4,nonexistent.txt -o "$T/e11.svg"
err_has "nonexistent.txt"
for f in e2 e3 e4 e5 e7 e8 e9 e10 e11; do
    [ -e "$T/$f.svg" ] && fail "$f.svg left behind"
done
[ -e "$T/e6.tex" ] && fail "e6.tex left behind"
finish cli_dist_draw
