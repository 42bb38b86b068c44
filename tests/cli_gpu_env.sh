#!/bin/bash
# cli_gpu_env.sh - `gpu verify` and `gpu list` under a memory limit that
# keeps pocl from starting (issue 36): the message names what the platform
# answered (the call, its error name and code), never a bare "none has a
# device". Skips (77) without an OpenCL platform, or when the binary
# itself cannot start under the limit (a sanitizer build).
. "$(dirname "$0")/lib.sh"

"$S" gpu list >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 3 ] && { echo "SKIP: no OpenCL platform: $(cat "$T/err")" >&2; exit 77; }
[ $rc = 0 ] || { echo "gpu list exited $rc: $(cat "$T/err")" >&2; exit 1; }
(ulimit -v 300000 && "$S" --version) >/dev/null 2>&1 ||
    { echo "SKIP: sortnet cannot start under ulimit -v 300000 here" >&2; exit 77; }

(ulimit -v 300000 && exec "$S" gpu verify bitonic:8) >"$T/out" 2>"$T/err"
rc=$?
case $rc in
0) echo "note: the driver started under the limit here: nothing to check" >&2 ;;
3 | 5)
    grep -qE "clGet(Platform|Device)IDs( failed| returned)?: CL_[A-Z_]+ \(-?[0-9]+\)" "$T/err" ||
        fail "gpu verify under a memory limit: no call and code: $(cat "$T/err")"
    ;;
*) fail "gpu verify under a memory limit exited $rc: $(cat "$T/err")" ;;
esac

(ulimit -v 300000 && exec "$S" gpu list) >"$T/out" 2>"$T/err"
rc=$?
if [ $rc = 0 ] && grep -q "no OpenCL devices" "$T/out"; then
    grep -qE "clGetDeviceIDs( failed| returned)?: CL_[A-Z_]+ \(-?[0-9]+\)" "$T/out" ||
        fail "gpu list under a memory limit: no call and code: $(cat "$T/out")"
fi

finish cli_gpu_env
