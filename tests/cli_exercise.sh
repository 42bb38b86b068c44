#!/usr/bin/env bash
# cli_exercise.sh - the shipped exercise lesson (assets/lessons/04-*)
# played headless through `sortnet view --lesson ... --script ...
# --dump-state`: every exercise answered right (score 6/6) and wrong
# (0/6), each answer worked out by tests/exercise_solve.py from the dumped
# state alone; the hand-in line; answers that are no answer, and lesson
# lines that are no exercise, refused with what is expected (exit 2); the
# hand-in link opened by `view --link` (the score and answers restored).
. "$(dirname "$0")/lib.sh"
view_session
cd "$T" || exit 1
L="$SN_SOURCE_DIR/assets/lessons/04-exercises.lesson"
solve() { python3 "$SN_SOURCE_DIR/tests/exercise_solve.py" "$T/state" "$1"; }

# play MODE: step through the lesson, answering each exercise as MODE
play() {
    local script="" steps k
    view --lesson "$L" --script "" || fail "$1: the lesson does not open"
    steps=$(field lesson_step | sed 's/.* of //')
    for k in $(seq 1 "$steps"); do
        [ "$k" = 1 ] || script="$script right"
        view --lesson "$L" --script "$script" >"$T/out" 2>"$T/err" || fail "$1: '$script': $(head -c 300 "$T/err")"
        local answer
        answer=$(solve "$1") || fail "$1: step $k: no answer worked out"
        [ -n "$answer" ] && script="$script $answer wait:400"
    done
    view --lesson "$L" --script "$script" >"$T/out" 2>"$T/err" || fail "$1: '$script': $(head -c 300 "$T/err")"
    echo "$script"
}

script=$(play right)
[ "$(field score)" = "6/6" ] || fail "right: score $(field score), expected 6/6 ($script)"
[ "$(field exercise)" = "-" ] || fail "the last step has no exercise: $(field exercise)"
handin=$(field handin)
case "$handin" in
"lesson 04-exercises score 6/6: 2 predict seed=1 right, 3 counterexample seed=2 right,"*) ;;
*) fail "hand-in line: $handin" ;;
esac
for k in predict counterexample redundant depth merger complete; do
    grep -q "$k seed=[0-9]* right" <<<"$handin" || fail "hand-in line lacks '$k ... right': $handin"
done

# the hand-in line ends with a link that shows the answers: `view --link`
# opens it with the same score and hand-in line (what a teacher reads)
link=$(sed 's/.* link #//' <<<"$handin")
case "$link" in v1\&lesson=04-exercises*\&ex=1:*/6:cmp:*\&end) ;; *) fail "hand-in link: $link" ;; esac
cp "$T/state" "$T/student"
view --link "$link" --script "" || fail "view --link the hand-in link: $(head -c 300 "$T/err")"
for k in score answered exercise lesson_step step values handin; do
    [ "$(field $k)" = "$(sed -n "s/^$k: //p" "$T/student")" ] ||
        fail "hand-in link: $k '$(field $k)', the student's '$(sed -n "s/^$k: //p" "$T/student")'"
done
# going back to an answered step (Left) shows its answer graded
view --link "$link" --script "left" || fail "left: $(head -c 300 "$T/err")"
[ "$(field exercise) $(field answered) $(field score)" = "complete right 6/6" ] ||
    fail "the answered complete step: $(field exercise) $(field answered) $(field score)"

script=$(play wrong)
[ "$(field score)" = "0/6" ] || fail "wrong: score $(field score), expected 0/6 ($script)"
grep -c " wrong" <<<"$(field handin | tr ',' '\n')" | grep -qx 6 || fail "wrong: $(field handin)"

# one exercise answered wrong, then right: the first answer is the score,
# the second is graded (answered: right) and explained
view --lesson "$L" --script "right" || fail "step 2"
right=$(solve right)
wrong=$(solve wrong)
view --lesson "$L" --script "right $wrong $right" || fail "wrong then right"
[ "$(field score)" = "0/1" ] || fail "wrong then right: score $(field score)"
[ "$(field answered)" = "right" ] || fail "wrong then right: answered $(field answered)"
case "$(field message)" in "right - score 0/1") ;; *) fail "message: $(field message)" ;; esac
# its link keeps the first answer: opened, the step shows it wrong
link=$(field handin | sed 's/.* link #//')
[ "$link" = "v1&lesson=04-exercises&ls=1&step=$(field step)&ex=1:$(sed 's/^answer://' <<<"$wrong" | python3 -c 'import sys,re; print(re.sub(r"[^A-Za-z0-9._,()+@!:-]", lambda m: "*%02X" % ord(m.group()), sys.stdin.read().strip()))')&end" ] ||
    fail "wrong then right: link $link (first answer $wrong)"
view --link "$link" --script "" || fail "wrong then right: view --link: $(head -c 300 "$T/err")"
[ "$(field score) $(field answered) $(field exercise)" = "0/1 wrong predict" ] ||
    fail "wrong then right, opened: $(field score) $(field answered) $(field exercise)"
case "$(field message)" in "answered: "*" - wrong - score 0/1") ;; *) fail "opened: message $(field message)" ;; esac
view --lesson "$L" --script "right hint" || fail "hint"
[ "$(field exercise)" = "predict" ] || fail "step 2 is predict: $(field exercise)"
# the explanation names the right array after a wrong answer
SDL_VIDEODRIVER=offscreen "$S" view --lesson "$L" --script "right $wrong" --size 640x400 \
    --screenshot "$T/wrong.png" >"$T/out" 2>"$T/err" || fail "screenshot: $(head -c 300 "$T/err")"
[ -s "$T/wrong.png" ] || fail "no screenshot of an explanation"

# answers that are no answer fail the script (exit 2) and say what is expected
expect 2 env SDL_VIDEODRIVER=offscreen "$S" view --lesson "$L" --script "answer:1,2"
err_has "no exercise"
expect 2 env SDL_VIDEODRIVER=offscreen "$S" view --lesson "$L" --script "right answer:1,2"
err_has "expected 6 whole numbers"
expect 2 env SDL_VIDEODRIVER=offscreen "$S" view --lesson "$L" --script "right answer"
err_has "type the answer"
expect 2 env SDL_VIDEODRIVER=offscreen "$S" view --lesson "$L" --script "right answer:"
err_has "answer[:TEXT] or hint"

# bad NAME 'TEXT' REGEX: the lesson TEXT (printf format) is refused at its place
bad() {
    printf "$2" >"$T/$1.lesson"
    SDL_VIDEODRIVER=offscreen timeout 60 "$S" view --lesson "$T/$1.lesson" --script "" >"$T/out" 2>"$T/err"
    local rc=$?
    [ $rc = 2 ] || fail "$1: exit $rc: $(head -c 300 "$T/err")"
    grep -qE -- "^sortnet: .*$1\.lesson:$3" "$T/err" || fail "$1: $(head -c 300 "$T/err")"
}
bad kind 'step: a\nexercise: sorting seed=1\n' "2:11: 'sorting' is not an exercise"
bad noseed 'step: a\nexercise: depth n=5\n' "2:11: an exercise needs a seed"
bad bign 'step: a\nexercise: depth seed=1 n=40\n' "2:24: 'n=40': an exercise has 3 to 16 wires"
bad smallmerger 'step: a\nexercise: merger seed=1 n=3\n' "2:25: 'n=3': .*a merger at least 4"
bad token 'step: a\nexercise: depth seed=1 wires=5\n' "2:24: 'wires=5' is not seed=N or n=N"
bad keys 'step: a\nexercise: depth seed=1\nkeys: answer:3\n' "3:7: .*or answering"
bad sentences 'step: a\nexercise: depth seed=1\ntext: One. Two. Three. Four.\n' "1:1: a caption has one to three sentences"
# an exercise of any n the lesson asks for
printf 'step: a\nexercise: redundant seed=9 n=9\n' >"$T/n9.lesson"
view --lesson "$T/n9.lesson" --script "" || fail "n=9: $(head -c 300 "$T/err")"
[ "$(field n)" = 9 ] && [ "$(field exercise_n)" = 9 ] || fail "n=9: n $(field n)"
answer=$(solve right)
view --lesson "$T/n9.lesson" --script "$answer" || fail "n=9 answer"
[ "$(field score)" = "1/1" ] || fail "n=9: $answer: score $(field score)"
finish cli_exercise
