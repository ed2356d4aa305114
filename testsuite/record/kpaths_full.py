#!/usr/bin/env python3
"""Record mode k=2 with the runtime's k-path arena full (programs/
kpaths_full.c): the windows that find no node are dropped, and say so.

Checks that every path end is counted exactly once, in the forest or as
dropped (the profile's slab counts plus its `dropped` equal the paths the
profile counted), that some were dropped and the forest holds at most the
arena's 2^19 nodes, that the corpus keeps the number (`k_dropped`) and
`pathcov show` prints it, and that the paths themselves are all counted
(the loop's paths add up to its iterations plus one).
"""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import finish, fresh_directory, must  # noqa: E402

ITERATIONS = 1500000
ARENA_NODES = 1 << 19


def main():
    compiler, plugin, runtime, pathcov, source, work = sys.argv[1:7]
    fresh_directory(work)
    program = os.path.join(work, "full")
    must([compiler, "-O1", "-g", f"-fplugin={plugin}", "-fplugin-arg-pathcov-k=2",
          source, "-o", program, runtime, "-lpthread"], "build with k=2")
    profiles = os.path.join(work, "profiles")
    must([program, str(ITERATIONS)], "run",
         env=dict(os.environ, PATHCOV_PROFILE_DIR=profiles))
    [profile_file] = glob.glob(os.path.join(profiles, "pathcov-*.json"))
    with open(profile_file, encoding="utf-8") as f:
        profile = json.load(f)
    [forest] = profile["k_paths"]
    [function] = [fn for fn in profile["functions"]
                  if (fn["identity"], fn["checksum"]) ==
                  (forest["identity"], forest["checksum"])]
    failures = []
    ends = sum(count for _, count in function["paths"])
    counted = sum(node[2] for node in forest["slab"])
    if counted + forest["dropped"] != ends:
        failures.append(f"slab counts {counted} + dropped {forest['dropped']} "
                        f"!= {ends} path ends")
    if not forest["dropped"] or len(forest["slab"]) > ARENA_NODES:
        failures.append(f"{len(forest['slab'])} nodes, {forest['dropped']} "
                        "dropped: expected a full arena")
    if ends != ITERATIONS + 1:
        failures.append(f"{ends} paths counted, expected {ITERATIONS + 1}")
    corpus = os.path.join(work, "corpus.json")
    must([pathcov, "collect", "-o", corpus, profiles], "pathcov collect")
    with open(corpus, encoding="utf-8") as f:
        [main_fn] = [fn for fn in json.load(f)["functions"] if fn["name"] == "main"]
    if main_fn.get("k_dropped") != forest["dropped"]:
        failures.append(f"corpus k_dropped {main_fn.get('k_dropped')}, "
                        f"profile dropped {forest['dropped']}")
    shown = must([pathcov, "show", "--max-paths", "1", corpus], "pathcov show").stdout
    if f"({forest['dropped']} paths dropped: the runtime's arena was full)" not in shown:
        failures.append("pathcov show does not say how many were dropped:\n" + shown)
    return finish(failures, f"ok: {ends} path ends, {counted} in "
                  f"{len(forest['slab'])} nodes, {forest['dropped']} dropped")


if __name__ == "__main__":
    sys.exit(main())
