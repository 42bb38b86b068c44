#!/bin/bash
# cli_gpu_knobs.sh - the GPU tuning knobs of the environment
# (docs/gpu-speed.md: SN_FUSED_TILE, SN_FUSED_BIGTILE, SN_FUSED_CODEGEN,
# SN_RADIX_E, SN_RADIX_ONESWEEP, SN_RADIX_CLOPTS, SN_RADIX_MAXRREG,
# SN_MERGE_E, SN_MERGE_PG, SN_MERGE_TILE_E):
# a value out of
# range is exit 2 naming the knob, its value and the range; a value in
# range is used and the result stays identical to the reference. Skips
# (77) only without OpenCL: not built, or no platform at all.
. "$(dirname "$0")/lib.sh"

require_gpu

# bad values: the knob, the value and the range
expect 2 env SN_FUSED_BIGTILE=99 "$S" gpu verify bitonic:64 --variant fused
err_has "environment: SN_FUSED_BIGTILE='99' is not a whole number from 0 to 24"
expect 2 env SN_FUSED_CODEGEN=2 "$S" gpu verify bitonic:64 --variant fused
err_has "environment: SN_FUSED_CODEGEN='2' is not a whole number from 0 to 1"
expect 2 env SN_MERGE_PG=64 "$S" gpu sort merge:100
err_has "environment: SN_MERGE_PG='64' is not a whole number from 1 to 32"
expect 2 env SN_RADIX_ONESWEEP=yes "$S" gpu sort radix:100
err_has "environment: SN_RADIX_ONESWEEP='yes' is not a whole number from 0 to 1"
# build options: letters, digits, spaces and -_=.,+ only (nothing the
# option parser would take for more), at most 127 of them
expect 2 env SN_RADIX_CLOPTS='-DOS_WIN=4;-I/tmp' "$S" gpu sort radix:100
err_has "environment: SN_RADIX_CLOPTS='-DOS_WIN=4;-I/tmp' is not build options of at most 127"
expect 2 env SN_RADIX_CLOPTS="$(printf -- '-DX%.0s' $(seq 50))" "$S" gpu sort radix:100
err_has "is not build options of at most 127"
# ... and options the compiler refuses are the knob's error too, with
# what the compiler said
expect 2 env SN_RADIX_ONESWEEP=1 SN_RADIX_CLOPTS="-DOS_WIN=0" "$S" gpu sort radix:100
err_has "environment: SN_RADIX_CLOPTS='-DOS_WIN=0' does not build"
err_has "OS_WIN and OS_HCOPIES are at least 1"
expect 2 env SN_RADIX_MAXRREG=31 "$S" gpu sort radix:100
err_has "environment: SN_RADIX_MAXRREG='31' is not a whole number from 32 to 255"
[ ! -s "$T/out" ] || fail "a knob out of range printed a result: $(cat "$T/out")"

# values in range: used, the output still the reference's
for knobs in "SN_FUSED_TILE=6" "SN_FUSED_BIGTILE=8" "SN_FUSED_TILE=5 SN_FUSED_BIGTILE=0"; do
    # shellcheck disable=SC2086
    expect 0 env $knobs "$S" gpu verify oddeven-merge:256 --variant fused --payload
    out_has "identical"
done
expect 0 env SN_RADIX_E=16 "$S" gpu sort radix:5000 --payload
out_has "identical"
# the radix sort as onesweep (a histogram pass, a scatter per digit: 5
# launches for u32 keys) or classic (count, scan and scatter per digit)
expect 0 env SN_RADIX_ONESWEEP=1 "$S" gpu sort radix:5000 --payload --type u32
out_has "(5 launches)"
out_has "identical"
# kernels/onesweep.cl's variants through the build options: a look-back
# window of 2 words, one copy of os_hist's counters (15 tiles on a CPU)
expect 0 env SN_RADIX_ONESWEEP=1 SN_RADIX_CLOPTS="-DOS_WIN=2 -DOS_HCOPIES=1" SN_RADIX_MAXRREG=64 \
    "$S" gpu sort radix:30011 --payload --type i32 --random 4
out_has "identical"
expect 0 env SN_RADIX_ONESWEEP=0 "$S" gpu sort radix:5000 --payload --type u32
out_has "(12 launches)"
out_has "identical"
# a merge tile shorter than half a merge chunk is lengthened to it
expect 0 env SN_MERGE_E=8 SN_MERGE_TILE_E=2 "$S" gpu sort merge:3000 --random 3
out_has "identical"

finish cli_gpu_knobs
