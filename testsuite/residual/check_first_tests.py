#!/usr/bin/env python3
"""A report's first_test (docs/residual-mode.md, "Reports"):
programs/first_tests.c runs 70 named tests, each taking a residual path of
bits() of its own, then t0 again a new one, then one outside any test.
The runtime keeps the names of the first 64 tests that took new paths: the
paths of t0..t63 name their test, t0's second path names t0 (its name
found again, not a new slot), those of t64..t69 and the one outside any
test name none. The report is valid against its schema.

usage: check_first_tests.py PLUGIN RUNTIME RUNTIME_INCLUDE PATHCOV WORKDIR SCHEMA"""
import collections
import glob
import json
import os
import sys

from jsonschema import Draft202012Validator

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import FAILURES, check, finish, tested_then_field  # noqa: E402

SOURCE = os.path.join(HERE, "programs", "first_tests.c")


def main():
    plugin, runtime, include, pathcov, work, schema = sys.argv[1:7]
    reports = tested_then_field(plugin, runtime, pathcov,
                                [SOURCE, f"-I{include}"], work, [], ["run"])
    files = glob.glob(os.path.join(reports, "*.json"))
    check(len(files) == 1, "one report", str(files))
    if len(files) != 1:
        return finish(FAILURES, "")
    with open(files[0]) as f:
        report = json.load(f)
    with open(schema) as f:
        errors = list(Draft202012Validator(json.load(f)).iter_errors(report))
    check(not errors, "the report against its schema",
          str([e.message for e in errors[:3]]))
    paths = [p for p in report["residual_paths"]
             if p["identity"].endswith(":bits")]
    firsts = collections.Counter(p.get("first_test") for p in paths)
    want = collections.Counter({f"t{i}": 1 for i in range(64)})
    want.update({"t0": 1, None: 7})
    check(len(paths) == 72 and all(p["count"] == 1 for p in paths) and
          firsts == want, "bits' 72 paths, the first 64 tests named",
          str(sorted(firsts.items(), key=str)))
    return finish(FAILURES, "ok: first_test for the first 64 tests")


if __name__ == "__main__":
    sys.exit(main())
