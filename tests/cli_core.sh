#!/usr/bin/env bash
# cli_core.sh - end-to-end tests of `sortnet gen`, `info` and `run` through
# the real binary: the command-line contract of shared/DESIGN.md (exit codes,
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

finish cli_core
