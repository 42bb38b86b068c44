#!/usr/bin/env bash
# coverage.sh - the whole suite under AddressSanitizer + UBSan, counted by
# clang's source-based coverage, and the floors per layer: build a Debug
# (-O1) copy with clang, SORTNET_SANITIZE=address,undefined and
# SORTNET_COVERAGE=ON in its own folder, run every test there, and print
# the lines and branches of src/core, src/render, src/cli, src/gpu,
# src/session, src/headless, src/window, src/web and src/mpi. Fails (exit
# 1) when a test fails or skips, or a layer is under its floor; the floors
# are below, in one place. docs/testing.md has the last table measured.
#
# One build is both sanitized and counted because clang's coverage maps
# regions and branches from the source: the sanitizers' own checks
# (UBSan's branches) are not counted, as they are by gcov. What cannot
# run under ASan (a `ulimit -v` holds no shadow memory: cli_gpu_env and
# cli_dist_io's MPI start under a limit) runs in a second, counted build
# without the sanitizers (only `sortnet`), and both builds' counts are
# merged.
#
#   tools/coverage.sh            build, run the suite, print the table
#   tools/coverage.sh --report   print the table of the last run only
#   tools/coverage.sh --build-only   the two builds only (the test command
#                                    builds ahead while other tests run)
#
# Environment: COVERAGE_BUILD_DIR (default build-coverage; the second
# build goes in COVERAGE_BUILD_DIR-limits), JOBS (default: all cores),
# CTEST_JOBS (tests at once in the sanitized suite; default JOBS),
# COVERAGE_HTML=DIR also writes llvm-cov's HTML pages there. Needs clang
# and llvm (llvm-profdata, llvm-cov); Debian: clang, llvm.
set -euo pipefail

# ---- the floors, in percent: (lines branches) per layer; "-" = no floor.
# Lines: issue 36's goals (core and render 98, cli, gpu and the window's
# code 92; that code is now src/session, src/headless and src/window);
# branches: core and render 90 (the goal), the others one point under what
# the suite reached, truncated: threads and the pocl kernel cache move a
# few lines and branches between runs. They were set under gcov; since
# 2026-11-28 clang's counts measure them, unchanged: clang counts every
# line of a statement that spans several (gcov its first), so an
# untested error message of four lines weighs four, and core and web
# needed new tests (test_temp_file, the page's JSON strings) to stay
# over the same floors. mpi: the watcher's branches for a rank still in
# MPI_Init under mpirun have no test (their ending varies from run to
# run, docs/distributed.md).
declare -A floor_lines=([core]=98 [render]=98 [cli]=92 [gpu]=92 [session]=92 [headless]=92 [window]=92 [web]=87 [mpi]=90)
declare -A floor_branches=([core]=90 [render]=90 [cli]=83 [gpu]=84 [session]=82 [headless]=77 [window]=78 [web]=69 [mpi]=76)
layers=(core render cli gpu session headless window web mpi)

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${COVERAGE_BUILD_DIR:-$root/build-coverage}
limits=$build-limits
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
for tool in clang llvm-profdata llvm-cov; do
    command -v $tool >/dev/null || { echo "coverage: $tool is missing (apt-get install clang llvm)" >&2; exit 3; }
done
# the tests that need a build without ASan (the second build runs these)
limit_tests='^(cli_gpu_env|cli_dist_io)$'

# write_cores_spec FILE JOBS: CTest's resource spec (resource "cores"):
# one entry a core this process may run on (Cpus_allowed_list, such as
# "0-3,8"), each with JOBS / cores slots, rounded up.
write_cores_spec() {
    local file=$1 want=$2 list ids=() r lo hi i
    list=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status 2>/dev/null)
    for r in ${list//,/ }; do
        lo=${r%-*}
        hi=${r#*-}
        for ((i = lo; i <= hi; i++)); do ids+=("$i"); done
    done
    [ ${#ids[@]} -gt 0 ] || ids=(0)
    local slots=$(((want + ${#ids[@]} - 1) / ${#ids[@]})) entries=
    for i in "${ids[@]}"; do
        entries+="${entries:+, }{\"id\": \"$i\", \"slots\": $slots}"
    done
    printf '{"version": {"major": 1, "minor": 0}, "local": [{"cores": [%s]}]}\n' "$entries" >"$file"
}

tests_failed=0
common=(-DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DSORTNET_COVERAGE=ON
    -DSORTNET_WERROR=ON -DSORTNET_REQUIRE_ALL=ON -DSORTNET_BUILD_BENCH=OFF)
# The sanitized, counted build of everything, then the counted build of
# sortnet alone without the sanitizers (for the tests under `ulimit -v`).
# -O1: what ASan's authors advise for speed (at -O0 the executor's inner
# loops made test_exec take 104 s instead of about 20; the checks and
# the counted regions are the same).
build_both() {
    CC=clang cmake -S "$root" -B "$build" "${common[@]}" -DSORTNET_WEB=ON \
        -DSORTNET_SANITIZE=address,undefined >/dev/null
    cmake --build "$build" -j "$jobs"
    CC=clang cmake -S "$root" -B "$limits" "${common[@]}" -DSORTNET_WEB=OFF >/dev/null
    cmake --build "$limits" -j "$jobs" --target sortnet
}
if [ "${1:-}" = --build-only ]; then
    build_both
    exit 0
fi
if [ "${1:-}" != --report ]; then
    start=$(date +%s)
    build_both
    rm -rf "$build/profiles" "$limits/profiles" # counts of this run only
    # Through tools/ctest_all.sh, as every suite of the test command: a
    # skipped test fails here too. (Instrumented builds' tests take the
    # suite's samples for slow builds, SN_SANITIZED=1, from the build
    # folder's own test environment: tests/CMakeLists.txt.)
    # The tests under `ulimit -v` run in the counted build without the
    # sanitizers beside the sanitized suite, not after it: mostly mpirun's
    # waits, they left a core idle for 15 s at the end (their output
    # follows the suite's). One file a process there, not the pools:
    # merging into a pool maps the whole file, which a process under
    # `ulimit -v` cannot, and its error would be on the stderr that those
    # tests read.
    LLVM_PROFILE_FILE="$limits/profiles/%p.profraw" JOBS=$jobs \
        "$root/tools/ctest_all.sh" "$limits" -R "$limit_tests" >"$limits/beside.log" 2>&1 &
    limits_pid=$!
    # Each test on one core of its own choosing by CTest (tests/one_core.sh
    # says why): the spec names the cores this process may use, each with
    # as many slots as it takes to run CTEST_JOBS tests at once.
    ctest_jobs=${CTEST_JOBS:-$jobs}
    write_cores_spec "$build/cores.json" "$ctest_jobs"
    ASAN_OPTIONS=detect_leaks=1 JOBS=$ctest_jobs "$root/tools/ctest_all.sh" "$build" \
        --resource-spec-file "$build/cores.json" || tests_failed=1
    wait "$limits_pid" || tests_failed=1
    cat "$limits/beside.log" >&2
    echo "coverage: builds and suite took $(($(date +%s) - start)) s" >&2
fi

# Merge every process's counts (each binary wrote a pool of four files),
# then ask llvm-cov for each source file's lines and branches over every
# counted executable and module of the two builds.
summary=$build/coverage-summary.json
profraw=()
for d in "$build/profiles" "$limits/profiles"; do
    [ -d "$d" ] && profraw+=("$d"/*.profraw)
done
[ ${#profraw[@]} -gt 0 ] || { echo "coverage: no counts in $build/profiles: run tools/coverage.sh first" >&2; exit 1; }
llvm-profdata merge -sparse "${profraw[@]}" -o "$build/coverage.profdata"
objects=()
while IFS= read -r f; do
    readelf -S "$f" 2>/dev/null | grep -q __llvm_covmap && objects+=(-object "$f")
done < <(find "$build" "$limits" -type f \( -perm -u+x -o -name '*.so' \) \
    -not -path '*/CMakeFiles/*' 2>/dev/null | while IFS= read -r f; do
    [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] && echo "$f"; done)
[ ${#objects[@]} -gt 0 ] || { echo "coverage: no counted executable in $build" >&2; exit 1; }
llvm-cov export -summary-only -instr-profile "$build/coverage.profdata" "${objects[@]}" >"$summary"
if [ -n "${COVERAGE_HTML:-}" ]; then
    mkdir -p "$COVERAGE_HTML"
    llvm-cov show -format=html -output-dir "$COVERAGE_HTML" -show-branches=count \
        -instr-profile "$build/coverage.profdata" "${objects[@]}" "$root/src" >/dev/null
fi

floors=""
for l in "${layers[@]}"; do
    floors+="$l=${floor_lines[$l]}/${floor_branches[$l]} "
done
python3 - "$summary" "$floors" "$root/src/" <<'EOF' || exit 1
import json, sys
data = json.load(open(sys.argv[1]))
floors = dict(f.split("=") for f in sys.argv[2].split())
rows = {l: [0, 0, 0, 0] for l in floors}
src = sys.argv[3]
for f in data["data"][0]["files"]:
    name = f["filename"]
    if not name.startswith(src):
        continue
    layer = name[len(src):].split("/")[0]
    if layer not in rows:
        continue
    s, r = f["summary"], rows[layer]
    r[0] += s["lines"]["covered"]; r[1] += s["lines"]["count"]
    r[2] += s["branches"]["covered"]; r[3] += s["branches"]["count"]
def pct(a, b):
    return 100.0 * a / b if b else None
def show(p):
    return "   -  " if p is None else f"{p:5.1f}%"
under = []
print(f"{'layer':<8} {'lines':>16} {'':>7} {'branches':>16} {'':>7}  floors (lines/branches)")
tot = [0, 0, 0, 0]
for layer, r in rows.items():
    tot = [t + x for t, x in zip(tot, r)]
    lp, bp = pct(r[0], r[1]), pct(r[2], r[3])
    fl, fb = floors[layer].split("/")
    mark = ""
    for name, p, fl_ in (("lines", lp, fl), ("branches", bp, fb)):
        if fl_ != "-" and p is not None and p < float(fl_):
            under.append(f"{layer} {name} {p:.1f}% < {fl_}%")
            mark = "  UNDER"
    print(f"{layer:<8} {r[0]:>7}/{r[1]:<8} {show(lp)} {r[2]:>7}/{r[3]:<8} {show(bp)}  {fl}/{fb}{mark}")
print(f"{'all':<8} {tot[0]:>7}/{tot[1]:<8} {show(pct(tot[0], tot[1]))} "
      f"{tot[2]:>7}/{tot[3]:<8} {show(pct(tot[2], tot[3]))}")
if under:
    print("coverage: under the floor: " + "; ".join(under), file=sys.stderr)
    sys.exit(1)
EOF
if [ "$tests_failed" = 1 ]; then
    echo "coverage: the suite failed (the table counts what ran)" >&2
    exit 1
fi
