#!/usr/bin/env bash
# cli_valgrind.sh - the real binary under valgrind memcheck on a few
# commands (issue 8): zero errors and no leaks. Skips (exit 77) without
# valgrind, and in sanitizer builds (SN_SANITIZED=1: an ASan binary cannot
# run under valgrind).
. "$(dirname "$0")/lib.sh"
if [ "${SN_SANITIZED:-0}" = 1 ]; then
    echo "SKIP: sanitizer build (SN_SANITIZED=1); valgrind cannot run it" >&2
    exit 77
fi
if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: valgrind is not installed (apt-get install valgrind)" >&2
    exit 77
fi
if nm "$S" 2>/dev/null | grep -q '__asan_init\|__tsan_init\|__msan_init'; then
    echo "SKIP: $S is built with a sanitizer; valgrind cannot run it" >&2
    exit 77
fi
supp=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/valgrind.supp

# vg CODE CMD... : run sortnet under memcheck; expect exit CODE, no errors
# (valgrind exits 99 on any error, including a definite or indirect leak).
vg() {
    local want=$1
    shift
    timeout 300 valgrind --tool=memcheck --error-exitcode=99 --leak-check=full \
        --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
        --suppressions="$supp" --track-fds=no --log-file="$T/vg.log" "$S" "$@" >"$T/out" 2>"$T/err" </dev/null
    local got=$?
    if grep -q "debuginfo reader\|I can't recover" "$T/vg.log"; then
        # e.g. clang's DWARF 5 with valgrind < 3.20: not sortnet's fault
        echo "SKIP: valgrind cannot read the debug info of $S" \
            "(build with gcc, or add -gdwarf-4):" >&2
        grep -m 3 'Valgrind:' "$T/vg.log" >&2
        exit 77
    fi
    if [ "$got" = 99 ] || ! grep -q 'ERROR SUMMARY: 0 errors' "$T/vg.log"; then
        fail "sortnet $*: memcheck errors:"
        grep -E '^==[0-9]+== ' "$T/vg.log" | grep -v 'Memcheck, a memory\|Copyright\|Using Valgrind\|Parent PID' | head -40 >&2
    elif [ "$got" != "$want" ]; then
        fail "sortnet $*: exit $got, expected $want: $(head -c 300 "$T/err")"
    fi
}

printf '[(0,1),(2,3)]\n[(0,2),(1,3)]\n[(1,2)]\n' >"$T/net4.txt"
vg 0 gen bitonic:8 --format bracket -o "$T/b8.txt"
vg 0 gen oddeven-merge:6 --format sn -o "$T/oem6.sn"
vg 0 info "$T/net4.txt"
vg 0 info "$T/oem6.sn"
vg 0 run bitonic:8 --trace --input 5,3,8,1,7,2,6,4
vg 0 run "$T/b8.txt" --trace --type f32 --input nan,1,-0,inf,-nan,0,-inf,-1
vg 2 info "$T/missing.txt"
vg 2 run bitonic:4 --input 1,2,x,4
printf '[(0,1),(1,2)]\n' >"$T/bad.txt"
vg 2 info "$T/bad.txt"
if has_part "JSON (jansson)"; then
    expect 0 "$S" gen bitonic:4 --format json -o "$T/b4.json"
    vg 0 info "$T/b4.json"
    printf '{"N":4,"nw":[[0,1],[2,' >"$T/trunc.json"
    vg 2 info "$T/trunc.json"
fi
if has_part "0-1 checker"; then
    vg 0 check "$T/net4.txt"
    printf '[(0,1)]\n[(1,2)]\n' >"$T/nosort.txt"  # 3 wires: does not sort
    vg 1 check "$T/nosort.txt"
fi
if has_part "cairo drawing"; then
    vg 0 draw bitonic:8 -o "$T/b8.svg"
fi

echo "cli_valgrind: $fails failed"
[ $fails = 0 ]
