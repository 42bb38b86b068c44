#!/usr/bin/env bash
# demo.sh SORTNET - the main job: the visualizer on the default demo. With no
# display it says so and does the headless equivalent: the demo run layer by
# layer as text, the window's picture and a recording of its steps made by
# the headless backend (no window needed) and an SVG diagram, written to
# ./sortnet-demo/.
set -uo pipefail
sortnet=${1:?usage: demo.sh path/to/sortnet}
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
    exec "$sortnet" view bitonic:16
fi
echo "sortnet: no display (DISPLAY is not set): running the demo headless" >&2
out=sortnet-demo
mkdir -p "$out"
"$sortnet" run bitonic:16 --random 1 --trace
if "$sortnet" view --help >/dev/null 2>&1; then
    "$sortnet" view bitonic:16 --random 1 --script "right right right right right" \
        --screenshot "$out/window.png" --record "$out/steps" &&
        echo "sortnet: the window's picture written to $out/window.png, its frames to $out/steps/" >&2
fi
if "$sortnet" draw --help >/dev/null 2>&1; then
    "$sortnet" draw bitonic:16 --random 1 --step 5 -o "$out/bitonic16.svg" &&
        echo "sortnet: diagram written to $out/bitonic16.svg" >&2
fi
exit 0
