#!/usr/bin/env bash
# cli_view_events.sh - the window's SDL event handler (keys with their
# modifiers, mouse presses, drags, double clicks, the wheel, window and
# quit events), which scripted sessions go around: tests/sdl_events.c is
# preloaded into `sortnet view` under the offscreen driver and hands it
# the events of SN_TEST_EVENTS one per frame, while a script's wait keeps
# the session open; the state dump shows what each did. Skips (77) like
# the other scripted sessions. In an ASan build, whose runtime must come
# first in the list of loaded libraries, the shim is preloaded after it.
. "$(dirname "$0")/lib.sh"
view_session
event_shim
cd "$T" || exit 1

# ev EVENTS NET [ARGS...]: a session of 1 s of frames with EVENTS
ev() {
    local events=$1
    shift
    SN_TEST_EVENTS=$events LD_PRELOAD=$shim view "$@" --script "wait:1000" >"$T/out" 2>"$T/err"
    local rc=$?
    [ $rc = 0 ] || fail "events '$events' on $1: exit $rc: $(head -c 300 "$T/err")"
}
is() { # is FIELD VALUE WHAT
    [ "$(field "$1")" = "$2" ] || fail "$3: $1 is '$(field "$1")', expected '$2'"
}

# keys: stepping (the arrows, Home, End; PageDown/PageUp as a clicker remote)
ev "key:Right key:Right key:Right" bitonic:8
is step 3 "three Right"
ev "key:End key:Left" bitonic:8
is step 5 "End Left"
ev "key:End key:Home" bitonic:8
is step 0 "End Home"
ev "key:End" bitonic:8
is result sorted "End"
# the six generator keys each switch the network; the clicker remote's
# PageDown/PageUp and Down/Up step
for g in 1 2 4 5 6; do
    ev "key:$g key:End" bitonic:8
    [ "$(field network)" != bitonic:8 ] || [ "$g" = 1 ] || fail "key $g kept bitonic:8"
    is result sorted "key $g, End"
done
ev "key:PageDown key:PageDown key:PageDown key:PageUp" bitonic:8
[ "$(field step)" -ge 1 ] || fail "PageDown x3, PageUp: step $(field step)"
ev "key:Down key:Down key:Up key:x key:x+ctrl key:o key:F11" bitonic:8
is network bitonic:8 "Down Up x ctrl+x o F11"
SN_TEST_EVENTS="key:q" LD_PRELOAD=$shim view bitonic:4 --script "wait:5000 right" >"$T/out" 2>"$T/err" ||
    fail "q: exit $?"
is step 0 "q before the script's right"
# the generator and n, the input
ev "key:3 key:] key:[ key:[ key:v" bitonic:8
is network transposition:4 "3 ] [ ["
is input reversed "v"
is values "4,3,2,1" "v"
ev "key:0" bitonic:8
grep -q "^input: 0-1" "$T/state" || fail "0: $(field input)"
ev "key:r" bitonic:8 --random 1
[ "$(field input)" != "random (seed 1)" ] || fail "r kept the input"
# theme, help, text size, sound, the 0-1 view and structure, the counter
ev "key:t" bitonic:8
is theme dark "t"
ev "key:h" bitonic:8
is help 1 "h"
ev "key:F1 key:F1" bitonic:8
is help 0 "F1 twice"
ev "key:=+ctrl key:=+ctrl key:-+ctrl" bitonic:8
is font_scale 1.2 "ctrl+= ctrl+= ctrl+-"
ev "key:++ctrl" bitonic:8
[ "$(field font_scale)" != 1 ] || fail "ctrl+plus: $(field font_scale)"
ev "key:m" bitonic:8
is sound on "m"
ev "key:b key:w key:z key:Space key:= key:- key:Keypad- key:Escape" bitonic:8
[ "$(field layers)" = 6 ] || fail "b w z space = -: $(cat "$T/state")"
# C and L (the race's keys) outside edit mode say so; G answers
ev "key:c" bitonic:8
field message | grep -q "^error: race: edit mode is off" || fail "c: $(field message)"
ev "key:l" bitonic:8
field message | grep -q "edit mode is off" || fail "l: $(field message)"
ev "key:g" bitonic:8 # the GPU check, or why there is none
field message | grep -qE "GPU|bit-identical" || fail "g: $(field message)"
# a key's save and the script's quit in one frame: the picture is saved, then the window closes
SN_TEST_EVENTS="key:p" LD_PRELOAD=$shim view oddeven-merge:4 --script "q" >"$T/out" 2>"$T/err" ||
    fail "p and q: exit $?"
is message "saved screenshot sortnet-oddeven-merge-4-layer-0.png" "p and q in one frame"
[ -s sortnet-oddeven-merge-4-layer-0.png ] || fail "p and q: no picture"
# the savers: S an SVG, P a PNG, in the working folder
ev "key:s key:p" bitonic:8
[ -s sortnet-bitonic-8-layer-0.svg ] && [ -s sortnet-bitonic-8-layer-0.png ] ||
    fail "s p saved: $(ls)"
# the mouse: a click on a wire follows its value, a double click fits,
# the wheel zooms at the mouse, a drag pans, the right button does nothing
ev "down:100,100 up:100,100" bitonic:8
is follow 3 "a click on the fourth wire"
ev "down:100,100 up:100,100 key:Escape" bitonic:8
is follow -1 "Esc after a click"
ev "move:300,200 wheel:2" bitonic:8
[ "$(field zoom)" != 1 ] || fail "the wheel did not zoom"
ev "wheel:2 dclick:300,200" bitonic:8
is zoom 1 "a double click fits"
ev "down:100,100 move:102,100 move:200,150 up:200,150" bitonic:8
is follow -1 "a drag is not a click"
ev "rdown:100,100 up:100,100 window" bitonic:8
is follow -1 "the right button"
# quit ends the session before the script does
SN_TEST_EVENTS="quit" LD_PRELOAD=$shim view bitonic:4 --script "wait:5000 right" >"$T/out" 2>"$T/err" ||
    fail "quit: exit $?"
is step 0 "quit before the script's right"
# edit mode's redundant comparators (faded in the picture, listed in the
# state): one that repeats a comparator's work, a reversed one too
printf '[(0,1),(2,3)]\n[(0,2),(1,3)]\n[(1,2)]\n[(0,1)]\n' >"$T/red.txt"
printf '[(1,0)]\n[(1,0)]\n' >"$T/rev.txt"
for c in "red.txt 5 sorts" "rev.txt 1 does"; do
    set -- $c
    view "$T/$1" --script "e" --screenshot "$T/$1.png" >"$T/out" 2>&1 || fail "e on $1: exit $?"
    is redundant "$2" "e on $1"
    field verdict | grep -q "^$3" || fail "e on $1: verdict $(field verdict)"
    [ -s "$T/$1.png" ] || fail "e on $1: no picture"
done
# a lesson: Left on its first step stays there; Right, Left and PageUp
# come back to it
for keys in "left" "right left pageup"; do
    view --lesson 02 --script "$keys" >"$T/out" 2>&1 || fail "lesson, $keys: exit $?"
    is lesson_step "1 of 8" "lesson, $keys"
done
# the script's drag outside edit mode pans
view bitonic:8 --script "wheel:300,200,2 drag:300,200,40,0" >"$T/out" 2>&1 || fail "script drag: exit $?"
[ "$(field pan)" != "0,0" ] || fail "the script's drag did not pan: $(field pan)"
# the script's own wheel and double click (not SDL events)
view bitonic:8 --script "wheel:300,200,2" >"$T/out" 2>&1 || fail "script wheel: exit $?"
[ "$(field zoom)" != 1 ] || fail "the script's wheel did not zoom"
view bitonic:8 --script "wheel:300,200,2 dclick:300,200" >"$T/out" 2>&1 || fail "script dclick: exit $?"
is zoom 1 "the script's double click fits"
# the renderer path (SORTNET_RENDERER=texture) paints the same picture as
# the window surface, also live after a script (--stay) and with events
SDL_VIDEODRIVER=offscreen "$S" view bitonic:8 --size 640x400 --script "right right" \
    --screenshot "$T/surface.png" >"$T/out" 2>&1 || fail "surface screenshot: exit $?"
SORTNET_RENDERER=texture SDL_VIDEODRIVER=offscreen "$S" view bitonic:8 --size 640x400 \
    --script "right right" --screenshot "$T/texture.png" >"$T/out" 2>&1 || fail "texture screenshot: exit $?"
cmp -s "$T/surface.png" "$T/texture.png" || fail "the renderer path painted another picture"
SORTNET_RENDERER=texture SN_TEST_EVENTS="skip:60 window key:Right quit" LD_PRELOAD=$shim \
    view bitonic:4 --script "right" --stay >"$T/out" 2>"$T/err" || fail "texture --stay: exit $?"
is step 2 "texture: the script's right, then a live Right"
is message "the script has ended: the keys are yours (H: help)" "texture --stay"

# the window resized (SDL_WINDOWEVENT_SIZE_CHANGED) and full screen (F11,
# and F11 again): the frame follows on both paths to the screen, and the
# screenshot has the window's new size
png_size() { python3 -c "import struct,sys; d=open(sys.argv[1],'rb').read(); print('%dx%d' % struct.unpack('>II', d[16:24]))" "$1"; }
for how in surface texture; do
    rm -f "$T/resized.png"
    SORTNET_RENDERER=$how ev "size:800,500 key:Right" bitonic:8 --screenshot "$T/resized.png"
    is window "800x500 px" "$how: resized"
    is step 1 "$how: resized, Right"
    [ "$(png_size "$T/resized.png")" = 800x500 ] || fail "$how: resized: a $(png_size "$T/resized.png") screenshot"
    SORTNET_RENDERER=$how ev "key:F11" bitonic:8
    case "$(field window)" in *", full screen") ;; *) fail "$how: F11: $(field window)" ;; esac
    SORTNET_RENDERER=$how ev "key:F11 skip:2 key:F11" bitonic:8
    case "$(field window)" in *"full screen"*) fail "$how: F11 twice: $(field window)" ;; esac
done
# a script's f11 needs the window too (a display): not a headless session
view bitonic:8 --script "f11" >"$T/out" 2>&1 || fail "script f11: exit $?"
case "$(field window)" in *", full screen") ;; *) fail "script f11: $(field window)" ;; esac

# B in edit mode takes the live verdict: its counterexample, or "sorts"
echo "[(0,1),(2,3)]" >"$T/cex.txt"
view "$T/cex.txt" --script "e b" --discard >"$T/out" 2>&1 || fail "e b: exit $?"
is input "0-1 (1000)" "B plays the live verdict's counterexample"
grep -q "^message: error: does NOT sort: counterexample 1000 (one of 9 failing" "$T/state" ||
    fail "e b: $(field message)"
view bitonic:4 --script "e b" --discard >"$T/out" 2>&1 || fail "e b, a sorter: exit $?"
is message "this network sorts: the 0-1 checker proved it" "B on a sorter in edit mode"
# Esc closes the help first, then stops following
view bitonic:4 --script "h escape" >"$T/out" 2>&1 || fail "h escape: exit $?"
is help 0 "Esc closes the help"

# G's GPU check when an OpenCL call fails (SN_CL_FAIL): the message names it
if has_gpu; then
    SN_CL_FAIL=clEnqueueReadBuffer view bitonic:8 --script "g wait:500" >"$T/out" 2>&1 ||
        fail "g with a failing read: exit $?"
    is message "error: GPU check failed: clEnqueueReadBuffer(keys) failed: CL_OUT_OF_RESOURCES (-5)" \
        "g with a failing read"
    SN_CL_FAIL=clBuildProgram view bitonic:8 --script "g wait:500" >"$T/out" 2>&1 ||
        fail "g with a failing build: exit $?"
    grep -q "^message: error: GPU check failed: clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE" \
        "$T/state" || fail "g with a failing build: $(field message)"
fi

# side by side: Space twice pauses; Space at the end plays again from 0
view bitonic:8 oddeven-merge:8 --script "space wait:100 space" >"$T/out" 2>&1 || fail "space space: exit $?"
is message paused "Space Space side by side"
is playing 0 "Space Space side by side"
view bitonic:8 oddeven-merge:8 --script "end space" >"$T/out" 2>&1 || fail "end space: exit $?"
is message "done: bitonic:8 sorted, oddeven-merge:8 sorted" "End Space side by side"
# P with the help shown saves the picture with it, beside the earlier one
(cd "$T" && view bitonic:8 --script "h p" >"$T/out" 2>&1) || fail "h p: exit $?"
grep -q "^message: saved screenshot sortnet-bitonic-8-layer-0-2.png" "$T/state" || fail "h p (a second name beside the first): $(field message)"

# unsaved edits keep the network from being switched; Esc with nothing to
# close or stop changes nothing
view bitonic:4 --script "e del:0,0 3" --discard >"$T/out" 2>&1 || fail "e del 3: exit $?"
is network bitonic:4 "a generator key over unsaved edits"
grep -q "^message: error: unsaved edits: save them (Ctrl+S) or undo them" "$T/state" ||
    fail "e del 3: $(field message)"
view bitonic:4 --script "escape" >"$T/out" 2>&1 || fail "escape: exit $?"
is follow -1 "Esc alone"
is message "Right: next layer   Space: play   R: new random input" "Esc alone"

# a given input stays for another network of the same n, and turns
# random for another n
view bitonic:4 --input 4,3,2,1 --script "2" >"$T/out" 2>&1 || fail "--input, 2: exit $?"
is network oddeven-merge:4 "--input, 2"
is input given "--input, 2"
is values "4,3,2,1" "--input, 2"
view bitonic:4 --input 4,3,2,1 --script "]" >"$T/out" 2>&1 || fail "--input, ]: exit $?"
is network bitonic:8 "--input, ]"
grep -q "^input: random" "$T/state" || fail "--input, ]: $(field input)"

# scripts: a number list with another separator or too many numbers is
# refused at its column; a trailing comma ends the script
for bad in "click:1;2" "click:1,2,3,4,5,6,7"; do
    SDL_VIDEODRIVER=offscreen "$S" view bitonic:4 --script "$bad" >"$T/out" 2>"$T/err"
    [ $? = 2 ] || fail "--script '$bad' was not refused"
    err_has "script column 1: '$bad' is not a key name"
done
view bitonic:4 --script "right, " >"$T/out" 2>&1 || fail "right, : exit $?"
is step 1 "a trailing comma"

# --stay: after the script (60 frames: its step has settled) the window
# is live (the keys, then quit)
SN_TEST_EVENTS="skip:60 key:Right key:Right quit" LD_PRELOAD=$shim view bitonic:4 --script "right" \
    --stay >"$T/out" 2>"$T/err" || fail "--stay: exit $?"
is step 3 "the script's right, then two live Right"
is message "the script has ended: the keys are yours (H: help)" "--stay"

# edit mode with the mouse and keys (empty:4: wires at y = 48, 87, 126,
# 165, the drop room at x = 330; the first layer at x = 108)
ev "down:330,48 move:330,70 move:330,87 up:330,87" empty:4 --discard
is net "[(0,1)]" "a drag from wire 0 to wire 1"
two() { echo "[(0,1),(2,3)]" >"$T/two.txt"; }
two
ev "key:e down:108,67 up:108,67" two.txt --discard
is selected "0,0" "a click on a comparator"
two
ev "key:e down:108,67 up:108,67 key:Delete" two.txt --discard
is net "[(2,3)]" "Delete"
two
ev "key:e down:108,67 up:108,67 key:Delete key:z+ctrl" two.txt --discard
is net "[(0,1),(2,3)]" "ctrl+z"
two
ev "key:e down:108,67 up:108,67 key:Delete key:z+ctrl key:y+ctrl" two.txt --discard
is net "[(2,3)]" "ctrl+y"
two
ev "key:e key:Tab key:Backspace key:z+ctrl key:z+ctrl+shift key:s+ctrl" two.txt
is unsaved no "ctrl+s"
[ "$(cat "$T/two.txt")" = "[(2,3)]" ] || fail "ctrl+s wrote $(cat "$T/two.txt")"
two
ev "key:e down:108,67 up:108,67 down:330,48 up:330,48" two.txt --discard
is selected "-" "a click on a wire deselects"
two
ev "key:e down:108,67 move:150,67 move:258,67 up:258,67" two.txt --discard
is net "[(2,3)] [(0,1)]" "a drag moves a comparator"
# off the wires (the margin): no edit gesture, nothing selected; a
# comparator dragged off the network stays where it was, selected
two
ev "key:e down:5,5 up:5,5" two.txt --discard
is selected "-" "a click in the margin"
is net "[(0,1),(2,3)]" "a click in the margin"
two
ev "key:e down:108,67 move:300,390 move:630,395 up:630,395" two.txt --discard
is net "[(0,1),(2,3)]" "a comparator dragged off the network"
is selected "0,0" "a comparator dragged off the network"

finish cli_view_events
