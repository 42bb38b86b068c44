#!/usr/bin/env bash
# cli_web.sh - `sortnet web`: one self-contained HTML file (the page's
# template, scripts, the module as base64, a config of what to open first),
# written atomically with mode 0644 and only after everything it names was
# checked; without the page in the build, exit 3 and how to build it.
. "$(dirname "$0")/lib.sh"

if ! has_part "the page (sortnet web)"; then
    expect 3 "$S" web -o "$T/x.html"
    err_has "-DSORTNET_WEB=ON"
    [ -e "$T/x.html" ] && fail "a page was written by a build without it"
    finish cli_web
fi
command -v python3 >/dev/null || { echo "SKIP: python3 needed to read the page" >&2; exit 77; }

# config FILE: the page's config as JSON on stdout
config() {
    python3 - "$1" <<'PY'
import json, re, sys
html = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<script type="application/json" id="sn-config">(.*?)</script>', html, re.S)
print(json.dumps(json.loads(m.group(1)), sort_keys=True))
PY
}

umask 022
expect 0 "$S" web -o "$T/page.html"
[ "$(stat -c %a "$T/page.html")" = 644 ] || fail "mode $(stat -c %a "$T/page.html"), expected 644"
ls "$T" | grep -q tmp && fail "a temporary file was left: $(ls "$T")"
grep -q '@SN_' "$T/page.html" && fail "a marker was left in the page"
[ "$(grep -c '</script>' "$T/page.html")" = 4 ] || fail "expected 4 script elements"
[ "$(config "$T/page.html")" = '{"net": "bitonic:16"}' ] || fail "default config: $(config "$T/page.html")"

# the module comes back byte for byte from the base64
wasm=${SN_BUILD_DIR:-}/src/web/sortnet.wasm
if [ -f "$wasm" ]; then
    python3 - "$T/page.html" "$wasm" <<'PY' || fail "the page's module differs from $wasm"
import base64, re, sys
html = open(sys.argv[1], encoding="utf-8").read()
b64 = re.search(r'id="sn-wasm">([^<]*)<', html).group(1)
sys.exit(base64.b64decode(b64) != open(sys.argv[2], "rb").read())
PY
fi

expect 0 "$S" web bitonic:8 --input 8,7,6,5,4,3,2,1 -o "$T/b.html"
[ "$(config "$T/b.html")" = '{"input": "list:8,7,6,5,4,3,2,1", "net": "bitonic:8"}' ] ||
    fail "bitonic:8 config: $(config "$T/b.html")"
expect 0 "$S" web bitonic --bits 0110 -o "$T/b.html"
[ "$(config "$T/b.html")" = '{"input": "bits:0110", "net": "bitonic:4"}' ] ||
    fail "sized by --bits: $(config "$T/b.html")"
vals=$(seq 1024 -1 1 | paste -sd, -)
expect 0 "$S" web bitonic:1024 --input "$vals" -o "$T/b.html"
config "$T/b.html" | grep -qF "\"input\": \"list:$vals\"" || fail "1024 values were not all embedded"
expect 0 "$S" web best:9 --random 7 -o "$T/b.html"
config "$T/b.html" | grep -q '"input": "random:7"' || fail "--random: $(config "$T/b.html")"

# a network file travels as its text (JSON too: the page reads it)
printf '{"N":4,"nw":[[0,1],[2,3],[0,2],[1,3],[1,2]]}\n' >"$T/net.json"
expect 0 "$S" web "$T/net.json" --reverse -o "$T/f.html"
config "$T/f.html" | grep -qF '"net_file": "net.json", "net_text": "{\"N\":4' ||
    fail "a JSON file: $(config "$T/f.html")"
printf '[(0,1)]\n' | "$S" web - -o "$T/s.html" 2>"$T/err" || fail "stdin: $(cat "$T/err")"
config "$T/s.html" | grep -qF '"net_file": "stdin", "net_text": "[(0,1)]\n"' ||
    fail "stdin: $(config "$T/s.html")"

# lessons: a shipped one by name, a file as its text (escaped for <script>)
expect 0 "$S" web --lesson 02 -o "$T/l.html"
[ "$(config "$T/l.html")" = '{"lesson": "02"}' ] || fail "--lesson 02: $(config "$T/l.html")"
printf 'title: a </script> b\n\nstep: one\nnet: bitonic:4\ntext: x & y.\n' >"$T/a.lesson"
expect 0 "$S" web --lesson "$T/a.lesson" -o "$T/l.html"
[ "$(grep -c '</script>' "$T/l.html")" = 4 ] || fail "a lesson's </script> ended an element"
config "$T/l.html" | grep -qF '"lesson_text": "title: a </script> b' || fail "lesson text: $(config "$T/l.html")"

# errors: nothing written, an old file kept
echo old >"$T/keep.html"
expect 2 "$S" web nosuch:4 -o "$T/keep.html"
expect 2 "$S" web bitonic:8 --input 3,1,2 -o "$T/keep.html"
err_has "8"
printf '[(0,1)]\n[(1,x)]\n' >"$T/bad.txt"
expect 2 "$S" web "$T/bad.txt" -o "$T/keep.html"
err_has "bad.txt:2:"
printf '[(0,1)]\n[(1,x)]\n' | "$S" web - -o "$T/keep.html" 2>"$T/err" && fail "bad stdin accepted"
err_has "<stdin>:2:"
if has_part "SDL2 window"; then # the lesson player is the window's code
    printf 'step: a\nnet: bitonic:4\ninput: randm 3\ntext: x.\n' >"$T/bad.lesson"
    expect 2 "$S" web --lesson "$T/bad.lesson" -o "$T/keep.html"
    err_has "bad.lesson:3:8:"
fi
expect 2 "$S" web --lesson 02 bitonic:4 -o "$T/keep.html"
expect 2 "$S" web --lesson 02 --reverse -o "$T/keep.html"
expect 2 "$S" web bitonic:4 --input-file "$T/bad.txt" -o "$T/keep.html"
# dist:P,NET: the merge-split picture opens in the page as in the window
expect 0 "$S" web dist:4,best:4 -o "$T/d.html"
[ "$(config "$T/d.html")" = '{"net": "dist:4,best:4"}' ] || fail "dist config: $(config "$T/d.html")"
expect 2 "$S" web dist:3,bitonic:8 -o "$T/d2.html"
err_has "bitonic:8 has 8 wires but the picture has 3 ranks"
[ -e "$T/d2.html" ] && fail "a page was written for a bad dist: name"
expect 2 "$S" web bitonic:4 bitonic:8 -o "$T/keep.html"
expect 2 "$S" web bitonic:4
err_has "-o FILE"
[ "$(cat "$T/keep.html")" = old ] || fail "a failed run changed the output file"
finish cli_web
