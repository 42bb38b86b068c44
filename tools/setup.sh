#!/usr/bin/env bash
# setup.sh - install what a fresh Debian machine lacks, build sortnet, and
# then either start the main job or run the whole test suite.
#
#   tools/setup.sh          install, build, start the visualizer on the demo
#                           (with no display: say so and do the headless
#                           equivalent: a screenshot and a diagram)
#   tools/setup.sh test     install, build, run every test (ctest: the page's
#                           in headless chromium too), the core's
#                           tests without threads, `view` built without
#                           SDL2 against the window's pixels, fuzz, then
#                           the suite again under AddressSanitizer + UBSan,
#                           counted for the coverage floors, then cppcheck
#                           and the Debian package (docs/testing.md);
#                           every stage runs, a summary names the failed ones
#   tools/setup.sh build    install and build only
# Every build writes the page too: $BUILD_DIR/sortnet.html (docs/web.md).
#
# Environment: BUILD_DIR (default build), JOBS (default: all cores),
# SORTNET_SKIP_INSTALL=1 to skip apt-get, SORTNET_SKIP_ASAN=1 (or
# SORTNET_SKIP_COVERAGE=1) to skip the sanitizer and coverage pass of
# `test` (SORTNET_SKIP_FUZZ=1, SORTNET_SKIP_ANALYSIS=1 the others),
# SORTNET_BUILD_AHEAD=0 to build each stage's tree in its own stage only.
set -euo pipefail

mode=${1:-run}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# Debian packages: build tools, the optional parts' libraries, what the
# tests use (Xvfb, rsvg-convert, pdftoppm, valgrind, clang for fuzzing and
# the sanitizer pass, llvm for its coverage counts, libc6-dbg so that
# LeakSanitizer names libc's frames (tests/lsan.supp), groff for the manual
# page) and a font that every picture uses. The page
# (`sortnet web`, SORTNET_WEB): clang's wasm32 target links with lld
# against wasi-libc and libclang-rt-14-dev-wasm32 (its builtins); its
# browser tests drive chromium through chromium-driver and python3-selenium.
# `sortnet dist` (SORTNET_WITH_MPI): Open MPI's headers, library and mpirun.
# The Debian package's checks: lintian, desktop-file-validate, appstreamcli.
packages=(build-essential cmake pkg-config clang llvm
          libjansson-dev libcairo2-dev libsdl2-dev libgif-dev fonts-dejavu-core
          ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo
          xvfb xauth librsvg2-bin poppler-utils python3 valgrind groff-base libc6-dbg
          lld wasi-libc libclang-rt-14-dev-wasm32
          chromium chromium-driver python3-selenium
          libopenmpi-dev openmpi-bin
          lintian desktop-file-utils appstream)

install_packages() {
    [ "${SORTNET_SKIP_INSTALL:-0}" = 1 ] && return 0
    local missing=()
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "setup: installing ${missing[*]}" >&2
    local sudo=()
    [ "$(id -u)" -ne 0 ] && sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
}

# Every build has the page (-DSORTNET_WEB=ON: sortnet.wasm, `sortnet web`,
# build/sortnet.html); a later -DSORTNET_WEB=OFF in the arguments wins.
configure_and_build() { # build-dir [extra cmake args...] [-- targets...]
    local dir=$1 args=() targets=()
    shift
    while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
    [ $# -gt 0 ] && shift && targets=("$@")
    cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSORTNET_WEB=ON "${args[@]}" >/dev/null
    cmake --build "$dir" -j "$jobs" ${targets[@]+--target "${targets[@]}"}
}

install_packages
case "$mode" in
build)
    configure_and_build "$build"
    ;;
run)
    configure_and_build "$build"
    exec "$root/tools/demo.sh" "$build/src/cli/sortnet"
    ;;
test)
    # CI: warnings are errors and every optional part must be present, so
    # every test must run: a skipped test fails its stage as a failed one
    # does (tools/ctest_all.sh). A failing stage does not hide the others:
    # each runs, each one's time is printed, then a summary.
    failed=()
    stage_lines=() # "   342 s     512 s CPU  1.50 cores  NAME": a finished stage
    test_start=$(date +%s)
    stage_t0=$test_start
    stage_name=
    # The CPU time of this shell's finished children (utime + stime, in
    # clock ticks: fields 16 and 17 of /proc/self/stat), read without a
    # fork, so that each stage can say how many cores it kept busy: the
    # wall time of a stage that leaves a core idle can still shrink.
    ticks=$(getconf CLK_TCK 2>/dev/null || echo 100)
    child_ticks() {
        local f
        read -r -a f </proc/$$/stat 2>/dev/null || { echo 0; return; }
        echo $((f[15] + f[16]))
    }
    stage_c0=$(child_ticks)
    # stage NAME: the previous stage ends, NAME begins (times in the summary)
    stage() {
        local now c wall cpu cores
        now=$(date +%s)
        c=$(child_ticks)
        if [ -n "$stage_name" ]; then
            wall=$((now - stage_t0))
            cpu=$(((c - stage_c0) / ticks))
            # cores busy on average: CPU seconds over wall seconds
            cores=$(awk -v c=$((c - stage_c0)) -v t="$ticks" -v w=$wall \
                'BEGIN { printf "%.2f", (w > 0 ? c / t / w : 0) }')
            stage_lines+=("$(printf '%6d s  %6d s CPU  %s cores  %s' $wall $cpu "$cores" "$stage_name")")
            echo "setup: ($wall s, $cpu s CPU) $stage_name" >&2
        fi
        stage_t0=$now
        stage_c0=$c
        stage_name=$1
        [ -n "$1" ] && echo "setup: [$(((now - test_start) / 60)) min] $1" >&2
        return 0
    }
    # pocl's kernel cache, one for every stage: pocl caches a program per
    # source and options and a kernel per work-group size; the sanitizer
    # and coverage passes build the same programs as the first pass, so
    # they reuse its builds. The user's own cache when there is one.
    export POCL_KERNEL_CACHE=1
    export POCL_CACHE_DIR=${POCL_CACHE_DIR:-${XDG_CACHE_HOME:-${HOME:-$build}/.cache}/pocl/kcache}
    mkdir -p "$POCL_CACHE_DIR" 2>/dev/null && [ -w "$POCL_CACHE_DIR" ] ||
        POCL_CACHE_DIR=$build-pocl-cache
    mkdir -p "$POCL_CACHE_DIR"
    # The later stages' builds, one function each (the stage runs it, and
    # so may the builds ahead below).
    build_nothreads() {
        configure_and_build "$build-nothreads" -DSORTNET_WERROR=ON -DSORTNET_THREADS=OFF \
            -DSORTNET_WITH_SDL=OFF -DSORTNET_WITH_CAIRO=OFF -DSORTNET_WITH_OPENCL=OFF \
            -DSORTNET_WITH_JANSSON=ON -DSORTNET_BUILD_BENCH=OFF -DSORTNET_WEB=OFF
    }
    # (only what its stage runs: the code that SDL2's absence changes is
    # all in sortnet and the headless session these tests link; the
    # other test programs are the first build's, compiled alike)
    nosdl_tests='test_session|test_app|test_lecture|test_frame_scene|cli_view_headless'
    build_nosdl() {
        configure_and_build "$build-nosdl" -DSORTNET_WERROR=ON -DSORTNET_WITH_SDL=OFF \
            -DSORTNET_WITH_MPI=OFF -DSORTNET_BUILD_BENCH=OFF \
            -DSORTNET_WEB=OFF -DSORTNET_VIEW_REFERENCE="$build/src/cli/sortnet" \
            -- sortnet test_session test_app test_lecture test_frame_scene
    }
    build_fuzz() { FUZZ_BUILD_DIR="$build-fuzz" JOBS="$jobs" "$root/tools/fuzz.sh" --build-only; }
    build_asan() { COVERAGE_BUILD_DIR="$build-asan" JOBS="$jobs" "$root/tools/coverage.sh" --build-only; }
    # Builds ahead: while a stage's tests run, the later stages' builds go
    # on in the background at the lowest priority (nice 19), so they take
    # only what the tests leave of the cores (the first pass kept 1.44 of
    # two busy: docs/testing.md) and slow no test. Each stage stops them
    # before it starts (make removes the file it was writing) and then
    # builds as before, which finishes what was left or finds it done;
    # nothing is built differently, only earlier. Their output goes to
    # $build/ahead.log: a failing build fails in its own stage, loudly.
    # A process group of its own (set -m), in this session: Linux's
    # autogroup shares the CPU between sessions before nice counts, so a
    # new session (setsid) would take a full share. SORTNET_BUILD_AHEAD=0
    # builds each stage's tree in its stage only.
    # The later builds, in stage order: only those of stages that will run.
    ahead_steps=(nothreads nosdl)
    if [ "${SORTNET_SKIP_FUZZ:-0}" != 1 ]; then
        ahead_steps+=(fuzz)
    fi
    if [ "${SORTNET_SKIP_ASAN:-0}" != 1 ] && [ "${SORTNET_SKIP_COVERAGE:-0}" != 1 ]; then
        ahead_steps+=(asan)
    fi
    ahead_pid=
    # ahead_after STEP: the builds of the stages after STEP's (all for "")
    ahead_after() {
        local later=() seen=0 s
        [ -z "$1" ] && seen=1
        for s in "${ahead_steps[@]}"; do
            if [ $seen = 1 ]; then
                later+=("$s")
            elif [ "$s" = "$1" ]; then
                seen=1
            fi
        done
        [ ${#later[@]} -eq 0 ] || ahead_start "${later[@]}"
    }
    ahead_start() { # STEP...: build_STEP for each, in order
        [ "${SORTNET_BUILD_AHEAD:-1}" = 1 ] || return 0
        set -m
        (
            set +m
            renice -n 19 -p "$BASHPID" >/dev/null 2>&1 || true
            echo "setup: building ahead: $* ($(date +%T))"
            for step in "$@"; do
                "build_$step" || exit 0
            done
            echo "setup: built ahead: $* ($(date +%T))"
        ) >>"$build/ahead.log" 2>&1 &
        ahead_pid=$!
        set +m
    }
    ahead_stop() {
        [ -n "$ahead_pid" ] || return 0
        kill -TERM -- "-$ahead_pid" 2>/dev/null || true
        wait "$ahead_pid" 2>/dev/null || true
        # every process of the group gone (a compiler can outlive its make)
        while kill -0 -- "-$ahead_pid" 2>/dev/null; do sleep 0.2; done
        ahead_pid=
    }
    trap ahead_stop EXIT
    # The last checks: static analysis (tools/cppcheck.sh; skip with
    # SORTNET_SKIP_ANALYSIS=1) and the Debian package (tests/package_test.sh:
    # cpack builds it from the first build, apt-get installs it, the
    # installed sortnet runs, apt-get purges it and nothing is left; it
    # needs root, and its skip fails the stage), side by side. Both need
    # only the first build, so they start on the core that fuzzing leaves
    # free when its last target runs alone (tools/fuzz.sh touches
    # $build/free-core then), at the priority of every test: at nice 19 two
    # busy loops beside the test command starved them (docs/testing.md).
    # They are never stopped (an apt-get cut short could leave dpkg half
    # done); the last stage starts them if fuzzing did not, waits for them
    # and prints their output, whole.
    checks_pid=
    checks_start() { # in the background, once $build/free-core exists
        [ -z "$checks_pid" ] || return 0
        rm -f "$build/cppcheck.rc" "$build/package.rc" "$build/free-core"
        if [ "${SORTNET_SKIP_ANALYSIS:-0}" != 1 ]; then
            packages=(cppcheck) && install_packages
        fi
        (
            while [ ! -e "$build/free-core" ]; do sleep 1; done
            if [ "${SORTNET_SKIP_ANALYSIS:-0}" != 1 ]; then
                ("$root/tools/cppcheck.sh" >"$build/cppcheck.log" 2>&1
                    echo $? >"$build/cppcheck.rc") &
            fi
            "$root/tests/package_test.sh" "$build" >"$build/package.log" 2>&1
            echo $? >"$build/package.rc"
            wait
        ) &
        checks_pid=$!
    }
    stage "the build and the test suite (ctest)"
    configure_and_build "$build" -DSORTNET_WERROR=ON -DSORTNET_REQUIRE_ALL=ON
    ahead_after ""
    JOBS=$jobs "$root/tools/ctest_all.sh" "$build" || failed+=("the test suite")
    ahead_stop
    # The core without threads (SORTNET_THREADS=OFF: every task in the
    # caller, as in the page's wasm32 build): the core's unit tests, the same
    # files, must give the same results. Core and jansson only, so it is quick.
    stage "the core's tests again without threads (SORTNET_THREADS=OFF)"
    ahead_after nothreads
    (build_nothreads && JOBS=$jobs "$root/tools/ctest_all.sh" "$build-nothreads" -R '^test_') ||
        failed+=("the core's tests without threads")
    ahead_stop
    # `sortnet view` built without SDL2 (the headless backend alone): its
    # session's tests, and its pictures and states against the first
    # build's window, pixel for pixel (tests/cli_view_headless.sh with
    # SORTNET_VIEW_REFERENCE). OpenCL stays (the status line names it);
    # no MPI, page or benchmarks, so it is quick.
    stage "view without SDL2: headless pictures against the window's"
    ahead_after nosdl
    (build_nosdl && JOBS=$jobs "$root/tools/ctest_all.sh" "$build-nosdl" \
        -R "^($nosdl_tests)\$") ||
        failed+=("view without SDL2")
    ahead_stop
    # Fuzzing (tools/fuzz.sh): every libFuzzer target for 20 s on its corpus
    # with clang + ASan/UBSan; any crash fails. Skip with SORTNET_SKIP_FUZZ=1.
    if [ "${SORTNET_SKIP_FUZZ:-0}" != 1 ]; then
        stage "fuzzing every reader for 20 s (tools/fuzz.sh)"
        ahead_after fuzz
        checks_start
        FUZZ_FREE_CORE="$build/free-core" FUZZ_BUILD_DIR="$build-fuzz" JOBS="$jobs" \
            "$root/tools/fuzz.sh" 20 || failed+=("fuzzing")
        ahead_stop
    fi
    # The whole suite again under AddressSanitizer and UBSan (clang, -O1:
    # what ASan's authors advise for speed), counted by clang's
    # source-based coverage in the same run, and the coverage floors
    # (tools/coverage.sh: a layer under its floor fails; docs/testing.md).
    # One run does both: clang's counts come from the source, so UBSan's
    # own checks are not counted as the code's branches. Skip with
    # SORTNET_SKIP_ASAN=1 or SORTNET_SKIP_COVERAGE=1.
    if [ "${SORTNET_SKIP_ASAN:-0}" != 1 ] && [ "${SORTNET_SKIP_COVERAGE:-0}" != 1 ]; then
        stage "the whole suite again under AddressSanitizer and UBSan, and the coverage floors"
        # Two tests more than cores: the sanitized suite's tests wait for
        # a part of their time (mpirun's start, the windowed tests' waits;
        # at one more than cores the machine was 1.88 of 2 cores busy), and
        # no build is left to fill the idle core.
        COVERAGE_BUILD_DIR="$build-asan" JOBS="$jobs" CTEST_JOBS=$((jobs + 2)) \
            "$root/tools/coverage.sh" ||
            failed+=("the suite under ASan+UBSan and the coverage floors")
    fi
    # The last checks (checks_start above), to their end.
    stage "static analysis (tools/cppcheck.sh) beside the Debian package, from fuzzing's free core"
    checks_start
    touch "$build/free-core"
    wait "$checks_pid" || true
    cat "$build/package.log" >&2
    [ "$(cat "$build/package.rc" 2>/dev/null)" = 0 ] || failed+=("the Debian package")
    if [ "${SORTNET_SKIP_ANALYSIS:-0}" != 1 ]; then
        cat "$build/cppcheck.log" >&2
        [ "$(cat "$build/cppcheck.rc" 2>/dev/null)" = 0 ] || failed+=("static analysis (cppcheck)")
    fi
    stage ""
    echo "setup: the stages' times:" >&2
    printf 'setup: %s\n' "${stage_lines[@]}" >&2
    total=$(($(date +%s) - test_start))
    printf 'setup: %6d s  in all (%d min %d s)\n' "$total" $((total / 60)) $((total % 60)) >&2
    if [ ${#failed[@]} -ne 0 ]; then
        printf 'setup: FAILED: %s\n' "${failed[@]}" >&2
        exit 1
    fi
    echo "setup: every stage passed" >&2
    ;;
*)
    echo "usage: tools/setup.sh [run|test|build]" >&2
    exit 2
    ;;
esac
