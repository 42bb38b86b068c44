#!/usr/bin/env bash
# cli_check.sh - end-to-end tests of `sortnet check` through the real
# binary: verdicts and exit codes, the JSON shape of docs/design.md, the
# counterexample replayed with `sortnet run`, refusals and bad usage.
. "$(dirname "$0")/lib.sh"

expect 0 "$S" check --help
out_has "usage: sortnet check"
expect 2 "$S" check --no-such-option bitonic:4
err_has "unknown option"
expect 2 "$S" check
expect 2 "$S" check bitonic:8 --method magic
expect 2 "$S" check bitonic:8 --threads 0
expect 2 "$S" check no-such-file.txt
# --device opencl: exit 3 naming the GPU checker where it is not built or
# no OpenCL platform exists; otherwise it checks (tests/cli_gpu.sh)
"$S" check bitonic:8 --device opencl >"$T/out" 2>"$T/err"
rc=$?
if [ $rc = 3 ]; then
    grep -qE "GPU checker|OpenCL" "$T/err" || fail "--device opencl exit 3: $(cat "$T/err")"
else
    [ $rc = 0 ] || fail "--device opencl exited $rc: $(head -c 300 "$T/err")"
    out_has "sorts: yes"
fi

# generators sort, by both methods
for net in bitonic:16 oddeven-merge:13 pairwise:20 insertion:9 transposition:7 bubble:11; do
    expect 0 "$S" check "$net"
    out_has "sorts: yes"
    expect 0 "$S" check "$net" --method reduce
done
expect 0 "$S" check oddeven-merge:64 --json
[ "$(json 'd["sorts"], d["method"], d["n"], d["counterexample"], d["redundant"]')" = \
  "True reduce 64 None []" ] || fail "oddeven-merge:64 json: $(cat "$T/out")"

# a broken network: a counterexample that `sortnet run` confirms
printf '[(0,1),(2,3)]\n[(0,2),(1,3)]\n' >"$T/b4.txt"
expect 1 "$S" check "$T/b4.txt"
out_has "sorts: no"
out_has "failing 0-1 inputs: 4"
expect 1 "$S" check "$T/b4.txt" --json
[ "$(json 'sorted(d.keys())')" = \
  "['counterexample', 'method', 'mode', 'n', 'output', 'redundant', 'seconds', 'sorts']" ] ||
    fail "json keys: $(cat "$T/out")"
ce=$(json '",".join(map(str, d["counterexample"]))')
outp=$(json '",".join(map(str, d["output"]))')
[ "$ce" = "1,0,1,0" ] || fail "smallest counterexample: $ce"
expect 1 "$S" run "$T/b4.txt" --input "$ce" --json
[ "$(json '",".join(map(str, d["output"]))')" = "$outp" ] || fail "run disagrees: $(cat "$T/out")"
[ "$(json 'd["output"] == sorted(d["output"])')" = "False" ] || fail "replayed output is sorted"
expect 1 "$S" check "$T/b4.txt" --method reduce --json
[ "$(json '",".join(map(str, d["counterexample"]))')" = "1,0,1,0" ] || fail "reduce counterexample"

# a redundant comparator is listed
printf '[(0,1)]\n[(0,1)]\n' >"$T/r2.txt"
expect 0 "$S" check "$T/r2.txt" --json
[ "$(json 'd["redundant"]')" = "[1]" ] || fail "redundant: $(cat "$T/out")"

# too large for brute force: undecided (exit 4) with an estimate, not hung
expect 4 "$S" check bitonic:48 --method bruteforce
err_has "cannot be decided by this method"
err_has "inputs"
err_has "days"
expect 4 "$S" check bitonic:36 --method bruteforce
err_has "--force runs it"

# networks that sort but that no method here can prove: "cannot be
# decided" (never a failed verdict), what brute force would take, exit 4;
# refused from cheap facts before the work: under a 400 MB address-space
# limit (the old path held 1.2 GB for insertion:1000); not under ASan,
# whose shadow memory needs more
limit() { if [ "${SN_SANITIZED:-0}" = 1 ]; then "$@"; else (ulimit -v 400000 && exec "$@"); fi; }
for net in pairwise:100 transposition:100 insertion:1000; do
    expect 4 limit "$S" check "$net"
    err_has "cannot be decided by this method"
    err_has "years"
    grep -qiE "does not sort[ :]|sorts: no" "$T/err" "$T/out" && fail "$net reads as a failed verdict"
done
expect 4 "$S" check pairwise:100 --json
[ "$(json 'd["sorts"], d["n"], d["reason"].startswith("cannot be decided"), d["bruteforce_seconds"] > 3e7')" = \
  "None 100 True True" ] || fail "undecided json: $(cat "$T/out")"
# the 0-1 pattern sets of insertion and bubble grow like 2^n: auto hands
# them to the split, which proves them (the reduction alone held 585 MB
# and took 9 s to refuse insertion:64)
for net in insertion:64 bubble:64 insertion:300; do
    expect 0 limit "$S" check "$net"
    out_has "sorts: yes (proved by the split"
done

# real networks from files of each format sort (the whole library is
# proven in cli_library.sh): written by `gen` from the library, read back
for net in best:10 best-depth:13 best:16 lib:16i-10s-60c-0 best:19; do
    for fmt in bracket sn; do
        "$S" gen "$net" --format $fmt -o "$T/net.$fmt" 2>"$T/err" || fail "gen $net: $(cat "$T/err")"
        expect 0 "$S" check "$T/net.$fmt"
        out_has "sorts: yes"
    done
done
if [ -f "${SN_NETWORKS:-}/best/Sort_16_60_10.json" ] && "$S" info "$SN_NETWORKS/best/Sort_16_60_10.json" >/dev/null 2>&1; then
    expect 0 "$S" check "$SN_NETWORKS/best/Sort_16_60_10.json"
    out_has "sorts: yes"
fi

# Ctrl-C stops a long proof cleanly: exit 130, a message, no verdict. The
# signal goes once the handler is in place (SIGINT's bit in SigCgt), not
# after a fixed time that a busy machine might not reach it in.
"$S" check oddeven-merge:40 --method bruteforce --force >"$T/out" 2>"$T/err" &
pid=$!
for _ in $(seq 6000); do
    m=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null)
    [ -n "$m" ] && (((0x$m >> 1) & 1)) && break
    sleep 0.01
done
kill -INT "$pid"
wait "$pid"
rc=$?
[ $rc = 130 ] || fail "SIGINT during check: exit $rc, expected 130"
err_has "interrupted"
grep -q "sorts:" "$T/out" && fail "a verdict was printed after SIGINT: $(cat "$T/out")"

# the progress bar: on a terminal for long work (with the time left), and
# never when stderr is not a terminal. The proof is stopped once the bar
# has shown (or after two minutes), not after a fixed time.
if command -v script >/dev/null; then
    script -qc "'$S' check oddeven-merge:34 --method bruteforce --force --threads 1" \
        /dev/null >"$T/tty" 2>&1 &
    spid=$!
    for _ in $(seq 1200); do
        tr '\r' '\n' <"$T/tty" | grep -aqE "checking \[.*%.*left" && break
        kill -0 "$spid" 2>/dev/null || break
        sleep 0.1
    done
    pkill -INT -P "$spid"
    wait "$spid"
    tr '\r' '\n' <"$T/tty" | grep -aqE "checking \[.*%.*left" ||
        fail "no progress bar on a terminal: $(head -c 300 "$T/tty" | cat -v)"
fi
expect 0 "$S" check oddeven-merge:24 --method bruteforce --threads 1
grep -q "checking \[" "$T/err" && fail "progress bar written to a non-terminal"

finish cli_check
