#!/usr/bin/env python3
"""gpu_anchors.py - what a user would pick instead of a sorting network on an
NVIDIA GPU: torch.sort and cupy.sort (CUB's radix sort) of random 32-bit
keys, timed like `sortnet gpu bench` times its kernels (median of repeated
runs after a warm-up, device time from CUDA events).

    python3 bench/gpu_anchors.py [--sizes 2^20,2^24] [--shapes 2^22x16,2^20x64]
                                 [--reps 21] [--csv FILE]

--sizes: 1-D sorts of n keys (an empty list skips them), and a plain
device copy of the n keys (torch.copy: the memory floor; an LSD radix sort
of 8-bit digits reads and writes the keys at least 4 times). --shapes: the 2-D
case of `sortnet gpu batch` / `gpu bench --variant batch`: M rows of n keys,
an (M, n) tensor sorted along its last axis (torch.sort(x, dim=-1), which
also returns the indices; cupy.sort(x, axis=-1)), and a plain device copy
of the same bytes (torch: y.copy_(x), i.e. cudaMemcpy device to device): the
memory floor a batch sort can approach.

Prints one line per library and size; --csv appends rows in gpu bench's
columns (device,network,variant,n,median_ms,keys_per_s) with the library as
the variant; 2-D rows have network "MxN" (e.g. 4194304x16) and n = M * N,
all keys. A library that is not installed is skipped with a note."""
import argparse
import statistics
import sys


def parse_sizes(text):
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        out.append(1 << int(part[2:]) if part.startswith("2^") else int(part))
    return out


def parse_shapes(text):
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        m, n = part.lower().split("x")
        out.append((parse_sizes(m)[0], parse_sizes(n)[0]))
    return out


def time_events(fn, start, end, sync, reps):
    fn()  # warm-up (allocations, plan caches)
    sync()
    times = []
    for _ in range(reps):
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start_elapsed(start, end))
    return statistics.median(times)


def start_elapsed(start, end):
    # torch: start.elapsed_time(end); cupy: cupy.cuda.get_elapsed_time
    if hasattr(start, "elapsed_time"):
        return start.elapsed_time(end)
    import cupy

    return cupy.cuda.get_elapsed_time(start, end)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="2^20,2^24")
    ap.add_argument("--shapes", default="")
    ap.add_argument("--reps", type=int, default=21)
    ap.add_argument("--csv")
    a = ap.parse_args()
    sizes = parse_sizes(a.sizes)
    shapes = parse_shapes(a.shapes)
    rows = []
    try:
        import torch

        dev = torch.cuda.get_device_name(0)
        for n in sizes:
            x = torch.randint(-(2**31), 2**31 - 1, (n,), dtype=torch.int32, device="cuda")
            ev0, ev1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            ms = time_events(lambda: torch.sort(x), ev0, ev1, torch.cuda.synchronize, a.reps)
            rows.append((dev, "torch.sort", n, ms))
            # the memory floor: a device copy of the keys (read + write once)
            y = torch.empty_like(x)
            ms = time_events(lambda: y.copy_(x), ev0, ev1, torch.cuda.synchronize, a.reps)
            rows.append((dev, "torch.copy", n, ms))
            del x, y
        for m, n in shapes:
            # int32 (torch's CUDA sort of uint32 is not in every version):
            # the same bytes, the same comparisons' cost
            x = torch.randint(-(2**31), 2**31 - 1, (m, n), dtype=torch.int32, device="cuda")
            y = torch.empty_like(x)
            ev0, ev1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            ms = time_events(lambda: torch.sort(x, dim=-1), ev0, ev1, torch.cuda.synchronize, a.reps)
            rows.append((dev, "torch.sort", (m, n), ms))
            ms = time_events(lambda: y.copy_(x), ev0, ev1, torch.cuda.synchronize, a.reps)
            rows.append((dev, "torch.copy", (m, n), ms))
            del x, y
    except Exception as e:  # not installed, or no CUDA device
        print(f"gpu_anchors: torch skipped: {e}", file=sys.stderr)
    try:
        import cupy

        dev = cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()
        for n in sizes:
            x = cupy.random.randint(0, 2**32, size=n, dtype=cupy.uint64).astype(cupy.uint32)
            ev0, ev1 = cupy.cuda.Event(), cupy.cuda.Event()
            ms = time_events(lambda: cupy.sort(x), ev0, ev1, cupy.cuda.Device().synchronize, a.reps)
            rows.append((dev, "cupy.sort", n, ms))
        for m, n in shapes:
            x = cupy.random.randint(0, 2**32, size=(m, n), dtype=cupy.uint64).astype(cupy.uint32)
            ev0, ev1 = cupy.cuda.Event(), cupy.cuda.Event()
            ms = time_events(lambda: cupy.sort(x, axis=-1), ev0, ev1,
                             cupy.cuda.Device().synchronize, a.reps)
            rows.append((dev, "cupy.sort", (m, n), ms))
            del x
    except Exception as e:
        print(f"gpu_anchors: cupy skipped: {e}", file=sys.stderr)
    for dev, lib, n, ms in rows:
        keys = n[0] * n[1] if isinstance(n, tuple) else n
        what = f"{n[0]}x{n[1]}" if isinstance(n, tuple) else f"n={n}"
        print(f"{lib:11s} {what:>14s}  {ms:8.4f} ms  {keys / ms / 1e6:8.3f} Gkeys/s  ({dev})")
    if a.csv:
        with open(a.csv, "a") as f:
            for dev, lib, n, ms in rows:
                keys = n[0] * n[1] if isinstance(n, tuple) else n
                net = f"{n[0]}x{n[1]}" if isinstance(n, tuple) else "anchor"
                dev = dev.replace(",", ";")
                f.write(f"{dev},{net},{lib},{keys},{ms:.6f},{keys / ms * 1e3:.6g}\n")
    return 0 if rows else 3


if __name__ == "__main__":
    sys.exit(main())
