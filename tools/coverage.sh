#!/usr/bin/env bash
# coverage.sh - the test suite under gcov: build a Debug copy with
# SORTNET_COVERAGE=ON in its own folder, run ctest, and print gcovr's
# figures per layer (lines and branches of src/core, src/render, src/cli,
# src/gpu, src/session, src/headless, src/window, src/web, src/mpi). Fails (exit 1) when a test fails or a layer
# is under its floor; the floors are below, in one place. docs/testing.md
# has the last table measured and the goals.
#
#   tools/coverage.sh            build, run the suite, print the table
#   tools/coverage.sh --report   print the table of the last run only
#
# Environment: COVERAGE_BUILD_DIR (default build-coverage), JOBS (default:
# all cores), COVERAGE_HTML=DIR also writes gcovr's HTML pages there.
# Needs gcovr (Debian: gcovr).
set -euo pipefail

# ---- the floors, in percent: (lines branches) per layer; "-" = no floor.
# Lines: issue 36's goals (core and render 98, cli, gpu and the window's
# code 92; that code is now src/session, src/headless and src/window);
# branches: core and render 90 (the goal), the others one point under what
# the suite reaches (docs/testing.md), truncated: threads and the pocl
# kernel cache move a few lines and branches between runs.
# session, headless and window (src/app before it was split, 92 / 79) and
# web (the page's exports over the session) and mpi (the MPI layer, src/mpi:
# its ranks under mpirun write their counters too): branches one point under
# what the suite reached on 2026-11-28 (session 96.9 / 83.6, headless
# 94.5 / 79.3, window 95.4 / 79.4, web 88.1 / 71.2, mpi 92.9 / 80.4).
# mpi then gained its error paths for a full disk, a killed rank's
# temporary and MPI_Init under ulimit -v (issue 45): 91.3 / 77.1 on the
# fresh-clone run of 2026-11-28 (the watcher's branches for a rank still
# in MPI_Init under mpirun have no test: their ending varies from run to
# run, docs/distributed.md), so its floor is 90 / 76 until those paths
# are tested.
declare -A floor_lines=([core]=98 [render]=98 [cli]=92 [gpu]=92 [session]=92 [headless]=92 [window]=92 [web]=87 [mpi]=90)
declare -A floor_branches=([core]=90 [render]=90 [cli]=83 [gpu]=84 [session]=82 [headless]=77 [window]=78 [web]=69 [mpi]=76)
layers=(core render cli gpu session headless window web mpi)

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${COVERAGE_BUILD_DIR:-$root/build-coverage}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
command -v gcovr >/dev/null || { echo "coverage: gcovr is missing (apt-get install gcovr)" >&2; exit 3; }

tests_failed=0
if [ "${1:-}" != --report ]; then
    start=$(date +%s)
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DSORTNET_COVERAGE=ON \
        -DSORTNET_WERROR=ON -DSORTNET_REQUIRE_ALL=ON -DSORTNET_BUILD_BENCH=OFF >/dev/null
    cmake --build "$build" -j "$jobs"
    find "$build" -name '*.gcda' -delete # counts of this run only
    # Through tools/ctest_all.sh, as every suite of the test command: a
    # skipped test fails here too. (A coverage build's tests take the
    # suite's samples for slow instrumented builds, SN_SANITIZED=1, from
    # the build folder's own test environment: tests/CMakeLists.txt.)
    JOBS=$jobs "$root/tools/ctest_all.sh" "$build" || tests_failed=1
    echo "coverage: build and suite took $(($(date +%s) - start)) s" >&2
fi

summary=$build/coverage-summary.json
extra=()
[ -n "${COVERAGE_HTML:-}" ] && mkdir -p "$COVERAGE_HTML" &&
    extra=(--html-details "$COVERAGE_HTML/index.html")
# Only the sources under src/ (not generated tables, kernels or tests).
gcovr --root "$root" --object-directory "$build" --filter "$root/src/" \
    --exclude-unreachable-branches --exclude-throw-branches --gcov-ignore-parse-errors \
    --json-summary "$summary" "${extra[@]}" >/dev/null

floors=""
for l in "${layers[@]}"; do
    floors+="$l=${floor_lines[$l]}/${floor_branches[$l]} "
done
python3 - "$summary" "$floors" <<'EOF' || exit 1
import json, sys
data = json.load(open(sys.argv[1]))
floors = dict(f.split("=") for f in sys.argv[2].split())
rows = {l: [0, 0, 0, 0] for l in floors}
for f in data["files"]:
    parts = f["filename"].split("/")
    if len(parts) < 3 or parts[0] != "src" or parts[1] not in rows:
        continue
    r = rows[parts[1]]
    r[0] += f["line_covered"]; r[1] += f["line_total"]
    r[2] += f["branch_covered"]; r[3] += f["branch_total"]
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
