#!/usr/bin/env python3
"""code_shape.py - the house rules on the shape of src/, checked:

  - no function in src/ longer than 150 lines (signature to closing brace);
  - no file in src/cli longer than 500 lines, and none includes cairo;
  - no "(issue N)" references or "---- end of" markers in src/;
  - the environment is read (getenv) in at most 3 places in src/gpu;
  - no asprintf or vasprintf in src/ (tests/lsan.supp suppresses leaks
    whose stack shows libc's vasprintf: Open MPI's, seen through the fast
    unwinder; sortnet must have none there to hide).

Usage: tools/code_shape.py [ROOT]   (ROOT: the repository, default: this
script's parent's parent). Prints every breach and exits 1, else prints the
longest functions and exits 0. --list N prints the N longest functions.

Functions are found in the source with comments, string and character
literals blanked out (so braces inside them do not count): a top-level '{'
whose preceding text ends with ')' opens a function, whose signature starts
at the nearest line before it that begins in column 0.
"""
import os
import re
import sys

FUNC_MAX = 150
CLI_FILE_MAX = 500
GETENV_MAX = 3


def blank(src):
    """src with comments and string/char literals replaced by spaces (newlines kept)."""
    out, i, n = [], 0, len(src)
    while i < n:
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
        elif src[i] in "\"'":
            q, j = src[i], i + 1
            while j < n and src[j] != q and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            j = min(j + 1, n)
        else:
            out.append(src[i])
            i += 1
            continue
        out.append(re.sub(r"[^\n]", " ", src[i:j]))
        i = j
    return "".join(out)


def functions(path):
    """(length in lines, first line, signature) of every function in path."""
    text = open(path, encoding="utf-8", errors="replace").read()
    lines = blank(text).split("\n")
    raw = text.split("\n")
    found, depth, start = [], 0, None
    for ln, line in enumerate(lines):
        if line.lstrip().startswith("#"):
            continue
        for col, ch in enumerate(line):
            if ch == "{":
                if depth == 0:
                    k, before = ln, line[:col].strip()
                    while not before and k > 0:
                        k -= 1
                        before = lines[k].strip()
                    start = None
                    if before.endswith(")"):
                        s = k
                        while s > 0 and lines[s][:1] in (" ", "\t"):
                            s -= 1
                        start = s
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0 and start is not None:
                    found.append((ln - start + 1, start + 1, raw[start].strip()[:72]))
                    start = None
    return found


def sources(root, sub):
    for d, _, files in os.walk(os.path.join(root, sub)):
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                yield os.path.join(d, f)


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    listing = 0
    if "--list" in argv:
        i = argv.index("--list")
        listing = int(argv[i + 1]) if i + 1 < len(argv) else 10
        args = [a for a in args if a != argv[i + 1]] if i + 1 < len(argv) else args
    root = args[0] if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    breaches, funcs = [], []
    for p in sources(root, "src"):
        rel = os.path.relpath(p, root)
        for length, line, sig in functions(p):
            funcs.append((length, rel, line, sig))
            if length > FUNC_MAX:
                breaches.append(f"{rel}:{line}: function of {length} lines (at most {FUNC_MAX}): {sig}")
        text = open(p, encoding="utf-8", errors="replace").read()
        for m in re.finditer(r"\(issue \d+\)|issue #\d+|---- end of", text):
            line = text.count("\n", 0, m.start()) + 1
            breaches.append(f"{rel}:{line}: '{m.group(0)}' (say what the code does instead)")
        for m in re.finditer(r"\bv?asprintf\s*\(", blank(text)):
            line = text.count("\n", 0, m.start()) + 1
            breaches.append(f"{rel}:{line}: {m.group(0).rstrip('( ')} (tests/lsan.supp suppresses leaks through "
                            "libc's vasprintf: format into a buffer of known size instead)")
        if rel.startswith(os.path.join("src", "cli") + os.sep):
            n = text.count("\n")
            if n > CLI_FILE_MAX:
                breaches.append(f"{rel}: {n} lines (a file in src/cli has at most {CLI_FILE_MAX})")
            if re.search(r"#\s*include\s*[<\"]cairo", text):
                breaches.append(f"{rel}: includes cairo (src/cli draws through src/render)")
    getenv = []
    for p in sources(root, os.path.join("src", "gpu")):
        body = blank(open(p, encoding="utf-8", errors="replace").read())
        for m in re.finditer(r"\bgetenv\s*\(", body):
            getenv.append(f"{os.path.relpath(p, root)}:{body.count(chr(10), 0, m.start()) + 1}")
    if len(getenv) > GETENV_MAX:
        breaches.append(f"src/gpu reads the environment in {len(getenv)} places (at most {GETENV_MAX}): "
                        + ", ".join(getenv))
    funcs.sort(reverse=True)
    for length, rel, line, sig in funcs[:listing]:
        print(f"{length:5d} {rel}:{line} {sig}")
    if not funcs:
        breaches.append(f"no functions found under {root}/src")
    for b in breaches:
        print("code_shape: " + b, file=sys.stderr)
    if breaches:
        return 1
    print(f"code_shape: {len(funcs)} functions in src/, the longest {funcs[0][0]} lines "
          f"({funcs[0][1]}:{funcs[0][2]}); getenv in src/gpu: {len(getenv)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
