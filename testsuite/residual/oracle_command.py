#!/usr/bin/env python3
"""residual_oracle.py as a command (docs/residual-mode.md, "Checking it
yourself"), on small files written here: a function `f` that ran paths 1,
2 and 3 (counts 5, 1, 2), path 1 tested. Reports of 2 and 3 with those
counts: EXACT; with 3 counted 7: MISMATCH naming its other count, EXACT
with --paths-only; without 3: MISMATCH naming it missing, with
--paths-only too; nothing reported: MISMATCH."""
import json
import os
import subprocess
import sys

ORACLE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                      "residual_oracle.py")


def corpus(paths):
    return {"format": "pathcov-corpus", "format_version": "2.0",
            "functions": [{"identity": "f.c:f", "checksum": "0123456789abcdef",
                           "file": "f.c", "paths": [{"id": i, "count": n}
                                                    for i, n in paths.items()]}]}


def report(paths):
    return {"residual_paths": [{"identity": "f.c:f", "checksum": "0123456789abcdef",
                                "id": i, "count": n} for i, n in paths.items()]}


def main():
    work = sys.argv[1]
    os.makedirs(work, exist_ok=True)
    files = {"executed.json": corpus({1: 5, 2: 1, 3: 2}),
             "tested.json": corpus({1: 9})}
    for name, doc in files.items():
        with open(os.path.join(work, name), "w", encoding="utf-8") as f:
            json.dump(doc, f)
    failures = []
    for case, reported, options, verdict, names in (
            ("exact", {2: 1, 3: 2}, [], "EXACT", ""),
            ("other-count", {2: 1, 3: 7}, [], "MISMATCH", "other counts [3]"),
            ("other-count", {2: 1, 3: 7}, ["--paths-only"], "EXACT", ""),
            ("missing", {2: 1}, [], "MISMATCH", "missing [3]"),
            ("missing", {2: 1}, ["--paths-only"], "MISMATCH", "missing [3]"),
            ("none", None, [], "MISMATCH", "missing [2, 3]")):
        reports = os.path.join(work, case)
        os.makedirs(reports, exist_ok=True)
        if reported is not None:
            with open(os.path.join(reports, "pathcov-report-f-1-0.json"), "w",
                      encoding="utf-8") as f:
                json.dump(report(reported), f)
        run = subprocess.run([sys.executable, ORACLE, *options,
                              os.path.join(work, "executed.json"),
                              os.path.join(work, "tested.json"), reports],
                             capture_output=True, text=True)
        lines = run.stdout.splitlines()
        if (run.returncode, lines[-1:]) != (int(verdict == "MISMATCH"), [verdict]) \
                or names not in run.stdout:
            failures.append(f"{case} {options}: exit {run.returncode}, expected "
                            f"{verdict} naming {names!r}:\n{run.stdout}{run.stderr}")
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("ok: residual_oracle.py's verdicts")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
