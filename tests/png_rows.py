"""png_rows.py - the pixel rows of an 8-bit RGB or RGBA PNG, for the shell
tests that look at sortnet's pictures (cli_dist_view.sh, cli_lecture.sh).

Written by hand because the tests need only this and Debian's python3
has no PNG reader without a further package (PIL is python3-pil): the
IDAT chunks inflated with zlib, then each row's filter undone (PNG
specification, section 9).

    python3 tests/png_rows.py FILE   prints: width height bytes-per-pixel
    from png_rows import load        load(FILE) -> (w, h, bpp, rows)
"""
import struct
import sys
import zlib


def load(path):
    d = open(path, 'rb').read()
    w, h = struct.unpack('>II', d[16:24])
    ct = d[25]
    i, idat = 8, b''
    while i < len(d):
        n = struct.unpack('>I', d[i:i + 4])[0]
        if d[i + 4:i + 8] == b'IDAT':
            idat += d[i + 8:i + 8 + n]
        i += 12 + n
    raw = zlib.decompress(idat)
    bpp = {2: 3, 6: 4}[ct]
    st = w * bpp
    prev = bytearray(st)
    p = 0
    rows = []
    for _ in range(h):
        f = raw[p]
        line = bytearray(raw[p + 1:p + 1 + st])
        p += 1 + st
        for x in range(st):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                q = a + b - c
                pa, pb, pc = abs(q - a), abs(q - b), abs(q - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


if __name__ == '__main__':
    w, h, bpp, _ = load(sys.argv[1])
    print(w, h, bpp)
