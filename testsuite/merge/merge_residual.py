#!/usr/bin/env python3
"""Field-observed paths fed back to a release build (docs/merge.md).

Builds residual/programs/fig3.c in record mode, runs the tests (111 110
000: paths sacdt, sact, sbct), collects the corpus; builds it in residual
mode against it and runs the field input 101 (path sabcdt, residual): one
report. `pathcov merge` folds corpus and report; the merged corpus, valid
against corpus.schema.json, lists the field path apart from the tested ones
(`pathcov show` still counts 3 tested paths). A release build against the
merged corpus then runs 101 without a report, while 100 (sabct, never seen)
is still reported (ids of fig3 only: main's loop has paths of its own).
"""
import argparse
import glob
import json
import os
import shutil
import sys

from jsonschema import Draft202012Validator

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import must  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    for option in ("compiler", "plugin", "runtime", "runtime-include",
                   "pathcov", "schema", "workdir", "source"):
        ap.add_argument("--" + option, required=True)
    args = ap.parse_args()
    work = args.workdir
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    pathcov = args.pathcov

    def build(name, extra):
        program = os.path.join(work, name)
        must([args.compiler, "-O2", "-g", f"-fplugin={args.plugin}", *extra,
              "-I", args.runtime_include, args.source, "-o", program,
              args.runtime, "-lpthread"], f"the {name} build")
        return program

    def field_reports(program, name, *inputs):
        directory = os.path.join(work, name)
        must([program, *inputs], f"the {name} run",
             env=dict(os.environ, PATHCOV_REPORT_DIR=directory))
        return sorted(glob.glob(os.path.join(directory, "pathcov-report-*")))

    def residual_ids(reports):
        ids = set()
        for name in reports:
            with open(name, encoding="utf-8") as f:
                ids |= {p["id"] for p in json.load(f)["residual_paths"]
                        if p["identity"].endswith(":fig3")}
        return ids

    recorded = build("record", [])
    profiles = os.path.join(work, "profiles")
    for inputs in ("111", "110", "000"):
        must([recorded, inputs], "a test run",
             env=dict(os.environ, PATHCOV_PROFILE_DIR=profiles))
    corpus = os.path.join(work, "corpus.json")
    must([pathcov, "collect", "-o", corpus, profiles], "pathcov collect")

    release = build("release", ["-fplugin-arg-pathcov-mode=residual",
                                f"-fplugin-arg-pathcov-corpus={corpus}"])
    reports = field_reports(release, "field1", "101")
    if len(reports) != 1 or len(residual_ids(reports)) != 1:
        sys.exit(f"FAIL: {len(reports)} reports of the field run, expected 1")
    observed = residual_ids(reports)

    merged = os.path.join(work, "merged.json")
    must([pathcov, "merge", "-o", merged, corpus, *reports], "pathcov merge")
    with open(merged, encoding="utf-8") as f:
        doc = json.load(f)
    with open(args.schema, encoding="utf-8") as f:
        errors = list(Draft202012Validator(json.load(f)).iter_errors(doc))
    failures = [f"schema: {e.message}" for e in errors]
    fig3 = next(f for f in doc["functions"] if f["name"].startswith("fig3"))
    if {p["id"] for p in fig3.get("field_paths", [])} != observed:
        failures.append(f"field paths {fig3.get('field_paths')}, expected "
                        f"ids {observed}")
    if len(fig3["paths"]) != 3 or observed & {p["id"] for p in fig3["paths"]}:
        failures.append(f"tested paths changed: {fig3['paths']}")
    shown = json.loads(must([pathcov, "show", "--json", merged],
                            "pathcov show").stdout)
    shown_fig3 = next(f for f in shown["functions"]
                      if f["name"].startswith("fig3"))
    # The 3 tested paths, and the field-observed one (it ran), said so.
    listed = {p["id"]: p for p in shown_fig3.get("paths", [])}
    if (len(listed) != 4 or {i for i in listed if listed[i]["count"] == 0} != observed
            or any("field_runs" not in listed[i] for i in observed)):
        failures.append("pathcov show does not list fig3's 3 tested paths and "
                        f"its field-observed one: {sorted(listed)}")

    release2 = build("release2", ["-fplugin-arg-pathcov-mode=residual",
                                  f"-fplugin-arg-pathcov-corpus={merged}"])
    again = field_reports(release2, "field2", "101")
    if again:
        failures.append(f"the field path is reported again: {again}")
    other = field_reports(release2, "field3", "100", "101")
    other_ids = residual_ids(other)
    if len(other) != 1 or len(other_ids) != 1 or other_ids & observed:
        failures.append(f"100 should still be reported, 101 not: {other_ids}")
    for failure in failures:
        print("FAIL:", failure)
    print(f"field path {sorted(observed)} observed, merged, not flagged again;"
          f" {sorted(other_ids)} still flagged")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
