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

# json EXPR: evaluate a Python expression over d, the JSON object in $T/out
json() { python3 -c "import json,sys; d=json.load(open('$T/out')); print($1)"; }

finish() {
    if [ "$fails" -ne 0 ]; then
        echo "$1: $fails failure(s)" >&2
        exit 1
    fi
    echo "$1: all checks passed"
    exit 0
}
