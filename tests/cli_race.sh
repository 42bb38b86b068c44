#!/usr/bin/env bash
# cli_race.sh - edit mode's race in `sortnet view`: the student against the
# computer's search (issue 31). Headless sessions through --script: the
# race reaches the optimum for n = 4..6 (race:wait waits for that
# condition, never for a time), its network loads into the editor and the
# live verdict says it sorts; a window closed mid-race ends cleanly (under
# the sanitizers: the search thread joined, nothing leaked); the verbs'
# errors fail the script with exit 2.
. "$(dirname "$0")/lib.sh"
view_session

# n = 4, 5, 6: the optimum (5, 9, 12 comparators), loaded, proved
for case in "4 5" "5 9" "6 12"; do
    set -- $case
    n=$1 best=$2
    expect 0 view "empty:$n" --script "race race:wait race:load save:$T/race$n.json"
    [ "$(field race)" = done ] || fail "n=$n: race $(field race): $(cat "$T/state")"
    case "$(field race_best)" in
    "$best comparators, "*) ;;
    *) fail "n=$n: the computer's best: $(field race_best)" ;;
    esac
    [ "$(field size)" = "$best" ] || fail "n=$n: loaded size $(field size), expected $best"
    [ "$(field verdict)" = sorts ] || fail "n=$n: verdict $(field verdict)"
    [ "$(field race_ahead)" = "a tie" ] || fail "n=$n: ahead $(field race_ahead)"
    expect 0 "$S" check "$T/race$n.json"
    out_has "sorts: yes"
done

# two wires: one comparator, said in the singular
expect 0 view empty:2 --script "race race:wait race:load" --discard
[ "$(field message)" = "loaded the computer's network: 1 comparator, 1 layer (Ctrl+Z undoes)" ] ||
    fail "n=2: $(field message)"

# a race that ends says so on the message line
expect 0 view empty:4 --script "race race:wait" --discard
case "$(field message)" in
"the computer reached 5 comparators (best known) in "*) ;;
*) fail "race ended: message $(field message)" ;;
esac

# from the student's network (bubble sort: 10 comparators on 5 wires), and
# the load undone: the student's network is back
expect 0 view bubble:5 --script "e race:from race:wait race:load ctrl+z" --discard
[ "$(field race)" = done ] && [ "$(field size)" = 10 ] || fail "race:from, undo: $(cat "$T/state")"
case "$(field race_best)" in "9 comparators, "*) ;; *) fail "race:from: $(field race_best)" ;; esac
[ "$(field race_ahead)" = "the computer" ] || fail "race:from: ahead $(field race_ahead)"

# the keys: c starts (and stops), l loads
expect 0 view empty:4 --script "c race:wait l" --discard
[ "$(field size) $(field verdict)" = "5 sorts" ] || fail "keys c, l: $(cat "$T/state")"

# the window closed while the computer is still searching (16 wires: the
# best known 60 is far off): the search stops, the thread is joined
expect 0 view empty:16 --script "race q"
[ "$(field race)" = running ] || fail "closed mid-race: race $(field race)"
expect 0 view empty:12 --script "race add:0,1 q" --discard
# stopped by hand, and by leaving edit mode
expect 0 view empty:16 --script "race race:stop"
[ "$(field race)" = stopped ] || fail "race:stop: $(field race)"
expect 0 view empty:16 --script "race e"
[ "$(field race) $(field edit)" = "stopped off" ] || fail "race e: $(cat "$T/state")"

# what the race refuses: outside edit mode, a race that may never end, no
# race to wait for or load, more wires than it takes
expect 2 view bitonic:8 --script "race"
err_has "edit mode is off"
expect 2 view empty:16 --script "race race:wait"
err_has "race:wait waits up to 12 wires"
expect 2 view empty:4 --script "race:wait"
err_has "no race was started"
expect 2 view empty:4 --script "race:load"
err_has "the computer has no network yet"
expect 2 view empty:30 --script "race"
err_has "races on 2 to 24"
expect 2 view empty:4 --script "race:fast"
err_has "race:from|stop|wait|load"
# a lesson cannot race
printf 'title: t\nstep: s\nnet: empty:4\nkeys: race\n' >"$T/r.lesson"
expect 2 "$S" view --lesson "$T/r.lesson" --script ""
err_has "racing"

# the picture: the panel beside the bars (looked at while building it)
expect 0 view empty:5 --size 1280x800 --script "add:0,1 race race:wait" --discard \
    --screenshot "$T/race.png"
[ -s "$T/race.png" ] || fail "no screenshot of the race"
finish cli_race
