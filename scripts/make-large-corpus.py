#!/usr/bin/env python3
"""A synthetic corpus of FUNCTIONS functions shaped like real ones (blocks
with lines, edges, tested paths with test names), to measure what a large
corpus costs a residual compilation (make bench-scale) and to check that it
changes nothing else (testsuite/plugin/check_large_corpus.py). Written as
it is generated, so a million functions (about 1 GB) need no memory.

With --include CORPUS, CORPUS's own functions come first, with its modules
and profiles: a real project's corpus grown to the size of a large one.

usage: make-large-corpus.py [--include CORPUS] [--paths K] FUNCTIONS OUTPUT"""
import argparse
import json


def function(n, paths):
    blocks = 12
    edges = [[b, b + 1, "true" if b % 2 else "fallthru", 1] for b in range(blocks - 1)]
    edges += [[b, b + 2, "false", 1] for b in range(1, blocks - 2, 2)]
    module = f"src/module{n % 997}.c"
    return {
        "identity": f"{module}:function{n}", "name": f"function{n}",
        "assembler_name": f"function{n}", "checksum": f"{n:016x}",
        "file": module, "tu": module, "optimization": "-O2",
        "line": 10 + n % 5000, "entry": 0, "exit": 1, "num_paths": 1 << 5,
        "acyclic_paths": 1 << 5, "acyclic_paths_saturated": False,
        "path_limit": 2305843009213693952, "cuts": 0, "forced_cuts": 0,
        "blocks": [{"lines": [10 + b]} for b in range(blocks)],
        "edges": edges,
        "calls": 1000, "resumes": 0, "interrupted": 0, "invalid_ids": 0, "dropped": 0,
        "paths": [{"id": (n + 3 * k) % 32, "count": k + 1, "tests": ["unit"]}
                  for k in range(paths)],
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--include")
    parser.add_argument("--paths", type=int, default=5)
    parser.add_argument("functions", type=int)
    parser.add_argument("output")
    args = parser.parse_args()
    head = {"format": "pathcov-corpus", "format_version": "2.0",
            "modules": [], "profiles": 1}
    real = []
    if args.include:
        with open(args.include) as f:
            doc = json.load(f)
        real = doc.pop("functions")
        head.update(doc)
    with open(args.output, "w") as out:
        out.write(json.dumps(head)[:-1] + ', "functions": [')
        first = True
        for f in real:
            out.write(("" if first else ",\n") + json.dumps(f))
            first = False
        for n in range(args.functions):
            out.write(("" if first else ",\n") + json.dumps(function(n, args.paths)))
            first = False
        out.write("]}\n")


if __name__ == "__main__":
    main()
