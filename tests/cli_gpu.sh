#!/usr/bin/env bash
# cli_gpu.sh - end-to-end tests of `sortnet gpu` through the real binary:
# list, verify verdicts and exit codes, the JSON shape of docs/design.md,
# injected faults named at their layer, user kernels (good, wrong, broken,
# crashing, endless, doing nothing: each its own verdict, in bounded time),
# no OpenCL platform (exit 3), bad usage. Skips (77) only when sortnet is
# built without OpenCL or no OpenCL platform exists at all.
. "$(dirname "$0")/lib.sh"
require_part OpenCL

# No platform at all (an empty vendors folder): exit 3 with a clear message,
# whether or not this machine has a driver.
mkdir -p "$T/novendors"
expect 3 env OCL_ICD_VENDORS="$T/novendors" "$S" gpu list
err_has "no OpenCL platform"
expect 3 env OCL_ICD_VENDORS="$T/novendors" "$S" gpu verify bitonic:8
err_has "no OpenCL platform"
expect 3 env OCL_ICD_VENDORS="$T/novendors" "$S" gpu bench --sizes 2^10
err_has "no OpenCL platform"
expect 3 env OCL_ICD_VENDORS="$T/novendors" "$S" check bitonic:8 --device opencl
err_has "no OpenCL platform"

expect 0 "$S" gpu --help
out_has "usage: sortnet gpu"
expect 0 "$S" gpu verify --help
out_has "--inject-fault"
out_has "--timeout SECONDS"
expect 0 "$S" gpu list --help
expect 2 "$S" gpu
expect 2 "$S" gpu frobnicate
expect 2 "$S" gpu verify --no-such-option bitonic:4
err_has "unknown option"
expect 2 "$S" gpu verify
expect 2 "$S" gpu verify bitonic:8 --variant magic
expect 2 "$S" gpu verify bitonic:8 --inject-fault 3
expect 2 "$S" gpu verify bitonic:8 --inject-fault 0:1
err_has "layers count from 1"
expect 2 "$S" gpu verify bitonic:8 --device x
expect 0 "$S" gpu bench --help
out_has "keys_per_s"
expect 2 "$S" gpu bench --no-such-option
err_has "unknown option"
expect 2 "$S" gpu bench --sizes 2^40
expect 2 "$S" gpu bench --sizes x
expect 2 "$S" gpu bench pairwise
expect 2 "$S" gpu bench --reps 0

require_gpu
"$S" gpu list >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] || fail "gpu list exited $rc: $(cat "$T/err")"
out_has "compute units"
out_has "max work-group size"
grep -q '^\* device' "$T/out" || fail "gpu list marks no default device"
expect 2 "$S" gpu verify bitonic:8 --device 99:0
err_has "no OpenCL device 99:0"
expect 2 "$S" gpu list --device 99:0

# identical, every generator, text and JSON
for net in bitonic:37 oddeven-merge:64 transposition:19 pairwise:45 bubble:12 insertion:9 \
    oddeven-merge:45 merge-exchange:33 hibbard:20 median:25; do
    for ty in i32 u32 f32; do
        expect 0 "$S" gpu verify "$net" --random 5 --type "$ty" --payload
        out_has "identical"
    done
done
# the closed forms padded to a power of two (bitonic:N for other n is the
# balanced split, an explicit network)
expect 0 "$S" gpu verify bitonic-pad:1000 --random 1 --json
[ "$(json 'd["identical"], d["layers"], d["first_mismatch"], type(d["device"]).__name__')" = \
    "True 55 None str" ] || fail "gpu verify --json shape: $(cat "$T/out")"
for v in pairs left xor div shift; do
    expect 0 "$S" gpu verify bitonic-pad:100 --variant $v --per-layer --reverse
done
expect 2 "$S" gpu verify oddeven-merge:16 --variant xor
err_has "bitonic"
expect 2 "$S" gpu verify pairwise:16 --variant shift
# too big for the device: a clear error naming the sizes (the pair list of
# bitonic:2^25 is 325 layers x 2^24 pairs x 8 bytes, about 41.6 GiB)
expect 2 "$S" gpu verify bitonic:33554432 --variant pairs --sorted
err_has "exceeds the device's largest buffer"
err_has "MiB"
expect 0 "$S" gpu verify bitonic:4 --input 3,-1,2,-1 --payload
expect 0 "$S" gpu verify bitonic:4 --type f32 --input -0,0,nan,-inf
expect 2 "$S" gpu verify bitonic:4 --input 1,2
# keys from a file: n from the file for a generator named without :N
printf '# keys\n9 -3 7\n0 5 5 -1\n' >"$T/keys.txt"
expect 0 "$S" gpu verify oddeven-merge-pad --input-file "$T/keys.txt" --payload
out_has "oddeven-merge-pad:7: 7 wires"
out_has "input from $T/keys.txt"
out_has identical
expect 2 "$S" gpu verify bitonic:8 --input-file "$T/keys.txt"
err_has "7 keys, but bitonic:8 has 8 wires"
# gpu batch: the arrays from a file, one after another
printf '4 3 2 1\n1 1 0 0\n8 -8 7 -7\n' >"$T/arrays.txt"
expect 0 "$S" gpu batch bitonic:4 --input-file "$T/arrays.txt" --layout columns --json
[ "$(json 'd["arrays"], d["identical"], d["unsorted"]')" = "3 True 0" ] ||
    fail "gpu batch --input-file: $(cat "$T/out")"
expect 2 "$S" gpu batch bitonic:4 --input-file "$T/arrays.txt" --arrays 2
err_has "12 keys, but --arrays 2"

# fused variants: the final array, with the launch count printed
for v in fused fused-local fused-serial; do
    for net in bitonic-pad:1000 oddeven-merge-pad:70000 bitonic-pad:65539; do
        expect 0 "$S" gpu verify "$net" --variant $v --random 3 --type f32 --payload
        out_has "identical"
        out_has "final array only"
        out_has "launches (global passes)"
    done
done
expect 2 "$S" gpu verify bitonic:64 --variant fused --per-layer
expect 2 "$S" gpu verify bitonic:64 --variant fused --inject-fault 1:1
expect 2 "$S" gpu verify transposition:64 --variant fused
err_has "fuses bitonic and oddeven-merge"
expect 2 "$S" gpu list --device
err_has "needs a value"
expect 2 "$S" gpu plot -x
err_has "unknown option"

# the tuning knobs of the environment (docs/gpu-speed.md): a malformed one
# is named; --save-source writes the generated kernels (forced on a CPU
# device with SN_FUSED_CODEGEN=1), or says nothing is generated
expect 2 env SN_FUSED_TILE=big "$S" gpu verify bitonic:64
err_has "SN_FUSED_TILE='big'"
expect 2 "$S" gpu verify bitonic:64 --save-source "$T/k.cl"
err_has "only with a fused variant"
if grep -q "(CPU" "$T/out" 2>/dev/null || "$S" gpu list | grep -q '^\*.*(CPU'; then
    expect 2 env SN_FUSED_CODEGEN=0 "$S" gpu verify bitonic:64 --variant fused-local \
        --save-source "$T/k.cl"
    err_has "nothing is generated"
fi
expect 0 env SN_FUSED_CODEGEN=1 "$S" gpu verify oddeven-merge-pad:100 --variant fused-local \
    --random 2 --save-source "$T/k.cl"
grep -q "__kernel __attribute__((reqd_work_group_size" "$T/k.cl" ||
    fail "--save-source wrote no generated kernel: $(head -c 300 "$T/k.cl")"
# --profile: each timed launch's own time on stderr
expect 0 "$S" gpu bench bitonic --sizes 2^8 --reps 1 --cpu-max 1 --profile
err_has "profile: "

# bench: a small run; the CSV has the documented columns and one row per
# variant and size; --plot draws an SVG, or says cairo is missing (exit 3)
expect 0 "$S" gpu bench bitonic oddeven-merge --sizes 2^10,1000 --reps 2 --csv "$T/b.csv"
out_has "fused"
[ "$(head -1 "$T/b.csv")" = "device,network,variant,n,median_ms,keys_per_s" ] ||
    fail "bench csv header: $(head -1 "$T/b.csv")"
[ "$(tail -n +2 "$T/b.csv" | wc -l)" = 20 ] || fail "bench csv rows: $(cat "$T/b.csv")"
[ "$(tail -n +2 "$T/b.csv" | cut -d, -f3 | sort -u | tr '\n' ' ')" = \
    "closed fused naive qsort reference " ] || fail "bench csv variants: $(cat "$T/b.csv")"
# expect_svg FILE CMD...: CMD writes an SVG to FILE, or says that cairo is
# not built (exit 3), and then returns 1
expect_svg() {
    local file=$1
    shift
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    if [ $rc = 3 ]; then
        err_has "built without cairo"
        return 1
    fi
    [ $rc = 0 ] || fail "$* exited $rc: $(cat "$T/err")"
    grep -q "<svg" "$file" || fail "$* wrote no SVG"
}
expect_svg "$T/b.svg" "$S" gpu bench bitonic --sizes 2^10 --reps 1 --plot "$T/b.svg"

# plot: the bench CSV (and rows appended in its columns) to an SVG, for
# results from a machine without cairo; bad rows named by file, line and
# column, exit 2, and no picture written
expect 0 "$S" gpu plot --help
out_has "FILE.csv"
expect 2 "$S" gpu plot
expect 2 "$S" gpu plot "$T/b.csv"
err_has "-o FILE.svg"
expect 2 "$S" gpu plot --frobnicate "$T/b.csv" -o "$T/p.svg"
expect 2 "$S" gpu plot "$T/missing.csv" -o "$T/p.svg"
err_has "missing.csv"
printf 'NVIDIA H200,anchor,torch.sort,16777216,0.84,2.0e10\n' >"$T/anchors.csv"
if expect_svg "$T/p.svg" "$S" gpu plot "$T/b.csv" "$T/anchors.csv" -o "$T/p.svg"; then
    cp "$T/p.svg" "$T/p.before"
    for bad in 'x,y:2:4:found 2' 'd,n,v,ten,1,2:2:7:whole number' 'd,n,v,5,-1,2:2:9:>= 0' \
        'd,,v,5,1,2:2:3:empty network' 'd,n,v,5,1,2,3:2:12:more than 6'; do
        row=${bad%%:*}
        rest=${bad#*:}
        printf 'device,network,variant,n,median_ms,keys_per_s\n%s\n' "$row" >"$T/bad.csv"
        expect 2 "$S" gpu plot "$T/bad.csv" -o "$T/p.svg"
        err_has "bad.csv:${rest%:*}: "
        err_has "${rest##*:}"
        cmp -s "$T/p.svg" "$T/p.before" || fail "gpu plot changed its output on a bad row ($row)"
    done
    printf 'device,network,variant,n,median_ms,keys_per_s\n' >"$T/empty.csv"
    expect 2 "$S" gpu plot "$T/empty.csv" -o "$T/p.svg"
    err_has "no rows"
fi

# the 0-1 checker on the device: the CPU's verdict, counterexample,
# counts and redundant comparators (JSON without the time)
printf '[(0,1),(2,3)]\n[(0,2),(1,3)]\n' >"$T/b4.txt"
printf '[(0,1),(2,3),(4,5)]\n[(0,2),(1,4)]\n[(1,2),(3,5)]\n[(0,1),(2,3),(4,5)]\n' >"$T/b6.txt"
strip() { python3 -c "import json,sys; d=json.load(open('$T/out')); d.pop('seconds'); print(d)"; }
for net in bitonic:8 oddeven-merge:13 pairwise:12 insertion:6 "$T/b4.txt" "$T/b6.txt"; do
    "$S" check "$net" --method bruteforce --json >"$T/out" 2>"$T/err"
    a=$(strip)
    "$S" check "$net" --device opencl --json >"$T/out" 2>"$T/err"
    b=$(strip)
    [ "$a" = "$b" ] || fail "check $net: cpu $a, device $b"
done
expect 1 "$S" check "$T/b4.txt" --device opencl
out_has "counterexample"
out_has "checked on:"
expect 2 "$S" check bitonic:8 --device opencl:9:9
expect 2 "$S" check bitonic:8 --device opencl:x
expect 2 "$S" check bitonic:8 --device opencl --method reduce

# an injected fault is named at exactly its layer and index (snapshots,
# lockstep and digests); people count layers from 1, JSON's "layer" from 0
expect 1 "$S" gpu verify bitonic:64 --random 3 --inject-fault 8:20
out_has "injected fault: element 20 flipped after layer 8"
out_has "differs: first after layer 8, wire 20"
expect 1 "$S" gpu verify bitonic:64 --random 3 --inject-fault 8:20 --per-layer
out_has "first after layer 8,"
expect 1 "$S" gpu verify oddeven-merge-pad:300000 --random 3 --inject-fault 101:123456 --json
[ "$(json 'd["identical"], d["first_mismatch"]["layer"], d["first_mismatch"]["after_layer"], d["first_mismatch"]["index"]')" = \
    "False 100 101 123456" ] || fail "digest-mode fault: $(cat "$T/out")"
# the last layer is 6 of 6, a 7th is refused naming the range
expect 1 "$S" gpu verify bitonic:8 --random 2 --inject-fault 6:0
out_has "differs: first after layer 6, wire 0"
expect 2 "$S" gpu verify bitonic:8 --inject-fault 7:0
err_has "cannot inject a fault after layer 7"
err_has "6 layers (1..6)"

# user kernels: a good one, a wrong one (layer named), a broken one (log)
cp "$(dirname "$0")/student_layer.cl" "$T/good.cl"
# Wrong: compares with >= and swaps the payload of equal keys, which the
# reference never moves. With the input 0011 the keys stay right, and layer
# 0 of bitonic:4 is (0,1),(2,3): both pairs hold equal keys, so the payload
# is wrong from layer 0 on, first at wire 0.
sed 's/if (x > y)/if (x >= y)/' "$T/good.cl" >"$T/wrong.cl"
cat >"$T/broken.cl" <<'CL'
__kernel void sn_layer(__global uint *keys) { keys[0] = no_such_variable; }
CL
expect 0 "$S" gpu verify pairwise:24 --kernel "$T/good.cl" --payload --random 9
out_has "identical"
expect 1 "$S" gpu verify bitonic:4 --kernel "$T/wrong.cl" --payload --bits 0011
out_has "differs: first after layer 1, payload of wire 0: expected 0, actual 1"
expect 2 "$S" gpu verify bitonic:8 --kernel "$T/broken.cl"
# one line that says so, then the build log once, indented under it; no
# stray "1 error generated." from the runtime's compiler
[ "$(head -n 1 "$T/err")" = "sortnet: $T/broken.cl: build failed:" ] ||
    fail "build failure's first line: $(head -n 1 "$T/err")"
err_has "no_such_variable"
[ "$(grep -c no_such_variable "$T/err")" = 1 ] || fail "build log twice: $(cat "$T/err")"
grep -v '^sortnet: ' "$T/err" | grep -qv '^    ' && fail "unindented build log: $(cat "$T/err")"
grep -q "generated\." "$T/err" && fail "stray compiler summary: $(cat "$T/err")"
# the log names the student's file and line, not the runtime's temporary copy
err_has "$T/broken.cl:1:"
grep -q tempfile "$T/err" && fail "the build log names a temporary file: $(cat "$T/err")"
expect 2 "$S" gpu verify bitonic:8 --kernel "$T/no-such-file.cl"
[ "$(cat "$T/err")" = "sortnet: --kernel: $T/no-such-file.cl: cannot open: No such file or directory" ] ||
    fail "missing kernel file: $(cat "$T/err")"

# user kernels run in a process of their own: a crash or an endless loop
# is a verdict (exit 1) naming the layer, in bounded time, and nothing of
# the device process is left running. Each run is bounded by timeout(1) so
# that a regression fails instead of hanging the suite.
user_kernel() { # NAME BODY: a kernel file $T/NAME.cl with the documented signature
    printf '%s\n' '__kernel void sn_layer(__global uint *keys, __global uint *payload,' \
        '    __global const uint2 *pairs, uint count, uint n, uint algo, uint p, uint q)' \
        "{ uint t = get_global_id(0); $2 }" >"$T/$1.cl"
}
none_left() { # NAME: no process runs $T/NAME.cl any more
    pgrep -f "$T/$1.cl" >/dev/null && fail "a process of $1.cl is still running: $(pgrep -fa "$T/$1.cl")"
}
user_kernel oob 'keys[t + 100000000u] = 0;'
user_kernel endless 'while (keys[0] != 12345678u) payload[t] = payload[t] + 1u;'
user_kernel nothing ''
# pairwise is an explicit network: p is the layer's index (from 0: p == 2u
# is the third layer)
user_kernel oob2 'if (p == 2u) keys[t + 100000000u] = 0; else if (t < count && keys[pairs[t].x] > keys[pairs[t].y]) { uint x = keys[pairs[t].x]; keys[pairs[t].x] = keys[pairs[t].y]; keys[pairs[t].y] = x; }'
expect 1 timeout 300 "$S" gpu verify bitonic:16 --kernel "$T/oob.cl"
out_has "your kernel crashed the device process ("
out_has ") during layer 1"
# (under AddressSanitizer the child's crash is ASan's report and exit status)
grep -q AddressSanitizer "$T/err" ||
    out_has "(signal 11: most often an out-of-bounds write) during layer 1"
none_left oob
expect 1 timeout 300 "$S" gpu verify pairwise:16 --kernel "$T/oob2.cl"
out_has ") during layer 3"
none_left oob2
# a device call that fails while a layer runs is the kernel's verdict too
# (GPUs report an out-of-bounds access so); here: a work-group size that
# cannot divide the launch
sed 's/__kernel void/__kernel __attribute__((reqd_work_group_size(7, 1, 1))) void/' \
    "$T/good.cl" >"$T/wg.cl"
expect 1 timeout 300 "$S" gpu verify bitonic:16 --kernel "$T/wg.cl"
out_has "your kernel failed on the device during layer 1: clEnqueueNDRangeKernel(sn_layer) failed"
none_left wg
# a write just past the end that the device lets through changes the guard
# words after keys and payload: the layer fails naming the word, never
# "identical" (the right compare-exchange plus one stray write)
swap='if (t < count && keys[pairs[t].x] > keys[pairs[t].y]) { uint a = pairs[t].x, b = pairs[t].y, x = keys[a], y = payload[a]; keys[a] = keys[b]; keys[b] = x; payload[a] = payload[b]; payload[b] = y; }'
user_kernel pastkeys "$swap if (t == 0u) keys[n] = 7u;"
user_kernel pastpay "$swap if (t == 0u) payload[n + 5u] = 1u;"
expect 1 timeout 300 "$S" gpu verify bitonic:16 --kernel "$T/pastkeys.cl"
out_has "your kernel failed on the device during layer 1: it wrote past the end of keys: keys[16], past its 16 words"
expect 1 timeout 300 "$S" gpu verify bitonic:16 --kernel "$T/pastpay.cl"
out_has "it wrote past the end of payload: payload[21], past its 16 words"
grep -q identical "$T/out" && fail "a write past the end passed: $(cat "$T/out")"
expect 1 timeout 300 "$S" gpu verify bitonic:16 --kernel "$T/oob.cl" --json
[ "$(json 'd["identical"], d["first_mismatch"], d["fault"]["kind"], d["fault"]["layer"]')" = \
    "False None crash 0" ] || fail "gpu verify --json of a crash: $(cat "$T/out")"
# (the outer timeouts only guard against a hang: a busy machine may build
# kernels slowly, so no test here measures wall-clock time)
expect 1 timeout 300 "$S" gpu verify bitonic:16 --kernel "$T/endless.cl" --timeout 2
out_has "your kernel did not finish layer 1 within 2 s (an endless loop?)"
none_left endless
# the device is usable right after a killed run
expect 0 timeout 300 "$S" gpu verify bitonic:16 --kernel "$T/good.cl" --payload
out_has "identical"
expect 1 timeout 300 "$S" gpu verify bitonic:16 --kernel "$T/endless.cl" --timeout 0.5 --json
[ "$(json 'd["fault"]["kind"], d["fault"]["layer"], d["fault"]["seconds"]')" = \
    "timeout 0 0.5" ] || fail "gpu verify --json of a time-out: $(cat "$T/out")"
none_left endless
expect 1 timeout 300 "$S" gpu verify bitonic:16 --kernel "$T/nothing.cl" --input 16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1
out_has "differs: first after layer 1, wire 0: expected 15, actual 16"
expect 1 "$S" gpu verify bitonic:16 --kernel "$T/good.cl" --inject-fault 4:5
out_has "first after layer 4, wire 5"
expect 2 "$S" gpu verify bitonic:16 --kernel "$T/good.cl" --device 99:0
err_has "no OpenCL device 99:0"
for bad in -1 abc nan inf 1e9 ''; do
    expect 2 "$S" gpu verify bitonic:16 --kernel "$T/good.cl" --timeout "$bad"
    err_has "--timeout"
done
expect 2 "$S" gpu verify bitonic:16 --timeout 5
err_has "only with --kernel"
expect 3 env OCL_ICD_VENDORS="$T/novendors" "$S" gpu verify bitonic:8 --kernel "$T/good.cl"
err_has "no OpenCL platform"

# progress on long runs: from 2^24 wires every phase's seconds on stderr
# (not under the sanitizers: minutes there), none for small n
expect 0 "$S" gpu verify bitonic:1024 --random 1 --variant fused
grep -q "gpu verify: .* s$" "$T/err" && fail "phase lines for 1024 wires: $(head -c 300 "$T/err")"
if [ "${SN_SANITIZED:-0}" != 1 ]; then
    expect 0 "$S" gpu verify bitonic-pad:16777216 --random 1 --variant fused
    out_has "identical"
    for phase in "making the input" "copies of the input" "device run" \
        "reference executor (during the device run)" "comparison"; do
        err_has "gpu verify: $phase"
    done
fi

# the repository's network files (assets/networks/sn)
for f in "${SN_NETWORKS:-$(dirname "$0")/../assets/networks}"/sn/*.sn; do
    expect 0 "$S" gpu verify "$f" --random 4 --payload
done

# the shipped library's networks up to 24 inputs, by name (test_gpu
# verifies all of them in-process)
for name in $(for n in $(seq 2 24); do "$S" list --n $n | awk '/^lib:/ {print $1}'; done); do
    expect 0 "$S" gpu verify "$name" --random 4 --payload
done

finish cli_gpu
