#!/usr/bin/env python3
"""A synthetic corpus of FUNCTIONS functions shaped like real ones (blocks
with lines, edges, tested paths with test names), to measure what reading
a large corpus costs a residual compilation. 5500 functions: about 27 MB.

usage: make-large-corpus.py FUNCTIONS OUTPUT"""
import json
import sys


def function(n):
    blocks = 40
    edges = [[b, b + 1, "true" if b % 2 else "fallthru", 1] for b in range(blocks - 1)]
    edges += [[b, b + 2, "false", 1] for b in range(1, blocks - 2, 2)]
    return {
        "identity": f"_Z8functioni{n}", "name": f"function{n}",
        "assembler_name": f"_Z8functioni{n}", "checksum": f"{n:016x}",
        "file": f"/src/project/module{n % 97}.c", "tu": f"/src/project/module{n % 97}.c",
        "line": 10 + n, "entry": 0, "exit": 1, "num_paths": 1 << 19,
        "acyclic_paths": 1 << 19, "acyclic_paths_saturated": False,
        "path_limit": 2305843009213693952, "cuts": [], "forced_cuts": [],
        "blocks": [{"lines": [n + b, n + b + 1]} for b in range(blocks)],
        "edges": edges,
        "calls": 1000, "resumes": 0, "interrupted": 0, "invalid_ids": 0, "dropped": 0,
        "paths": [{"id": n * 7 + k * 4099, "count": k + 1,
                   "tests": [f"test_module{n % 97}_{k}", "test_all"]}
                  for k in range(30)],
    }


def main():
    count, output = int(sys.argv[1]), sys.argv[2]
    corpus = {"format": "pathcov-corpus", "format_version": "2.0",
              "modules": [{"path": "/usr/bin/app", "build_id": None}],
              "profiles": 1, "functions": [function(n) for n in range(count)]}
    with open(output, "w") as out:
        json.dump(corpus, out)


if __name__ == "__main__":
    main()
