#!/bin/bash
# cli_signals.sh - a writer stopped by a signal (issue 45): SIGINT or SIGTERM
# while `gen -o`, `draw -o`, `transform -o` or `run --output` is writing
# leaves the old file whole and no temporary beside it, and the exit is the
# signal's (130, 143). The signal is sent once the temporary exists (polled
# for, never a fixed sleep), with networks big enough that writing takes a
# while.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/w"
echo "the old file" >"$T/old"

# temporaries: the names a writer's temporary may have in $T/w
temporaries() { ls -a "$T/w" | grep -e '\.tmp' -e '^\.sn-'; }

# interrupt SIG FILE CMD...: write FILE (an old one in place) with CMD, send
# SIG once its temporary appears; the exit must be 128+SIG's number, FILE the
# old one (a file or a folder: $old, else $T/old), and no temporary left
interrupt() {
    local sig=$1 file=$2 want cmd
    shift 2
    want=$((128 + $(kill -l "$sig")))
    cmd=$(printf '%s ' "$@" | head -c 160)
    rm -rf "$T/w" && mkdir "$T/w"
    cp -r "${old:-$T/old}" "$T/w/$file"
    # a background job of a script ignores SIGINT: give it the default back
    env --default-signal=INT "$@" >/dev/null 2>"$T/err" &
    local pid=$! i=0
    while ! temporaries >/dev/null; do
        if ! kill -0 "$pid" 2>/dev/null || [ $i -ge 6000 ]; then
            kill -KILL "$pid" 2>/dev/null
            wait "$pid"
            fail "$sig '$cmd': no temporary seen while it ran (exit $?; make the output bigger?)"
            return
        fi
        sleep 0.01
        i=$((i + 1))
    done
    kill -"$sig" "$pid"
    wait "$pid"
    local got=$?
    [ "$got" = "$want" ] || fail "$sig '$cmd': exit $got, expected $want: $(head -c 300 "$T/err")"
    diff -r "$T/w/$file" "${old:-$T/old}" >/dev/null || fail "$sig '$cmd': the old $file was not kept"
    local left
    left=$(temporaries)
    [ -z "$left" ] || fail "$sig '$cmd': a temporary was left: $left ($(du -sh "$T/w" | cut -f1))"
}

for sig in INT TERM; do
    interrupt $sig net.txt "$S" gen transposition:6000 -o "$T/w/net.txt"
    interrupt $sig t.txt "$S" transform transposition:5000 --reflect -o "$T/w/t.txt"
    # 4 * 10^6 keys (30 MB) through a network of no comparators: the
    # writing is the same as after a real network, without the 10^9
    # compare-exchanges before it (39 s of CPU in an instrumented build)
    interrupt $sig keys.txt "$S" --max-wires 4000000 run empty:4000000 --reverse --output "$T/w/keys.txt"
    if has_part "cairo drawing"; then
        interrupt $sig net.svg "$S" draw transposition:1200 --force -o "$T/w/net.svg"
        interrupt $sig net.pdf "$S" draw transposition:1200 --force -o "$T/w/net.pdf"
    fi
done

# ---- view --record: a recording stopped by a signal is dropped (the old
# GIF or folder kept, the temporary removed), exit 128+SIG, headless and in
# a window (SDL's own SIGINT handler must not turn it into a normal quit
# that keeps a cut-short GIF)
if has_part "cairo drawing"; then
    headless=(env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$S" view)
    long=$(for i in $(seq 1500); do printf 'right left '; done)
    "${headless[@]}" bitonic:4 --script "right" --record "$T/old.gif" 2>"$T/err"
    rc=$?
    if [ $rc = 3 ]; then # built without giflib: the folder cases only
        grep -q "giflib" "$T/err" || fail "--record old.gif: exit 3: $(cat "$T/err")"
    else
        [ $rc = 0 ] || fail "--record old.gif: exit $rc: $(cat "$T/err")"
        for sig in INT TERM; do
            old=$T/old.gif interrupt $sig x.gif "${headless[@]}" bitonic:16 --script "$long" --record "$T/w/x.gif"
        done
        if has_part "SDL2 window" && has_offscreen; then
            old=$T/old.gif interrupt INT x.gif env SDL_VIDEODRIVER=offscreen "$S" view bitonic:16 \
                --script "$long" --record "$T/w/x.gif"
        fi
    fi
    "${headless[@]}" bitonic:4 --script "right" --record "$T/oldrec" || fail "--record oldrec"
    for sig in INT TERM; do
        old=$T/oldrec interrupt $sig rec "${headless[@]}" bitonic:16 --script "$long" --record "$T/w/rec"
    done
fi

# ---- view --screenshot and --dump-state write registered temporaries too:
# a signal while the PNG is written removes it (the old file kept), and a
# name too long for the `.tmpXXXXXX` suffix is still written (the
# temporary then has a short name of its own in the folder)
if has_part "cairo drawing"; then
    for sig in INT TERM; do
        old=$T/old interrupt $sig shot.png "${headless[@]}" bitonic:16 --size 8000x8000 \
            --screenshot "$T/w/shot.png"
    done
    rm -rf "$T/w" && mkdir "$T/w"
    name=$(printf 'n%.0s' $(seq 250))
    "${headless[@]}" bitonic:8 --script right --screenshot "$T/w/$name.png" 2>"$T/err" ||
        fail "a 254-byte --screenshot name: exit $?: $(cat "$T/err")"
    "${headless[@]}" bitonic:8 --script right --dump-state "$T/w/$name.txt" 2>"$T/err" ||
        fail "a 254-byte --dump-state name: exit $?: $(cat "$T/err")"
    [ -s "$T/w/$name.png" ] || fail "a 254-byte --screenshot name: no file"
    grep -q "step" "$T/w/$name.txt" || fail "a 254-byte --dump-state name: $(head -c 200 "$T/w/$name.txt")"
    "${headless[@]}" bitonic:8 --script right --record "$T/w/$name.gif" 2>"$T/err"
    rc=$?
    [ $rc = 0 ] || { [ $rc = 3 ] && grep -q giflib "$T/err"; } ||
        fail "a 254-byte --record name: exit $rc: $(cat "$T/err")"
    [ $rc != 0 ] || [ -s "$T/w/$name.gif" ] || fail "a 254-byte --record name: no GIF"
    left=$(temporaries)
    [ -z "$left" ] || fail "a 254-byte name: a temporary was left: $left"
fi

finish cli_signals
