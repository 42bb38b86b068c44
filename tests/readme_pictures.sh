#!/usr/bin/env bash
# readme_pictures.sh - the README's first screen and its pictures:
# every picture README.md and docs/reference.md show exists in the clone;
# the first 60 lines of the README hold the pictures and the two commands
# (tools/setup.sh, tools/setup.sh test); and tools/make_pictures.sh still
# runs with the built sortnet and remakes every picture the README shows
# under docs/pictures (each a real PNG, GIF or SVG; the window's GIF
# animated), and the package's icon.
. "$(dirname "$0")/lib.sh"
R=${SN_SOURCE_DIR:?set SN_SOURCE_DIR to the source folder}
readme=$R/README.md

# pictures: ![alt](path) and <img src="path">, relative to the file's folder
pictures_of() { # FILE: one path a line
    grep -o '!\[[^]]*\]([^)]*)\|<img [^>]*src="[^"]*"' "$1" |
        sed 's/^!\[[^]]*\](\([^) ]*\).*/\1/; s/^<img .*src="\([^"]*\)"/\1/'
}
n=0
for doc in "$readme" "$R/docs/reference.md"; do
    [ -f "$doc" ] || { fail "no $doc"; continue; }
    while read -r p; do
        [ -n "$p" ] || continue
        case $p in http*) fail "$doc shows a picture from outside the clone: $p"; continue ;; esac
        [ -f "$(dirname "$doc")/$p" ] || fail "$(basename "$doc") shows $p, which does not exist"
        n=$((n + 1))
    done < <(pictures_of "$doc")
done
[ $n -ge 4 ] || fail "README.md shows only $n pictures"

# the first screen: the pictures and the two commands
head -60 "$readme" >"$T/out"
out_has "docs/pictures/window.gif"
grep -q '^    tools/setup.sh$' "$T/out" || fail "the README's first 60 lines lack the command 'tools/setup.sh'"
grep -q '^    tools/setup.sh test$' "$T/out" ||
    fail "the README's first 60 lines lack the command 'tools/setup.sh test'"
shown=$(pictures_of "$readme" | grep '^docs/pictures/' | sed 's|^docs/pictures/||' | sort -u)
for p in $shown; do grep -qF "docs/pictures/$p" "$T/out" || fail "$p is shown after line 60"; done

# the script remakes every picture the README shows
command -v rsvg-convert >/dev/null || { echo "SKIP: rsvg-convert needed (librsvg2-bin)" >&2; exit 77; }
require_part "cairo drawing"
"$R/tools/make_pictures.sh" "$S" "$T/pictures" "$T/icons" >"$T/log" 2>&1 ||
    broken "tools/make_pictures.sh failed: $(tail -5 "$T/log")"
magic() { head -c "$2" "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n'; }
for p in $shown; do
    f=$T/pictures/$p
    if [ ! -f "$f" ]; then
        # the phone needs chromium and the page; the GPU line an OpenCL device
        case $p in
        phone.png) grep -q "no chromium" "$T/log" && { echo "note: $p not remade (no chromium)" >&2; continue; } ;;
        gpu_verify.svg) grep -q "no OpenCL device" "$T/log" && { echo "note: $p not remade (no OpenCL)" >&2; continue; } ;;
        esac
        fail "tools/make_pictures.sh did not remake $p: $(tail -3 "$T/log")"
        continue
    fi
    case $p in
    *.png) [ "$(magic "$f" 8)" = 89504e470d0a1a0a ] || fail "$p is not a PNG" ;;
    *.gif) [ "$(magic "$f" 6)" = 474946383961 ] || fail "$p is not a GIF89a"
           # animated: more than one image descriptor after graphic controls
           frames=$(python3 -c "import sys; print(open(sys.argv[1], 'rb').read().count(b'\\x21\\xf9\\x04'))" "$f")
           [ "$frames" -gt 1 ] || fail "$p is not animated ($frames frames)" ;;
    *.svg) rsvg-convert "$f" -o "$T/check.png" 2>"$T/err" || fail "$p does not render: $(cat "$T/err")" ;;
    *) fail "$p: a picture of unknown kind" ;;
    esac
done
for size in 16 32 48 64 128 256; do
    [ -f "$T/icons/sortnet-$size.png" ] || fail "no icon of $size pixels"
done
file_size=$(wc -c <"$T/icons/sortnet-48.png")
[ "$file_size" -gt 200 ] || fail "the 48-pixel icon is only $file_size bytes"
finish readme_pictures
