"""The residual oracle: residual = executed - tested.

executed: the record build's profile on the workload, collected with
`pathcov collect` (schemas/corpus.schema.json: functions[] with identity,
checksum and paths[] of {id, count, tests}).
tested: the corpus the residual build was compiled against.
residual: the reports the residual build wrote to PATHCOV_REPORT_DIR
(schemas/report.schema.json: residual_paths[] of {identity, checksum, id,
count}; the same path can be listed more than once, counts add up).

A path is keyed by (identity, checksum, id): a function the tested corpus has
with another checksum (stale) or lacks (untested) has all its executed paths
residual.
"""

import glob
import json
import os


def corpus_paths(corpus_file):
    """{(identity, checksum, id): count} of every path the corpus ran."""
    with open(corpus_file) as f:
        c = json.load(f)
    out = {}
    for fn in c["functions"]:
        if fn.get("skipped") or "checksum" not in fn:
            continue
        for p in fn.get("paths") or []:
            k = (fn["identity"], fn["checksum"], int(p["id"]))
            out[k] = out.get(k, 0) + int(p["count"])
    return out


def report_paths(report_dir):
    """({(identity, checksum, id): count}, reports, dropped paths) over every report."""
    out, n, dropped = {}, 0, 0
    for rf in sorted(glob.glob(os.path.join(report_dir, "*.json"))):
        with open(rf) as f:
            r = json.load(f)
        if r.get("format") != "pathcov-report":
            continue
        n += 1
        dropped += int(r.get("dropped_paths") or 0)
        for p in r.get("residual_paths") or []:
            k = (p["identity"], p["checksum"], int(p["id"]))
            out[k] = out.get(k, 0) + int(p["count"])
    return out, n, dropped


def expected_residual(executed, tested):
    tested_keys = set(tested)
    return {k: v for k, v in executed.items() if k not in tested_keys}


def compare(expected, actual, dropped, limit=10):
    """[] if equal, else the first differences (human-readable lines)."""
    diffs = []
    if dropped:
        diffs.append(f"the runtime dropped {dropped} residual path runs (table full): "
                     "the residual set cannot be compared exactly")
    for k in sorted(set(expected) | set(actual)):
        e, a = expected.get(k), actual.get(k)
        if e == a:
            continue
        ident, cs, pid = k
        if a is None:
            diffs.append(f"missing from the reports: {ident} [{cs}] path {pid} (executed {e} times)")
        elif e is None:
            diffs.append(f"reported but not expected: {ident} [{cs}] path {pid} (count {a})")
        else:
            diffs.append(f"count differs: {ident} [{cs}] path {pid}: executed {e}, reported {a}")
        if len(diffs) >= limit:
            diffs.append("...")
            break
    return diffs


def summary(expected):
    fns = {(i, c) for (i, c, _) in expected}
    return {"paths": len(expected), "functions": len(fns), "runs": sum(expected.values())}
