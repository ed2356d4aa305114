#!/usr/bin/env python3
"""A fleet's reports through an aggregation engine and back (docs/fleet.md):
`pathcov sightings` writes rows, SQLite's JSON functions load, deduplicate,
aggregate and re-emit them, and `pathcov merge` folds them into the corpus.

Checks, on the collect tests' corpus (fig3.c:fig3) and synthetic reports
(one with a comdat function listing a path twice, one without a residual
path, one on an unknown function):
  - the rows: one per report and path (the comdat copies added up), one
    with null path fields for the report without a path, each valid
    against schemas/sighting.schema.json;
  - the round trip: corpus + rows == corpus + reports, with the rows as
    written, uploaded twice and deduplicated by SQLite, and rebuilt by
    SQLite from its columns (json_object); rows of a merged corpus give the
    same corpus again;
  - SQLite's aggregates (SUM(count), COUNT(DISTINCT report),
    MIN(first_seen_ns) per path) equal the corpus's field_paths;
  - bad rows are refused with the file, the line and the problem (exit 3);
    so are inputs sightings cannot read (an empty directory, a profile,
    another format).

usage: sightings_round_trip.py PATHCOV CORPUS SCHEMA WORKDIR"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys

from jsonschema import Draft202012Validator

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from merge_algebra import FIG3, report, write  # noqa: E402
from testlib import FAILURES, check, finish  # noqa: E402


def main():
    pathcov, corpus, schema, work = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    validator = Draft202012Validator(json.load(open(schema)))
    checksum = next(f for f in json.load(open(corpus))["functions"]
                    if f["identity"] == FIG3)["checksum"]

    def run(*args, expect=0):
        r = subprocess.run([pathcov, *args], capture_output=True, text=True)
        if r.returncode != expect:
            sys.exit(f"FAIL: pathcov {' '.join(args)}: exit {r.returncode}\n{r.stderr}")
        return r

    def merge(*inputs):
        out = os.path.join(work, "merged.json")
        run("merge", "-q", "-o", out, *inputs)
        return json.load(open(out))

    reports = [
        write(os.path.join(work, "r1.json"), report(
            101, "aa11", [(FIG3, checksum, 1, 2, 500), (FIG3, checksum, 3, 1, 700),
                          (FIG3, checksum, 1, 5, 400)])),  # comdat: 1 twice
        write(os.path.join(work, "r2.json"), report(102, "bb22", [(FIG3, checksum, 1, 3, 900)])),
        write(os.path.join(work, "r3.json"), report(103, None, [])),
        write(os.path.join(work, "r4.json"), report(
            104, "cc33", [("nosuch", "fedcba9876543210", 0, 1, 350)])),
    ]
    direct = merge(corpus, *reports)

    rows_file = os.path.join(work, "rows.ndjson")
    run("sightings", "-o", rows_file, *reports)
    rows = [json.loads(line) for line in open(rows_file)]
    check(len(rows) == 5, f"{len(rows)} rows, not 5")
    for row in rows:
        for e in validator.iter_errors(row):
            FAILURES.append(f"row {row}: schema: {e.message}")
    r1 = {r["id"]: r for r in rows if r["pid"] == 101}
    check(sorted(r1) == [1, 3] and r1[1]["count"] == 7 and r1[1]["first_seen_ns"] == 400,
          f"report 101's comdat copies: {r1}")
    empty = [r for r in rows if r["pid"] == 103]
    check(len(empty) == 1 and empty[0]["identity"] is None and empty[0]["build_id"] is None,
          f"the report without a path: {empty}")
    check(merge(corpus, rows_file) == direct, "corpus + rows != corpus + reports")

    # SQLite: the rows loaded twice (an upload repeated), deduplicated, and
    # written back as they were and as rebuilt from columns.
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE rows (line TEXT)")
    for _ in range(2):
        db.executemany("INSERT INTO rows VALUES (json(?))",
                       [(line,) for line in open(rows_file)])
    back = os.path.join(work, "back.ndjson")
    with open(back, "w") as f:
        for (line,) in db.execute("SELECT DISTINCT line FROM rows"):
            f.write(line + "\n")
    check(merge(corpus, back) == direct, "corpus + rows deduplicated by SQLite != direct")
    columns = ["report", "build_id", "module", "pid", "started_ns", "written_ns",
               "reason", "dropped_paths", "identity", "checksum", "id", "count",
               "first_seen_ns"]
    rebuilt = os.path.join(work, "rebuilt.ndjson")
    select = ", ".join(f"'{c}', json_extract(line, '$.{c}')" for c in columns)
    with open(rebuilt, "w") as f:
        for (line,) in db.execute(f"SELECT DISTINCT json_object({select}) FROM rows"):
            f.write(line + "\n")
    check(merge(corpus, rebuilt) == direct, "corpus + rows rebuilt by SQLite != direct")

    # SQLite's aggregates are the corpus's.
    fig3 = next(f for f in direct["functions"] if f["identity"] == FIG3)
    expected = {p["id"]: (p["count"], p["reports"], p["first_seen_ns"])
                for p in fig3.get("field_paths", [])}
    aggregated = {
        i: (count, reports, first) for i, count, reports, first in db.execute(
            "SELECT json_extract(line, '$.id'), SUM(json_extract(line, '$.count')),"
            " COUNT(DISTINCT json_extract(line, '$.report')),"
            " MIN(json_extract(line, '$.first_seen_ns'))"
            " FROM (SELECT DISTINCT line FROM rows)"
            " WHERE json_extract(line, '$.identity') = ?"
            " AND json_extract(line, '$.checksum') = ?"
            " GROUP BY json_extract(line, '$.id')", (FIG3, checksum))}
    check(expected and aggregated == expected,
          f"SQLite's aggregates {aggregated} != the corpus's {expected}")

    # A merged corpus's rows give it back; rows merged twice change nothing.
    merged = write(os.path.join(work, "direct.json"), direct)
    again = os.path.join(work, "again.ndjson")
    run("sightings", "-o", again, merged)
    check(merge(corpus, again) == direct, "corpus + rows of the merged corpus != direct")
    check(merge(merged, rows_file, back) == direct, "rows merged again changed the corpus")

    # Bad rows: the file, the line, the problem.
    good = open(rows_file).read().splitlines()
    row = json.loads(good[0])
    cases = {
        "not-json": (good[0] + "\n{", "2: "),
        "wrong-id": (json.dumps({**row, "pid": 999}), "1: report: \""),
        "half-path": (json.dumps({**row, "count": None}), "1: identity, checksum, id, count"),
        "disagree": (good[0] + "\n" + json.dumps({**row, "reason": "signal", "id": 77}),
                     "2: report " + row["report"]),
        "twice": (good[0] + "\n" + json.dumps({**row, "count": row["count"] + 1}),
                  "2: report " + row["report"] + " sighted path"),
    }
    for name, (text, problem) in cases.items():
        bad = os.path.join(work, f"{name}.ndjson")
        with open(bad, "w") as f:
            f.write(text + "\n")
        r = run("merge", "-q", "-o", os.path.join(work, "bad.json"), corpus, bad, expect=3)
        check(f"pathcov merge: {bad}:{problem}" in r.stderr,
              f"{name}: {r.stderr.strip()!r} does not name {bad}:{problem}")

    # Rows that cannot be read: the file and why, once.
    missing = os.path.join(work, "missing.ndjson")
    r = run("merge", "-q", "-o", os.path.join(work, "bad.json"), corpus, missing,
            expect=3)
    check(r.stderr == f"pathcov merge: {missing}: cannot open: No such file or "
          "directory\n", f"missing rows: {r.stderr!r}")

    # What sightings refuses, as merge does: the file and the problem.
    empty = os.path.join(work, "empty")
    os.makedirs(empty)
    profile = write(os.path.join(work, "profile.json"),
                    {"format": "pathcov-profile", "format_version": "2.0"})
    other = write(os.path.join(work, "other.json"),
                  {"format": "pathcov-numbering", "format_version": "1.0"})
    for name, inputs, problem in (
            ("empty directory", [empty],
             f"{empty}: no *.json report or corpus in the directory"),
            ("a profile", [profile], f"{profile}: a profile, not a corpus"),
            ("another format", [other],
             f'{other}: format: "pathcov-numbering" is neither')):
        r = run("sightings", "-o", os.path.join(work, "bad.ndjson"), *inputs, expect=3)
        check(f"pathcov sightings: {problem}" in r.stderr,
              f"sightings, {name}: {r.stderr.strip()!r} does not say {problem!r}")
    check(not os.path.exists(os.path.join(work, "bad.ndjson")),
          "sightings wrote rows after an error")

    return finish(FAILURES, "ok: sightings round-trip through SQLite into the corpus")


if __name__ == "__main__":
    sys.exit(main())
