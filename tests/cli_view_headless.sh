#!/usr/bin/env bash
# cli_view_headless.sh - `sortnet view` with no window (docs/design.md, "The
# session and its backends"): the headless backend plays scripts and writes
# screenshots and state dumps with no display and no SDL; for the same
# script its PNG is the window's, pixel for pixel (SDL's offscreen driver),
# and so is its state. With SN_VIEW_REFERENCE set to another sortnet (the
# SDL build, when this one was built without SDL2: tools/setup.sh's
# no-threads stage), the pictures are compared with that binary's too.
. "$(dirname "$0")/lib.sh"
require_part "cairo drawing"
command -v python3 >/dev/null || { echo "SKIP: python3 needed to read PNG files" >&2; exit 77; }

# no display at all: DISPLAY, WAYLAND_DISPLAY and SDL_VIDEODRIVER unset
nodisplay() { env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$@"; }
# same A.png B.png WHAT: the two pictures have the same size and pixels
same() {
    PYTHONPATH="$(dirname "$0")" python3 -c "
import sys
from png_rows import load
a, b = load(sys.argv[1]), load(sys.argv[2])
if a[:3] != b[:3]:
    sys.exit('sizes %s and %s' % (a[:3], b[:3]))
bad = [y for y in range(a[1]) if a[3][y] != b[3][y]]
if bad:
    sys.exit('%d rows differ, the first %d' % (len(bad), bad[0]))
" "$1" "$2" 2>"$T/same.err" || fail "$3: $(cat "$T/same.err")"
}
# the state without the backend's own lines (sound device, window)
state_of() { grep -v '^\(window\|sound_device\|tones\):' "$1"; }

# The scripts: steps, an input, side by side, a lesson, zoom and pan, a
# click that follows an element, edit mode with both ways of adding a
# comparator (a drag from wire to wire; two clicks), a theme.
cases=(
    "bitonic:8 --input 8,7,6,5,4,3,2,1|right right right"
    "oddeven:8 bitonic:8 --input 3,1,4,1,5,9,2,6|right right wait:100"
    "--lesson 01-comparators-and-0-1|right down"
    "bitonic:16|wheel:300,150,2 drag:300,150,-40,10 right"
    "bitonic:8|click:320,160 right right t"
    "empty:4 --discard|drag:330,48,0,39 click:330,87 click:330,126"
)
i=0
for c in "${cases[@]}"; do
    i=$((i + 1))
    args=${c%%|*} script=${c#*|}
    # shellcheck disable=SC2086 # args is a list of arguments
    expect 0 nodisplay "$S" view --size 640x400 $args --script "$script" --screenshot "$T/h$i.png" \
        --dump-state "$T/h$i.txt"
    [ -s "$T/h$i.png" ] && [ -s "$T/h$i.txt" ] || { fail "case $i ($c): no headless screenshot or state"; continue; }
    grep -q '^window: none' "$T/h$i.txt" || fail "case $i ($c): the headless state says $(grep '^window' "$T/h$i.txt")"
    if has_part "SDL2 window" && has_offscreen; then
        # shellcheck disable=SC2086
        expect 0 env SDL_VIDEODRIVER=offscreen "$S" view --size 640x400 $args --script "$script" \
            --screenshot "$T/w$i.png" --dump-state "$T/w$i.txt"
        same "$T/h$i.png" "$T/w$i.png" "case $i ($c): headless against the window"
        diff <(state_of "$T/h$i.txt") <(state_of "$T/w$i.txt") >"$T/diff" ||
            fail "case $i ($c): the states differ: $(head -c 600 "$T/diff")"
    fi
    if [ -n "${SN_VIEW_REFERENCE:-}" ]; then
        # shellcheck disable=SC2086
        expect 0 nodisplay "$SN_VIEW_REFERENCE" view --size 640x400 $args --script "$script" \
            --screenshot "$T/r$i.png" --dump-state "$T/r$i.txt"
        same "$T/h$i.png" "$T/r$i.png" "case $i ($c): against $SN_VIEW_REFERENCE"
        diff <(state_of "$T/h$i.txt") <(state_of "$T/r$i.txt") >"$T/diff" ||
            fail "case $i ($c): the states differ from $SN_VIEW_REFERENCE's: $(head -c 600 "$T/diff")"
    fi
done

# what the scripts did, read from the headless states
f() { sed -n "s/^$2: //p" "$T/h$1.txt"; }
[ "$(f 1 step) $(f 1 result)" = "3 -" ] && [ "$(f 1 values)" = "5,6,7,8,1,2,3,4" ] ||
    fail "bitonic:8 after 3 layers: step $(f 1 step), values $(f 1 values)"
[ "$(f 2 networks)" = 2 ] || fail "side by side: $(f 2 networks) networks"
[ "$(f 3 lesson_step)" = "2 of $(f 3 lesson_step | sed 's/.* of //')" ] && [ "$(f 3 step)" = 1 ] ||
    fail "the lesson: step $(f 3 lesson_step), layer $(f 3 step)"
[ "$(f 4 zoom)" != 1 ] || fail "the wheel did not zoom: $(f 4 zoom)"
[ "$(f 5 follow)" != -1 ] && [ "$(f 5 theme)" != light ] ||
    fail "the click followed $(f 5 follow), theme $(f 5 theme)"
# empty:4: the drag added (0,1), the two clicks on wires 1 and 2 added (1,2)
[ "$(f 6 size)" = 2 ] || fail "the drag and the two clicks: $(f 6 size) comparators: $(grep '^net' "$T/h6.txt")"

# the headless backend reports a failed step and a bad script as the window does
expect 2 nodisplay "$S" view bitonic:8 --script "add:0,1"
err_has "edit mode is off"
expect 2 nodisplay "$S" view bitonic:8 --script "right nonsense"
err_has "--script"
# a screenshot that cannot be written is an error, and leaves nothing
expect 2 nodisplay "$S" view bitonic:8 --script right --screenshot "$T/no/such/dir/x.png"
err_has "cannot write the screenshot"
# a live session needs a window: without a display it says so (exit 3)
expect 3 nodisplay "$S" view bitonic:8
err_has "display"
expect 3 nodisplay "$S" view bitonic:8 --script right --stay
err_has "window"
# a network's name reaches the terminal escaped (an ESC in it shown as \x1b)
expect 2 nodisplay "$S" view "$(printf 'e\033[31m.txt')" --script right
err_has 'e\x1b[31m.txt'
LC_ALL=C grep -q "$(printf '\033')" "$T/err" && fail "a raw ESC reached stderr: $(od -c "$T/err" | head -3)"
ls "$T"/*.tmp* >/dev/null 2>&1 && fail "temporaries left: $(ls "$T")"
finish cli_view_headless
