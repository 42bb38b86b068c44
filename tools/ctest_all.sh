#!/usr/bin/env bash
# ctest_all.sh - run a build folder's whole CTest suite where every part is
# required (the README's test command): a failed test fails, and so does a
# skipped one (exit 77), because in that command every optional part is
# built and every dependency installed, so a skip can only hide a failure.
#
#   tools/ctest_all.sh BUILD_DIR [ctest arguments...]
#
# Runs `ctest --output-on-failure -j JOBS` there (JOBS: default all cores),
# keeps the output in BUILD_DIR/ctest.log, and prints the ten longest tests
# (where the time goes: docs/testing.md). Exit 0 only when every test ran
# and passed.
set -uo pipefail
if [ $# -lt 1 ] || [ ! -f "$1/CTestTestfile.cmake" ]; then
    echo "usage: tools/ctest_all.sh BUILD_DIR [ctest arguments...]" >&2
    [ $# -ge 1 ] && echo "ctest_all: '$1' is not a configured build folder (no CTestTestfile.cmake)" >&2
    exit 2
fi
dir=$1
shift
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
log=$dir/ctest.log
(cd "$dir" && ctest --output-on-failure -j "$jobs" "$@") 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
# the ten longest tests of this run ("12/93 Test #74: name ....   Passed  222.66 sec")
echo "ctest_all: the longest tests in $dir:"
sed -n 's/^ *[0-9]*\/[0-9]* Test *#[0-9]*: \([^ ]*\) .* \([0-9.]*\) sec$/\2 \1/p' "$log" |
    sort -rn | head -10 | awk '{printf "  %8.1f s  %s\n", $1, $2}'
# CTest lists skipped tests (and any that could not start) under this line.
if grep -q "^The following tests did not run:" "$log"; then
    echo "ctest_all: FAILED: tests were skipped where every part is required:" >&2
    sed -n '/^The following tests did not run:/,/^$/p' "$log" | sed '1d;/^$/d' >&2
    # their reasons: each skipped test printed a SKIP line (CTest's full log)
    grep -h "SKIP" "$dir"/Testing/Temporary/LastTest*.log 2>/dev/null | sort -u | sed 's/^/  /' >&2
    exit 1
fi
exit "$rc"
