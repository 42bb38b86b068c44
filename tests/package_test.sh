#!/usr/bin/env bash
# package_test.sh - the Debian package as a lab installs it:
#
#   tests/package_test.sh BUILD_DIR
#
# builds sortnet_VERSION_ARCH.deb from BUILD_DIR with cpack (into a
# temporary folder), checks its metadata and contents (dpkg-deb -I / -c),
# lintian (no errors; every warning named in README.md's packaging section,
# which says why it stays), the desktop entry (desktop-file-validate) and the
# metainfo (appstreamcli validate), then installs it with `apt-get install
# ./sortnet_*.deb`, runs the installed sortnet (--version, check best:16, a
# headless view --screenshot, web -o), checks the installed bash completion
# in `bash -i` (`sortnet ch` completes to check, `sortnet gen bito` offers
# bitonic:), removes the package and checks that nothing of it is left.
#
# It installs into /usr, so it needs root and apt-get: without them it
# skips (exit 77, saying which is missing), and also when a sortnet package
# is installed already (it would replace and then remove it). tools/setup.sh
# test runs it as a stage, where a skip fails the stage. A package it
# installed is removed on every exit.
B=${1:?usage: tests/package_test.sh BUILD_DIR}
B=$(cd "$B" && pwd) || exit 2
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export SORTNET=$B/src/cli/sortnet
. "$root/tests/lib.sh"

skip() { echo "SKIP: $*" >&2; exit 77; }
[ "$(id -u)" = 0 ] || skip "not root: installing the package needs root (CI runs as root)"
for tool in apt-get dpkg dpkg-deb cpack; do
    command -v "$tool" >/dev/null || skip "no $tool: not a Debian machine with CMake's cpack"
done
[ -f "$B/CPackConfig.cmake" ] || broken "no $B/CPackConfig.cmake: configure and build $B first"
[ -x "$S" ] || broken "no sortnet binary in $B (build first)"
if dpkg-query -W -f='${Status}' sortnet 2>/dev/null | grep -q 'ok installed'; then
    skip "a sortnet package is installed already; this test would replace and remove it"
fi

version=$("$S" --version | sed -n '1s/^sortnet //p')
[ -n "$version" ] || broken "the built sortnet --version names no version"
arch=$(dpkg --print-architecture)
deb=$T/pkg/sortnet_${version}_${arch}.deb

# --- the package: built, metadata, contents -------------------------------
(cd "$T" && cpack -G DEB -B "$T/pkg" --config "$B/CPackConfig.cmake") >"$T/cpack.log" 2>&1 ||
    broken "cpack failed: $(tail -5 "$T/cpack.log")"
[ -f "$deb" ] || broken "cpack made no $(basename "$deb"): $(ls "$T/pkg")"

dpkg-deb -I "$deb" >"$T/out" 2>"$T/err" || broken "dpkg-deb -I: $(cat "$T/err")"
out_has "Package: sortnet"
out_has "Version: $version"
out_has "Architecture: $arch"
out_has "Recommends: pocl-opencl-icd"
out_has "Description: visualizer, simulator and checker for sorting networks"
grep -q '^ *Depends:.*libc6' "$T/out" || fail "Depends lacks libc6 (dpkg-shlibdeps): $(grep Depends "$T/out")"
if has_part "SDL2 window"; then grep -q '^ *Depends:.*libsdl2' "$T/out" || fail "Depends lacks SDL2"; fi
if has_part "cairo drawing"; then grep -q '^ *Depends:.*libcairo2' "$T/out" || fail "Depends lacks cairo"; fi
if has_part "MPI (sortnet dist)"; then
    grep -q '^ *Depends:.*openmpi-bin' "$T/out" || fail "Depends lacks openmpi-bin (MPI is built)"
fi

dpkg-deb -c "$T/pkg"/*.deb | awk '{print $6}' | sed 's|^\./|/|' >"$T/contents"
cp "$T/contents" "$T/out"
want=(/usr/bin/sortnet /usr/share/man/man1/sortnet.1.gz
    /usr/share/bash-completion/completions/sortnet
    /usr/share/applications/sortnet.desktop
    /usr/share/metainfo/io.github.sortnet.sortnet.metainfo.xml
    /usr/share/icons/hicolor/scalable/apps/sortnet.svg
    /usr/share/icons/hicolor/48x48/apps/sortnet.png
    /usr/share/doc/sortnet/copyright /usr/share/doc/sortnet/changelog.gz
    /usr/share/doc/sortnet/README.md /usr/share/doc/sortnet/reference.md
    /usr/share/sortnet/networks/best/Sort_16_60_10.json
    /usr/share/sortnet/lessons/01-comparators-and-0-1.lesson)
if has_part "the page (sortnet web)"; then want+=(/usr/share/sortnet/sortnet.html); fi
for f in "${want[@]}"; do
    grep -qxF "$f" "$T/contents" || fail "the package lacks $f"
done
# nothing outside /usr, nothing of the build tree
grep -v '^/usr/\|^/$' "$T/contents" | grep -q . && fail "files outside /usr: $(grep -v '^/usr/' "$T/contents" | head -3)"
grep -q 'CMakeFiles\|_CPack\|\.o$' "$T/contents" && fail "build files in the package"

# --- lintian, the desktop entry, the metainfo -------------------------------
if command -v lintian >/dev/null; then
    lintian --allow-root "$deb" >"$T/lintian" 2>&1
    grep '^E:' "$T/lintian" && fail "lintian reports errors: $(grep '^E:' "$T/lintian" | head -5)"
    # each warning that stays is named, with why, in the README's packaging section
    for tag in $(sed -n 's/^W: sortnet[^:]*: \([a-z0-9-]*\).*/\1/p' "$T/lintian" | sort -u); do
        grep -qF "$tag" "$root/README.md" ||
            fail "lintian warns $tag, which README.md's packaging section does not list"
    done
else
    echo "note: lintian not installed: the package not linted (tools/setup.sh installs it)" >&2
fi
mkdir "$T/x"
dpkg-deb -x "$deb" "$T/x"
if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$T/x/usr/share/applications/sortnet.desktop" >"$T/dfv" 2>&1 ||
        fail "desktop-file-validate: $(cat "$T/dfv")"
else
    echo "note: desktop-file-validate not installed: the desktop entry not checked" >&2
fi
if command -v appstreamcli >/dev/null; then
    appstreamcli validate --no-net "$T/x/usr/share/metainfo/io.github.sortnet.sortnet.metainfo.xml" \
        >"$T/asv" 2>&1 || fail "appstreamcli validate: $(cat "$T/asv")"
fi
grep -q '^Exec=sortnet view' "$T/x/usr/share/applications/sortnet.desktop" ||
    fail "the desktop entry does not start the window"

# --- installed, used, removed ---------------------------------------------
installed=0
remove_package() {
    [ $installed = 1 ] || return 0
    DEBIAN_FRONTEND=noninteractive apt-get purge -y -q -o DPkg::Lock::Timeout=300 sortnet \
        >"$T/purge.log" 2>&1
    installed=0
}
trap 'remove_package; rm -rf "$T"' EXIT
DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=300 "$deb" \
    >"$T/apt.log" 2>&1 || { installed=1; broken "apt-get install failed: $(tail -8 "$T/apt.log")"; }
installed=1
I=/usr/bin/sortnet
[ -x $I ] || broken "apt-get installed no /usr/bin/sortnet"
[ "$(command -v sortnet)" = $I ] || fail "sortnet on PATH is $(command -v sortnet), not $I"

expect 0 $I --version
out_has "sortnet $version"
expect 0 $I check best:16
out_has "sorts: yes"
if has_part "cairo drawing"; then
    (cd "$T" && env -u DISPLAY -u WAYLAND_DISPLAY $I view bitonic:8 --screenshot "$T/shot.png" \
        --size 640x400 >"$T/out" 2>"$T/err") || fail "installed view --screenshot: $(cat "$T/err")"
    [ "$(head -c 8 "$T/shot.png" 2>/dev/null | od -An -c | tr -d ' ')" = '211PNG\r\n032\n' ] ||
        fail "installed view --screenshot wrote no PNG"
fi
if has_part "the page (sortnet web)"; then
    expect 0 $I web -o "$T/page.html"
    grep -q 'id="sn-wasm"' "$T/page.html" || fail "installed web -o: the page lacks the module"
fi

# the completion as bash -i loads it: the function `complete -p sortnet` names,
# called as bash calls it, on a line whose cursor is at its end
cat >"$T/complete.sh" <<'EOF'
. /usr/share/bash-completion/completions/sortnet
fn=$(complete -p sortnet | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
[ -n "$fn" ] || { echo "no completion function for sortnet"; exit 1; }
offer() { # LINE: what completing LINE offers, one a line
    COMP_LINE=$1 COMP_POINT=${#1}
    read -ra COMP_WORDS <<<"$1"
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    "$fn" sortnet "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    printf '%s\n' "${COMPREPLY[@]}"
}
echo "ch: $(offer 'sortnet ch' | tr '\n' ' ')"
echo "bito: $(offer 'sortnet gen bito' | tr '\n' ' ')"
echo "lesson: $(offer 'sortnet view --lesson 02' | tr '\n' ' ')"
echo "gpu: $(offer 'sortnet gpu ver' | tr '\n' ' ')"
echo "opt: $(offer 'sortnet check --me' | tr '\n' ' ')"
EOF
HOME=$T bash -i "$T/complete.sh" >"$T/out" 2>"$T/err" </dev/null || fail "the completion: $(cat "$T/out" "$T/err")"
out_has "ch: check "
grep -q '^bito: .*\bbitonic: ' "$T/out" || fail "sortnet gen bito does not offer bitonic: ($(cat "$T/out"))"
out_has "lesson: 02-bitonic-from-the-half-cleaner "
if has_part OpenCL; then out_has "gpu: verify "; fi
out_has "opt: --merge --method "

remove_package
[ $installed = 0 ] && ! dpkg-query -W -f='${Status}' sortnet 2>/dev/null | grep -q 'installed' ||
    fail "sortnet is still installed after apt-get purge: $(tail -5 "$T/purge.log")"
# nothing left: no file of the package, no folder of its own
left=0
while read -r f; do
    case $f in */) continue ;; esac
    [ -e "$f" ] && { fail "left after removal: $f"; left=$((left + 1)); }
    [ $left -ge 5 ] && break
done <"$T/contents"
for d in /usr/share/sortnet /usr/share/doc/sortnet; do
    [ -e "$d" ] && fail "left after removal: $d"
done
finish package_test
