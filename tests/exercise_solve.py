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


def completion(n, layers):
    """Comparators that, added at the end, make the network sort: while
    some 0-1 input fails, the first adjacent pair it leaves out of order."""
    added = []
    while True:
        net = layers + [[c] for c in added]
        bad = next((x for x in range(2 ** n) if run(net, bits(x, n)) != sorted(bits(x, n))), None)
        if bad is None:
            return added
        out = run(net, bits(bad, n))
        i = next(i for i in range(n - 1) if out[i] > out[i + 1])
        added.append((i, i + 1))


def solve(st, mode):
    """The answer to the exercise state st shows (a dict of --dump-state
    fields: exercise, n, net, values, step, exercise_question) as
    {"answer": TEXT} or, for complete, {"add": [(a, b), ...]} then an
    answer with the network shown; None when st shows no exercise."""
    kind = st.get("exercise", "-")
    if kind in ("-", None):
        return None
    n, layers = int(st["n"]), layers_of(st["net"])
    right = mode == "right"
    if kind == "predict":
        step = int(st["step"])
        values = [int(x) for x in str(st["values"]).split(",")]
        after = run(layers[step:step + 1], values)
        return {"answer": ",".join(map(str, after if right else after[::-1]))}
    if kind == "counterexample":
        fail = next(x for x in range(2 ** n) if run(layers, bits(x, n)) != sorted(bits(x, n)))
        return {"answer": "".join(map(str, bits(fail, n))) if right else
                ",".join(str(i) for i in range(n))}
    if kind == "redundant":
        flat = [c for layer in layers for c in layer]
        swaps = [False] * len(flat)
        for x in range(2 ** n):
            v = bits(x, n)
            for i, (a, b) in enumerate(flat):
                if v[a] > v[b]:
                    swaps[i] = True
                    v[a], v[b] = v[b], v[a]
        never = [str(i) for i, s in enumerate(swaps) if not s]
        return {"answer": ",".join(never) if right else ",".join(never[1:]) or "-"}
    if kind == "depth":
        last = [0] * n
        for layer in layers:
            for a, b in layer:
                last[a] = last[b] = max(last[a], last[b]) + 1
        return {"answer": str(max(last) + (0 if right else 1))}
    if kind == "merger":
        half = int(re.search(r"wires (\d+) to (\d+) each", st["exercise_question"]).group(1))
        def halves(z1, z2):
            return [int(i >= z1) for i in range(half)] + [int(i >= z2) for i in range(n - half)]
        merges = all(run(layers, halves(z1, z2)) == sorted(halves(z1, z2))
                     for z1 in range(half + 1) for z2 in range(n - half + 1))
        return {"answer": "yes" if merges == right else "no"}
    # complete: right, comparators added until it sorts; wrong, the given
    # part alone, which must then fail on some input
    if right:
        return {"add": completion(n, layers)}
    assert any(run(layers, bits(x, n)) != sorted(bits(x, n)) for x in range(2 ** n))
    return {"add": []}


def main():
    got = solve(fields(sys.argv[1]), sys.argv[2])
    if got is None:
        return
    if "add" in got:
        print(" ".join("add:%d,%d" % c for c in got["add"]) + " answer")
    else:
        print("answer:" + got["answer"])


if __name__ == "__main__":
    main()
