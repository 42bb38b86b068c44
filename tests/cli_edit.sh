#!/usr/bin/env bash
# cli_edit.sh - building a network by hand in `sortnet view` (edit mode),
# end to end under SDL's offscreen driver: the script verbs (add: del:
# move: undo redo save:), the live verdict in --dump-state checked against
# `sortnet check` and `sortnet run`, the mouse, the unsaved-edits rule and
# bad verbs. Also `empty:N` as a network name of every command.
. "$(dirname "$0")/lib.sh"
# no display at all (DISPLAY, WAYLAND_DISPLAY and SDL_VIDEODRIVER unset): a
# script runs on the headless backend (before view_session: this needs no
# SDL video driver; its pictures are tests/cli_view_headless.sh's)
if has_part "cairo drawing"; then
    hfield() { sed -n "s/^$1: //p" "$T/hstate"; }
    nodisplay() { env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$S" "$@"; }
    expect 0 nodisplay view empty:4 --script "add:0,1 add:2,3 add:0,2 add:1,3 add:1,2 save:$T/hl.json" \
        --dump-state "$T/hstate"
    [ "$(hfield verdict)" = sorts ] && [ "$(hfield unsaved)" = no ] || fail "headless: $(cat "$T/hstate")"
    expect 0 "$S" check "$T/hl.json"
    expect 0 nodisplay view bitonic:8 --script "e del:0,0 right right" --discard --dump-state "$T/hstate"
    [ "$(hfield step) $(hfield edit)" = "2 on" ] || fail "headless keys: $(cat "$T/hstate")"
    expect 2 nodisplay view bitonic:8 --script "add:0,1"
    err_has "edit mode is off"
    # the mouse too: a drag from wire 0 to wire 1 adds a comparator
    expect 0 nodisplay view empty:4 --size 640x400 --script "drag:330,48,0,39" --discard \
        --dump-state "$T/hstate"
    [ "$(hfield size)" = 1 ] || fail "headless drag: $(cat "$T/hstate")"
    # a live window without a display: exit 3, pointing to `sortnet draw`
    expect 3 nodisplay view empty:4
    err_has "sortnet draw empty:4"
fi

view_session
# unsorted BITS NET: `sortnet run` leaves the 0-1 input BITS unsorted
unsorted() {
    "$S" run "$2" --bits "$1" --json >"$T/run.json"
    [ $? = 1 ] || { fail "run $2 --bits $1: not exit 1 (not sorted)"; return 1; }
    python3 -c "import json; d=json.load(open('$T/run.json')); o=d['output']; assert o!=sorted(o), o" ||
        { fail "counterexample $1 is sorted by $2: $(cat "$T/run.json")"; return 1; }
}

# empty:N everywhere a network name goes
expect 0 "$S" info empty:4
out_has "0 comparators"
expect 0 "$S" info empty:4 --json
[ "$(json 'd["size"], d["sorts"]')" = "0 False" ] || fail "info empty:4: $(cat "$T/out")"
expect 1 "$S" check empty:3
expect 0 "$S" gen empty:5 --format json
[ "$(json 'd["N"], d["nw"]')" = "5 []" ] || fail "gen empty:5: $(cat "$T/out")"
expect 2 "$S" info empty:0
expect 2 "$S" info empty:x

# a 4-input sorting network from five adds: it sorts, and the saved file
# is proved by `sortnet check`
expect 0 view empty:4 --script "add:0,1 add:2,3 add:0,2 add:1,3 add:1,2 save:$T/four.json"
[ "$(field edit)" = on ] || fail "empty:4 starts in edit mode: $(field edit)"
[ "$(field verdict)" = sorts ] || fail "five adds: $(field verdict)"
[ "$(field net)" = "[(0,1),(2,3)] [(0,2),(1,3)] [(1,2)]" ] || fail "five adds: $(field net)"
[ "$(field size) $(field best_known) $(field layers)" = "5 5 3" ] || fail "size: $(cat "$T/state")"
[ "$(field unsaved)" = no ] || fail "saved, yet unsaved: $(field unsaved)"
expect 0 "$S" check "$T/four.json"
out_has "sorts: yes"
for ext in txt sn; do
    expect 0 view empty:4 --script "add:0,1 add:2,3 add:0,2 add:1,3 add:1,2 save:$T/four.$ext"
    expect 0 "$S" check "$T/four.$ext"
done
grep -q '^\[(0,1),(2,3)\]$' "$T/four.txt" || fail "four.txt is not bracket layers: $(cat "$T/four.txt")"

# deleting one comparator: does NOT sort, with a counterexample that
# `sortnet run` confirms; B plays it in the window
expect 2 view "$T/four.json" --script "e del:2,0"
err_has "unsaved edits"
[ "$(field verdict | cut -c1-14)" = "does NOT sort:" ] || fail "after del: $(field verdict)"
cex=$(field counterexample)
echo "$cex" | grep -qE '^[01]{4}$' || fail "counterexample: $cex"
printf '[(0,1),(2,3)]\n[(0,2),(1,3)]\n' >"$T/four-broken.txt"
unsorted "$cex" "$T/four-broken.txt"
expect 0 view "$T/four.json" --script "e del:2,0 b end" --discard
[ "$(field input)" = "0-1 ($cex)" ] || fail "B: $(field input)"
python3 -c "v=[int(x) for x in '$(field values)'.split(',')]; assert v!=sorted(v)" ||
    fail "B then End shows a sorted output: $(field values)"
# undo / redo
expect 0 view "$T/four.json" --script "e del:2,0 undo" --discard
[ "$(field verdict)" = sorts ] && [ "$(field size)" = 5 ] && [ "$(field unsaved)" = no ] ||
    fail "undo: $(cat "$T/state")"
# a failed edit fails the script there (exit 2, the message on stderr, the
# rest not run), changing nothing; the state dump shows where it stopped
expect 2 view "$T/four.json" --script "e del:2,0 del:5,5 undo" --discard
err_has "sortnet: view: --script column 11: del:5,5: there is no layer 6: the network has 2"
[ "$(field size)" = 4 ] && [ "$(field unsaved)" = yes ] || fail "failed del: $(cat "$T/state")"
expect 0 view "$T/four.json" --script "e del:2,0 undo ctrl+y" --discard
[ "$(field size)" = 4 ] || fail "redo: $(field size)"
# the file on disk never changed: the unsaved run failed without touching it
expect 0 "$S" check "$T/four.json"

# a broken 10-input network from a file: one comparator of pairwise:10
# dropped, found, and repaired by adding it back
"$S" gen pairwise:10 --format bracket -o "$T/p10.txt" || fail "gen pairwise:10"
grep -q '^\[(1,4),(3,6),(5,8)\]$' "$T/p10.txt" || fail "pairwise:10 changed: $(cat "$T/p10.txt")"
sed 's/^\[(1,4),(3,6),(5,8)\]$/[(1,4),(5,8)]/' "$T/p10.txt" >"$T/broken10.txt"
L=$(grep -n '^\[(1,4),(5,8)\]$' "$T/broken10.txt" | cut -d: -f1)
expect 1 "$S" check "$T/broken10.txt"
expect 0 view "$T/broken10.txt" --script "e"
[ "$(field verdict | cut -c1-14)" = "does NOT sort:" ] || fail "broken10: $(field verdict)"
[ "$(field best_known)" = 29 ] || fail "best known for 10: $(field best_known)"
cex=$(field counterexample)
unsorted "$cex" "$T/broken10.txt"
expect 0 view "$T/broken10.txt" --script "e add:3,6,$((L - 1)) save:$T/fixed10.txt"
[ "$(field verdict)" = sorts ] || fail "repaired: $(field verdict)"
cmp -s "$T/fixed10.txt" "$T/p10.txt" || fail "repaired file differs: $(diff "$T/fixed10.txt" "$T/p10.txt")"
expect 0 "$S" check "$T/fixed10.txt"

# a whole layer dropped: a comparator added at its column gets its own layer there
sed '/^\[(1,8)\]$/d' "$T/p10.txt" >"$T/nolayer.txt"
C=$(($(grep -n '^\[(1,8)\]$' "$T/p10.txt" | cut -d: -f1) - 1))
expect 0 view "$T/nolayer.txt" --script "e add:1,8,$C save:$T/fixed10b.txt"
cmp -s "$T/fixed10b.txt" "$T/p10.txt" || fail "own layer: $(diff "$T/fixed10b.txt" "$T/p10.txt")"
# move: (0,1) of the first layer to the column after the last
expect 0 view empty:4 --script "add:0,1 add:2,3 move:0,0,1" --discard
[ "$(field net)" = "[(2,3)] [(0,1)]" ] || fail "move: $(field net)"
# reversed comparators: min to the first wire named
expect 0 view empty:3 --script "add:2,0" --discard
[ "$(field net)" = "[(2,0)]" ] || fail "reversed: $(field net)"

# refusals: exit 2 with the message on stderr, nothing changes
expect 2 view empty:4 --script "add:1,1" --discard
err_has "column 1: add:1,1: a comparator joins two different wires"
field message | grep -q "^error: add:1,1: a comparator joins two different wires" || fail "I == J: $(field message)"
[ "$(field size)" = 0 ] || fail "I == J changed the network"
expect 2 view empty:4 --script "add:0,4"
err_has "wire 4 does not exist"
expect 2 view empty:4 --script "add:0,1 del:0,1 del:1,0" --discard
err_has "column 9: del:0,1: layer 1 has no comparator 2: it has 1 (script verbs number them 0 to 0)"
[ "$(field size)" = 1 ] || fail "a failed del changed the network"
expect 2 view empty:4 --script "add:0,1 del:1,0" --discard
err_has "del:1,0: there is no layer 2: the network has 1"
expect 2 view empty:4 --script "add:0,1 select:0,3" --discard
err_has "select:0,3: layer 1 has no comparator 4"
# edit verbs outside edit mode: exit 2 (they used to exit 0 in silence),
# and the keys after them are not run
expect 2 view bitonic:4 --script "add:0,1 right"
err_has "--script column 1: add:0,1: edit mode is off (press E first; a script starts with e)"
[ "$(field step)" = 0 ] || fail "the script went on after a failed verb: step $(field step)"
for verb in "del:0,0" "move:0,0,1" "select:0,0" "undo" "tab" "delete"; do
    expect 2 view bitonic:4 --script "$verb"
    err_has "edit mode is off"
done
# messages count layers from 1, as the status line does
expect 0 view empty:4 --script "add:0,1 add:1,2" --discard
[ "$(field message)" = "added (1,2) in layer 2" ] || fail "1-based add: $(field message)"
expect 0 view empty:4 --script "add:0,1 add:1,2 select:1,0" --discard
field message | grep -q "^selected (1,2) of layer 2" || fail "1-based select: $(field message)"
expect 0 view empty:4 --script "add:0,1 add:2,3 move:0,0,1" --discard
[ "$(field message)" = "moved to layer 2" ] || fail "1-based move: $(field message)"
expect 0 view empty:4 --script "add:0,1 add:1,2 del:1,0" --discard
[ "$(field message)" = "deleted (1,2) of layer 2" ] || fail "1-based del: $(field message)"
# bad verbs: exit 2 naming the column
for bad in "add:1" "add:a,b" "del:-1,0" "add:1.5,2" "move:1,2" "save:" "add:0,1,2,3"; do
    expect 2 view empty:4 --script "e $bad"
    err_has "column 3"
done

# unsaved edits: a script fails unless it saves or says --discard; Q asks again
expect 2 view empty:4 --script "add:0,1"
err_has "save:FILE"
expect 2 view empty:4 --script "add:0,1 q"
field message | grep -q "Q again quits without saving" || fail "q: $(field message)"
expect 0 view empty:4 --script "add:0,1" --discard
(cd "$T" && SDL_VIDEODRIVER=offscreen "$S" view empty:4 --size 640x400 --script "add:0,1 ctrl+s" \
    --dump-state "$T/state") || fail "ctrl+s"
[ -s "$T/sortnet-empty-4.txt" ] || fail "ctrl+s wrote no sortnet-empty-4.txt"
field message | grep -q "saved sortnet-empty-4.txt" || fail "ctrl+s: $(field message)"
expect 2 view "$T/four.json" --script "e del:0,0 save:$T/no/such/dir.txt" --discard
err_has "'save:$T/no/such/dir.txt': not saved: $T/no/such/dir.txt: cannot write: No such file or directory"
field message | grep -q "^error: not saved" || fail "save error: $(field message)"

# the mouse (window points at 640x400; the wires of empty:4 lie at y = 48,
# 87, 126, 165, the first layer at x = 108 (edit mode keeps the picture
# left-aligned and its scale fixed), and the drop room at x = 330):
# press on one wire, release on another adds; upward adds a reversed one;
# a click selects, Delete removes, a drag moves
expect 0 view empty:4 --script "drag:330,48,0,39" --discard
[ "$(field net)" = "[(0,1)]" ] || fail "drag down: $(field net)"
expect 0 view empty:4 --script "drag:330,165,0,-39" --discard
[ "$(field net)" = "[(3,2)]" ] || fail "drag up: $(field net)"
expect 0 view empty:4 --script "add:0,1 add:2,3 click:108,67" --discard
[ "$(field selected)" = "0,0" ] || fail "click selects: $(field selected) $(field message)"
expect 0 view empty:4 --script "add:0,1 add:2,3 click:108,67 delete" --discard
[ "$(field net)" = "[(2,3)]" ] || fail "delete: $(field net)"
expect 0 view empty:4 --script "add:0,1 add:2,3 drag:108,67,150,0" --discard
[ "$(field net)" = "[(2,3)] [(0,1)]" ] || fail "drag moves: $(field net)"
# two clicks, on one wire and then on another, add a comparator too (the
# way on a touch screen); the same wire twice adds none; a key in between
# ends it
expect 0 view empty:4 --script "click:330,48" --discard
[ "$(field net)" = "" ] && field message | grep -q "^wire 0: click another wire" ||
    fail "the first click: $(field net) / $(field message)"
expect 0 view empty:4 --script "click:330,48 click:330,126" --discard
[ "$(field net)" = "[(0,2)]" ] || fail "two clicks: $(field net) / $(field message)"
expect 0 view empty:4 --script "click:330,87 click:330,87" --discard
[ "$(field net)" = "" ] && field message | grep -q "the same wire twice" ||
    fail "the same wire twice: $(field net) / $(field message)"
expect 0 view empty:4 --script "click:330,48 z click:330,126" --discard
[ "$(field net)" = "" ] || fail "a key between the clicks: $(field net)"

# the same script gives the same picture (the verdict is waited for)
expect 0 view empty:8 --script "add:0,1 add:2,3 add:1,2" --discard --screenshot "$T/a.png"
expect 0 view empty:8 --script "add:0,1 add:2,3 add:1,2" --discard --screenshot "$T/b.png"
cmp -s "$T/a.png" "$T/b.png" || fail "the same edit script gave different screenshots"

finish cli_edit
