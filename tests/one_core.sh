#!/usr/bin/env bash
# one_core.sh CMD [ARGS...] - run one test of a counted build (clang's
# coverage, SORTNET_COVERAGE) on the one core CTest gave it, and every
# process it starts with it; run CMD as is when CTest gave none (a plain
# `ctest` there, without tools/coverage.sh's resource spec).
#
# Why: clang's coverage counters are plain memory, one copy per process,
# which all of a process's threads increment. Two threads of one test on
# two cores take the counters' cache lines from each other at every
# counted branch: test_exec under the sanitizers took 63 s of CPU on two
# cores and 16 s on one, test_check 22 s and 13 s (docs/testing.md). On
# one core the threads take turns instead; they still run as many, with
# the same work, and the tests check the same results. CTest hands out
# the cores (resource "cores": tools/coverage.sh writes the spec from the
# cores this machine lets us use, and each test asks for one slot of one
# core, tests/CMakeLists.txt), so the tests spread evenly over them.
core=${CTEST_RESOURCE_GROUP_0_CORES:-} # "id:1,slots:1"
if [ -n "$core" ] && command -v taskset >/dev/null; then
    id=${core#id:}
    id=${id%%,*}
    exec taskset -c "$id" "$@"
fi
exec "$@"
