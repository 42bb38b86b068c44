#!/usr/bin/env bash
# cli_install.sh - `cmake --install` puts sortnet where a Debian user
# expects it (bin, share/man/man1, share/doc/sortnet, share/sortnet), the
# manual page is valid roff that documents every command, and the
# installed binary, copied away from the source and build trees, still has
# its network library (it is embedded, no data path).
. "$(dirname "$0")/lib.sh"
B=${SN_BUILD_DIR:?set SN_BUILD_DIR to the build folder}
P="$T/prefix"

cmake --install "$B" --prefix "$P" >"$T/install.log" 2>&1 || fail "cmake --install: $(tail -5 "$T/install.log")"
for f in bin/sortnet share/man/man1/sortnet.1 share/doc/sortnet/README.md \
         share/sortnet/networks/README.md share/sortnet/networks/LICENSE-SorterHunter \
         share/sortnet/networks/best/Sort_16_60_10.json share/sortnet/networks/sn/16i-10s-60c-0.sn; do
    [ -f "$P/$f" ] || fail "not installed: $f"
done
[ -x "$P/bin/sortnet" ] || fail "bin/sortnet is not executable"
# the page, where the build has it (SORTNET_WEB)
if has_part "the page (sortnet web)"; then
    [ -f "$P/share/sortnet/sortnet.html" ] || fail "not installed: share/sortnet/sortnet.html"
    grep -q 'id="sn-wasm"' "$P/share/sortnet/sortnet.html" || fail "sortnet.html lacks the module"
fi
nbest=$(find "$P/share/sortnet/networks/best" -name '*.json' | wc -l)
[ "$nbest" -ge 120 ] || fail "only $nbest networks installed"

# the manual page: no roff warnings, every command and gpu subcommand
if command -v groff >/dev/null 2>&1; then
    groff -man -Tutf8 -ww -z "$P/share/man/man1/sortnet.1" 2>"$T/err" || fail "groff failed"
    [ ! -s "$T/err" ] || fail "groff warns: $(head -c 400 "$T/err")"
    groff -man -Tutf8 "$P/share/man/man1/sortnet.1" 2>/dev/null | sed 's/.\x08//g' >"$T/out"
    for cmd in gen info run list check; do
        out_has "sortnet $cmd"
        out_has "usage: sortnet $cmd"
    done
    if has_part OpenCL; then out_has "usage: sortnet gpu verify"; fi
    out_has "EXIT STATUS"
    out_has "best-depth:N"
else
    echo "note: groff not installed: the manual page's text not checked" >&2
fi

# the installed binary, copied elsewhere and run from elsewhere
mkdir "$T/elsewhere"
cp "$P/bin/sortnet" "$T/elsewhere/sn-copy"
(cd "$T/elsewhere" && ./sn-copy info best:16 >"$T/out" 2>"$T/err") || fail "copied binary: $(cat "$T/err")"
out_has "size:      60 comparators"
(cd / && "$T/elsewhere/sn-copy" list >"$T/out" 2>&1) || fail "copied binary: list failed"
out_has "best-depth:64"
expect 0 "$P/bin/sortnet" --version
out_has "networks embedded"

finish cli_install
