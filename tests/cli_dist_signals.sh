#!/bin/bash
# cli_dist_signals.sh - `dist sort` ended by a signal (docs/distributed.md,
# "Signals"): SIGINT or SIGTERM to mpirun in the middle of the sort or
# while the output is written gives one line from rank 0 that says
# interrupted (not "a rank died"), no temporary left and the old --out
# kept; a rank that really dies is still named so; one process without
# mpirun exits 128 + the signal. Each signal is sent once the job is where
# the row wants it (a file the stalled rank makes, or the temporary),
# never after a guessed time.
. "$(dirname "$0")/lib.sh"
dist_session
cd "$T" || exit 1
echo "the old keys" >old.bin

# await FILE-GLOB PID WHAT: wait until a file matches (the job alive)
await() {
    local i
    for i in $(seq 1 1200); do
        compgen -G "$1" >/dev/null && return 0
        kill -0 "$2" 2>/dev/null || { fail "$3: the job ended before $1 appeared: $(head -c 400 err)"; return 1; }
        sleep 0.05
    done
    fail "$3: $1 did not appear"
    kill -KILL "$2"
    return 1
}

# left WHAT: no temporary of out.bin, and out.bin the old one
left() {
    ls -a | grep -q 'out\.bin\.\|\.sn-' && fail "$1: a temporary was left: $(ls -a | grep 'out\.bin\.\|\.sn-')"
    cmp -s out.bin old.bin || fail "$1: the old out.bin was not kept"
}

for sig in INT TERM; do
    # in the middle of the sort: rank 1 stops after its local sort
    rm -f stalled && cp old.bin out.bin
    SN_DIST_STALLED=stalled SN_DIST_DIE=1:stall env --default-signal=INT \
        mpirun --oversubscribe -np 2 "$S" dist sort --keys 1000 --out out.bin >out 2>err &
    job=$!
    if await stalled $job "$sig mid-sort"; then
        kill -"$sig" $job
        wait $job
        rc=$?
        [ $rc != 0 ] || fail "$sig mid-sort: exit 0"
        grep -q "^sortnet: dist sort: interrupted: mpirun was sent a signal and ended the job$" err ||
            fail "$sig mid-sort: $(head -c 400 err)"
        grep -q "rank died" err && fail "$sig mid-sort said a rank died: $(head -c 400 err)"
        [ "$(grep -c '^sortnet:' err)" = 1 ] || fail "$sig mid-sort: not one line: $(head -c 400 err)"
        left "$sig mid-sort"
    fi
    # while the output is written: rank 1 stops once the temporary exists
    cp old.bin out.bin
    SN_DIST_DIE=1:output env --default-signal=INT \
        mpirun --oversubscribe -np 2 "$S" dist sort --keys 1000 --out out.bin >out 2>err &
    job=$!
    if await "out.bin.*" $job "$sig in the output"; then
        kill -"$sig" $job
        wait $job
        [ $? != 0 ] || fail "$sig in the output: exit 0"
        grep -q "^sortnet: dist sort: interrupted: mpirun was sent a signal and ended the job$" err ||
            fail "$sig in the output: $(head -c 400 err)"
        left "$sig in the output"
    fi
    # one process, no mpirun: exit 128 + the signal, its name in the line
    cp old.bin out.bin
    SN_DIST_DIE=0:output env --default-signal=INT "$S" dist sort --keys 1000 --out out.bin >out 2>err &
    job=$!
    if await "out.bin.*" $job "$sig one process"; then
        kill -"$sig" $job
        wait $job
        rc=$?
        [ $rc = $((128 + $(kill -l $sig))) ] || fail "$sig one process: exit $rc: $(head -c 400 err)"
        grep -q "^sortnet: dist sort: interrupted by SIG$sig$" err || fail "$sig one process: $(head -c 400 err)"
        left "$sig one process"
    fi
done

# a rank that dies (SIGKILL after its local sort) is still called a death
cp old.bin out.bin
SN_DIST_DIE=1 timeout 120 mpirun --oversubscribe -np 2 "$S" dist sort --keys 1000 --out out.bin >out 2>err
rc=$?
{ [ $rc != 0 ] && [ $rc != 124 ]; } || fail "a killed rank: exit $rc"
grep -q "^sortnet: dist sort: the job was ended by mpirun: a rank died or failed" err ||
    fail "a killed rank: $(head -c 600 err)"
grep -q "interrupted" err && fail "a killed rank was called an interruption: $(head -c 400 err)"
left "a killed rank"

finish cli_dist_signals
