#!/bin/bash
# cli_usage.sh - usage errors of every command and option that the other
# scripts leave out: each exits 2 (3 for a part not built) and names the
# option and the value it refused; and the paths next to them that do work
# (--help, the option's accepted values). One rank, no mpirun, small N: the
# machine is shared; nothing here looks at a time.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1

# usage CODE MESSAGE ARGS...: sortnet ARGS exits CODE and stderr holds MESSAGE
usage() {
    local want=$1 msg=$2
    shift 2
    expect "$want" "$S" "$@"
    err_has "$msg"
}

# ---- dist sort (one rank: MPI's singleton, no mpirun)
if has_part "MPI (sortnet dist)"; then
    mpi_env # (under ASan: Open MPI's own leaks are suppressed, not ours)
    usage 2 "--seed: 'x' is not a number" dist sort --keys 10 --seed x
    usage 2 "--type: 'i64' is not i32, u32 or f32" dist sort --keys 10 --type i64
    usage 2 "--timeout: '0' is not seconds in 1..604800" dist sort --keys 10 --timeout 0
    usage 2 "--distinct: '0' is not a count" dist sort --keys 10 --distinct 0
    usage 2 "--local: 'quick' is not auto, cpu or gpu" dist sort --keys 10 --local quick
    usage 2 "--inject-fault: '7' is not RANK:INDEX" dist sort --keys 10 --inject-fault 7
    usage 2 "--inject-fault: ':3' is not RANK:INDEX" dist sort --keys 10 --inject-fault :3
    usage 2 "--inject-fault: '0:x' is not RANK:INDEX with RANK in 0..0" \
        dist sort --keys 10 --inject-fault 0:x
    usage 2 "--keys: '2^41' is not a count of keys" dist sort --keys 2^41
    usage 2 "dist sort: unknown option '--bogus'" dist sort --keys 10 --bogus
    usage 2 "dist sort: option '--keys' needs a value" dist sort --keys
    usage 2 "expected at most one network" dist sort --keys 10 best:2 best:2
    usage 2 "give the network once (NET or --network)" dist sort --keys 10 --network best:2 best:2
    usage 2 "dist: 'shuffle' is not a subcommand (sort)" dist shuffle
    usage 2 "expected a subcommand: sort" dist
    expect 0 "$S" dist sort --keys 10 -h
    out_has "usage: mpirun -np P sortnet dist sort"
    # the accepted values: --network auto, 2^K keys, --local cpu, --distinct, --threads
    expect 0 "$S" dist sort --keys 2^3 --local cpu --threads 2 --distinct 3 --network auto
    out_has "dist sort: 8 keys (i32) on 1 rank(s), network empty:1"
    out_has "local sort: CPU, 2 threads"
    out_has "identical"
    expect 0 "$S" dist sort --keys 10 --local auto --timeout 600 --type u32 --payload
    out_has "10 keys (u32, payload)"
    usage 2 "bitonic:x: 'x' is not a number of wires" dist sort bitonic:x --keys 10
    # a fault that breaks a block's order (all keys equal, one a bit off)
    expect 1 "$S" dist sort --keys 100 --distinct 1 --inject-fault 0:5
    out_has "first unsorted block: rank 0 at index 5"
    out_has "first mismatch with the reference: index 5, expected 0, actual 1"
    out_has "NOT identical"
    if command -v python3 >/dev/null && has_part "JSON (jansson)"; then
        expect 1 "$S" dist sort --keys 100 --distinct 1 --inject-fault 0:5 --json
        [ "$(json 'd["identical"], d["first_unsorted"], d["first_mismatch"]["index"]')" = \
            "False {'rank': 0, 'index': 5} 5" ] || fail "dist sort --json, unsorted block: $(cat "$T/out")"
    fi
fi

# ---- check: --select, --device with other questions, a bad device
usage 2 "--select: '1,x' is not an output K or a pair K,K2" check bitonic:4 --select 1,x
usage 2 "--device: 'cuda' is not opencl or opencl:P:D" check bitonic:4 --device cuda
usage 2 "--device: the device checks sorting only (not --merge)" \
    check bitonic:4 --merge 2 --device opencl
if has_part OpenCL; then
    usage 2 "--device: 'opencl:x' is not opencl or opencl:P:D" check bitonic:4 --device opencl:x
    usage 2 "--device: the device checks sorting only; median:5 is a median network" \
        check median:5 --device opencl
fi

# ---- run: a generator without :N and no input to size it; the key file
# against --max-memory (its size, then the keys of n)
usage 2 "for a generated network, write bitonic:N" run bitonic
printf '3 1 2\n' >keys.txt
head -c 400 /dev/zero | tr '\0' '7' >big.txt
usage 2 "big.txt: needs about 1.2 KiB of memory, but --max-memory allows 1.0 KiB" \
    --max-memory 1K run bitonic --input-file big.txt
usage 2 "input: needs about 48 bytes of memory, but --max-memory allows 40 bytes" \
    --max-memory 40 run bitonic --input-file keys.txt
expect 0 "$S" --max-memory 1K run bitonic --input-file keys.txt
out_has "network:       bitonic:3 (3 inputs"
out_has "output:        1,2,3"
# --trace past SN_TRACE_FULL_MAX words: each layer as a 64-bit digest
expect 0 "$S" run bitonic:131072 --trace --sorted
[ "$(grep -c '^after layer .*: digest [0-9a-f]\{16\}' "$T/out")" -gt 100 ] ||
    fail "run --trace, large n: no digests: $(head -c 300 "$T/out")"
out_has "result:          sorted, 0 swaps"
if has_part "JSON (jansson)"; then
    expect 0 "$S" run bitonic:131072 --trace --sorted --json
    [ "$(json 'len(d["layers"]), len(d["layers"][0]), d["sorted"]')" = "153 16 True" ] ||
        fail "run --trace --json, large n: $(head -c 300 "$T/out")"
fi

# ---- list --n N --json: only the networks on N inputs
if command -v python3 >/dev/null && has_part "JSON (jansson)"; then
    expect 0 "$S" list --n 4 --json
    [ "$(json 'sorted(e["name"] for e in d), {e["n"] for e in d}')" = \
        "['lib:Median_4_4_2', 'lib:Sort_4_5_3'] {4}" ] || fail "list --n 4 --json: $(cat "$T/out")"
fi

# ---- transform: --permute's entries, too many operations, unknown options
usage 2 "--permute: '0,,1,2' is not a list of 4 wires: an empty or overlong entry" \
    transform bitonic:4 --permute 0,,1,2
usage 2 "--permute: '0,1,2,3,4' is not a list of 4 wires: too many entries" \
    transform bitonic:4 --permute 0,1,2,3,4
usage 2 "--permute: entry 2, 'a', is not a number" transform bitonic:4 --permute 0,a,2,3
usage 2 "--permute: '0,1' has 2 entries; the network has 4 wires" transform bitonic:4 --permute 0,1
usage 2 "--cut: '0': the network has wires 0..0 (nothing left to cut)" transform empty:1 --cut 0:min
usage 2 "transform: unknown option '--bogus'" transform bitonic:4 --bogus
# shellcheck disable=SC2046 # 65 words on purpose
usage 2 "transform: at most 64 operations" transform bitonic:4 $(printf -- '--reflect %.0s' $(seq 65))
expect 0 "$S" transform bitonic:4 $(printf -- '--reflect %.0s' $(seq 64))
out_has "[(0,3),(1,2)]"

# ---- draw: input errors, no network, too many, the limit, --follow, dist:
if has_part "cairo drawing"; then
    usage 2 "--random: 'x' is not a seed" draw bitonic:4 --random x -o a.svg
    usage 2 "draw: expected a network" draw -o a.svg
    usage 2 "draw: 'bitonic:4': at most 3 networks side by side" \
        draw bitonic:4 bitonic:4 bitonic:4 bitonic:4 -o a.svg
    usage 2 "bitonic:8: 24 comparators, more than --max-comparators (5) allows" \
        --max-comparators 5 draw bitonic:8 -o a.svg
    usage 2 "--follow: wire 9 does not exist (the network has 4)" \
        draw bitonic:4 --follow 9 -o a.svg
    [ ! -e a.svg ] || fail "draw: a refused picture was written"
    # a network that leaves the input unsorted, drawn with its values
    expect 0 "$S" draw empty:3 --input 3,2,1 -o a.svg
    grep -q "<svg" a.svg || fail "draw empty:3 --input: no SVG"
    # dist: after the local sort only; --scale and --width size it
    expect 0 "$S" draw dist:4 -o all.svg
    expect 0 "$S" draw dist:4 --step 0 -o step0.svg
    cmp -s all.svg step0.svg && fail "draw dist:4 --step 0 drew every layer"
    expect 0 "$S" draw dist:4 --scale 2 -o x2.svg
    expect 0 "$S" draw dist:4 --width 800 -o w800.svg
    width() { head -c 400 "$1" | sed -n 's/.*<svg[^>]* width="\([0-9.]*\)px".*/\1/p'; }
    python3 -c "import sys; a,b,c=map(float,sys.argv[1:]); sys.exit(not (1.9<b/a<2.1 and 760<c<840))" \
        "$(width all.svg)" "$(width x2.svg)" "$(width w800.svg)" ||
        fail "draw dist:4 --scale 2 / --width 800: widths $(width all.svg) $(width x2.svg) $(width w800.svg)"
fi

# ---- view: every option error comes before a window opens (no display needed)
if has_part "SDL2 window"; then
    usage 2 "--size: 'x' is not WxH" view --size x
    usage 2 "--size: '10x10' is not WxH" view --size 10x10
    usage 2 "--font-scale: '9' is not a factor from 0.6 to 3" view --font-scale 9
    usage 2 "--theme: 'x' is not light, dark or contrast" view --theme x
    usage 2 "view: unexpected argument 'd:4' (one to three networks side by side)" \
        view a:4 b:4 c:4 d:4
    usage 2 "--lesson: a lesson sets its own networks: drop 'bitonic:4'" view bitonic:4 --lesson 01
    usage 2 "--random: 'x' is not a seed" view bitonic:4 --random x
    usage 2 "nosuch.txt: cannot open: No such file or directory" view bitonic --input-file nosuch.txt
    usage 2 "--keys: '99' is not a number of keys a rank (1..16)" view --keys 99 dist:4
    usage 2 "--stay: goes with --script" view --stay
    usage 2 "view: unknown option '--bogus'" view --bogus
fi

finish cli_usage
