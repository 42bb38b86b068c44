#!/usr/bin/env bash
# cli_core.sh - end-to-end tests of `sortnet gen`, `info` and `run` through
# the real binary: the command-line contract of docs/design.md (exit codes,
# JSON shapes, error messages, atomic output).
. "$(dirname "$0")/lib.sh"

# --help everywhere, --version, unknown commands and options
expect 0 "$S" --help
out_has "Commands:"
expect 0 "$S" --version
out_has "sortnet "
for c in gen info run; do
    expect 0 "$S" $c --help
    out_has "usage: sortnet $c"
    expect 2 "$S" $c --no-such-option bitonic:4
    err_has "unknown option"
    expect 2 "$S" $c
done
expect 2 "$S" frobnicate
err_has "unknown command"

# info: the textbook sizes, through --json
expect 0 "$S" info bitonic:16 --json
[ "$(json 'd["n"], d["size"], d["depth"], d["standard"]')" = "16 80 10 True" ] || fail "info bitonic:16: $(cat "$T/out")"
[ "$(json 'sum(d["layer_sizes"]) == d["size"] and len(d["layer_sizes"]) == d["depth"]')" = True ] || fail "layer_sizes"
[ "$(json '"sorts" in d and "redundant" in d')" = True ] || fail "info keys"
expect 0 "$S" info oddeven-merge:32 --json
[ "$(json 'd["size"], d["depth"]')" = "191 15" ] || fail "oddeven-merge:32: $(cat "$T/out")"
expect 0 "$S" info transposition:9
out_has "36 comparators"
expect 2 "$S" info bitonic:0
expect 2 "$S" info bitonic:abc
expect 2 "$S" info nosuchgen:8
expect 2 "$S" info "$T/missing.txt"
err_has "missing.txt"

# gen: every format round-trips through info with the same size and depth
for net in bitonic:12 oddeven-merge:16 pairwise:10 transposition:7 bubble:6 insertion:5; do
    expect 0 "$S" info "$net" --json
    ref=$(json 'd["size"], d["depth"], d["layer_sizes"]')
    for fmt in bracket json sn; do
        expect 0 "$S" gen "$net" --format $fmt -o "$T/net.$fmt"
        expect 0 "$S" info "$T/net.$fmt" --json
        [ "$(json 'd["size"], d["depth"], d["layer_sizes"]')" = "$ref" ] || fail "gen $net --format $fmt changed the network"
    done
done
# stdin
"$S" gen bitonic:4 | "$S" info - --json >"$T/out" 2>"$T/err" || fail "gen | info -"
[ "$(json 'd["size"]')" = 6 ] || fail "stdin network"

# parse errors name file, line and column; exit 2
printf '[(0,1),(2,3)]\n[(1,2),(0 3)]\n' >"$T/bad.txt"
expect 2 "$S" info "$T/bad.txt"
err_has "bad.txt:2:"
printf '[(0,1),(1,2)]\n' >"$T/shared.txt"
expect 2 "$S" run "$T/shared.txt" --input 3,2,1
err_has "shared.txt"
printf '' >"$T/empty.txt"
expect 2 "$S" info "$T/empty.txt"

# atomic output: a failed gen leaves no file, and never clobbers an old one
expect 2 "$S" gen bitonic:4 -o "$T/no/such/dir/x.txt"
[ ! -e "$T/no/such/dir/x.txt" ] || fail "file left behind"
echo keep >"$T/old.txt"
expect 2 "$S" gen "$T/bad.txt" -o "$T/old.txt"
[ "$(cat "$T/old.txt")" = keep ] || fail "old output overwritten by a failed run"
[ -z "$(ls "$T" | grep tmp)" ] || fail "temporary files left: $(ls "$T")"

# run: output sorted and equal to Python's sorted(); trace has every layer
expect 0 "$S" run bitonic:8 --input 5,1,4,2,8,7,3,6 --json --trace
[ "$(json 'd["output"] == sorted(d["input"]) and len(d["layers"]) == 6')" = True ] || fail "run bitonic:8 json: $(cat "$T/out")"
expect 0 "$S" run oddeven-merge:13 --random 7 --json
[ "$(json 'd["output"] == sorted(d["input"]) and sorted(d["input"]) == list(range(1,14))')" = True ] || fail "random input is a permutation, output sorted"
expect 0 "$S" run bubble:5 --reverse --trace
# people count layers from 1: the input is "start", then "after layer 1" .. 7,
# labels padded to one width so the arrays line up
out_has "output:        1,2,3,4,5"
out_has "start:         5,4,3,2,1"
out_has "after layer 1: 4,5,3,2,1   (1 swap)"
out_has "after layer 7: 1,2,3,4,5   (1 swap)"
grep -q "layer 0" "$T/out" && fail "run --trace names a layer 0: $(cat "$T/out")"
expect 0 "$S" run --help
out_has "layers[k-1] is the array after layer k"
expect 0 "$S" run pairwise:6 --type f32 --input=-0,0,nan,-inf,1.5,-nan --json
[ "$(json 'd["output"]')" = "['-nan', '-inf', -0.0, 0.0, 1.5, 'nan']" ] || fail "f32 totalOrder: $(cat "$T/out")"
expect 0 "$S" run transposition:5 --type u32 --input 4294967295,0,7,7,1 --json
[ "$(json 'd["output"]')" = "[0, 1, 7, 7, 4294967295]" ] || fail "u32: $(cat "$T/out")"
expect 0 "$S" run bitonic:4 --bits 1010 --payload --json
[ "$(json 'd["output"], sorted(d["payload"])')" = "[0, 0, 1, 1] [0, 1, 2, 3]" ] || fail "bits/payload: $(cat "$T/out")"
# bad inputs: exit 2, a message that says what is wrong
expect 2 "$S" run bitonic:4 --input 1,2,3
err_has "--input"
expect 2 "$S" run bitonic:4 --input 1,2,x,4
err_has "--input"
expect 2 "$S" run bitonic:4 --input 1,2,3,4,5
expect 2 "$S" run bitonic:4 --bits 012
expect 2 "$S" run bitonic:4 --random abc
expect 2 "$S" run bitonic:4 --type i64
expect 2 "$S" run bitonic:4 --input 1,2,3,99999999999
expect 2 "$S" run bitonic:4 --reverse --sorted
# messages about options name them with their dashes
err_has "sortnet: --sorted: only one of --input, --input-file, --random"
# values are separated by commas and/or blanks, the same rule everywhere
expect 0 "$S" run bitonic:4 --input "5 1 4 2" --json
[ "$(json 'd["input"], d["output"]')" = "[5, 1, 4, 2] [1, 2, 4, 5]" ] || fail "spaces: $(cat "$T/out")"
expect 0 "$S" run bitonic:4 --input "5, 1 ,4  2" --json
[ "$(json 'd["input"]')" = "[5, 1, 4, 2]" ] || fail "commas and blanks: $(cat "$T/out")"
expect 2 "$S" run bitonic:4 --input 5,1,4,2,
err_has "sortnet: --input: column 8: trailing comma after 2"
expect 2 "$S" run bitonic:4 --input 5,,1,4
err_has "column 3: expected a value between two commas"
# an f32 literal longer than 63 characters is a number like any other
long=1.$(printf '0%.0s' $(seq 70))1
expect 0 "$S" run bitonic:2 --type f32 --input "$long,0.5" --json
[ "$(json 'd["output"]')" = "[0.5, 1.0]" ] || fail "long f32 literal: $(cat "$T/out")"

# a generator named without :N takes n from --input and --bits too
expect 0 "$S" run bitonic --input "5 1 4 2 3" --json
[ "$(json 'd["n"], d["output"]')" = "5 [1, 2, 3, 4, 5]" ] || fail "n from --input: $(cat "$T/out")"
expect 0 "$S" run oddeven-merge --bits 0110 --json
[ "$(json 'd["n"]')" = 4 ] || fail "n from --bits: $(cat "$T/out")"
expect 2 "$S" run bitonic --input "5,,1"
err_has "sortnet: --input: column 3: expected a value between two commas"

# run's exit status is its verdict: 1 when the output is not sorted
printf '[(1,2)]\n' >"$T/unsorting.txt"
expect 1 "$S" run "$T/unsorting.txt" --input 3,1,2
out_has "NOT sorted"
expect 1 "$S" run "$T/unsorting.txt" --input 3,1,2 --json
[ "$(json 'd["sorted"]')" = False ] || fail "unsorted json: $(cat "$T/out")"
expect 0 "$S" run "$T/unsorting.txt" --input 1,3,2

# --input-file: text with comments, n from the file for a generator named
# without :N, stdin, binary; a fixed n must match the count
printf '# my keys\n5, 1 4\n2 3   # and more\n9\n8 0\n' >"$T/keys.txt"
expect 0 "$S" run bitonic --input-file "$T/keys.txt" --json
[ "$(json 'd["n"], d["output"]')" = "8 [0, 1, 2, 3, 4, 5, 8, 9]" ] || fail "input-file: $(cat "$T/out")"
expect 0 "$S" run oddeven-merge:8 --input-file "$T/keys.txt"
out_has "from $T/keys.txt"
expect 2 "$S" run bitonic:4 --input-file "$T/keys.txt"
err_has "sortnet: $T/keys.txt: 8 keys, but bitonic:4 has 4 wires"
"$S" run transposition --input-file - --json <"$T/keys.txt" >"$T/out" 2>"$T/err" || fail "stdin keys: $(cat "$T/err")"
[ "$(json 'd["n"]')" = 8 ] || fail "stdin keys: $(cat "$T/out")"
expect 0 "$S" run bitonic --type f32 --input-file "$T/keys.txt" --json
[ "$(json 'd["output"][-1]')" = 9.0 ] || fail "f32 keys from a file: $(cat "$T/out")"
# --output: the sorted keys, one per line, or raw with --binary; 0644, atomic
expect 0 "$S" run bitonic --input-file "$T/keys.txt" --output "$T/sorted.txt"
[ "$(tr '\n' ' ' <"$T/sorted.txt")" = "0 1 2 3 4 5 8 9 " ] || fail "--output: $(cat "$T/sorted.txt")"
[ "$(stat -c %a "$T/sorted.txt")" = "$(printf '%o' $((0666 & ~$(umask))))" ] ||
    fail "--output mode $(stat -c %a "$T/sorted.txt")"
expect 0 "$S" run bitonic:8 --reverse --type u32 --output "$T/sorted.bin" --binary
[ "$(od -An -tu4 -v "$T/sorted.bin" | tr -s ' \n' ' ')" = " 1 2 3 4 5 6 7 8 " ] ||
    fail "--output --binary: $(od -An -tx4 "$T/sorted.bin")"
expect 0 "$S" run bitonic --input-file "$T/sorted.bin" --binary --type u32 --json
[ "$(json 'd["n"], d["input"]')" = "8 [1, 2, 3, 4, 5, 6, 7, 8]" ] || fail "binary round trip: $(cat "$T/out")"
echo keep >"$T/kept.txt"
expect 2 "$S" run bitonic:4 --input-file "$T/keys.txt" --output "$T/kept.txt"
[ "$(cat "$T/kept.txt")" = keep ] || fail "a failed run overwrote --output"
expect 2 "$S" run bitonic:4 --output "$T/no/such/dir/k.txt"
[ -z "$(ls "$T" | grep tmp)" ] || fail "temporary files left: $(ls "$T")"
expect 2 "$S" run bitonic:4 --binary
err_has "--binary: goes with --input-file"
# view takes the keys of a file too (n from the file; the window's build,
# with SDL's offscreen driver, only)
printf '5 1 4 2 8 7 3 6\n' >"$T/eight.txt"
if has_part "SDL2 window" && has_offscreen; then
    expect 0 env SDL_VIDEODRIVER=offscreen "$S" view bitonic oddeven-merge --size 640x400 \
        --input-file "$T/eight.txt" --script "right" --dump-state "$T/state"
    grep -q "^network: bitonic:8$" "$T/state" || fail "view --input-file: $(head -c 300 "$T/state")"
    grep -q "^values: 1,5,2,4,7,8,3,6$" "$T/state" || fail "view --input-file values: $(cat "$T/state")"
    expect 0 env SDL_VIDEODRIVER=offscreen "$S" view bitonic --size 640x400 --input "5 1 4 2 3" \
        --script "end" --dump-state "$T/state"
    grep -q "^network: bitonic:5$" "$T/state" || fail "view n from --input: $(head -c 300 "$T/state")"
    expect 2 env SDL_VIDEODRIVER=offscreen "$S" view bitonic:4 --input-file "$T/eight.txt" --script ""
    err_has "8 keys, but bitonic:4 has 4 wires"
fi
# draw too (the cairo build only)
if has_part "cairo drawing"; then
    expect 0 "$S" draw bitonic --input-file "$T/eight.txt" -o "$T/eight.svg"
    grep -q "<svg" "$T/eight.svg" || fail "draw --input-file wrote no SVG"
    expect 2 "$S" draw bitonic:4 --input-file "$T/eight.txt" -o "$T/four.svg"
    err_has "8 keys, but bitonic:4 has 4 wires"
fi
expect 0 "$S" run --help
out_has "--input-file FILE"
out_has "--output FILE"
# limits are applied before allocating: a closed form with too many layers,
# and a JSON text with more lists than the limits allow (before jansson
# builds the document)
expect 2 "$S" info transposition:2000000000
err_has "over the limit"
python3 -c "print('{\"N\":4,\"nw\":[' + ','.join(['[0,1]']*30) + ']}')" >"$T/many.json"
expect 2 "$S" --max-comparators 10 --max-layers 10 info "$T/many.json"
err_has "more than 22 lists"
# a large closed-form run needs no comparator list
expect 0 "$S" run bitonic:1048576 --random 1
grep -qE "^result: +sorted" "$T/out" || fail "bitonic:1048576 not sorted: $(head -c 300 "$T/out")"

# one layer, one input: no plural "s"
expect 0 "$S" run bitonic:2 --sorted
out_has "(2 inputs, 1 layer)"
expect 0 "$S" run bitonic:1 --sorted
out_has "(1 input, 0 layers)"
finish cli_core
