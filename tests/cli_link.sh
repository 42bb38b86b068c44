#!/usr/bin/env bash
# cli_link.sh - links that carry the state (session/link.h) on the command
# line: `sortnet web --link NET [input] [--step K]` prints the part of a
# page's address after '#', `sortnet view --link TEXT` opens the same state
# (headless here: --screenshot with --dump-state), and every bad link is
# one line on stderr and exit 2. Also the core's messages the page's
# students stumbled on: a ';' between values, one bracket line holding a
# whole network, an image opened as a network.
. "$(dirname "$0")/lib.sh"

# view ARGS: a headless session (no display), its state in $T/state
view() { env -u DISPLAY -u WAYLAND_DISPLAY "$S" view --screenshot "$T/shot.png" --dump-state "$T/state" "$@"; }
field() { sed -n "s/^$1: //p" "$T/state"; }

# ---- view --link: a name, an input, a step
expect 0 view --link 'v1&net=bitonic:8&in=random:7&step=3&end'
[ "$(field network)" = bitonic:8 ] || fail "network: $(field network)"
[ "$(field step)" = 3 ] || fail "step: $(field step)"
[ "$(field input)" = "random (seed 7)" ] || fail "input: $(field input)"
expect 0 "$S" run bitonic:8 --random 7 --trace
after3=$(sed -n 's/^after layer 3: *\([^ ]*\).*/\1/p' "$T/out")
vals=$(field values | tr -d ' ')
[ -n "$after3" ] && [ "$after3" = "$vals" ] || fail "values after layer 3: $vals, run --trace says $after3"

# an edited network's comparators, bits
expect 0 view --link 'v1&cmp=4/0-1,2-3/0-2,1-3/1-2&in=bits:0110&step=3&end'
[ "$(field n)" = 4 ] && [ "$(field layers)" = 3 ] || fail "cmp=: n $(field n), layers $(field layers)"
[ "$(field values)" = "0,0,1,1" ] || fail "cmp= on 0110 after 3 layers: $(field values)"

# a lesson's step
expect 0 view --link 'v1&lesson=02&ls=2&step=1&end'
[ "$(field step)" = 1 ] || fail "lesson link: step $(field step)"

# ---- bad links: one line, exit 2, nothing written
for bad in '' 'v1&net=bitonic:8&step=3' 'v1&net=bitonic:8&bogus=1&end' 'v2&net=bitonic:8&end' \
           'v1&cmp=4/0-1,1-2&end' 'v1&net=bitonic:8&step=40&end' 'v1&net=nosuch:8&end' \
           'v1&lesson=nosuchlesson&end' 'v1&lesson=02&ls=99&end' 'v1&net=bitonic:4&in=list:1,2&end' \
           'v1&lesson=04&ex=0:1&end' 'v1&lesson=04&ex=1:1*2&end' 'v1&lesson=04&ex=4:deep&end' \
           'v1&net=bitonic:8&ex=1:1&end'; do
    rm -f "$T/shot.png"
    expect 2 view --link "$bad"
    [ "$(wc -l < "$T/err")" = 1 ] || fail "link '$bad': $(wc -l < "$T/err") lines on stderr: $(cat "$T/err")"
    grep -q '^sortnet: ' "$T/err" || fail "link '$bad': $(cat "$T/err")"
    [ -e "$T/shot.png" ] && fail "link '$bad': a screenshot was written"
done
expect 2 view --link 'v1&net=bitonic:8&step=3'
err_has "link: truncated"
expect 2 view --link 'v1&lesson=04&ls=2&ex=0:1&end'
err_has "link: ex= answers step 0, which has no exercise"
expect 2 view --link 'v1&lesson=04&ex=4:deep&end'
err_has "link: ex= step 4: "
expect 2 view --link 'v1&net=bitonic:8&step=40&end'
err_has "link: step=40, and bitonic:8 has 6 layers"
expect 2 "$S" view bitonic:8 --link 'v1&net=bitonic:8&end' --screenshot "$T/x.png"
err_has "--link: the link says the network"
expect 2 "$S" view --random 3 --link 'v1&net=bitonic:8&end' --screenshot "$T/x.png"
err_has "drop the input option"
expect 0 "$S" view --help
out_has "--link TEXT"

# ---- the core's messages
expect 2 "$S" run bitonic:4 --input '1;2;3'
err_has "column 2: ';' cannot be in a value (separate values with commas or spaces"
printf '[(0,1),(2,3),(0,2),(1,3),(1,2)]\n' > "$T/one.txt"
expect 2 "$S" check "$T/one.txt"
err_has "write one layer a line, e.g. [(0,1),(2,3)] then [(0,2),(1,3)]"
printf '\211PNG\r\n\032\n\0\0\0\rIHDR' > "$T/net.png"
expect 2 "$S" check "$T/net.png"
err_has "net.png:1:1: this is an image (PNG), not a network"

# ---- web --link (needs the page in the build)
if has_part "the page (sortnet web)"; then
    expect 0 "$S" web --link bitonic:8 --random 7 --step 3
    [ "$(cat "$T/out")" = 'v1&net=bitonic:8&in=random:7&end' ] && fail "the step was dropped"
    [ "$(cat "$T/out")" = 'v1&net=bitonic:8&in=random:7&step=3&end' ] || fail "web --link: $(cat "$T/out")"
    link=$(cat "$T/out")
    expect 0 view --link "$link"
    [ "$(field network) $(field step)" = "bitonic:8 3" ] || fail "web --link then view --link: $(field network) $(field step)"
    expect 0 "$S" web --link bitonic --input 4,3,2,1
    [ "$(cat "$T/out")" = 'v1&net=bitonic:4&in=list:4,3,2,1&end' ] || fail "sized by --input: $(cat "$T/out")"
    expect 0 "$S" web --link best:6 --reverse --step 0
    out_has 'v1&net=best:6&in=reverse&end'
    printf '[(0,1),(2,3)]\n[(0,2),(1,3)]\n[(1,2)]\n' > "$T/four.txt"
    expect 0 "$S" web --link "$T/four.txt" --bits 0110 --step 2
    [ "$(cat "$T/out")" = 'v1&cmp=4/0-1,2-3/0-2,1-3/1-2&in=bits:0110&step=2&end' ] || fail "a file: $(cat "$T/out")"
    expect 2 "$S" web --link bitonic:8 --step 7
    err_has "--step: '7' is not a step of bitonic:8 (0 to its 6 layers)"
    expect 2 "$S" web --link bitonic:8 --input 1,2
    err_has "expected 8 values"
    expect 2 "$S" web --link nosuch:8
    expect 2 "$S" web --step 3 -o "$T/p.html"
    err_has "--step: goes with --link NET"
    expect 2 "$S" web --link bitonic:8 -o "$T/p.html"
    err_has "no -o with it"
    expect 2 "$S" web --link bitonic:8 best:8
    err_has "no second network with it"
    expect 2 "$S" web --link 'dist:4,best:4'
    err_has "not carried by links"
    [ -e "$T/p.html" ] && fail "a page was written with --link"
    expect 0 "$S" web --help
    out_has "--link NET"
fi
finish cli_link
