#!/usr/bin/env python3
"""Loops peeled in residual mode (their first iteration copied: the tests
ran them 4 times per entry) build as the plain build does, with
`-Wall -Wextra -Werror`, and the release build's field run reports exactly
the untested paths:

- scoped_loop.c declares a variable in the loop's body and passes its
  address to calls: GCC's -Wdangling-pointer took the loop's uses for uses
  after the copy's end of the variable's scope. The loop must be peeled
  (the statistics); the field run takes the early return at i == 99,
  which the tests never took.
- loop_catch.cc's loop body is a try/catch: a copy of its exception
  dispatch made GCC's ehdisp pass crash, so it is not peeled, and the
  build must succeed. The field run does not enter the loop.

usage: check_peeling.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import residual_oracle  # noqa: E402
from testlib import FAILURES, check, finish, fresh_directory, must  # noqa: E402

CASES = [  # source, compiler, the tests' argument, the field's, loops peeled
    ("scoped_loop.c", "gcc", "4", "128", lambda n: n >= 1),
    ("loop_catch.cc", "g++", "4", "0", lambda n: n == 0),
]
WARNINGS = ["-Wall", "-Wextra", "-Werror"]


def check_case(plugin, runtime, pathcov, work, case):
    name, compiler, tests, field, peeled_ok = case
    source = os.path.join(HERE, name)
    work = fresh_directory(os.path.join(work, name))

    def recorded(what, args):
        where = fresh_directory(os.path.join(work, what))
        program = os.path.join(where, "program")
        must([compiler, "-O2", f"-fplugin={plugin}", source, "-o", program,
              runtime, "-lpthread"], f"{name}: record build")
        profiles = os.path.join(where, "profiles")
        must([program, args], f"{name}: record run",
             env={**os.environ, "PATHCOV_PROFILE_DIR": profiles})
        corpus = os.path.join(work, f"{what}.json")
        must([pathcov, "collect", "-o", corpus, profiles], f"{name}: collect")
        return corpus

    corpus, executed = recorded("tests", tests), recorded("field", field)
    stats = os.path.join(work, "stats.jsonl")
    flags = [f"-fplugin={plugin}", "-fplugin-arg-pathcov-mode=residual",
             f"-fplugin-arg-pathcov-corpus={corpus}"]
    outputs = {}
    for what, extra in (("plain", []),
                        ("residual", [*flags, f"-fplugin-arg-pathcov-stats={stats}"])):
        program = os.path.join(work, what)
        r = subprocess.run([compiler, "-O2", *WARNINGS, *extra, source, "-o",
                            program, runtime, "-lpthread"],
                           capture_output=True, text=True)
        check(r.returncode == 0 and not r.stderr,
              f"{name}: {what}: -O2 {' '.join(WARNINGS)} builds without a "
              "warning", r.stderr)
        reports = fresh_directory(os.path.join(work, f"{what}-reports"))
        outputs[what] = must([program, field], f"{name}: {what} run",
                             env={**os.environ, "PATHCOV_REPORT_DIR": reports}).stdout
    check(outputs["plain"] == outputs["residual"],
          f"{name}: the release build prints what the plain build prints",
          str(outputs))
    with open(stats, encoding="utf-8") as f:
        peeled = sum(json.loads(line)["peeled"]["loops"] for line in f)
    check(peeled_ok(peeled), f"{name}: {peeled} loops peeled")
    expected, wrong = residual_oracle.check_reports(
        executed, corpus, os.path.join(work, "residual-reports"))
    check(expected and not wrong, f"{name}: the field run's untested paths, "
          "exactly, with their counts", str(wrong))


def main():
    plugin, runtime, pathcov, work = sys.argv[1:5]
    fresh_directory(work)
    for case in CASES:
        check_case(plugin, runtime, pathcov, work, case)
    return finish(FAILURES, "ok: peeled loops build as plain and report exactly")


if __name__ == "__main__":
    sys.exit(main())
