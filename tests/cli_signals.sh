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
# old one, and no temporary left
interrupt() {
    local sig=$1 file=$2 want
    shift 2
    want=$((128 + $(kill -l "$sig")))
    rm -rf "$T/w" && mkdir "$T/w"
    cp "$T/old" "$T/w/$file"
    # a background job of a script ignores SIGINT: give it the default back
    env --default-signal=INT "$@" >/dev/null 2>"$T/err" &
    local pid=$! i=0
    while ! temporaries >/dev/null; do
        if ! kill -0 "$pid" 2>/dev/null || [ $i -ge 6000 ]; then
            kill -KILL "$pid" 2>/dev/null
            wait "$pid"
            fail "$sig '$*': no temporary seen while it ran (exit $?; make the output bigger?)"
            return
        fi
        sleep 0.01
        i=$((i + 1))
    done
    kill -"$sig" "$pid"
    wait "$pid"
    local got=$?
    [ "$got" = "$want" ] || fail "$sig '$*': exit $got, expected $want: $(head -c 300 "$T/err")"
    cmp -s "$T/w/$file" "$T/old" || fail "$sig '$*': the old $file was not kept"
    local left
    left=$(temporaries)
    [ -z "$left" ] || fail "$sig '$*': a temporary was left: $left ($(du -sh "$T/w" | cut -f1))"
}

for sig in INT TERM; do
    interrupt $sig net.txt "$S" gen transposition:6000 -o "$T/w/net.txt"
    interrupt $sig t.txt "$S" transform transposition:5000 --reflect -o "$T/w/t.txt"
    interrupt $sig keys.txt "$S" run bitonic-pad:4000000 --reverse --output "$T/w/keys.txt"
    if has_part "cairo drawing"; then
        interrupt $sig net.svg "$S" draw transposition:1200 --force -o "$T/w/net.svg"
        interrupt $sig net.pdf "$S" draw transposition:1200 --force -o "$T/w/net.pdf"
    fi
done

finish cli_signals
