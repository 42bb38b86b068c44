#!/usr/bin/env bash
# cli_exercise_window.sh - a lesson's exercise answered with the window's
# own keys (not --script verbs): Enter opens the answer line (predict:
# holding the values shown), typed text (SDL_TEXTINPUT) and Backspace edit
# it, Enter answers, Esc cancels, "hint" shows the hint; while the line is
# open letters are text, not keys. tests/sdl_events.c is preloaded under
# the offscreen driver (as in cli_view_events.sh; in a sanitizer build
# after ASan's runtime).
. "$(dirname "$0")/lib.sh"
view_session
event_shim
cd "$T" || exit 1
printf 'step: a\nexercise: depth seed=4\nstep: b\nexercise: predict seed=1\n' >"$T/ex.lesson"

# ev EVENTS: 1 s of frames of the lesson with EVENTS (the script only waits)
ev() {
    SN_TEST_EVENTS=$1 LD_PRELOAD=$shim view --lesson "$T/ex.lesson" --script "wait:1000" >"$T/out" 2>"$T/err"
    local rc=$?
    [ $rc = 0 ] || fail "events '$1': exit $rc: $(head -c 300 "$T/err")"
}
is() { [ "$(field "$1")" = "$2" ] || fail "$3: $1 is '$(field "$1")', expected '$2'"; }

# the right depth, worked out from the dump by tests/exercise_solve.py
view --lesson "$T/ex.lesson" --script "" || fail "the lesson does not open"
depth=$(python3 "$SN_SOURCE_DIR/tests/exercise_solve.py" "$T/state" right | sed 's/^answer://')
ev "key:Return text:$depth key:Return"
is score 1/1 "depth $depth typed"
is answered right "depth $depth typed"
# typed wrong, a character deleted, then right: the first answer counts
ev "key:Return text:9 text:9 key:Backspace key:Return"
is answered wrong "99 less one 9"
is score 0/1 "99 less one 9"
# Esc closes the line: nothing answered, and the keys are keys again
ev "key:Return text:$depth key:Escape key:Return key:Escape key:t"
is answered no "Esc"
is theme dark "t after Esc"
# while the line is open, t is text (the theme stays)
ev "key:Return key:t text:t key:Return"
is theme light "t typed into the line"
is answered no "t is not an answer"
case "$(field message)" in *"expected a number of layers"*) ;; *) fail "t: message $(field message)" ;; esac
# hint
ev "key:Return text:hint key:Return"
is answered no "hint"
# predict: the line opens holding the values shown; its right answer typed over
SN_TEST_EVENTS="key:Right key:Return" LD_PRELOAD=$shim view --lesson "$T/ex.lesson" --script "wait:1000" ||
    fail "predict: $(head -c 300 "$T/err")"
case "$(field message)" in "answer: $(field values)_"*) ;; *) fail "predict's line: $(field message)" ;; esac
right=$(python3 "$SN_SOURCE_DIR/tests/exercise_solve.py" "$T/state" right | sed 's/^answer://')
back=$(printf 'key:Backspace %.0s' $(seq 1 ${#right}))
ev "key:Right key:Return $back text:$right key:Return"
is score 1/1 "predict $right typed"
finish cli_exercise_window
