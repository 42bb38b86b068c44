#!/usr/bin/env python3
"""cl_build_log.py - build OpenCL C files as one program on a device and
print the compiler's log: with NVIDIA's `-cl-nv-verbose`, each kernel's
registers, spills and local memory (what decides how many work-groups a
compute unit holds). Needs only the OpenCL loader (ctypes; no pyopencl).

    python3 bench/cl_build_log.py --device NVIDIA --opts "-cl-nv-verbose -DWG=256" \\
        kernels/keys.cl kernels/sorts.cl kernels/onesweep.cl

--device: a substring of the platform or device name (the first match).
The files are concatenated in order, as src/gpu/sorts.c builds
sorts.cl + onesweep.cl behind keys.cl. Exit 1 when the build fails."""
import argparse
import ctypes as C
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", default="")
    ap.add_argument("--opts", default="")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    cl = C.CDLL("libOpenCL.so.1")
    n = C.c_uint(0)
    cl.clGetPlatformIDs(0, None, C.byref(n))
    plats = (C.c_void_p * n.value)()
    cl.clGetPlatformIDs(n.value, plats, None)
    buf = C.create_string_buffer(1 << 16)
    dev = None
    for p in plats:
        cl.clGetPlatformInfo(C.c_void_p(p), 0x0902, len(buf), buf, None)  # CL_PLATFORM_NAME
        pname = buf.value.decode()
        nd = C.c_uint(0)
        if cl.clGetDeviceIDs(C.c_void_p(p), C.c_ulong(0xFFFFFFFF), 0, None, C.byref(nd)) != 0:
            continue
        devs = (C.c_void_p * nd.value)()
        cl.clGetDeviceIDs(C.c_void_p(p), C.c_ulong(0xFFFFFFFF), nd.value, devs, None)
        for d in devs:
            cl.clGetDeviceInfo(C.c_void_p(d), 0x102B, len(buf), buf, None)  # CL_DEVICE_NAME
            name = f"{pname} / {buf.value.decode()}"
            if a.device in name and dev is None:
                dev = d
                print(f"device: {name}")
    if dev is None:
        print(f"cl_build_log: no device matches '{a.device}'", file=sys.stderr)
        return 2
    err = C.c_int(0)
    cl.clCreateContext.restype = C.c_void_p
    ctx = cl.clCreateContext(None, 1, C.byref(C.c_void_p(dev)), None, None, C.byref(err))
    src = "\n".join(open(f).read() for f in a.files).encode()
    cl.clCreateProgramWithSource.restype = C.c_void_p
    srcs = (C.c_char_p * 1)(src)
    prog = cl.clCreateProgramWithSource(C.c_void_p(ctx), 1, srcs, None, C.byref(err))
    rc = cl.clBuildProgram(C.c_void_p(prog), 1, C.byref(C.c_void_p(dev)), a.opts.encode(), None, None)
    size = C.c_size_t(0)
    cl.clGetProgramBuildInfo(C.c_void_p(prog), C.c_void_p(dev), 0x1183, 0, None, C.byref(size))
    log = C.create_string_buffer(size.value + 1)
    cl.clGetProgramBuildInfo(C.c_void_p(prog), C.c_void_p(dev), 0x1183, size.value, log, None)
    print(log.value.decode(errors="replace"))
    print(f"clBuildProgram: {rc}")
    return 0 if rc == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
