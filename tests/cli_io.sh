#!/bin/bash
# cli_io.sh - I/O failures name their cause (issue 36): a full disk
# (/dev/full; a 64 KiB tmpfs where this user may mount one), a path under a
# file, a read-only folder (when not root), a directory read as a network.
# Each exits 2, says why (strerror), and leaves the old file whole and no
# temporary beside it.
. "$(dirname "$0")/lib.sh"

have_draw=1
has_part "cairo drawing" || have_draw=0

# ---- standard output on a full disk: every command that prints a result
full() {
    "$S" "$@" >/dev/full 2>"$T/err"
    local got=$?
    [ "$got" = 2 ] || fail "'$*' >/dev/full exited $got, expected 2"
    grep -qF "No space left on device" "$T/err" || fail "'$*' >/dev/full: no cause: $(cat "$T/err")"
}
for fmt in bracket json sn c opencl; do
    full gen bitonic:8 --format "$fmt"
done
full gen bitonic:8 -o -
full info bitonic:8
full info bitonic:8 --json
full check bitonic:8
full check bitonic:8 --json
full check bubble:6 --json # a negative verdict that never arrived is not 1
full run bitonic:4 --input 4,3,2,1
full list
full transform bitonic:8 --reflect
full --help
full --version
full gen --help
[ "$have_draw" = 1 ] && full draw bitonic:8 -o -
if has_part OpenCL && has_part "cairo drawing"; then # gpu plot
    printf 'device,network,variant,n,median_ms,keys_per_s\nH200,anchor,sort,16777216,0.84,2e10\n' \
        >"$T/rows.csv"
    full gpu plot "$T/rows.csv" -o -
fi
# one message, not two: the writer's, not a second one about stdout
"$S" gen bitonic:8 >/dev/full 2>"$T/err"
[ "$(wc -l <"$T/err")" = 1 ] || fail "gen >/dev/full: $(cat "$T/err")"
err_has "sortnet: stdout: write error: No space left on device"

# ---- an output path that cannot be created: old files stay as they were
"$S" gen bitonic:4 -o "$T/file" || fail "gen -o"
expect 2 "$S" gen bitonic:8 -o "$T/file/net.txt"
err_has "Not a directory"
expect 2 "$S" gen bitonic:8 -o "$T/no/such/net.txt"
err_has "No such file or directory"
# a FIFO (as /dev/null or /dev/stdout, any node that is not a regular
# file) is written in place: a temporary renamed over it would replace the
# node itself (as root, /dev/null with a regular file)
mkfifo "$T/fifo"
timeout 60 cat "$T/fifo" >"$T/fifo.got" &
reader=$!
expect 0 "$S" gen bitonic:4 -o "$T/fifo"
wait "$reader" || fail "-o FIFO: the reader got no end of file"
[ -p "$T/fifo" ] || fail "-o FIFO: the FIFO was replaced: $(ls -l "$T/fifo")"
"$S" gen bitonic:4 >"$T/fifo.want"
cmp -s "$T/fifo.got" "$T/fifo.want" || fail "-o FIFO: the reader got '$(cat "$T/fifo.got")'"
ls "$T" | grep -q "fifo.tmp" && fail "-o FIFO: a temporary was left"

# a directory in the output's place: the temporary is written, the rename
# fails; the cause is named and the temporary removed
mkdir -p "$T/outdir"
expect 2 "$S" gen bitonic:8 -o "$T/outdir"
err_has "outdir: write failed: Is a directory"
expect 2 "$S" run bitonic:4 --reverse --output "$T/outdir"
err_has "write failed: Is a directory"
[ -d "$T/outdir" ] || fail "the directory in the output's place was replaced"
ls "$T" | grep -q "outdir.tmp" && fail "a temporary was left beside the directory"
if [ "$(id -u)" != 0 ]; then
    mkdir "$T/ro"
    "$S" gen bitonic:4 -o "$T/ro/net.txt" || fail "gen -o ro"
    cp "$T/ro/net.txt" "$T/ro.before"
    chmod 555 "$T/ro"
    expect 2 "$S" gen bitonic:8 -o "$T/ro/net.txt"
    err_has "Permission denied"
    cmp -s "$T/ro/net.txt" "$T/ro.before" || fail "read-only folder: the old file changed"
    if [ "$have_draw" = 1 ]; then
        expect 2 "$S" draw bitonic:8 -o "$T/ro/net.svg"
        err_has "Permission denied"
    fi
    chmod 755 "$T/ro"
else
    echo "note: running as root: the read-only folder case is skipped" >&2
fi

# ---- a name as long as the file system allows (255 bytes): the temporary's
# suffix must not make it too long
long=$(printf 'n%.0s' $(seq 250)).txt # 254 bytes
expect 0 "$S" gen bitonic:4 -o "$T/$long"
"$S" gen bitonic:4 >"$T/long.want"
cmp -s "$T/$long" "$T/long.want" || fail "-o a 254-byte name: not written"
expect 0 "$S" run bitonic:4 --reverse --output "$T/$long"
[ "$(head -n 1 "$T/$long")" = 1 ] || fail "--output a 254-byte name: not written"
ls -a "$T" | grep -q -e '\.tmp' -e '^\.sn-' && fail "-o a 254-byte name: a temporary was left: $(ls -a "$T")"

# ---- -o onto a symbolic link writes its target (as editors do), the link stays
mkdir -p "$T/real" "$T/links"
echo old >"$T/real/net.txt"
ln -s ../real/net.txt "$T/links/net.txt"
expect 0 "$S" gen bitonic:4 -o "$T/links/net.txt"
[ -L "$T/links/net.txt" ] || fail "-o a symbolic link: the link was replaced by a file"
cmp -s "$T/real/net.txt" "$T/long.want" || fail "-o a symbolic link: the target was not written"
ln -s "$T/real/keys.txt" "$T/links/keys.txt" # a dangling link: its target is made
expect 0 "$S" run bitonic:4 --reverse --output "$T/links/keys.txt"
[ -L "$T/links/keys.txt" ] || fail "--output a dangling link: the link was replaced by a file"
[ "$(head -n 1 "$T/real/keys.txt" 2>/dev/null)" = 1 ] || fail "--output a dangling link: the target was not made"
ln -s net.txt "$T/real/hop.txt" # a link to a link
ln -s ../real/hop.txt "$T/links/hop.txt"
expect 0 "$S" transform bitonic:4 --reflect -o "$T/links/hop.txt"
[ -L "$T/links/hop.txt" ] && [ -L "$T/real/hop.txt" ] || fail "-o a link to a link: a link was replaced"
"$S" transform bitonic:4 --reflect 2>/dev/null >"$T/hop.want"
cmp -s "$T/real/net.txt" "$T/hop.want" || fail "-o a link to a link: the final target was not written"
ls -a "$T/real" "$T/links" | grep -q -e '\.tmp' -e '^\.sn-' && fail "-o a symbolic link: a temporary was left"

# ---- reads: a directory, a missing file, each with its cause
mkdir -p "$T/dir"
expect 2 "$S" info "$T/dir"
err_has "Is a directory"
expect 2 "$S" info "$T/missing.txt"
err_has "No such file or directory"
expect 2 "$S" run bitonic:4 --input-file "$T/dir"
err_has "Is a directory"

# ---- a full file system (a 64 KiB tmpfs, in a mount namespace of its
# own): the write fails part way, exit 2 (an I/O error, as every SN_EIO),
# the old file stays whole, a new one is not made, no temporary is left.
# Only where this user may mount (root with unshare).
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null &&
    unshare -m sh -c "mount -t tmpfs -o size=64k tmpfs '$T/dir'" 2>/dev/null; then
    cat >"$T/small.sh" <<'EOF'
set -u
D=$1 S=$2 have_draw=$3
mount -t tmpfs -o size=64k tmpfs "$D" || exit 9
"$S" gen bitonic:4 -o "$D/net.txt" || exit 8
cp "$D/net.txt" "$D.before"
if [ "$have_draw" = 1 ]; then
    "$S" draw bitonic:4 -o "$D/old.svg" || exit 7
    cp "$D/old.svg" "$D.old.svg"
fi
# fill the rest of the file system
head -c 1000000 /dev/zero >"$D/filler" 2>/dev/null
rc=0
: >"$D.log"
# want2 STEP ERR CMD...: CMD, stderr into ERR, must exit 2; else the step
# fails (rc, and what it did in $D.log)
want2() {
    local step=$1 err=$2
    shift 2
    "$@" >/dev/null 2>"$err"
    local got=$?
    [ "$got" = 2 ] || { rc=$step; echo "step $step: '$*' exited $got, not 2: $(head -c 200 "$err")" >>"$D.log"; }
}
want2 1 "$D.err1" "$S" gen pairwise:256 -o "$D/net.txt"
cmp -s "$D/net.txt" "$D.before" || { rc=2; echo "step 2: the old net.txt changed" >>"$D.log"; }
if [ "$have_draw" = 1 ]; then
    want2 3 "$D.err2" "$S" draw bitonic:32 -o "$D/net.svg"
    [ -e "$D/net.svg" ] && { rc=4; echo "step 4: net.svg was made" >>"$D.log"; }
    want2 5 "$D.err3" "$S" draw bitonic:32 -o "$D/net.pdf"
    [ -e "$D/net.pdf" ] && { rc=6; echo "step 6: net.pdf was made" >>"$D.log"; }
    want2 20 "$D.err10" "$S" draw bitonic:32 -o "$D/old.svg"
    cmp -s "$D/old.svg" "$D.old.svg" || { rc=21; echo "step 21: the old old.svg changed" >>"$D.log"; }
else
    for i in 2 3 10; do echo "No space left on device" >"$D.err$i"; done
fi
# more writers on the full disk: each exits 2 with the cause, makes no file
i=4
for cmd in "gen pairwise:256 --format c -o $D/net.c" \
    "transform pairwise:256 --reflect -o $D/t.txt" \
    "run bitonic:20000 --reverse --output $D/keys.txt" \
    "run bitonic:20000 --reverse --binary --output $D/keys.bin"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    want2 $((10 + i)) "$D.err$i" $S $cmd
done
if [ "$have_draw" = 1 ]; then
    want2 19 "$D.err9" "$S" draw dist:8 --keys 16 -o "$D/dist.svg"
else
    echo "No space left on device" >"$D.err9"
fi
ls -a "$D" >"$D.ls"
exit $rc
EOF
    unshare -m bash "$T/small.sh" "$T/dir" "$S" "$have_draw"
    rc=$?
    [ "$rc" = 0 ] || fail "the full tmpfs case failed at step $rc: $(cat "$T/dir.log" 2>/dev/null)"
    for i in 1 2 3 5 6 7 8 9 10; do
        grep -qF "No space left on device" "$T/dir.err$i" ||
            fail "full tmpfs, write $i: no cause: $(cat "$T/dir.err$i")"
    done
    grep -q -e tmp -e "^net\.c$" -e "^t\.txt$" -e "^keys" -e "^dist" "$T/dir.ls" && fail "a temporary was left behind: $(cat "$T/dir.ls")"
else
    echo "note: cannot mount a tmpfs here: the full file system case is skipped" >&2
fi

finish cli_io
