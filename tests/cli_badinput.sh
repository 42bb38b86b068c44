#!/usr/bin/env bash
# cli_badinput.sh - table-driven end-to-end test of bad inputs through the
# real binary (issue 8): each case has an expected exit code and a fragment
# (an extended regex) of the expected message. Every case must finish under
# `timeout 120` (a guard against hangs, generous for a busy machine under
# sanitizers), never crash (no signal, no sanitizer report), and every
# error must be one `sortnet: ...` line naming what was wrong.
. "$(dirname "$0")/lib.sh"
cases=0

# check NAME CODE REGEX CMD... : run CMD under timeout 120; the exit code must
# be CODE and REGEX must match stderr (for CODE != 0) or stdout (CODE 0).
check() {
    local name=$1 want=$2 re=$3
    shift 3
    cases=$((cases + 1))
    timeout 120 "$@" >"$T/out" 2>"$T/err" </dev/null
    local got=$?
    if [ "$got" = 124 ]; then
        fail "$name: did not finish in 120 s: $*"
        return
    fi
    if [ "$got" -ge 128 ] || grep -qE 'Sanitizer|runtime error|LeakSanitizer' "$T/err"; then
        fail "$name: crashed (exit $got): $(head -c 600 "$T/err")"
        return
    fi
    if [ "$got" != "$want" ]; then
        fail "$name: exit $got, expected $want: $(head -c 300 "$T/err")"
        return
    fi
    local where=$T/err
    [ "$want" = 0 ] && where=$T/out
    [ "${SN_VERBOSE:-0}" = 1 ] && echo "$name -> $got: $(head -n 1 "$where" | head -c 200)"
    if ! grep -qE -- "$re" "$where"; then
        fail "$name: $( [ "$want" = 0 ] && echo stdout || echo stderr) lacks /$re/: $(head -c 300 "$where")"
        return
    fi
    if [ "$want" != 0 ] && ! head -n 1 "$T/err" | grep -q '^sortnet: '; then
        fail "$name: the error does not start with 'sortnet: ': $(head -c 300 "$T/err")"
    fi
}

# f NAME : path of a test file (content written by the caller)
f() { echo "$T/$1"; }

have_json=1
"$S" gen bitonic:4 --format json -o "$T/probe.json" >/dev/null 2>&1 || have_json=0

# ---- network files: empty, blank, garbage ---------------------------------
: >"$(f empty.txt)"
check "empty file" 2 "empty\.txt.*(empty|no network|nothing)" "$S" info "$(f empty.txt)"
printf ' \n\t\n   \r\n\n' >"$(f blank.txt)"
check "only whitespace" 2 "blank\.txt.*(empty|no network|nothing)" "$S" info "$(f blank.txt)"
# binary garbage: every byte value, twice, including NUL
awk 'BEGIN { for (r = 0; r < 2; r++) for (i = 0; i < 256; i++) printf "%c", i }' >"$(f garbage.bin)"
head -c 3000 /dev/zero >>"$(f garbage.bin)"
check "binary garbage" 2 "garbage\.bin" "$S" info "$(f garbage.bin)"
printf '\0\0\0\0' >"$(f nul.txt)"
check "NUL bytes" 2 "nul\.txt" "$S" info "$(f nul.txt)"
printf '[(0,1)]\n[(2,3)\0]\n' >"$(f nul-in-line.txt)"
check "NUL inside a line" 2 "nul-in-line\.txt:2" "$S" info "$(f nul-in-line.txt)"

# ---- JSON -------------------------------------------------------------------
if [ $have_json = 1 ]; then
    printf '{"N":4,"nw":[[0,1],[2,' >"$(f trunc.json)"
    check "truncated JSON" 2 "trunc\.json:1(:[0-9]+)?" "$S" info "$(f trunc.json)"
    printf '{"N":"four","nw":[[0,1]]}' >"$(f type-n.json)"
    check "JSON: N is a string" 2 "type-n\.json.*N" "$S" info "$(f type-n.json)"
    printf '{"N":4,"nw":[["a",1]]}' >"$(f type-wire.json)"
    check "JSON: a wire is a string" 2 "type-wire\.json" "$S" info "$(f type-wire.json)"
    printf '{"N":4,"nw":{"a":1}}' >"$(f type-nw.json)"
    check "JSON: nw is an object" 2 "type-nw\.json.*nw" "$S" info "$(f type-nw.json)"
    printf '{"N":4,"nw":[[0.5,1]]}' >"$(f type-real.json)"
    check "JSON: a wire is a real" 2 "type-real\.json" "$S" info "$(f type-real.json)"
    printf '{"N":4,"nw":[[0,1,2]]}' >"$(f type-triple.json)"
    check "JSON: a comparator of 3 wires" 2 "type-triple\.json" "$S" info "$(f type-triple.json)"
    printf '[1,2,3]' >"$(f type-top.json)"
    check "JSON: top level is an array of numbers" 2 "type-top\.json" "$S" info "$(f type-top.json)"
    printf '{"N":2147483648,"nw":[[0,1]]}' >"$(f big31.json)"
    check "JSON: N = 2^31" 2 "big31\.json.*(limit|too (large|many|big)|range|max-wires)" "$S" info "$(f big31.json)"
    printf '{"N":9223372036854775808,"nw":[[0,1]]}' >"$(f big63.json)"
    check "JSON: N = 2^63" 2 "big63\.json" "$S" info "$(f big63.json)"
    printf '{"N":4,"nw":[[0,9223372036854775807]]}' >"$(f bigwire.json)"
    check "JSON: wire 2^63-1" 2 "bigwire\.json.*(range|limit|wire)" "$S" info "$(f bigwire.json)"
    printf '{"N":4,"nw":[[-1,2]]}' >"$(f neg.json)"
    check "JSON: negative wire" 2 "neg\.json.*(-1|negative|range|wire)" "$S" info "$(f neg.json)"
    printf '{"N":4,"nw":[[2,2]]}' >"$(f same.json)"
    check "JSON: a == b" 2 "same\.json.*(itself|same|a == b|2,2)" "$S" info "$(f same.json)"
    printf '{"N":4,"nw":[[0,4]]}' >"$(f beyond.json)"
    check "JSON: wire beyond n" 2 "beyond\.json.*(range|wire 4)" "$S" info "$(f beyond.json)"
    printf '{"N":4,"nw":[[[0,1],[1,2]]]}' >"$(f reuse.json)"
    check "JSON: a layer reusing a wire" 2 "reuse\.json.*(twice|disjoint|reuse|wire 1)" "$S" info "$(f reuse.json)"
    printf '{"N":-1,"nw":[]}' >"$(f negn.json)"
    check "JSON: N = -1" 2 "negn\.json" "$S" info "$(f negn.json)"
    awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; }' >"$(f deep.json)"
    check "JSON: 100000 nested arrays" 2 "deep\.json" "$S" info "$(f deep.json)"
    awk 'BEGIN { printf "{\"N\":4,\"nw\":"; for (i = 0; i < 100000; i++) printf "["; }' >"$(f deep2.json)"
    check "JSON: 100000 nested arrays inside an object" 2 "deep2\.json:1:[0-9]+" "$S" info "$(f deep2.json)"
fi

# ---- bracket format ---------------------------------------------------------
printf '[(0,2147483648)]\n' >"$(f big31.txt)"
check "bracket: wire 2^31" 2 "big31\.txt:1:[0-9]+" "$S" info "$(f big31.txt)"
printf '[(0,4294967296)]\n' >"$(f big32.txt)"
check "bracket: wire 2^32" 2 "big32\.txt:1:[0-9]+" "$S" info "$(f big32.txt)"
printf '[(0,9223372036854775808)]\n' >"$(f big63.txt)"
check "bracket: wire 2^63" 2 "big63\.txt:1:[0-9]+" "$S" info "$(f big63.txt)"
printf '[(0,1)]\n[(1,99999999999999999999999999)]\n' >"$(f bigger.txt)"
check "bracket: wire 10^26" 2 "bigger\.txt:2:[0-9]+" "$S" info "$(f bigger.txt)"
printf '[(-1,2)]\n' >"$(f neg.txt)"
check "bracket: negative wire" 2 "neg\.txt:1:[0-9]+" "$S" info "$(f neg.txt)"
printf '[(0,1)]\n[(3,3)]\n' >"$(f same.txt)"
check "bracket: a == b" 2 "same\.txt:2(:[0-9]+)?.*(itself|same)" "$S" info "$(f same.txt)"
printf '[(0,1),(1,2)]\n' >"$(f reuse.txt)"
check "bracket: a layer reusing a wire" 2 "reuse\.txt:1(:[0-9]+)?.*(twice|disjoint|wire 1)" "$S" info "$(f reuse.txt)"
printf '[(0,1),(2,3)\n' >"$(f unclosed.txt)"
check "bracket: unclosed layer" 2 "unclosed\.txt:1:[0-9]+" "$S" info "$(f unclosed.txt)"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; printf "\n" }' >"$(f deep.txt)"
check "deeply nested brackets" 2 "deep\.txt:1:[0-9]+" "$S" info "$(f deep.txt)"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "[("; printf "\n" }' >"$(f deep2.txt)"
check "deeply nested [( pairs" 2 "deep2\.txt:1:[0-9]+" "$S" info "$(f deep2.txt)"
# one layer on 1 MB of a single line: (0,1),(2,3),... is a valid network
awk 'BEGIN { printf "["; s = 1; for (i = 0; s < 1048576; i++) { t = sprintf("%s(%d,%d)", i ? "," : "", 2 * i, 2 * i + 1); printf "%s", t; s += length(t) } printf "]\n" }' >"$(f longline.txt)"
check "a 1 MB single line (valid)" 0 "comparators" "$S" info "$(f longline.txt)"
awk 'BEGIN { for (i = 0; i < 1048576; i++) printf "x"; printf "\n" }' >"$(f longjunk.txt)"
check "a 1 MB single line of junk" 2 "longjunk\.txt:1" "$S" info "$(f longjunk.txt)"
# 10^6 layers of one comparator: valid (within the default layer limit), and
# refused with a clear message under a lower --max-layers
awk 'BEGIN { for (i = 0; i < 1000000; i++) print "[(0,1)]" }' >"$(f million.txt)"
check "10^6 layers of one comparator" 0 "1000000" "$S" info "$(f million.txt)"
check "10^6 layers over --max-layers" 2 "(limit|too many|max-layers)" \
    "$S" --max-layers 1000 info "$(f million.txt)"

# ---- libsortnetwork text ----------------------------------------------------
printf 'Inputs: -1\n' >"$(f inputs-neg.sn)"
check "Inputs: -1" 2 "inputs-neg\.sn:1(:[0-9]+)?" "$S" info "$(f inputs-neg.sn)"
printf 'Inputs: 1000000000\n0 1\n' >"$(f inputs-big.sn)"
check "Inputs: 1000000000" 2 "inputs-big\.sn.*(limit|too (large|many)|max-wires)" "$S" info "$(f inputs-big.sn)"
grep -q -- "--max-wires" "$T/err" || fail "Inputs: 1000000000: no hint at --max-wires: $(cat "$T/err")"
printf 'Inputs: 99999999999999999999999\n' >"$(f inputs-huge.sn)"
check "Inputs: 10^22" 2 "inputs-huge\.sn:1" "$S" info "$(f inputs-huge.sn)"
printf 'Inputs: 4\n0 1\n-1 2\n' >"$(f neg.sn)"
check "sn: negative wire" 2 "neg\.sn:3(:[0-9]+)?" "$S" info "$(f neg.sn)"
printf 'Inputs: 4\n0 1\n\n2 2\n' >"$(f same.sn)"
check "sn: a == b" 2 "same\.sn:4(:[0-9]+)?" "$S" info "$(f same.sn)"
printf 'Inputs: 4\n0 4\n' >"$(f beyond.sn)"
check "sn: wire beyond n" 2 "beyond\.sn:2(:[0-9]+)?.*(range|wire 4)" "$S" info "$(f beyond.sn)"
printf 'Inputs: 4\n0 1\n1 2\n' >"$(f reuse.sn)"
# libsortnetwork allows a stage to reuse a wire; the reader splits it
# (documented in format_sn.c), so this one is valid with 2 layers
check "sn: a stage reusing a wire (split)" 0 "2 layers" "$S" info "$(f reuse.sn)"
printf 'Inputs: 4\n0 2147483648\n' >"$(f big31.sn)"
check "sn: wire 2^31" 2 "big31\.sn:2(:[0-9]+)?" "$S" info "$(f big31.sn)"
printf 'Inputs: 4\n0\n' >"$(f half.sn)"
check "sn: a comparator with one wire" 2 "half\.sn:2(:[0-9]+)?" "$S" info "$(f half.sn)"

# ---- degenerate but valid: no wires at all (the "[]" case once read past a
# null pointer, tests/fuzz/regressions/bracket) ------------------------------
printf '[]\n' >"$(f empty-layer.txt)"
check "bracket: an empty layer only" 0 "0 comparators" "$S" info "$(f empty-layer.txt)"
check "run on 0 wires" 0 "sorted" "$S" run "$(f empty-layer.txt)" --trace
printf 'Inputs: 0\n' >"$(f zero.sn)"
check "Inputs: 0" 0 "0 comparators" "$S" info "$(f zero.sn)"
if [ $have_json = 1 ]; then
    printf '{"N":0,"nw":[]}' >"$(f zero.json)"
    check "JSON: N = 0" 0 '"n":0' "$S" run "$(f zero.json)" --json
fi

# ---- files that never end or are too large: refused before being read whole
check "/dev/zero" 2 "/dev/zero: input too large" "$S" info /dev/zero
truncate -s 300M "$(f sparse.txt)"
check "a 300 MB file" 2 "sparse\.txt: file too large" "$S" info "$(f sparse.txt)"
rm -f "$(f sparse.txt)"
check "a directory" 2 "cannot read" "$S" info "$T"

# ---- limits: lowered and raised with the global options ---------------------
check "--max-wires below a generator" 2 "(limit|too (large|many)|max-wires)" \
    "$S" --max-wires 8 info pairwise:16
printf 'Inputs: 2000000\n0 1\n' >"$(f two-million.sn)"
check "Inputs: 2000000 over the default limit" 2 "(limit|too (large|many)|max-wires)" \
    "$S" info "$(f two-million.sn)"
check "Inputs: 2000000 with --max-wires raised" 0 "2000000" \
    "$S" --max-wires 3000000 gen "$(f two-million.sn)" --format sn
check "--max-wires without a value" 2 "max-wires" "$S" --max-wires
check "--max-wires=abc" 2 "max-wires.*abc" "$S" --max-wires=abc info bitonic:4
check "--max-wires 0" 2 "max-wires" "$S" --max-wires 0 info bitonic:4
check "--max-wires 2^32" 2 "max-wires" "$S" --max-wires 4294967296 info bitonic:4
check "--max-nothing" 2 "max-nothing" "$S" --max-nothing 5 info bitonic:4
check "--max-comparators=10" 2 "(limit|too (large|many)|max-comparators)" \
    "$S" --max-comparators=10 info bubble:8

# ---- closed forms: transposition:N keeps N layers in memory, so it must
# respect the layer limit (and cannot take gigabytes for a large N) ---------
check "transposition:100000 over --max-layers 1000" 2 "(limit|too (large|many)|max-layers)" \
    "$S" --max-layers 1000 info transposition:100000

# ---- a bad option is named, whole, not the command in its place ------------
check "info -dash.txt" 2 "^sortnet: info: unknown option '-dash\.txt' .*\./-dash\.txt" \
    "$S" info -dash.txt
check "check -foo" 2 "^sortnet: check: unknown option '-foo'" "$S" check -foo
check "run --nope" 2 "^sortnet: run: unknown option '--nope'" "$S" run --nope
check "gen -o at the end" 2 "^sortnet: gen: option '-o' needs a value" "$S" gen bitonic:4 -o

# ---- memory: arrays of n keys are checked against --max-memory (default:
# the memory available) before they are allocated ---------------------------
check "run bitonic:2^31 over --max-memory 1G" 2 "input: needs about .*--max-memory" \
    "$S" --max-memory 1G run bitonic:2147483648
check "run bitonic:100000 over --max-memory 1M" 2 "needs about 1\.5 MiB.*allows 1\.0 MiB" \
    "$S" --max-memory 1M run bitonic:100000
check "run bitonic:100000 within --max-memory 1G" 0 "sorted" \
    "$S" --max-memory 1G run bitonic:100000 --reverse
check "--max-memory 12X" 2 "max-memory.*12X" "$S" --max-memory 12X run bitonic:4
check "--max-memory 0" 2 "max-memory" "$S" --max-memory 0 run bitonic:4

# ---- --input, --bits ----------------------------------------------------------
check "--input: too few" 2 "--input.*(expected 4|4 values).*3" "$S" run bitonic:4 --input 3,1,2
check "--input: too many" 2 "--input.*(expected 4|4 values).*5" "$S" run bitonic:4 --input 5,4,3,2,1
check "--input: non-numeric" 2 "--input.*'?x'?" "$S" run bitonic:4 --input 3,x,2,1
check "--input: empty" 2 "--input" "$S" run bitonic:4 --input ""
check "--input: only commas" 2 "--input" "$S" run bitonic:4 --input ,,,
check "--input: i32 past 2^31" 2 "--input.*2147483648" "$S" run bitonic:4 --input 2147483648,1,2,3
check "--input: u32 past 2^32" 2 "--input.*4294967296" "$S" run bitonic:4 --type u32 --input 4294967296,1,2,3
check "--input: past 2^63" 2 "--input" "$S" run bitonic:4 --input 9223372036854775808,1,2,3
check "--input: negative u32" 2 "--input.*-1" "$S" run bitonic:4 --type u32 --input -1,1,2,3
# (one argument can hold at most 128 KiB on Linux)
check "--input: 100 KB number" 2 "--input" "$S" run bitonic:4 --input "$(head -c 100000 /dev/zero | tr '\0' '7')"
check "--input: 100 KB list" 2 "--input.*(expected 4|4 values)" "$S" run bitonic:4 --input "$(yes 7, | head -n 30000 | tr -d '\n')7"
check "--bits: too short" 2 "--bits" "$S" run bitonic:4 --bits 011
check "--bits: not 0/1" 2 "--bits" "$S" run bitonic:4 --bits 0121
check "--type: unknown" 2 "--type" "$S" run bitonic:4 --type f64 --input 1,2,3,4
# NaN and infinities are valid f32 keys, sorted by IEEE totalOrder
check "f32: NaN and infinities sort by totalOrder" 0 "-nan,-inf,-1(\.0*)?,-0(\.0*)?,0(\.0*)?,1(\.0*)?,inf,nan" \
    "$S" run bitonic:8 --type f32 --input nan,1,-0,inf,-nan,0,-inf,-1
check "f32: upper-case and signed spellings" 0 "-inf,.*,inf" \
    "$S" run bitonic:4 --type f32 --input INF,-Infinity,+1,NaN
check "f32: 1e39 is out of range" 2 "--input" "$S" run bitonic:4 --type f32 --input 1e39,1,2,3
check "--input: trailing comma" 2 "^sortnet: --input: column 8: trailing comma after 2" \
    "$S" run bitonic:4 --input 5,1,4,2,
check "--input: leading comma" 2 "--input: column 1: expected a value before the comma" \
    "$S" run bitonic:4 --input ,5,1,4,2
check "--input: two options" 2 "^sortnet: --reverse: only one of --input" \
    "$S" run bitonic:4 --sorted --reverse

# ---- key files (--input-file FILE [--binary]) ---------------------------------
printf '1 2\n3 x\n' >"$(f badkey.txt)"
check "key file: bad token" 2 "^sortnet: .*badkey\.txt:2:3: 'x' is not a number" \
    "$S" run bitonic:4 --input-file "$(f badkey.txt)"
printf '1 2\n3,\n# the end\n' >"$(f comma.txt)"
check "key file: trailing comma" 2 "comma\.txt:2:2: trailing comma after 3" \
    "$S" run bitonic --input-file "$(f comma.txt)"
printf '1 2 3 99999999999\n' >"$(f range.txt)"
check "key file: out of range" 2 "range\.txt:1:7: 99999999999 is out of range for i32" \
    "$S" run bitonic:4 --input-file "$(f range.txt)"
check "key file: empty" 2 "empty\.txt: no keys in the file" \
    "$S" run bitonic --input-file "$(f empty.txt)"
printf '# nothing\n\n' >"$(f comments.txt)"
check "key file: only comments" 2 "comments\.txt: no keys" \
    "$S" run bitonic:4 --input-file "$(f comments.txt)"
printf '\1\0\0\0\2\0\0\0\3\0' >"$(f ten.bin)"
check "key file: binary size not a multiple of 4" 2 \
    "ten\.bin: 10 bytes .*4-byte i32 keys.*byte offset 8" \
    "$S" run bitonic --input-file "$(f ten.bin)" --binary
check "key file: text read as binary" 2 "comma\.txt: 17 bytes.*looks like text" \
    "$S" run bitonic --input-file "$(f comma.txt)" --binary
check "key file: missing" 2 "^sortnet: .*nokeys\.txt: cannot open" \
    "$S" run bitonic --input-file "$(f nokeys.txt)"
check "key file: a directory" 2 "^sortnet: $T: cannot read: Is a directory" \
    "$S" run bitonic --input-file "$T"
printf '5 1 4 2 3\n' >"$(f five.txt)"
check "key file: count mismatch" 2 "five\.txt: 5 keys, but bitonic:4 has 4 wires" \
    "$S" run bitonic:4 --input-file "$(f five.txt)"
# an endless stream (a pipe, a device) is held to --max-memory while it is
# read: exit 2 naming the limit, not a process that grows until it is
# killed (`timeout 60` inside: a regression cannot hang the suite)
check "key stream: endless text on stdin" 2 "<stdin>: .*--max-memory allows 16\.0 MiB" \
    bash -c "yes 1 | timeout 60 \"\$0\" --max-memory 16M run bitonic:8 --input-file -" "$S"
check "key stream: endless binary (/dev/zero)" 2 "/dev/zero: .*--max-memory allows 16\.0 MiB" \
    timeout 60 "$S" --max-memory 16M run bitonic:8 --input-file /dev/zero --binary
check "key stream: a stream within --max-memory" 0 "sorted" \
    bash -c "printf '4 3 2 1' | \"\$0\" --max-memory 16M run bitonic --input-file -" "$S"
# (the OpenCL build only; these fail before a device is opened)
if has_part OpenCL; then
check "key file: count mismatch (gpu verify)" 2 "five\.txt: 5 keys, but pairwise:8 has 8 wires" \
    "$S" gpu verify pairwise:8 --input-file "$(f five.txt)"
check "key file: count mismatch (gpu sort)" 2 "five\.txt: 5 keys, but radix:4 asks for 4" \
    "$S" gpu sort radix:4 --input-file "$(f five.txt)"
check "key file: not whole arrays (gpu batch)" 2 "five\.txt: 5 keys are not whole arrays" \
    "$S" gpu batch bitonic:4 --input-file "$(f five.txt)"
fi
check "key file: two inputs" 2 "^sortnet: --input-file: only one of" \
    "$S" run bitonic:4 --reverse --input-file "$(f five.txt)"
check "key file: binary NUL garbage is keys" 0 "sorted" \
    "$S" run bitonic --input-file "$(f nul.txt)" --binary
check "key file: stdin twice" 2 "^sortnet: --input-file: the network and the keys" \
    "$S" run - --input-file -
check "--binary alone" 2 "^sortnet: --binary: goes with --input-file" "$S" run bitonic:4 --binary

# ---- names of the constructions and the library ----------------------------
check "merge:A,B: not a number" 2 "merge:3,x.*not a number" "$S" info merge:3,x
check "median:N: none in the library" 2 "median:99.*no median network" "$S" info median:99
check "check --select: no such output" 2 "--select 9.*0\.\.7" "$S" check bitonic:8 --select 9
check "check --merge: part too large" 2 "--merge 9" "$S" check bitonic:8 --merge 9

# ---- transform -----------------------------------------------------------------
check "transform --cut: no such wire" 2 "--cut.*wires 0\.\.3" "$S" transform bitonic:4 --cut 9:min
check "transform --cut: not min or max" 2 "--cut.*WIRE:min" "$S" transform bitonic:4 --cut 1:mid
check "transform --permute: a wire twice" 2 "^sortnet: --permute: entry 3 repeats wire 1" \
    "$S" transform bitonic:4 --permute 0,1,1,2
check "transform --permute: too short" 2 "--permute" "$S" transform bitonic:4 --permute 0,1
check "transform --concat: other n" 2 "^sortnet: --concat: .*must match" \
    "$S" transform bitonic:4 --concat bitonic:5
check "transform --prune: over 64 wires" 2 "--prune.*64 wires" "$S" transform pairwise:70 --prune
printf '[(0,1)]\n[(1,x)]\n' >"$(f bad-concat.txt)"
check "transform --concat: a bad file" 2 "bad-concat\.txt:2" \
    "$S" transform bitonic:2 --concat "$(f bad-concat.txt)"

# ---- search ---------------------------------------------------------------------
check "search: n = 0" 2 "^sortnet: search: N = '0'.*2\.\.64" "$S" search 0
check "search: n = 65" 2 "N = '65'.*2\.\.64" "$S" search 65
check "search: no n" 2 "number of wires" "$S" search
check "search: a prefix that does not fit" 2 "^sortnet: --prefix: .*8 wires.*for 6" \
    "$S" search 6 --prefix bitonic:8
check "search: --prefix greedy:0" 2 "--prefix.*greedy:0" "$S" search 6 --prefix greedy:0
check "search: --from not a network" 2 "bad-concat\.txt:2" "$S" search 2 --from "$(f bad-concat.txt)"
check "search: --from of another n" 2 "^sortnet: --from: .*4 wires.*for 6" "$S" search 6 --from bitonic:4
check "search: --select out of range" 2 "--select.*0\.\.5" "$S" search 6 --select 6
check "search: --goal unknown" 2 "--goal.*'fast'" "$S" search 6 --goal fast
check "search: --time negative" 2 "--time.*'-1'" "$S" search 6 --time -1
check "search: -o in no such folder" 2 "b\.json" "$S" search 6 --time 0 -o "$T/no/such/b.json"

# ---- a UTF-8 byte order mark (as Windows editors write) is read past in
# every text file: networks of each format, key files, lessons; never in a
# binary key file, whose first 4 bytes are a key
bom() { printf '\xef\xbb\xbf' >"$(f "$1")"; cat >>"$(f "$1")"; }
"$S" gen bitonic:4 --format bracket | bom bom-bracket.txt
check "BOM: bracket" 0 "size: +6" "$S" info "$(f bom-bracket.txt)"
"$S" gen bitonic:4 --format sn | bom bom-sn.txt
check "BOM: libsortnetwork text" 0 "size: +6" "$S" info "$(f bom-sn.txt)"
if [ $have_json = 1 ]; then
    "$S" gen bitonic:4 --format json | bom bom.json
    check "BOM: JSON" 0 "size: +6" "$S" info "$(f bom.json)"
    printf '{"N":4,\n "nw":[[0,1],[2,]]}' | bom bom-bad.json
    check "BOM: JSON, an error's column" 2 "bom-bad\.json:2:" "$S" info "$(f bom-bad.json)"
fi
printf '4 3 2 1\n' | bom bom-keys.txt
check "BOM: key file" 0 "output: +1,2,3,4" "$S" run bitonic --input-file "$(f bom-keys.txt)"
printf '\x00\x01\x00\x00\x00' | bom bom-keys.bin # 8 bytes: 0x00BFBBEF and 1
check "BOM: a binary key file keeps it" 0 "output: +1,12565487$" \
    "$S" run bitonic --input-file "$(f bom-keys.bin)" --binary
if has_part "SDL2 window"; then
    printf 'title: t\nstep: a\nnet: bitonic:4\ntext: x.\n' | bom bom.lesson
    check "BOM: lesson" 0 "^network: bitonic:4" env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER \
        "$S" view --lesson "$(f bom.lesson)" --script "" --dump-state -
fi

# ---- control characters from a file name or a file never reach the
# terminal raw: each shows as \xNN (an ANSI escape could recolour or clear
# the screen, retitle the window)
# raw_check NAME CODE REGEX CMD...: check, and no byte < 0x20 but the line
# ends on stderr
raw_check() {
    check "$@"
    LC_ALL=C grep -q '[[:cntrl:]]' "$T/err" && fail "$1: a control character on stderr: $(od -c "$T/err" | head -3)"
}
esc=$(printf '\033')
raw_check "escape in a network name" 2 'e\\x1b\[31mred\.txt: cannot open' "$S" info "$T/e${esc}[31mred.txt"
raw_check "escape in a key file name" 2 'a\\x1b\[2Jb: cannot open' \
    "$S" run bitonic:4 --input-file "$T/a${esc}[2Jb"
raw_check "OSC and BEL in an output folder" 2 'no\\x1b\]0;x\\x07/n\.txt: cannot write' \
    "$S" gen bitonic:4 -o "$T/no${esc}]0;x$(printf '\a')/n.txt"
raw_check "a newline in a file name" 2 'two\\x0alines\.txt' "$S" info "$T/two
lines.txt"
raw_check "a C1 control (UTF-8 U+009B)" 2 'c1\\xc2\\x9b2J\.txt' "$S" info "$T/c1$(printf '\302\233')2J.txt"
raw_check "UTF-8 letters stay as they are" 2 'übung\.txt: cannot open' "$S" info "$T/übung.txt"
if has_part "SDL2 window"; then
    printf 'step: a\nnet: bitonic:4\033[2J\ntext: x.\n' >"$(f esc.lesson)"
    raw_check "escape inside a lesson" 2 'esc\.lesson:2:6: .*\\x1b\[2J' "$S" view --lesson "$(f esc.lesson)"
fi

# ---- a number too large is called out of range, with the range
check "--random past 2^64" 2 "--random: '99999999999999999999999' is out of range.*18446744073709551615" \
    "$S" run bitonic:4 --random 99999999999999999999999
check "--random 2^64-1" 0 "sorted" "$S" run bitonic:4 --random 18446744073709551615
if has_part "SDL2 window"; then
    printf 'step: a\nnet: bitonic:4\ninput: random 99999999999999999999999\ntext: x.\n' >"$(f seed.lesson)"
    check "lesson: a seed past 2^64" 2 "seed\.lesson:3:15: .*out of range.*18446744073709551615" \
        "$S" view --lesson "$(f seed.lesson)"
    check "script: wait:2000000000" 2 "column 1: 'wait:2000000000' is out of range.*3600000" \
        env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$S" view bitonic:4 --script "wait:2000000000"
    check "script: wait past any double" 2 "column 3: 'wait:1e999' is out of range" env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$S" view bitonic:4 --script "p wait:1e999"
    check "script: wait:-5" 2 "column 1: 'wait:-5' is out of range" env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$S" view bitonic:4 --script "wait:-5"
fi

# ---- gen --format c|opencl ------------------------------------------------------
check "gen --format c --type: unknown" 2 "--type.*f64" "$S" gen bitonic:4 --format c --type f64
check "gen --payload without code" 2 "--payload.*c or opencl" "$S" gen bitonic:4 --payload

# ---- lessons (the window's build only) --------------------------------------
if has_part "SDL2 window"; then
    printf 'step: a\nnet: bitonic:4\ninput: randm 3\ntext: x.\n' >"$(f input.lesson)"
    check "lesson: bad input" 2 "input\.lesson:3:8: 'randm'" "$S" view --lesson "$(f input.lesson)"
    printf 'title x\n' >"$(f nokey.lesson)"
    check "lesson: no key" 2 "nokey\.lesson:1:1: expected 'key: value'" \
        "$S" view --lesson "$(f nokey.lesson)"
    printf 'title: only\n' >"$(f nostep.lesson)"
    check "lesson: no step" 2 "nostep\.lesson:1:1: .*step" "$S" view --lesson "$(f nostep.lesson)"
    check "lesson: binary garbage" 2 "garbage\.bin" "$S" view --lesson "$(f garbage.bin)"
    check "lesson: missing file" 2 "none\.lesson" "$S" view --lesson "$(f none.lesson)"
    # a lesson reads only its own folder and below, or names (issue 36)
    printf 'step: a\nnet: /etc/passwd\ntext: x.\n' >"$(f abs.lesson)"
    check "lesson: an absolute path" 2 "abs\.lesson:2:6: '/etc/passwd' is an absolute path: a lesson reads networks only from its own folder" \
        "$S" view --lesson "$(f abs.lesson)"
    printf 'step: a\nnet: bitonic:4 ../../../../etc/shadow\ntext: x.\n' >"$(f up.lesson)"
    check "lesson: .. out of its folder" 2 "up\.lesson:2:16: .*leaves the lesson's folder" \
        "$S" view --lesson "$(f up.lesson)"
    ln -s /etc/passwd "$T/passwd.txt"
    printf 'step: a\nnet: passwd.txt\ntext: x.\n' >"$(f link.lesson)"
    check "lesson: a symbolic link out of its folder" 2 "link\.lesson:2:6: .*symbolic link" \
        "$S" view --lesson "$(f link.lesson)"
    awk 'BEGIN { printf "step: a\ntext: "; for (i = 0; i < 5000; i++) printf "x"; printf "\n" }' \
        >"$(f longline.lesson)"
    check "lesson: a line too long" 2 "longline\.lesson:2:.*too long" \
        "$S" view --lesson "$(f longline.lesson)"
fi

# ---- the window's file readers and writers: the cause, not a library's text
if has_part "SDL2 window"; then
    check "lesson: a directory" 2 "$T: is a directory" "$S" view --lesson "$T"
    check "view --record: no such folder" 2 "x\.gif: No such file or directory" \
        env SDL_VIDEODRIVER=offscreen "$S" view bitonic:4 --script "" --record "$T/no/such/x.gif"
    check "view --screenshot: no such folder" 2 "x\.png: .*No such file or directory" \
        env SDL_VIDEODRIVER=offscreen "$S" view bitonic:4 --script "" --screenshot "$T/no/such/x.png"
    check "view --dump-state: no such folder" 2 "x\.txt: No such file or directory" \
        env SDL_VIDEODRIVER=offscreen "$S" view bitonic:4 --script "" --dump-state "$T/no/such/x.txt"
    # a lesson's keys that fail are its error, at their line and column
    printf 'title: t\nstep: a\nnet: bitonic:4\nkeys: right add:0,1\ntext: x.\n' >"$(f keyedit.lesson)"
    check "lesson: an edit verb outside edit mode" 2 "keyedit\.lesson:4:13: add:0,1: edit mode is off" \
        "$S" view --lesson "$(f keyedit.lesson)"
    printf 'title: t\nstep: a\nnet: bitonic:4 bitonic:4\nkeys: add:0,1\ntext: x.\n' >"$(f keytwo.lesson)"
    check "lesson: an edit verb beside another network" 2 "keytwo\.lesson:4:7: add:0,1: .*one network" \
        "$S" view --lesson "$(f keytwo.lesson)"
    printf 'title: t\nstep: a\nnet: empty:4\nkeys: add:0,1 del:3,0\ntext: x.\n' >"$(f keydel.lesson)"
    check "lesson: no such layer" 2 "keydel\.lesson:4:15: del:3,0: there is no layer 4" \
        "$S" view --lesson "$(f keydel.lesson)"
    mkdir -p "$T/adir"
    printf 'title: t\nstep: a\nnet: adir\ntext: x.\n' >"$(f netdir.lesson)"
    check "lesson: a network that is a directory" 2 "netdir\.lesson:3:6: 'adir' is a folder, not a network file" \
        "$S" view --lesson "$(f netdir.lesson)"
    check "view save:DIR" 2 "save:.*adir.*Is a directory" \
        "$S" view empty:4 --script "add:0,1 save:$T/adir" --discard
fi

# ---- dist:P,NET names (draw and view): what is wrong, exit 2
if has_part "cairo drawing"; then
    check "dist: no ranks" 2 "'dist:': expected the number of ranks" "$S" draw dist: -o "$(f d.svg)"
    check "dist: ranks not a number" 2 "'dist:four': expected the number of ranks" \
        "$S" draw dist:four -o "$(f d.svg)"
    check "dist: zero ranks" 2 "'dist:0,best:4'.*1 rank or more" "$S" draw dist:0,best:4 -o "$(f d.svg)"
    check "dist: zero keys" 2 "'dist:4x0'.*1 key or more" "$S" draw dist:4x0 -o "$(f d.svg)"
    check "dist: keys not a number" 2 "'dist:4xk'.*keys a rank after 'x'" \
        "$S" draw dist:4xk -o "$(f d.svg)"
    check "dist: junk after P" 2 "'dist:4;best:4'.*expected ','" "$S" draw "dist:4;best:4" -o "$(f d.svg)"
    check "dist: no network after ," 2 "'dist:4,'.*expected a network" "$S" draw dist:4, -o "$(f d.svg)"
    check "dist: huge P" 2 "too many to draw" "$S" draw dist:99999999999999999999999 -o "$(f d.svg)"
    check "dist: wires not P" 2 "has 8 wires but the picture has 3 ranks" \
        "$S" draw dist:3,bitonic:8 -o "$(f d.svg)"
    check "dist: a bad network file" 2 "bad-concat\.txt:2" \
        "$S" draw "dist:4,$(f bad-concat.txt)" -o "$(f d.svg)"
    check "dist: binary garbage" 2 "garbage\.bin" "$S" draw "dist:4,$(f garbage.bin)" -o "$(f d.svg)"
    [ -e "$(f d.svg)" ] && fail "dist: a picture was written by a failed run"
fi

# ---- sortnet web (the page's build only): every error before anything is written
if has_part "the page (sortnet web)"; then
    check "web: a bad network file" 2 "bad-concat\.txt:2" "$S" web "$(f bad-concat.txt)" -o "$(f w.html)"
    check "web: an unknown name" 2 "nosuch" "$S" web nosuch:4 -o "$(f w.html)"
    check "web: values that do not parse" 2 "'x' is not a number" \
        "$S" web bitonic:4 --input 1,x,3,4 -o "$(f w.html)"
    check "web: a key file" 2 "--input-file.*--input" "$S" web bitonic:4 --input-file "$(f bad-concat.txt)" -o "$(f w.html)"
    check "web: no -o" 2 "-o FILE" "$S" web bitonic:4
    check "web: no such folder" 2 "w\.html" "$S" web bitonic:4 -o "$T/no/such/w.html"
    if has_part "SDL2 window"; then
        check "web: a bad lesson" 2 "input\.lesson:3:8: 'randm'" "$S" web --lesson "$(f input.lesson)" -o "$(f w.html)"
        check "web: a missing lesson" 2 "none\.lesson" "$S" web --lesson "$(f none.lesson)" -o "$(f w.html)"
    fi
    [ -e "$(f w.html)" ] && fail "web: a page was written by a failed run"
fi

echo "cli_badinput: $cases cases, $fails failed"
[ $fails = 0 ]
