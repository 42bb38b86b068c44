#!/usr/bin/env bash
# cppcheck.sh - static analysis of src/ with cppcheck (Debian: cppcheck):
# the warning, portability and performance checks, whole-program (one job,
# so its cross-file null-pointer and buffer checks run). Fails (exit 1) on
# any finding; a false positive is suppressed where it is reported, with
# `// cppcheck-suppress ID` and a comment that says why. Why cppcheck and
# not scan-build: docs/testing.md.
#
#   tools/cppcheck.sh        analyse src/, print the findings and the time
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
command -v cppcheck >/dev/null || { echo "cppcheck: not installed (apt-get install cppcheck)" >&2; exit 3; }
start=$(date +%s)
cd "$root"
# -D__GNUC__: the configuration the project builds (attributes, builtins);
# SN_API_CHECKS on, so the checked preconditions are read too. The system
# headers are not given: cppcheck then assumes nothing about libc and
# cairo, which keeps it quiet about what it cannot see (missingInclude is
# not enabled).
if cppcheck --enable=warning,portability,performance --std=c11 --inline-suppr --quiet \
    --error-exitcode=1 -I src -D__GNUC__ -DSN_API_CHECKS -DSN_THREADS=1 \
    --template='{file}:{line}:{column}: {severity}: {message} [{id}]' src; then
    echo "cppcheck: src/ is clean ($(($(date +%s) - start)) s, $(cppcheck --version))" >&2
else
    echo "cppcheck: findings above ($(($(date +%s) - start)) s); fix them or suppress a false" \
        "positive where it is reported, saying why" >&2
    exit 1
fi
