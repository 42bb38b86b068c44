#!/usr/bin/env python3
"""exercise_solve.py STATE right|wrong - an answer to the exercise that a
`sortnet view --dump-state` file shows, worked out here from the dumped
network, values and question alone (its own simulation of the
comparators, not sortnet's grader), as --script verbs. Prints nothing when
the state shows no exercise."""
import re
import sys


def fields(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        k, _, v = line.rstrip("\n").partition(": ")
        out.setdefault(k, v)
    return out


def layers_of(net):
    return [[tuple(map(int, p)) for p in re.findall(r"\((\d+),(\d+)\)", layer)]
            for layer in re.findall(r"\[([^\]]*)\]", net)]


def run(layers, v):
    v = list(v)
    for layer in layers:
        for a, b in layer:
            if v[a] > v[b]:
                v[a], v[b] = v[b], v[a]
    return v


def bits(x, n):
    return [(x >> i) & 1 for i in range(n)]


def main():
    st, mode = fields(sys.argv[1]), sys.argv[2]
    kind = st.get("exercise", "-")
    if kind == "-":
        return
    n, layers = int(st["n"]), layers_of(st["net"])
    right = mode == "right"
    if kind == "predict":
        step = int(st["step"])
        values = [int(x) for x in st["values"].split(",")]
        after = run(layers[step:step + 1], values)
        if not right:
            after = after[::-1]
        print("answer:" + ",".join(map(str, after)))
    elif kind == "counterexample":
        fail = next(x for x in range(2 ** n) if run(layers, bits(x, n)) != sorted(bits(x, n)))
        print("answer:" + ("".join(map(str, bits(fail, n))) if right else
                           ",".join(str(i) for i in range(n))))
    elif kind == "redundant":
        flat = [c for layer in layers for c in layer]
        swaps = [False] * len(flat)
        for x in range(2 ** n):
            v = bits(x, n)
            for i, (a, b) in enumerate(flat):
                if v[a] > v[b]:
                    swaps[i] = True
                    v[a], v[b] = v[b], v[a]
        never = [str(i) for i, s in enumerate(swaps) if not s]
        print("answer:" + (",".join(never) if right else ",".join(never[1:]) or "-"))
    elif kind == "depth":
        last = [0] * n
        for layer in layers:
            for a, b in layer:
                last[a] = last[b] = max(last[a], last[b]) + 1
        print("answer:%d" % (max(last) + (0 if right else 1)))
    elif kind == "merger":
        half = int(re.search(r"wires (\d+) to (\d+) each", st["exercise_question"]).group(1))
        merges = all(run(layers, [int(i >= z1) for i in range(half)] +
                         [int(i >= z2) for i in range(n - half)]) ==
                     sorted([int(i >= z1) for i in range(half)] +
                            [int(i >= z2) for i in range(n - half)])
                     for z1 in range(half + 1) for z2 in range(n - half + 1))
        print("answer:" + ("yes" if merges == right else "no"))
    elif kind == "complete":
        # right: n - 1 passes of bubble sort added in edit mode sort anything;
        # wrong: the given part alone, which must then fail on some input
        if right:
            print(" ".join("add:%d,%d" % (i, i + 1) for _ in range(n - 1) for i in range(n - 1))
                  + " answer")
        else:
            assert any(run(layers, bits(x, n)) != sorted(bits(x, n)) for x in range(2 ** n))
            print("answer")


main()
