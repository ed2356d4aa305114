#!/usr/bin/env python3
"""A loop peeled in residual mode (its first iteration copied: the tests
ran it 4 times per entry) warns no more than the plain build: scoped_loop.c
declares a variable in the loop's body and passes its address to calls,
and `-Wall -Werror` must build it as it builds plain (GCC's
-Wdangling-pointer took the loop's uses for uses after the copy's end of
the variable's scope). The peeling must have happened (the statistics),
and the field run (the early return at i == 99, which the tests never
took) reports exactly the untested paths.

usage: check_peeling_warnings.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import residual_oracle  # noqa: E402
from testlib import (FAILURES, check, finish, fresh_directory,  # noqa: E402
                     recorded_corpus, residual_field_run)

SOURCE = os.path.join(HERE, "scoped_loop.c")
WARNINGS = ["-Wall", "-Wextra", "-Werror"]


def main():
    plugin, runtime, pathcov, work = sys.argv[1:5]
    fresh_directory(work)
    corpus = recorded_corpus(plugin, runtime, pathcov, [SOURCE],
                             fresh_directory(os.path.join(work, "tests")),
                             os.path.join(work, "corpus.json"), args=["4"])
    executed = recorded_corpus(plugin, runtime, pathcov, [SOURCE],
                               fresh_directory(os.path.join(work, "field")),
                               os.path.join(work, "executed.json"), args=["128"])
    stats = os.path.join(work, "stats.jsonl")
    flags = [f"-fplugin={plugin}", "-fplugin-arg-pathcov-mode=residual",
             f"-fplugin-arg-pathcov-corpus={corpus}",
             f"-fplugin-arg-pathcov-stats={stats}"]
    for what, extra in (("plain", []), ("residual", flags)):
        r = subprocess.run(["gcc", "-O2", *WARNINGS, *extra, "-c", SOURCE,
                            "-o", os.path.join(work, f"{what}.o")],
                           capture_output=True, text=True)
        check(r.returncode == 0 and not r.stderr,
              f"{what}: -O2 {' '.join(WARNINGS)} builds without a warning",
              r.stderr)
    with open(stats, encoding="utf-8") as f:
        peeled = sum(json.loads(line)["peeled"]["loops"] for line in f)
    check(peeled >= 1, f"the loop was peeled ({peeled} loops)")
    reports = residual_field_run([*flags[:3], *WARNINGS], [SOURCE], runtime,
                                 fresh_directory(os.path.join(work, "run")), ["128"])
    expected, wrong = residual_oracle.check_reports(executed, corpus, reports)
    check(expected and not wrong, "the field run's untested paths, exactly, "
          "with their counts", str(wrong))
    return finish(FAILURES, "ok: a peeled loop warns as the plain build does")


if __name__ == "__main__":
    sys.exit(main())
