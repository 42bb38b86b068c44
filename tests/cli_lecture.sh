#!/usr/bin/env bash
# cli_lecture.sh - the window for a lecture hall, headless: the shipped
# lessons play to their end, lesson errors name line and column, networks
# side by side step in lockstep, --record writes a GIF with the script's
# timing, the result after the last layer, 0-1 inputs that are not sorted
# yet, and `draw` of several networks.
. "$(dirname "$0")/lib.sh"
view_session
L="$SN_SOURCE_DIR/assets/lessons"

# every shipped lesson plays to its last step (sanitizer runs: the first;
# test_lecture plays them all there too, without a window)
lessons=("$L"/*.lesson)
[ "${SN_SANITIZED:-0}" = 1 ] && lessons=("${lessons[0]}")
for f in "${lessons[@]}"; do
    n=$(grep -c '^step:' "$f")
    keys=$(for _ in $(seq 2 "$n"); do printf 'right '; done)
    expect 0 view --lesson "$f" --script "$keys pagedown" --screenshot "$T/lesson.png"
    [ "$(field lesson_step)" = "$n of $n" ] || fail "$f: ended at step $(field lesson_step)"
    [ -s "$T/lesson.png" ] || fail "$f: no screenshot"
done
# shipped lessons are built in: by name or a unique prefix, from anywhere
(cd "$T" && SDL_VIDEODRIVER=offscreen "$S" view --lesson 02 --script "right" --dump-state "$T/state") ||
    fail "--lesson 02"
[ "$(field lesson_title)" = "The half-cleaner" ] || fail "--lesson 02: $(field lesson_title)"
expect 2 view --lesson nosuch
err_has "01-comparators-and-0-1"

# Left goes back a step, Down steps a layer inside it
expect 0 view --lesson "$L/03-three-networks-side-by-side.lesson" --script "right right left down"
[ "$(field lesson_step)" = "2 of 6" ] && [ "$(field step)" = 5 ] ||
    fail "lesson navigation: $(field lesson_step) step $(field step)"
[ "$(field networks)" = 3 ] || fail "lesson step 2 shows $(field networks) networks"

# lesson errors: file, line and column
printf 'title: t\nstep: one\nnet: bitonic:4\ntext: Fine.\nstep: two\ninput: randm 3\ntext: x.\n' >"$T/bad1.lesson"
expect 2 view --lesson "$T/bad1.lesson"
err_has "bad1.lesson:6:8:"
printf 'step: one\nnet: bitonic:4\nkeys: right jump\ntext: Fine.\n' >"$T/bad2.lesson"
expect 2 view --lesson "$T/bad2.lesson"
err_has "bad2.lesson:3:13:"
printf 'step: one\nnet: bitonic:4 nosuch:4\ntext: Fine.\n' >"$T/bad3.lesson"
expect 2 view --lesson "$T/bad3.lesson"
err_has "bad3.lesson:2:6:"
printf 'step: one\nnet: bitonic:4\ntext: One. Two. Three. Four.\n' >"$T/bad4.lesson"
expect 2 view --lesson "$T/bad4.lesson"
err_has "three sentences"
expect 2 view --lesson "$T/none.lesson"

# side by side: lockstep, the one that has finished waits
expect 0 view oddeven-merge:16 best-depth:16 --random 11 --script "end left"
[ "$(field step)" = 9 ] || fail "odd-even merge at $(field step) after end left"
field view2 | grep -q "^best-depth:16 step 9 of 9" || fail "best-depth: $(field view2)"
expect 0 view bitonic:16 oddeven-merge:16 best:16 --random 11 --script "space"
[ "$(field step)" = 10 ] && [ "$(field result)" = sorted ] || fail "played: $(cat "$T/state")"
field view3 | grep -q "step 10 of 10, 25 swaps, sorted" || fail "best:16: $(field view3)"
field message | grep -q "done: bitonic:16 sorted, oddeven-merge:16 sorted, best:16 sorted" ||
    fail "done message: $(field message)"
expect 0 view bitonic:16 oddeven-merge:16 --script "v"
field view2 | grep -q "values 16,15,14" || fail "V for both: $(field view2)"
expect 2 view bitonic:16 bitonic:8
err_has "same n"
expect 0 view bitonic:8 oddeven-merge:8 --script "1"
field message | grep -q "changes one network" || fail "1 side by side: $(field message)"

# after the last layer: the result; a network that does not sort says so
printf '[(0,1),(2,3)]\n[(0,2),(1,3)]\n' >"$T/bad.txt"
expect 0 view "$T/bad.txt" --input 1,3,2,4 --script "end"
[ "$(field result)" = "NOT sorted" ] || fail "result: $(field result)"
# key 0 never draws an already sorted 0-1 input
for i in 1 2 3 4 5 6; do
    expect 0 view bitonic:8 --random "$i" --script "0"
    python3 -c "v='$(field values)'.split(','); assert v != sorted(v), v" ||
        fail "0 gave a sorted input: $(field values)"
done
# PgDn / PgUp (a clicker) step; --stay needs a script
expect 0 view bitonic:8 --script "pagedown pagedown pageup"
[ "$(field step)" = 1 ] || fail "pagedown pagedown pageup: step $(field step)"
expect 2 "$S" view bitonic:8 --stay
expect 0 view bitonic:8 --theme contrast --font-scale 1.5 --script "ctrl+plus m"
[ "$(field theme)" = contrast ] && [ "$(field font_scale)" = 1.8 ] && [ "$(field sound)" = on ] ||
    fail "theme/text/sound: $(field theme) $(field font_scale) $(field sound)"

# sound: no device is silence, not an error; SDL's disk driver hears tones
expect 0 env -u SDL_AUDIODRIVER -u PULSE_SERVER XDG_RUNTIME_DIR=/nonexistent SDL_VIDEODRIVER=offscreen \
    "$S" view bitonic:8 --sound --script "space" --dump-state "$T/state"
# (a machine with a sound card but no working device may hear from ALSA)
[ -e /dev/snd ] || [ ! -s "$T/err" ] || fail "--sound without a device wrote: $(head -c 300 "$T/err")"
# SDL's disk driver opens as a device; what is checked is what the window
# queued (one tone per comparator of the layer stepped through), never how
# much of it the audio thread has written by the time the script ends: that
# depends on the machine's load. test_sound hears the tones themselves.
expect 0 env SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE="$T/audio.raw" SDL_VIDEODRIVER=offscreen \
    "$S" view bitonic:8 --sound --script "right right" --dump-state "$T/state"
[ "$(field sound_device)" = open ] || fail "the disk audio driver did not open: $(field sound_device)"
[ "$(field tones)" = "8 queued, 0 dropped" ] || fail "two layers of bitonic:8: tones $(field tones)"
expect 0 env SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE="$T/audio.raw" SDL_VIDEODRIVER=offscreen \
    "$S" view bitonic:8 --script "right right" --dump-state "$T/state"
[ "$(field tones)" = "0 queued, 0 dropped" ] && [ "$(field sound_device)" = - ] ||
    fail "sound off: $(field sound_device), tones $(field tones)"

# --record FILE.gif: an animated GIF with the script's timing
if "$S" --version | grep -q . && expect 0 view bitonic:8 --script "space wait:2000" \
    --record "$T/a.gif" && [ -s "$T/a.gif" ]; then
    python3 - "$T/a.gif" <<'PY' || fail "GIF timing"
import sys
d = open(sys.argv[1], 'rb').read()
assert d[:6] == b'GIF89a', d[:6]
i = 13 + (3 * (2 << (d[10] & 7)) if d[10] & 0x80 else 0)
frames = delay = 0
while d[i] != 0x3B:
    if d[i] == 0x21:
        j = i + 2
        if d[i + 1] == 0xF9:
            delay += d[j + 2] | d[j + 3] << 8
        while d[j]:
            j += d[j] + 1
        i = j + 1
    else:
        assert d[i] == 0x2C, hex(d[i])
        frames += 1
        j = i + 10 + (3 * (2 << (d[i + 9] & 7)) if d[i + 9] & 0x80 else 0) + 1
        while d[j]:
            j += d[j] + 1
        i = j + 1
# "space wait:2000" plays 6 layers at 2 layers/s: 3 s, plus the frames the
# script itself takes; every layer is at least one frame
assert 6 <= frames <= 80, frames
assert 280 <= delay <= 340, delay
PY
    # created like every other output: 0666 less the umask (giflib's own
    # open made it 0600, and a course page could not serve it)
    (umask 022 && view bitonic:4 --script "right" --record "$T/m.gif" >/dev/null 2>&1)
    [ "$(stat -c %a "$T/m.gif" 2>/dev/null)" = 644 ] ||
        fail "GIF mode under umask 022: $(stat -c %a "$T/m.gif" 2>&1)"
    (umask 027 && view bitonic:4 --script "right" --record "$T/m2.gif" >/dev/null 2>&1)
    [ "$(stat -c %a "$T/m2.gif" 2>/dev/null)" = 640 ] ||
        fail "GIF mode under umask 027: $(stat -c %a "$T/m2.gif" 2>&1)"
else
    err_has "giflib"
fi
# video through ffmpeg where it is installed (else a clear exit 3)
if [ "${SN_SANITIZED:-0}" = 1 ]; then
    : # ffmpeg's own time is not what a sanitizer run checks
elif command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null; then
    expect 0 view bitonic:4 --script "right wait:1000" --record "$T/a.mp4"
    dur=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$T/a.mp4")
    python3 -c "assert 0.95 < $dur < 1.2, $dur" || fail "mp4 lasts $dur s (the script: 1.03 s)"
else
    expect 3 view bitonic:4 --script "right" --record "$T/a.mp4"
    err_has "ffmpeg"
fi
[ ! -e "$T/a.mp4.tmp" ] || fail "a temporary video was left"
expect 0 view bitonic:4 --script "right wait:1000 right" --record "$T/rec"
python3 -c "
import re
t = open('$T/rec/frames.ffconcat').read()
d = sum(float(x) for x in re.findall(r'duration ([0-9.]+)', t))
assert 1.3 < d < 2.0, d" || fail "--record DIR keeps the pause: $(cat "$T/rec/frames.ffconcat")"

# draw: several networks stacked on the same input; the PNG's last row
expect 0 "$S" draw bitonic:8 oddeven-merge:8 --random 2 --step 6 -o "$T/cmp.svg"
grep -q "<svg" "$T/cmp.svg" || fail "draw stack SVG"
expect 2 "$S" draw bitonic:8 oddeven-merge:8 -o "$T/cmp.tex"
expect 2 "$S" draw bitonic:8 bitonic:4 -o "$T/cmp.svg"
err_has "same n"
expect 0 "$S" draw bitonic:16 --width 1000 -o "$T/w.png"
PYTHONPATH="$(dirname "$0")" python3 - "$T/w.png" <<'PY' || fail "the PNG's last row is not the background"
import sys
from png_rows import load
w, h, bpp, rows = load(sys.argv[1])
prev = rows[-1]
assert min(prev) >= 250, min(prev)
PY

finish cli_lecture
