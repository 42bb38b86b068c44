#!/usr/bin/env python3
"""pcie_floor.py - the floors a host-to-host GPU sort is held against,
measured with torch on the machine that runs the sort (same run):

  python3 bench/pcie_floor.py BYTES [BYTES2]

One line a floor, "floor NAME BYTES best_s GB/s": pinned host to device
and back (BYTES, one GPU; then every GPU at once, BYTES2 each, as the
ranks of `dist sort` copy), pageable host to device and back, one core's
memcpy and every core's (torch's CPU copy), a device copy (read + write).
Best of 3 after a warm-up; buffers touched before the clock. Without
torch or a GPU it prints "floor none" and exits 0 (a dry run elsewhere)."""
import sys
import time

try:
    import torch
except ImportError:
    print("floor none (no torch)")
    sys.exit(0)


def best(fn, reps=3):
    fn()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return min(ts)


def line(name, nbytes, s):
    print("floor %s %d %.6f %.2f" % (name, nbytes, s, nbytes / s / 1e9), flush=True)


def main():
    nbytes = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 30
    nb2 = int(sys.argv[2]) if len(sys.argv) > 2 else nbytes
    n = nbytes // 4
    ncpu = torch.get_num_threads()
    h = torch.ones(n, dtype=torch.int32)
    h2 = torch.empty_like(h)
    h2.fill_(0)
    torch.set_num_threads(1)
    line("memcpy_one_core", nbytes, best(lambda: h2.copy_(h)))
    torch.set_num_threads(ncpu)
    line("memcpy_%d_threads" % ncpu, nbytes, best(lambda: h2.copy_(h)))
    if not torch.cuda.is_available():
        print("floor none (no CUDA device)")
        return
    del h2
    p = torch.ones(n, dtype=torch.int32).pin_memory()
    d = torch.empty(n, dtype=torch.int32, device="cuda:0")
    d2 = torch.empty_like(d)

    def sync():
        torch.cuda.synchronize("cuda:0")

    line("pinned_h2d", nbytes, best(lambda: (d.copy_(p, non_blocking=True), sync())))
    line("pinned_d2h", nbytes, best(lambda: (p.copy_(d, non_blocking=True), sync())))
    line("pageable_h2d", nbytes, best(lambda: (d.copy_(h), sync())))
    line("pageable_d2h", nbytes, best(lambda: (h.copy_(d), sync())))
    line("device_copy", 2 * nbytes, best(lambda: (d2.copy_(d), sync())))
    del d, d2, p, h
    ng = torch.cuda.device_count()
    if ng > 1:
        m = nb2 // 4
        ps = [torch.ones(m, dtype=torch.int32).pin_memory() for _ in range(ng)]
        ds = [torch.empty(m, dtype=torch.int32, device="cuda:%d" % i) for i in range(ng)]

        def both(up):
            for i in range(ng):
                with torch.cuda.device(i):
                    if up:
                        ds[i].copy_(ps[i], non_blocking=True)
                    else:
                        ps[i].copy_(ds[i], non_blocking=True)
            for i in range(ng):
                torch.cuda.synchronize("cuda:%d" % i)

        line("pinned_h2d_%dgpus_each" % ng, nb2, best(lambda: both(True)))
        line("pinned_d2h_%dgpus_each" % ng, nb2, best(lambda: both(False)))


main()
