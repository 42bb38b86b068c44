#!/bin/bash
# cli_oom.sh - the commands that write a file, with the library's Nth
# allocation failing (SN_ALLOC_FAIL=N, the countdown of the unit tests'
# sn_alloc_fail_after), for every N until the command succeeds (issue 36,
# as SQLite's OOM tests loop the countdown): each run ends with the
# out-of-memory message and exit 5, and leaves the old output file whole
# (no new one, no temporary file). Under the sanitizer stage these runs
# also show that no error path leaks.
. "$(dirname "$0")/lib.sh"
printf 'the old file\n' >"$T/old"

# loop NAME OUT CMD...: CMD writes OUT; N = 1, 2, ... until it succeeds.
# OUT "-": CMD prints its result, and a failing run prints nothing on stdout
loop() {
    local name=$1 out=$2
    shift 2
    local n=1 rc
    while :; do
        [ "$out" = - ] || cp "$T/old" "$out"
        SN_ALLOC_FAIL=$n "$@" >"$T/out" 2>"$T/err"
        rc=$?
        [ $rc = 0 ] && break
        [ $rc = 5 ] || { fail "$name, allocation $n failing: exit $rc: $(head -c 300 "$T/err")"; return; }
        grep -q "^sortnet: .*out of memory" "$T/err" ||
            fail "$name, allocation $n failing: no out-of-memory message: $(head -c 300 "$T/err")"
        if [ "$out" = - ]; then
            [ -s "$T/out" ] && fail "$name, allocation $n failing: printed $(head -c 100 "$T/out")"
        else
            cmp -s "$T/old" "$out" || fail "$name, allocation $n failing: the file changed"
            [ "$(find "$T" -newer "$out" -type f | grep -v -e "$T/out" -e "$T/err" -e "$T/old")" = "" ] ||
                fail "$name, allocation $n failing: left $(find "$T" -newer "$out" -type f)"
        fi
        n=$((n + 1))
        [ $n -le 3000 ] || { fail "$name: still failing after 3000 allocations"; return; }
    done
    [ $n -gt 1 ] || fail "$name: no allocation to fail"
    [ "$out" = - ] || ! cmp -s "$T/old" "$out" || fail "$name: written without the failure: unchanged"
    echo "$name: $((n - 1)) allocations failed one at a time"
}

loop "gen -o" "$T/net.c" "$S" gen bitonic:8 --format c -o "$T/net.c"
loop "gen --format json -o" "$T/net.json" "$S" gen oddeven:6 --format json -o "$T/net.json"
loop "gen --standard -o" "$T/std.txt" "$S" gen bitonic:8 --standard -o "$T/std.txt"
loop "transform -o" "$T/net.txt" "$S" transform bitonic:8 --reflect --prune --compact -o "$T/net.txt"
loop "transform --permute --cut --concat -o" "$T/net.txt" "$S" transform bitonic:4 --permute 1,0,2,3 \
    --cut 0:min --concat bitonic:3 -o "$T/net.txt"
# run's keys, payload and key file: out of memory is exit 5, not a usage error
printf '4 3 2 1 8 7 6 5\n' >"$T/keys.txt"
loop "run --output" "$T/sorted.txt" "$S" run bitonic:8 --input-file "$T/keys.txt" --payload \
    --output "$T/sorted.txt"
loop "run --binary --output" "$T/sorted.bin" "$S" run bitonic:8 --reverse --binary \
    --output "$T/sorted.bin"
if has_part "cairo drawing"; then
    loop "draw dist: -o svg" "$T/dist.svg" "$S" draw dist:4,bitonic:4 --keys 3 -o "$T/dist.svg"
    loop "draw --input --follow -o svg" "$T/v.svg" "$S" draw bitonic:8 --input 8,7,6,5,4,3,2,1 \
        --follow 0 --step 3 -o "$T/v.svg"
    loop "draw --zero-one -o svg" "$T/z.svg" "$S" draw bitonic:4 --zero-one -o "$T/z.svg"
    loop "draw -o svg" "$T/net.svg" "$S" draw bitonic:8 -o "$T/net.svg"
    loop "draw -o png" "$T/net.png" "$S" draw oddeven:6 -o "$T/net.png"
fi
# commands that print their result: each failing run exits 5 with the
# out-of-memory message and prints nothing on stdout
loop "info" - "$S" info oddeven-merge:8
loop "info --layers" - "$S" info bitonic:6 --layers
loop "check" - "$S" check bitonic:8
loop "check --select" - "$S" check median:5 --json
loop "run --trace" - "$S" run bitonic:8 --trace --input 8,7,6,5,4,3,2,1

# a new file is not created by a run that fails
SN_ALLOC_FAIL=1 "$S" gen bitonic:8 -o "$T/new.txt" >"$T/out" 2>"$T/err"
[ $? = 5 ] || fail "gen with the first allocation failing: exit $?"
[ ! -e "$T/new.txt" ] || fail "gen with the first allocation failing created its file"

finish cli_oom
