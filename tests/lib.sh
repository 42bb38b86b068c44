# lib.sh - what the end-to-end shell tests share; source it first:
#   . "$(dirname "$0")/lib.sh"
# It sets S (the sortnet binary, from env SORTNET) and T (a temporary
# folder removed on exit), and defines the checks below. `finish NAME`
# ends the test: exit 1 if any check failed.
set -u
S=${SORTNET:?set SORTNET to the sortnet binary}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0

# fail MESSAGE: count a failed check
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# expect CODE CMD...: run CMD with stdout in $T/out and stderr in $T/err;
# a failed check unless it exits with CODE
expect() {
    local want=$1
    shift
    "$@" >"$T/out" 2>"$T/err"
    local got=$?
    [ "$got" = "$want" ] || fail "'$*' exited $got, expected $want: $(head -c 400 "$T/err")"
}
err_has() { grep -qF -- "$1" "$T/err" || fail "stderr lacks '$1': $(head -c 400 "$T/err")"; }
out_has() { grep -qF -- "$1" "$T/out" || fail "stdout lacks '$1': $(head -c 400 "$T/out")"; }

# mpi_env: for tests that run sortnet's MPI code (mpirun, or one rank as
# MPI's singleton): mpirun refuses root without the first two (harmless
# otherwise). Under ASan the sanitized sortnet keeps every library it
# opened loaded (tests/keep_loaded.c), so LeakSanitizer can name Open
# MPI's frames with its fast unwinder and tests/lsan.supp suppresses
# them; sortnet's own leaks are still reported.
mpi_env() {
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
}

# dist_session: for the tests that run `sortnet dist` and the distributed
# proof under mpirun; skips (77) without mpirun, MPI built or python3. Then
#   mpi P ARGS...      sortnet ARGS on P ranks (`timeout`: no check hangs)
#   mpi_cl P ARGS...   the same for ranks that run pocl (below)
dist_session() {
    command -v mpirun >/dev/null || { echo "SKIP: no mpirun (openmpi-bin)" >&2; exit 77; }
    require_part "MPI (sortnet dist)"
    command -v python3 >/dev/null || { echo "SKIP: python3 needed to read JSON" >&2; exit 77; }
    mpi_env
    # P ranks; `timeout` so that no check can hang the suite
    mpi() {
        local p=$1
        shift
        timeout 120 mpirun --oversubscribe -np "$p" "$S" "$@"
    }
    # ranks that run pocl: under ASan, LeakSanitizer's exit-time scan of pocl's
    # and Open MPI's threads has crashed in its own tracer ("Tracer caught signal
    # 11 ... LeakSanitizer has encountered a fatal error") on a loaded machine,
    # failing a run whose memory was fine; these rows keep ASan's other checks
    # and leave the leak scan to the one-process GPU tests
    mpi_cl() { ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" mpi "$@"; }
}

# json EXPR: evaluate a Python expression over d, the JSON object in $T/out
json() { python3 -c "import json,sys; d=json.load(open('$T/out')); print($1)"; }

# A skip (77) means one thing: a dependency is truly missing (CI builds and
# requires every part, and counts a skip as a failure). So a probe that
# fails for another reason (a crash, another exit code, another message)
# ends the test as a failure, with what it printed, never as a skip.
# broken WHAT...: end the test now as a failure
broken() { echo "FAIL: $*" >&2; exit 1; }

# has_part NAME: 0 when `sortnet --version` lists the optional part NAME as
# built ("NAME yes"), 1 when it says "NAME no". NAME as --version writes it:
# "SDL2 window", "cairo drawing", "OpenCL", "JSON (jansson)", "0-1 checker",
# "the page (sortnet web)", "MPI (sortnet dist)". A --version that fails or
# does not name the part ends the test (exit 1). Call it as a condition
# (if, ||, &&), not in $(...): its exit must end the script.
has_part() {
    if [ -z "${sn_built_with:-}" ]; then
        local v rc
        v=$("$S" --version 2>&1)
        rc=$?
        [ $rc = 0 ] || broken "'sortnet --version' exited $rc: $(printf '%s' "$v" | head -c 400)"
        sn_built_with=$(printf '%s\n' "$v" | sed -n 's/^built with: //p')
        [ -n "$sn_built_with" ] || broken "'sortnet --version' has no 'built with:' line: $(printf '%s' "$v" | head -c 400)"
    fi
    case ", $sn_built_with," in
    *", $1 yes,"*) return 0 ;;
    *", $1 no,"*) return 1 ;;
    esac
    broken "'sortnet --version' does not say whether '$1' is built: built with: $sn_built_with"
}

# require_part NAME: skip (77) when the part was not built (has_part)
require_part() {
    has_part "$1" || { echo "SKIP: sortnet built without $1 (sortnet --version: $1 no)" >&2; exit 77; }
}

# has_gpu: 0 when sortnet has OpenCL and `sortnet gpu list` shows a device
# (marked default); 1 when OpenCL was not built or there is no OpenCL
# platform at all (gpu list: exit 3, "no OpenCL platform found"). Anything
# else (a crash, another exit, platforms without a usable device) ends the
# test as a failure with gpu list's output.
has_gpu() {
    has_part OpenCL || return 1
    "$S" gpu list >"$T/gpu_list.out" 2>"$T/gpu_list.err"
    local rc=$?
    [ $rc = 3 ] && grep -q "^sortnet: gpu list: no OpenCL platform found" "$T/gpu_list.err" && return 1
    [ $rc = 0 ] && grep -q '^\* device' "$T/gpu_list.out" && return 0
    broken "'sortnet gpu list' exited $rc with neither a device nor 'no OpenCL platform found':" \
        "$(head -c 400 "$T/gpu_list.err")$(head -c 400 "$T/gpu_list.out")"
}

# require_gpu: skip (77) when OpenCL was not built or no OpenCL platform
# exists (has_gpu); fail on any other answer
require_gpu() {
    require_part OpenCL
    has_gpu || { echo "SKIP: no OpenCL platform: $(head -c 400 "$T/gpu_list.err")" >&2; exit 77; }
}

# has_offscreen: 0 when the window opens under SDL's offscreen driver (a
# session of no steps exits 0); 1 when this SDL has no offscreen driver
# (exit 3, "cannot open a display (offscreen not available)", SDL's own
# words). Any other exit 3 (no window, no renderer), a crash or another
# exit ends the test as a failure with sortnet's stderr. Needs the window
# (has_part "SDL2 window").
has_offscreen() {
    SDL_VIDEODRIVER=offscreen "$S" view bitonic:4 --script "" >"$T/offscreen.out" 2>"$T/offscreen.err"
    local rc=$?
    [ $rc = 0 ] && return 0
    [ $rc = 3 ] && grep -qF "cannot open a display (offscreen not available)" "$T/offscreen.err" && return 1
    broken "'SDL_VIDEODRIVER=offscreen sortnet view bitonic:4 --script \"\"' exited $rc: $(head -c 600 "$T/offscreen.err")"
}

# view_session: for the scripted-window tests; skips (77) only when sortnet
# was built without the window, python3 is missing or SDL has no offscreen
# driver (has_offscreen). Then
#   view ARGS...   a headless session whose final state lands in $T/state
#   field NAME     one line of that state
view_session() {
    require_part "SDL2 window"
    command -v python3 >/dev/null || { echo "SKIP: python3 needed to read JSON" >&2; exit 77; }
    has_offscreen || { echo "SKIP: SDL has no offscreen video driver here: $(head -c 400 "$T/offscreen.err")" >&2; exit 77; }
    view() { SDL_VIDEODRIVER=offscreen "$S" view --size 640x400 --dump-state "$T/state" "$@"; }
    field() { sed -n "s/^$1: //p" "$T/state"; }
}

# event_shim: $shim, what to preload for the SDL event shim
# (tests/sdl_events.c, built with the window: tests/app.cmake), after ASan's
# runtime in a sanitizer build (which must come first in the list of loaded
# libraries)
event_shim() {
    shim=${SN_BUILD_DIR:?set SN_BUILD_DIR to the build folder}/tests/libsn_sdl_events.so
    [ -f "$shim" ] || broken "$shim is missing, though sortnet has the window (build all targets)"
    local asan_runtime
    asan_runtime=$(ldd "$S" | awk '$1 ~ /^libasan\.so/ {print $3}')
    if [ -n "$asan_runtime" ]; then shim=$asan_runtime:$shim; fi
}

finish() {
    if [ "$fails" -ne 0 ]; then
        echo "$1: $fails failure(s)" >&2
        exit 1
    fi
    echo "$1: all checks passed"
    exit 0
}
