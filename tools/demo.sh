#!/usr/bin/env bash
# demo.sh SORTNET - the main job: the visualizer on the default demo. With no
# display it says so and does the headless equivalent: the demo run layer by
# layer as text, a screenshot of the window through SDL's offscreen driver
# and an SVG diagram, written to ./sortnet-demo/.
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
    SDL_VIDEODRIVER=offscreen "$sortnet" view bitonic:16 --random 1 \
        --script "right right right right right" --screenshot "$out/window.png" &&
        echo "sortnet: window screenshot written to $out/window.png" >&2
fi
if "$sortnet" draw --help >/dev/null 2>&1; then
    "$sortnet" draw bitonic:16 --random 1 --step 5 -o "$out/bitonic16.svg" &&
        echo "sortnet: diagram written to $out/bitonic16.svg" >&2
fi
exit 0
