#!/usr/bin/env bash
# cli_view_video.sh - `view --record FILE.mp4|FILE.webm` through ffmpeg,
# with a stand-in ffmpeg on PATH (the real one is not needed, nor read):
# one that stores the raw frames it is piped gets every frame whole, under
# the final name only; one that fails leaves no file and the run exits 2
# naming ffmpeg; a name with a quote is refused; without ffmpeg on PATH
# exit 3 (missing environment) says what to install. Skips (77) like the other scripted sessions.
. "$(dirname "$0")/lib.sh"
view_session
cd "$T" || exit 1
mkdir good bad
# the stand-in: the raw frames (bgr0) into the file named last
printf '#!/bin/sh\nfor a; do last=$a; done\ncat >"$last"\n' >good/ffmpeg
printf '#!/bin/sh\ncat >/dev/null\necho "ffmpeg: Unknown encoder" >&2\nexit 1\n' >bad/ffmpeg
chmod +x good/ffmpeg bad/ffmpeg

expect 0 env PATH="$T/good:$PATH" SDL_VIDEODRIVER=offscreen "$S" view bitonic:4 --size 640x400 \
    --script "right right" --record "$T/v.mp4"
size=$(stat -c %s "$T/v.mp4" 2>/dev/null || echo 0)
[ "$size" -gt 0 ] && [ $((size % (640 * 400 * 4))) = 0 ] ||
    fail "v.mp4: $size bytes, not whole 640x400 frames"
[ -z "$(ls "$T" | grep tmp)" ] || fail "a temporary was left: $(ls "$T")"
expect 0 env PATH="$T/good:$PATH" SDL_VIDEODRIVER=offscreen "$S" view bitonic:4 --size 640x400 \
    --script "right" --record "$T/v.webm"
[ -s "$T/v.webm" ] || fail "v.webm not written"

expect 2 env PATH="$T/bad:$PATH" SDL_VIDEODRIVER=offscreen "$S" view bitonic:4 --size 640x400 \
    --script "right right" --record "$T/w.webm"
err_has "w.webm: could not finish the recording (ffmpeg failed)"
[ ! -e "$T/w.webm" ] && [ -z "$(ls "$T" | grep '^w')" ] || fail "a failed video left $(ls "$T")"

expect 2 env PATH="$T/good:$PATH" SDL_VIDEODRIVER=offscreen "$S" view bitonic:4 --script "right" \
    --record "$T/x'y.mp4"
err_has "a video name may not contain '"
expect 3 env PATH="$T/none" SDL_VIDEODRIVER=offscreen "$S" view bitonic:4 --script "right" \
    --record "$T/z.mp4"
err_has "video needs ffmpeg on PATH (Debian package ffmpeg)"

# an ffmpeg that exits without reading (found in PATH's second folder):
# the write fails with its message, SIGPIPE does not kill the window
mkdir quit
printf '#!/bin/sh\nexit 1\n' >quit/ffmpeg
chmod +x quit/ffmpeg
expect 2 env PATH="$T/none:$T/quit:$PATH" SDL_VIDEODRIVER=offscreen "$S" view bitonic:4 --size 640x400 \
    --script "right right" --record "$T/q.mp4"
err_has "q.mp4: ffmpeg stopped reading frames"
[ -z "$(ls "$T" | grep '^q\.')" ] || fail "a video ffmpeg did not take left $(ls "$T")"
# no PATH at all: no ffmpeg
expect 3 env -u PATH SDL_VIDEODRIVER=offscreen "$S" view bitonic:4 --script "right" --record "$T/p.mp4"
err_has "video needs ffmpeg on PATH"

finish cli_view_video
