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
# otherwise); under ASan, Open MPI's components stay loaded and leaks
# unwind fully, so tests/lsan.supp can tell Open MPI's process-lifetime
# state from ours
mpi_env() {
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    export OMPI_MCA_mca_base_component_disable_dlclose=1
    export LSAN_OPTIONS="${LSAN_OPTIONS:-}${LSAN_OPTIONS:+:}fast_unwind_on_malloc=0"
}

# json EXPR: evaluate a Python expression over d, the JSON object in $T/out
json() { python3 -c "import json,sys; d=json.load(open('$T/out')); print($1)"; }

# view_session: for the scripted-window tests; skips (77) unless sortnet has
# the window, python3 is there and SDL runs headless here. Then
#   view ARGS...   a headless session whose final state lands in $T/state
#   field NAME     one line of that state
view_session() {
    "$S" view --help >/dev/null 2>&1 || { echo "SKIP: sortnet built without the window" >&2; exit 77; }
    command -v python3 >/dev/null || { echo "SKIP: python3 needed to read JSON" >&2; exit 77; }
    SDL_VIDEODRIVER=offscreen "$S" view bitonic:4 --script "" >/dev/null 2>&1
    [ $? = 3 ] && { echo "SKIP: SDL has no offscreen video driver here" >&2; exit 77; }
    view() { SDL_VIDEODRIVER=offscreen "$S" view --size 640x400 --dump-state "$T/state" "$@"; }
    field() { sed -n "s/^$1: //p" "$T/state"; }
}

finish() {
    if [ "$fails" -ne 0 ]; then
        echo "$1: $fails failure(s)" >&2
        exit 1
    fi
    echo "$1: all checks passed"
    exit 0
}
