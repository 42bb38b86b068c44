#!/usr/bin/env bash
# cli_view_io.sh - the window's writes that fail (issue 36): S and P
# (the diagram, the screenshot) into a working folder that is gone or
# full say why on the message line and write nothing; --screenshot,
# --record (PNG frames, GIF) and --dump-state on a full file system exit 2
# naming the cause (No space left on device), keep an older file whole
# and leave no temporary or cut-short frame. The full file system is a
# 64 KiB tmpfs in a mount namespace of its own, only where this user may
# mount (root with unshare); the rest runs everywhere.
. "$(dirname "$0")/lib.sh"
view_session

# ---- a working folder that was removed: S and P cannot write there
mkdir "$T/gone"
for k in p s; do
    (cd "$T/gone" && rmdir "$T/gone" && view bitonic:4 --script "$k" >"$T/out" 2>"$T/err") ||
        fail "$k in a removed folder: exit $?: $(cat "$T/err")"
    ext=png
    [ "$k" = s ] && ext=svg
    [ "$(field message)" = "error: could not save sortnet-bitonic-4-layer-0.$ext: No such file or directory" ] ||
        fail "$k in a removed folder: $(field message)"
    mkdir "$T/gone"
done
# the dist view's S writes its own picture
(cd "$T/gone" && rmdir "$T/gone" && view dist:4 --script "s" >"$T/out" 2>"$T/err") ||
    fail "dist s in a removed folder: exit $?"
field message | grep -q "^error: could not save sortnet-dist-4,best-4-layer-0.svg: No such file or directory$" ||
    fail "dist s in a removed folder: $(field message)"
mkdir "$T/gone"
# and where it can write, the SVG is whole (S, then the dist view's S)
(cd "$T/gone" && view bitonic:4 --script "s" >"$T/out" 2>&1 && view dist:4 --script "s" >"$T/out" 2>&1) ||
    fail "s: exit $?"
grep -q "</svg>" "$T/gone/sortnet-bitonic-4-layer-0.svg" || fail "S wrote no whole SVG"
grep -q "</svg>" "$T/gone/sortnet-dist-4,best-4-layer-0.svg" || fail "the dist view's S wrote no whole SVG"
[ -z "$(ls "$T/gone" | grep tmp)" ] || fail "S left a temporary: $(ls "$T/gone")"

# ---- outputs in the way, a video driver that is not there, --dump-state -
cd "$T" || exit 1
mkdir -p adir
expect 2 view bitonic:4 --script "" --screenshot "$T/adir"
err_has "adir: cannot write the screenshot: Is a directory"
[ -z "$(ls "$T" | grep tmp)" ] || fail "--screenshot DIR left a temporary: $(ls "$T")"
# P names the picture after a network file's base name
mkdir -p sub && echo "[(0,1)]" >sub/net.txt
expect 0 view sub/net.txt --script "p"
is_msg() { [ "$(field message)" = "$1" ] || fail "$2: $(field message)"; }
is_msg "saved screenshot sortnet-net-txt-layer-0.png" "P on sub/net.txt"
[ -s sortnet-net-txt-layer-0.png ] || fail "P on sub/net.txt: $(ls)"
expect 3 env SDL_VIDEODRIVER=nosuch "$S" view bitonic:4 --script "p"
err_has "cannot open a display (nosuch"
# without a display, a script that does not parse is its own error
expect 2 env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$S" view bitonic:4 --script "jump"
err_has "'jump' is not a key name"
expect 0 env SDL_VIDEODRIVER=offscreen "$S" view bitonic:4 --script "right" --dump-state -
out_has "step: 1"

# a FIFO (or a device: /dev/null) is written in place, not replaced by a
# temporary renamed over it
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/got" &
reader=$!
expect 0 env SDL_VIDEODRIVER=offscreen "$S" view bitonic:4 --script "right" --dump-state "$T/fifo"
if [ -p "$T/fifo" ]; then
    wait $reader
    grep -q "^step: 1$" "$T/got" || fail "--dump-state FIFO: $(head -c 200 "$T/got")"
else
    kill $reader
    fail "--dump-state replaced the FIFO"
fi
rm -f "$T/fifo" && mkfifo "$T/fifo"
cat "$T/fifo" >"$T/got.png" &
reader=$!
expect 0 env SDL_VIDEODRIVER=offscreen "$S" view bitonic:4 --size 640x400 --script "right" --screenshot "$T/fifo"
if [ -p "$T/fifo" ]; then
    wait $reader
    [ "$(head -c 4 "$T/got.png" | tail -c 3)" = PNG ] || fail "--screenshot FIFO: no PNG came through"
else
    kill $reader
    fail "--screenshot replaced the FIFO"
fi

# ---- out of memory (SN_ALLOC_FAIL=N: the N-th allocation fails) in a
# session without a window, for each N: exit 5 with the message and no
# state file, or a whole state (a failure it gets over)
for n in $(seq 1 32); do
    rm -f "$T/oom.txt"
    SN_ALLOC_FAIL=$n env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$S" view bitonic:4 \
        --script "right" --dump-state "$T/oom.txt" >"$T/out" 2>"$T/err"
    rc=$?
    if [ $rc = 5 ]; then
        grep -q "^sortnet: .*out of memory" "$T/err" || fail "allocation $n failing: $(cat "$T/err")"
        [ -z "$(ls "$T" | grep '^oom')" ] || fail "allocation $n failing: left $(ls "$T" | grep '^oom')"
    elif [ $rc = 0 ]; then
        grep -q "^net: \[(0,1),(2,3)\] \[(0,3),(1,2)\] \[(0,1),(2,3)\]$" "$T/oom.txt" ||
            fail "allocation $n failing: exit 0 with $(grep '^net' "$T/oom.txt")"
    else
        fail "allocation $n failing: exit $rc: $(cat "$T/err")"
    fi
done

# ---- --record: its folder or file in the way, a failed script, --stats
expect 0 view bitonic:4 --script "right" --record "$T/frames.d" # not a known extension: PNG frames
[ -s "$T/frames.d/frame-000001.png" ] && [ -s "$T/frames.d/frames.ffconcat" ] ||
    fail "--record frames.d: $(ls "$T/frames.d")"
touch "$T/afile"
expect 2 view bitonic:4 --script "" --record "$T/afile/rec"
err_has "afile/rec: Not a directory"
mkdir -p "$T/r2/frames.ffconcat"
expect 2 view bitonic:4 --script "" --record "$T/r2"
err_has "r2/frames.ffconcat: Is a directory"
mkdir -p "$T/x.gif"
expect 2 view bitonic:4 --script "right" --record "$T/x.gif"
if ! grep -q "not built with giflib\|built without giflib" "$T/err"; then
    err_has "x.gif: Is a directory"
    [ -z "$(ls "$T" | grep 'x.gif.tmp')" ] || fail "--record over a folder left a temporary: $(ls "$T")"
    # a script that fails: exit 2, and the recording is dropped
    expect 2 view bitonic:4 --script "right add:0,1" --record "$T/y.gif"
    err_has "add:0,1: edit mode is off"
    [ -z "$(ls "$T" | grep '^y.gif')" ] || fail "a failed script's GIF was kept: $(ls "$T")"
fi
# a folder recorded again holds the new recording only: no frame of the old
# one is left that its frames.ffconcat does not name
expect 0 view bitonic:4 --script "right right right right" --record "$T/again"
expect 0 view bitonic:4 --script "right" --record "$T/again"
for png in "$T/again"/*.png; do
    grep -qF "file '$(basename "$png")'" "$T/again/frames.ffconcat" ||
        fail "--record into an old recording's folder left $(basename "$png")"
done
[ -z "$(ls -a "$T" | grep 'again\.\|\.sn-')" ] || fail "--record again left $(ls -a "$T")"
# a folder that holds more than a recording is not replaced
mkdir -p "$T/mine"
echo keep >"$T/mine/notes.txt"
expect 2 view bitonic:4 --script "right" --record "$T/mine"
err_has "mine: holds notes.txt"
[ "$(ls "$T/mine")" = notes.txt ] || fail "--record over a folder of other files: $(ls "$T/mine")"
expect 0 view bitonic:4 --script "right" --record "$T/rs" --stats
grep -qE "^recorded: [0-9]+ frames, [0-9.]+ s$" "$T/out" || fail "--record --stats: $(cat "$T/out")"

# ---- a full file system
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null &&
    unshare -m sh -c "mount -t tmpfs -o size=64k tmpfs '$T/gone'" 2>/dev/null; then
    mkdir "$T/full"
    cat >"$T/full.sh" <<'EOF'
set -u
D=$1 S=$2 T=$3
mount -t tmpfs -o size=64k tmpfs "$D" || exit 9
export SDL_VIDEODRIVER=offscreen
v() { "$S" view --size 640x400 "$@"; }
# older files, then the rest of the file system filled
v bitonic:4 --script "" --screenshot "$D/old.png" || exit 8
v bitonic:4 --script "" --dump-state "$D/old.txt" || exit 7
v bitonic:4 --size 160x120 --script "" --record "$D/oldrec" || exit 5
cp -r "$D/oldrec" "$T/oldrec"
"$S" gen bitonic:4 -o "$D/old.json" || exit 6
cp "$D/old.png" "$T/old.png"
cp "$D/old.txt" "$T/old.txt"
cp "$D/old.json" "$T/old.json"
head -c 1000000 /dev/zero >"$D/filler" 2>/dev/null
v bitonic:4 --script "right" --screenshot "$D/old.png" 2>"$T/err.shot"
echo $? >"$T/rc.shot"
v bitonic:4 --script "right" --screenshot "$D/new.png" 2>"$T/err.new"
echo $? >"$T/rc.new"
v bitonic:4 --script "right" --record "$D/rec" 2>"$T/err.dir"
echo $? >"$T/rc.dir"
ls "$D/rec" >"$T/ls.dir" 2>&1
v bitonic:4 --script "right" --record "$D/oldrec" 2>"$T/err.oldrec"
echo $? >"$T/rc.oldrec"
diff -r "$D/oldrec" "$T/oldrec" >/dev/null || echo "the old recording changed: $(ls "$D/oldrec")" >>"$T/broken"
v bitonic:4 --script "right" --record "$D/r.gif" 2>"$T/err.gif"
echo $? >"$T/rc.gif"
v bitonic:4 --script "right" --dump-state "$D/old.txt" 2>"$T/err.state"
echo $? >"$T/rc.state"
(cd "$D" && v bitonic:4 --script "p" --dump-state "$T/state.p" && v bitonic:4 --script "s" --dump-state "$T/state.s") 2>"$T/err.ps"
echo $? >"$T/rc.ps"
v empty:4 --script "add:0,1 save:$D/old.json" 2>"$T/err.save"
echo $? >"$T/rc.save"
cmp -s "$D/old.json" "$T/old.json" || echo "the old network file changed" >>"$T/broken"
cmp -s "$D/old.png" "$T/old.png" || echo "the old screenshot changed" >>"$T/broken"
cmp -s "$D/old.txt" "$T/old.txt" || echo "the old state changed" >>"$T/broken"
ls -a "$D" >"$T/ls"
exit 0
EOF
    unshare -m bash "$T/full.sh" "$T/full" "$S" "$T" || fail "the full tmpfs case failed at step $?"
    nospace() { # nospace CASE WHAT: exit 2 and the cause
        [ "$(cat "$T/rc.$1" 2>/dev/null)" = 2 ] || fail "$2 on a full disk: exit $(cat "$T/rc.$1" 2>/dev/null)"
        grep -qF "No space left on device" "$T/err.$1" 2>/dev/null ||
            fail "$2 on a full disk: no cause: $(cat "$T/err.$1" 2>/dev/null)"
    }
    nospace shot "--screenshot over an older one"
    grep -q "old.png: cannot write the screenshot: No space left on device" "$T/err.shot" ||
        fail "--screenshot: $(cat "$T/err.shot")"
    nospace new "--screenshot"
    nospace dir "--record DIR"
    nospace oldrec "--record DIR over an old recording"
    grep -q "^sortnet: view: --record: .*/rec/frame-000001.png: No space left on device$" "$T/err.dir" ||
        fail "--record DIR: $(cat "$T/err.dir")"
    grep -q "frame-" "$T/ls.dir" && fail "a cut-short frame was left: $(cat "$T/ls.dir")"
    if [ "$(cat "$T/rc.gif")" != 3 ]; then # 3: built without giflib
        nospace gif "--record FILE.gif"
        grep -q "^sortnet: view: --record: .*/r.gif: No space left on device$" "$T/err.gif" ||
            fail "--record FILE.gif: $(cat "$T/err.gif")"
    fi
    nospace state "--dump-state"
    nospace save "save:FILE"
    grep -q "old.json: .*No space left on device" "$T/err.save" ||
        fail "save:FILE on a full disk: $(cat "$T/err.save")"
    [ "$(cat "$T/rc.ps")" = 0 ] || fail "P and S on a full disk: exit $(cat "$T/rc.ps"): $(cat "$T/err.ps")"
    grep -q "^message: error: could not save sortnet-bitonic-4-layer-0.png: No space left on device$" \
        "$T/state.p" || fail "P on a full disk: $(grep message "$T/state.p")"
    grep -q "^message: error: could not save sortnet-bitonic-4-layer-0.svg: No space left on device$" \
        "$T/state.s" || fail "S on a full disk: $(grep message "$T/state.s")"
    [ -e "$T/broken" ] && fail "$(cat "$T/broken")"
    grep -qE "tmp|new.png|r.gif|sortnet-" "$T/ls" && fail "left on the full disk: $(cat "$T/ls")"
else
    echo "note: cannot mount a tmpfs here: the full file system cases are skipped" >&2
fi

finish cli_view_io
