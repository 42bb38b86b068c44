#!/usr/bin/env bash
# cli_completion.sh - the bash completion the build writes from the --help
# texts (src/cli/completion.cmake, build/src/cli/sortnet.bash), loaded in
# `bash -i` and called as bash calls it: commands, gpu subcommands,
# options, option values, network names (with the ':' that bash splits
# words at), lesson names, files; and that it names every command `sortnet
# --help` lists and every option of `sortnet draw --help` (no drift).
. "$(dirname "$0")/lib.sh"
B=${SN_BUILD_DIR:?set SN_BUILD_DIR to the build folder}
C=$B/src/cli/sortnet.bash
[ -f "$C" ] || broken "the build wrote no $C"

mkdir "$T/dir" && touch "$T/dir/keys.txt" "$T/dir/net.cl"
cat >"$T/complete.sh" <<EOF
. "$C"
fn=\$(complete -p sortnet | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
[ -n "\$fn" ] || { echo "no completion function for sortnet"; exit 1; }
cd "$T/dir"
EOF
cat >>"$T/complete.sh" <<'EOF'
offer() { # LINE: what completing LINE offers, on one line
    COMP_LINE=$1 COMP_POINT=${#1}
    read -ra COMP_WORDS <<<"$1"
    [[ $1 == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    "$fn" sortnet "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    printf '%s|' "$1"
    printf '%s ' "${COMPREPLY[@]}"
    echo
}
while IFS= read -r line; do offer "$line"; done
EOF
lines=("sortnet ch" "sortnet gen bito" "sortnet gen best-d" "sortnet info best:" "sortnet vi"
    "sortnet --max-wires 9 in" "sortnet --max-wires " "sortnet draw bitonic:8 --the"
    "sortnet view bitonic:8 --theme " "sortnet view --lesson 03" "sortnet run bitonic:4 --input-file k"
    "sortnet run k" "sortnet --v" "sortnet list --n " "sortnet gen bitonic:4 --format o")
printf '%s\n' "${lines[@]}" | HOME=$T bash -i "$T/complete.sh" >"$T/out" 2>"$T/err" ||
    fail "bash -i with the completion: $(cat "$T/err")"
want() { # LINE OFFERED...: completing LINE offers exactly OFFERED
    local line=$1
    shift
    local got
    got=$(grep -F "$line|" "$T/out" | head -1)
    got=${got#"$line|"}
    [ "$got" = "$* " ] || [ "$got" = "$*" ] || fail "'$line' offers '$got', expected '$*'"
}
want "sortnet ch" check
want "sortnet gen best-d" best-depth:
# after ':' bash completes the part behind it: nothing to offer before N
want "sortnet info best:" ""
want "sortnet --max-wires 9 in" info
want "sortnet --max-wires " ""
# view and draw are built with cairo (view: the headless backend at least)
if has_part "cairo drawing"; then
    want "sortnet draw bitonic:8 --the" --theme
    want "sortnet vi" view
    want "sortnet view bitonic:8 --theme " light dark contrast
    want "sortnet view --lesson 03" 03-three-networks-side-by-side
else
    want "sortnet vi" ""
fi
want "sortnet run bitonic:4 --input-file k" keys.txt
want "sortnet run k" keys.txt
want "sortnet --v" --version
want "sortnet list --n " ""
want "sortnet gen bitonic:4 --format o" opencl
grep -q '^sortnet gen bito|.*\bbitonic: ' "$T/out" || fail "'sortnet gen bito' lacks bitonic:: $(grep 'gen bito|' "$T/out")"
grep -q '^sortnet gen bito|.*\bbitonic-classic: ' "$T/out" || fail "'sortnet gen bito' lacks bitonic-classic:"

# no drift: every built command of --help, every option of draw --help
"$S" --help | sed -n '/^Commands:/,/^$/p' | grep -v '(not built)' | awk 'NF>1 {print $1}' >"$T/cmds"
[ -s "$T/cmds" ] || broken "no commands in sortnet --help"
while read -r c; do
    grep -q "^_sortnet_commands='.*\b$c\b" "$C" || fail "the completion lacks the command $c"
done <"$T/cmds"
if has_part "cairo drawing"; then
    for o in $("$S" draw --help | grep -o '^  \(-o, \)\?--[a-z-]*' | grep -o -- '--[a-z-]*'); do
        grep -q "^_sortnet_opts_draw='.*$o\b" "$C" || fail "the completion lacks draw $o"
    done
fi
finish cli_completion
