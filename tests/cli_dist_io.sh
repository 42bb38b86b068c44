#!/bin/bash
# cli_dist_io.sh - `sortnet dist sort`'s files when they fail (issue 45,
# "nothing lost, nothing left behind"): an --out that cannot be written
# whole (a full file system, /dev/full) exits 2 naming the cause, keeps
# the older file and leaves no temporary. The full file system is a
# 64 KiB tmpfs in a mount namespace of its own, only where this user may
# mount (root with unshare: CI); the rest runs everywhere. Few, small
# mpirun jobs: each rank is a process (under ASan an expensive one).
. "$(dirname "$0")/lib.sh"
dist_session
cd "$T" || exit 1

# nospace RC ERR WHAT: exit 2, the cause, one line from sortnet
nospace() {
    [ "$(cat "$1")" = 2 ] || fail "$3: exit $(cat "$1"): $(head -c 400 "$2")"
    grep -qE "^sortnet: dist sort: (rank [0-9]+: )?cannot write [^ ]*(old\.bin|/dev/full): No space left on device$" "$2" ||
        fail "$3: no cause: $(head -c 400 "$2")"
}

# ---- an --in that is not a file of keys: said so, exit 2 (one rank)
expect 2 timeout 60 "$S" dist sort --in /etc
err_has "sortnet: dist sort: /etc: is a directory, not a file of keys"
mkfifo fifo
expect 2 timeout 60 "$S" dist sort --in fifo
err_has "sortnet: dist sort: fifo: not a regular file (a FIFO), not a file of keys"
grep -q "lseek\|bytes" err && fail "--in FIFO: $(cat err)"

# ---- /dev/full: written in place (a device), every write fails
"$S" dist sort --keys 1000 --out /dev/full >out.full1 2>err.full1
echo $? >rc.full1
nospace rc.full1 err.full1 "--out /dev/full (one rank)"
mpi 2 dist sort --keys 1000 --out /dev/full >out.full2 2>err.full2
echo $? >rc.full2
nospace rc.full2 err.full2 "--out /dev/full (-np 2)"
grep -q identical out.full2 && fail "--out /dev/full (-np 2) said identical: $(cat out.full2)"
[ -c /dev/full ] || fail "--out /dev/full: /dev/full is no longer a device"

# ---- a FIFO: written in place, rank by rank, one stream in key order
mkfifo out.fifo
python3 -c "
import struct
open('in.bin', 'wb').write(struct.pack('<6i', 5, -1, 3, 9, -7, 0))"
cat out.fifo >got.bin &
reader=$!
expect 0 mpi 3 dist sort --in in.bin --out out.fifo
wait $reader
[ -p out.fifo ] || fail "--out FIFO: the FIFO was replaced"
[ "$(python3 -c "import struct; print(struct.unpack('<6i', open('got.bin', 'rb').read()))")" = \
    "(-7, -1, 0, 3, 5, 9)" ] || fail "--out FIFO: $(od -An -tx4 got.bin)"

# ---- a full file system: 4 KiB free, then none
mkdir full
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null &&
    unshare -m sh -c "mount -t tmpfs -o size=64k tmpfs '$T/full'" 2>/dev/null; then
    cat >"$T/full.sh" <<'EOF'
set -u
D=$1 S=$2 T=$3
mount -t tmpfs -o size=64k tmpfs "$D" || exit 9
mpi() { local p=$1; shift; timeout 120 mpirun --oversubscribe -np "$p" "$S" "$@"; }
head -c 4000 /dev/urandom >"$D/old.bin" && cp "$D/old.bin" "$T/old.bin" || exit 8
head -c 1000000 /dev/zero >"$D/filler" 2>/dev/null
truncate -s -4096 "$D/filler" || exit 7 # 4 KiB free
for p in 1 3; do
    mpi $p dist sort --keys 100000 --out "$D/old.bin" >"$T/out.four$p" 2>"$T/err.four$p"
    echo $? >"$T/rc.four$p"
    cmp -s "$D/old.bin" "$T/old.bin" || echo "-np $p with 4 KiB free changed the older file" >>"$T/broken"
done
ls -a "$D" >"$T/ls.four"
head -c 1000000 /dev/zero >>"$D/filler" 2>/dev/null # none free
mpi 3 dist sort --keys 100000 --out "$D/old.bin" >"$T/out.none" 2>"$T/err.none"
echo $? >"$T/rc.none"
cmp -s "$D/old.bin" "$T/old.bin" || echo "-np 3 with no space changed the older file" >>"$T/broken"
ls -a "$D" >"$T/ls.none"
exit 0
EOF
    unshare -m bash "$T/full.sh" "$T/full" "$S" "$T" || fail "the full tmpfs case failed at step $?"
    for c in four1 four3 none; do
        nospace "rc.$c" "err.$c" "--out on a full disk ($c)"
        grep -q identical "out.$c" && fail "--out on a full disk ($c) said identical"
    done
    [ -e broken ] && fail "$(cat broken)"
    grep -q tmp ls.four ls.none && fail "a temporary was left on the full disk: $(cat ls.four ls.none)"
else
    echo "note: the full tmpfs rows need root and unshare -m; not run here" >&2
fi

# ---- a rank killed while the temporary exists: the others remove it
# (mpirun ends them with SIGTERM); rank 0 stops once FILE.tmpPID exists
# (SN_DIST_DIE=0:output, a test hook) and is killed by its PID, the name's
SN_DIST_DIE=0:output mpi 3 dist sort --keys 1000 --out killed.bin >out.kill 2>err.kill &
job=$!
tmpf=
for _ in $(seq 1 1200); do
    tmpf=$(ls killed.bin.tmp* 2>/dev/null | head -n 1)
    [ -n "$tmpf" ] && break
    sleep 0.1
done
[ -n "$tmpf" ] && kill -9 "${tmpf##*.tmp}"
wait $job
rc=$?
[ -n "$tmpf" ] || fail "a stopped rank: no temporary appeared: $(head -c 400 err.kill)"
{ [ $rc -ne 0 ] && [ $rc -ne 124 ]; } || fail "a rank killed in the output: exit $rc"
ls | grep -q '^killed\.bin' && fail "a rank killed in the output left: $(ls | grep killed)"

# ---- MPI that cannot start under an address-space limit (ulimit -v: Open
# MPI's MPI_Init aborts the process itself, exit 1, a negative verdict's
# code): exit 5 and one line that names the limit. Not under the
# sanitizers (their shadow memory does not fit under any ulimit -v); under
# a coverage build without them (SN_COVERAGE: counted, no shadow memory;
# tools/coverage.sh runs this script there) it runs.
if [ "${SN_SANITIZED:-0}" != 1 ] || [ "${SN_COVERAGE:-0}" = 1 ]; then
    (ulimit -v 50000 && exec timeout 60 "$S" dist sort --keys 1000) >out 2>err
    rc=$?
    [ $rc = 5 ] || fail "MPI_Init under ulimit -v 50000 (one rank): exit $rc: $(tail -c 400 err)"
    grep -qE "^sortnet: dist: MPI could not start: the address space is limited to 48 MiB \(ulimit -v\)" err ||
        fail "MPI_Init under ulimit -v 50000: no line of sortnet's: $(tail -c 400 err)"
    # under a limit that leaves room, the watched run is the run: its
    # output, its verdict and its exit, as with no limit
    (ulimit -v 4000000 && exec timeout 120 "$S" dist sort --keys 1000 --out limited.bin) >out 2>err
    rc=$?
    [ $rc = 0 ] && grep -q "identical" out && [ "$(stat -c %s limited.bin 2>/dev/null)" = 4000 ] ||
        fail "dist sort under ulimit -v 4000000: exit $rc, $(cat out) $(tail -c 300 err)"
    # Under mpirun, the limit on the ranks (set inside the job, mpirun
    # itself unlimited): every rank that cannot start says so, exit 5,
    # for dist sort and for the distributed proof; a limit that lets MPI
    # start but not hold a block is the sort's own "out of memory", exit
    # 5. (The limit on mpirun as well is Open MPI's own failure: its
    # orte_init, a crash, or a hang that only SIGKILL ends;
    # docs/distributed.md.)
    for cmd in "dist sort --keys 1000" "check bitonic:8 --method bruteforce"; do
        timeout -s KILL 120 mpirun --oversubscribe -np 2 bash -c "ulimit -v 50000 && exec \"\$0\" $cmd" "$S" \
            >out 2>err
        rc=$?
        [ $rc = 5 ] || fail "'$cmd' on 2 ranks under ulimit -v 50000: exit $rc: $(tail -c 400 err)"
        grep -qE "^sortnet: (dist|check): MPI could not start: the address space is limited to 48 MiB \(ulimit -v\)" err ||
            fail "'$cmd' on 2 ranks under ulimit -v 50000: no line of sortnet's: $(tail -c 400 err)"
    done
    timeout -s KILL 120 mpirun --oversubscribe -np 2 bash -c "ulimit -v 300000 && exec \"\$0\" dist sort --keys 50000000" "$S" \
        >out 2>err
    rc=$?
    [ $rc = 5 ] || fail "dist sort of 5e7 keys on 2 ranks under ulimit -v 300000: exit $rc: $(tail -c 400 err)"
    grep -q "^sortnet: dist sort: out of memory for a block of 25000000 keys" err ||
        fail "dist sort of 5e7 keys under ulimit -v 300000: $(tail -c 400 err)"
fi

finish cli_dist_io
