#!/usr/bin/env python3
"""A latch's path end on the routes into it (plugin/Instrumenter.cc,
pathEndsOnEntries, kMaxLatchChecks), counted in the instrumented GIMPLE
(the dump of the pass right after pathcov's, before any optimization
copies or merges code): latches.c's two, three and four end each
iteration at one latch after 2, 3 and 4 routes, and return after the loop.

- Residual mode, tests that never enter the loops: every route needs a
  check. two's 2 routes take the path end, a miss each (3 with the
  return's); three's and four's latches keep theirs (2: latch, return).
- Tests `1 1` (the first arm, in the first iteration and a later one):
  that route needs no check, so every latch's path end goes on its routes,
  a miss on each of the others: two 2, three 3, four 4 (four's 3 routes
  that need one are over the limit of 2, but one route gained).
- Residual mode, a corpus without these functions (untested: every path
  end misses, nothing folds on any route): every latch keeps its one miss
  (2 each, with the return's), two's too.
- Record mode, paths counted in the runtime's table (array-threshold=1,
  a miss per path end): latches keep their count on the back edge (2
  each).
- The residual builds report exactly the untested paths a field run takes
  (the residual oracle).

usage: check_latch_routes.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import residual_oracle  # noqa: E402
from testlib import (FAILURES, check, finish, fresh_directory, must,  # noqa: E402
                     recorded_corpus, residual_field_run)

SOURCE = os.path.join(HERE, "latches.c")
FUNCTIONS = ("two", "three", "four")
FIELD = ["1", "-20", "0", "-1", "5", "0"]


def misses(flags, work, stub):
    """Per function of latches.c, the miss statements (calls of `stub`*)
    in the GIMPLE just after pathcov's pass."""
    fresh_directory(work)
    must(["gcc", "-O2", *flags, "-fdump-tree-walloca1", "-c", SOURCE,
          "-o", os.path.join(work, "latches.o")], "build", cwd=work)
    [dump] = glob.glob(os.path.join(work, "*.walloca1"))
    with open(dump) as f:
        parts = re.split(r"^;; Function ", f.read(), flags=re.M)[1:]
    return {part.split()[0]: part.count(stub) for part in parts
            if part.split()[0] in FUNCTIONS}


def main():
    plugin, runtime, pathcov, work = sys.argv[1:5]
    fresh_directory(work)
    plugin_flag = f"-fplugin={plugin}"

    record = misses([plugin_flag, "-fplugin-arg-pathcov-array-threshold=1"],
                    os.path.join(work, "record"), "__pathcov_site_record_miss")
    check(record == {"two": 2, "three": 2, "four": 2},
          "record: every latch keeps its count on the back edge", str(record))

    executed = recorded_corpus(plugin, runtime, pathcov, [SOURCE],
                               fresh_directory(os.path.join(work, "field")),
                               os.path.join(work, "executed.json"), args=FIELD)
    for tests, expected in [(None, {"two": 2, "three": 2, "four": 2}),
                            ([], {"two": 3, "three": 2, "four": 2}),
                            (["1", "1"], {"two": 2, "three": 3, "four": 4})]:
        name = "untested" if tests is None else "tested-" + ("-".join(tests) or "none")
        where = fresh_directory(os.path.join(work, name))
        corpus = os.path.join(where, "corpus.json")
        if tests is None:
            with open(corpus, "w", encoding="utf-8") as f:
                json.dump({"format": "pathcov-corpus", "format_version": "2.0",
                           "modules": [], "profiles": 0, "functions": []}, f)
        else:
            recorded_corpus(plugin, runtime, pathcov, [SOURCE], where, corpus,
                            args=tests)
        flags = [plugin_flag, "-fplugin-arg-pathcov-mode=residual",
                 f"-fplugin-arg-pathcov-corpus={corpus}"]
        found = misses(flags, os.path.join(where, "dump"),
                       "__pathcov_site_residual")
        check(found == expected, f"residual, tests {tests}: misses {expected}",
              str(found))

        reports = residual_field_run(flags, [SOURCE], runtime, where, FIELD)
        expected_paths, wrong = residual_oracle.check_reports(executed, corpus,
                                                             reports)
        check(not wrong and expected_paths,
              f"residual, tests {tests}: the field run's untested paths, exactly",
              str(wrong))
    return finish(FAILURES, "ok: latches keep their check or count on the back "
                  "edge unless a route gains or at most 2 routes need one")


if __name__ == "__main__":
    sys.exit(main())
