#!/usr/bin/env bash
# cli_view_lesson.sh - lesson files (`sortnet view --lesson`) the other
# lesson tests do not write: each mistake is refused at its line and
# column with what was expected (exit 2); CRLF line ends and trailing
# blanks are read; a lesson named without a folder reads the working one;
# a shipped lesson by its full name, with or without ".lesson"; a step's
# keys may edit its one network (add, move, select, del).
. "$(dirname "$0")/lib.sh"
view_session
cd "$T" || exit 1

# bad NAME 'TEXT' REGEX: the lesson TEXT (printf format) is refused
bad() {
    printf "$2" >"$T/$1.lesson"
    # (timeout: a lesson that made the reader wait must fail, not hang)
    SDL_VIDEODRIVER=offscreen timeout 60 "$S" view --lesson "$T/$1.lesson" --script "" >"$T/out" 2>"$T/err"
    local rc=$?
    [ $rc = 2 ] || fail "$1: exit $rc: $(head -c 300 "$T/err")"
    grep -qE -- "^sortnet: .*$1\.lesson:$3" "$T/err" || fail "$1: $(head -c 300 "$T/err")"
}
long() { python3 -c "print('$1' * $2, end='')"; }
bad seed 'step: a\nnet: bitonic:4\ninput: random x\ntext: t.\n' "3:15: 'random' wants a seed"
bad follow 'step: a\nnet: bitonic:4\ninput: reversed now\ntext: t.\n' "3:17: nothing may follow 'reversed'"
bad longnet "step: a\nnet: $(long b 600)\ntext: t.\n" "2:6: network name too long"
bad fournet 'step: a\nnet: bitonic:4 bitonic:4 bitonic:4 bitonic:4\ntext: t.\n' \
    "2:36: more than 3 networks in one step"
bad many "$(python3 -c "print(''.join('step: s%d\\\\nnet: bitonic:4\\\\ntext: t.\\\\n' % i for i in range(501)), end='')")" \
    "[0-9]+:1: more than 500 steps"
bad keys "step: a\nnet: bitonic:4\nkeys: $(long 'r ' 300)\nkeys: $(long 'r ' 300)\ntext: t.\n" \
    "4:7: too many keys in one step"
bad caption "step: a\nnet: bitonic:4\ntext: $(long x 1200)\n" "3:7: the caption is too long"
bad nonet 'step: a\ntext: t.\n' "1:1: step 'a' has no network"
# what lies in the lesson's folder but is no network file: a FIFO (reading
# it would wait for a writer for ever), the folder itself, a subfolder
mkfifo "$T/pipe" && mkdir "$T/sub"
bad fifo 'step: a\nnet: pipe\ntext: t.\n' "2:6: 'pipe' is a FIFO, not a network file"
bad dot 'step: a\nnet: ./\ntext: t.\n' "2:6: './' is the lesson's own folder, not a network file"
bad sub 'step: a\nnet: sub\ntext: t.\n' "2:6: 'sub' is a folder, not a network file"
if has_part "the page (sortnet web)"; then
    expect 2 timeout 60 "$S" web --lesson "$T/fifo.lesson" -o "$T/fifo.html"
    err_has "'pipe' is a FIFO, not a network file"
    [ ! -e "$T/fifo.html" ] || fail "web --lesson with a FIFO wrote a page"
fi

# CRLF and trailing blanks; a lesson in the working folder, by its bare name
printf 'step: a  \r\nnet: bitonic:4   \r\ninput: reversed\t\r\ntext: t.\r\n' >here.lesson
expect 0 env SDL_VIDEODRIVER=offscreen "$S" view --lesson here.lesson --script "" --dump-state "$T/state"
[ "$(sed -n 's/^network: //p' "$T/state")" = bitonic:4 ] || fail "CRLF lesson: $(cat "$T/state")"
[ "$(sed -n 's/^values: //p' "$T/state")" = "4,3,2,1" ] || fail "CRLF lesson's input: $(cat "$T/state")"
# a shipped lesson by its whole name, with and without .lesson
for name in 02-bitonic-from-the-half-cleaner 02-bitonic-from-the-half-cleaner.lesson; do
    expect 0 env SDL_VIDEODRIVER=offscreen "$S" view --lesson "$name" --script "" --dump-state "$T/state"
    grep -q "^lesson_step: 1 of " "$T/state" || fail "--lesson $name: $(head -c 200 "$T/err")"
done
# a step's keys edit its network: add two, move one, select, delete
printf 'step: a\nnet: empty:4\nkeys: add:0,1 add:2,3 move:0,1,1 select:0,0 del:0,0\ntext: t.\n' >edits.lesson
expect 0 env SDL_VIDEODRIVER=offscreen "$S" view --lesson edits.lesson --script "" --discard \
    --dump-state "$T/state"
[ "$(sed -n 's/^net: //p' "$T/state")" = "[(2,3)]" ] || fail "a lesson's edit keys: $(grep '^net' "$T/state")"

# ---- out of memory in the window's backend (SN_ALLOC_FAIL=N: the N-th
# allocation fails): lesson steps, then edit gestures, for N across the
# whole run (test_session counts down every allocation of the session
# itself): exit 5 with the message, or a whole state; never a crash
script="right right left down down e drag:330,48,0,39 click:330,87 click:330,126 undo"
for n in $(seq 1 37 2400); do
    rm -f "$T/oom.txt"
    SN_ALLOC_FAIL=$n SDL_VIDEODRIVER=offscreen "$S" view --size 640x400 \
        --lesson 01-comparators-and-0-1 --script "$script" --discard --dump-state "$T/oom.txt" \
        >"$T/out" 2>"$T/err"
    rc=$?
    case $rc in
    5) grep -q "out of memory" "$T/err" || fail "allocation $n failing: exit 5 with $(head -c 300 "$T/err")" ;;
    0) grep -q "^lesson_step: " "$T/oom.txt" && grep -q "^net:" "$T/oom.txt" ||
        fail "allocation $n failing: exit 0 with $(head -c 300 "$T/oom.txt")" ;;
    *) fail "allocation $n failing: exit $rc: $(head -c 300 "$T/err")" ;;
    esac
done

finish cli_view_lesson
