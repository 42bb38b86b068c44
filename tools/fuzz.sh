#!/usr/bin/env bash
# fuzz.sh - build the libFuzzer targets with clang and run each one for a
# while on its seed corpus (issue 8). Any crash, leak, sanitizer report or
# timeout fails the script; the input that did it is copied to
# tests/fuzz/regressions/<target>/ so that it becomes a regression test.
#
#   tools/fuzz.sh [SECONDS] [TARGET...]    default: 20 s, every target
#   tools/fuzz.sh --build-only [TARGET...] build the targets, fuzz nothing
#                                          (the test command builds ahead)
#
# The corpus in the tree is never modified: each run fuzzes a temporary
# copy, to which the real networks of assets/networks are added for the
# network readers.
# Environment: FUZZ_BUILD_DIR (default build-fuzz), JOBS (default 2: targets
# fuzzed at once, and build jobs),
# FUZZ_KEEP=DIR to keep the grown corpora in DIR.
set -euo pipefail

build_only=0
if [ "${1:-}" = --build-only ]; then
    build_only=1
    shift
fi
seconds=20
if [ $build_only = 0 ] && [ $# -gt 0 ]; then
    seconds=$1
    shift
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
jobs=${JOBS:-2}
networks=$root/assets/networks

if ! command -v clang >/dev/null 2>&1; then
    echo "fuzz: clang is not installed (apt-get install clang); not fuzzing" >&2
    exit 1
fi

CC=clang cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSORTNET_FUZZ=ON \
    -DSORTNET_WERROR=ON -DSORTNET_WITH_SDL=OFF -DSORTNET_WITH_CAIRO=OFF \
    -DSORTNET_WITH_OPENCL=OFF -DSORTNET_BUILD_BENCH=OFF >/dev/null
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for src in "$root"/tests/fuzz/fuzz_*.c; do
        targets+=("$(basename "$src" .c | sed 's/^fuzz_//')")
    done
fi
built=()
for t in "${targets[@]}"; do
    if cmake --build "$build" -j "$jobs" --target "fuzz_$t" >"$build/fuzz_$t.build.log" 2>&1; then
        built+=("$t")
    elif grep -q "No rule to make target\|unknown target" "$build/fuzz_$t.build.log"; then
        echo "fuzz: $t: not built in this configuration (skipped)" >&2
    else
        cat "$build/fuzz_$t.build.log" >&2
        exit 1
    fi
done

[ $build_only = 1 ] && exit 0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# fuzz_one TARGET: fuzz one target on a copy of its corpus; prints what it
# found and writes its exit status to $work/TARGET.rc.
fuzz_one() {
    local t=$1 rc
    local corpus=$work/$t
    mkdir -p "$corpus" "$work/$t.artifacts"
    for d in "$root/tests/fuzz/corpus/$t" "$root/tests/fuzz/regressions/$t"; do
        [ -d "$d" ] && cp "$d"/* "$corpus"/ 2>/dev/null || true
    done
    # Real networks for the readers (small ones: the corpus is for variety).
    case $t in
    bracket | json | sn | detect)
        if [ -d "$networks" ]; then
            find "$networks" -type f \( -name "*.json" -o -name "*.sn" \) -size -64k | while read -r file; do
                cp "$file" "$corpus/asset-$(echo "$file" | md5sum | cut -c1-12)"
            done
        fi
        ;;
    lesson)
        for file in "$root"/assets/lessons/*.lesson; do
            [ -f "$file" ] && cp "$file" "$corpus/asset-$(basename "$file")"
        done
        ;;
    esac
    local dict=()
    [ -f "$root/tests/fuzz/$t.dict" ] && dict=(-dict="$root/tests/fuzz/$t.dict")
    echo "fuzz: $t for $seconds s ($(ls "$corpus" | wc -l) seeds)"
    set +e
    (cd "$work/$t.artifacts" && ASAN_OPTIONS=detect_leaks=1 "$build/tests/fuzz_$t" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 "${dict[@]}" "$corpus") >"$work/$t.log" 2>&1
    rc=$?
    set -e
    echo $rc >"$work/$t.rc"
    grep -E '^#[0-9]+ +DONE|stat::number_of_executed_units' "$work/$t.log" | tail -2 || true
    if [ $rc != 0 ]; then
        echo "fuzz: $t FAILED (exit $rc):"
        grep -E 'ERROR|SUMMARY|runtime error|Test unit written|abort' "$work/$t.log" | head -20
        mkdir -p "$root/tests/fuzz/regressions/$t"
        for a in "$work/$t.artifacts"/*; do
            [ -f "$a" ] || continue
            cp "$a" "$root/tests/fuzz/regressions/$t/"
            echo "fuzz: $t: the input is now tests/fuzz/regressions/$t/$(basename "$a")"
        done
    fi
    if [ -n "${FUZZ_KEEP:-}" ]; then
        mkdir -p "$FUZZ_KEEP/$t"
        cp "$corpus"/* "$FUZZ_KEEP/$t"/ 2>/dev/null || true
    fi
}

# $jobs targets at a time (each is one process on one core), so the whole
# run takes about targets / jobs * SECONDS.
for t in "${built[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
        wait -n || true
    done
    fuzz_one "$t" >"$work/$t.summary" 2>&1 &
done
# FUZZ_FREE_CORE=FILE: touched once every target has started and one of
# the $jobs cores is free (the last targets run alone): the test command
# starts its last checks on that core then (tools/setup.sh).
if [ -n "${FUZZ_FREE_CORE:-}" ]; then
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
        wait -n || true
    done
    touch "$FUZZ_FREE_CORE"
fi
wait
failed=0
for t in "${built[@]}"; do
    cat "$work/$t.summary" >&2
    [ "$(cat "$work/$t.rc" 2>/dev/null || echo 1)" = 0 ] || failed=1
done
[ $failed = 0 ] && echo "fuzz: ${#built[@]} targets, no crash in $seconds s each" >&2
exit $failed
