#!/usr/bin/env python3
"""`pathcov merge` on synthetic inputs (docs/merge.md): a corpus of the
collect tests (testsuite/collect/good/corpus.json, fig3.c:fig3 with paths 0,
4, 5 tested of 6) split into two test jobs, and field reports on fig3 (paths
1, 2, 3), on a changed fig3 (another checksum) and on an unknown function.

Checks, comparing outputs semantically (parsed JSON):
  - commutativity: A+B == B+A, and so for corpora, reports and mixes;
  - associativity: (A+B)+C == A+(B+C) == A+B+C;
  - idempotence: A+A == A, corpus+R+R == corpus+R, (corpus+R)+R ==
    corpus+R, (corpus+R)+(corpus+R) == corpus+R;
  - provenance: counts, number of reports, build-ids, first and last seen;
  - set aside: a changed function and an unknown one, never attributed
    (show --summary and gate --no-new-residual say so)
    (merge and show --summary say so);
  - every output valid against schemas/corpus.schema.json;
  - merging a partially overlapping corpus fails (exit 3);
  - calling contexts: a field path keeps those of its 8 reports sampled
    most often (then by report id), whatever the order or grouping;
  - with --timing N: N small reports merged, the time printed.
"""
import argparse
import copy
import json
import os
import re
import subprocess
import sys
import time

from jsonschema import Draft202012Validator

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import FAILURES, check, finish  # noqa: E402

FIG3 = "fig3.c:fig3"


def write(path, doc):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    return path


def report(pid, build_id, paths, started=1795000000000000000, written=None):
    return {"format": "pathcov-report", "format_version": "2.0",
            "module": "/srv/app", "build_id": build_id, "pid": pid,
            "started_ns": started, "written_ns": written or started + 1000,
            "reason": "exit",
            "residual_paths": [
                {"identity": i, "checksum": c, "id": n, "count": k,
                 "first_seen_ns": t, "thread": pid} for i, c, n, k, t in paths],
            "dropped_paths": 0}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pathcov", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--schema", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--timing", type=int, default=0)
    args = ap.parse_args()
    work = args.workdir
    os.makedirs(work, exist_ok=True)
    with open(args.schema, encoding="utf-8") as f:
        validator = Draft202012Validator(json.load(f))

    stderr_of = [""]  # the last merge's standard error

    def merge(*inputs, expect=0):
        out = os.path.join(work, "out.json")
        run = subprocess.run([args.pathcov, "merge", "-o", out, *inputs],
                             capture_output=True, text=True)
        if run.returncode != expect:
            sys.exit(f"FAIL: merge {' '.join(inputs)}: exit {run.returncode}"
                     f"\n{run.stderr}")
        if expect:
            return run.stderr
        # Nothing but the line counting what was set aside, if anything.
        set_aside = re.fullmatch(r"pathcov merge: \d+ field paths? of \d+ "
                                 r"functions? set aside, .*\n", run.stderr)
        check(run.stdout == "" and (run.stderr == "" or set_aside),
              f"merge printed something: {run.stdout!r} {run.stderr!r}")
        stderr_of[0] = run.stderr
        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
        for e in validator.iter_errors(doc):
            FAILURES.append(f"merge {inputs}: schema: {e.message}")
        return doc

    def saved(name, doc):
        return write(os.path.join(work, name), doc)

    # Two test jobs: the good corpus split by profile.
    with open(args.corpus, encoding="utf-8") as f:
        base = json.load(f)
    fig3 = next(f for f in base["functions"] if f["identity"] == FIG3)
    checksum = fig3["checksum"]
    job1, job2 = copy.deepcopy(base), copy.deepcopy(base)
    for job, name, tests in ((job1, "p1", ["t1"]), (job2, "p2", ["t2"])):
        job["profiles"] = 1
        job["profile_ids"] = [f"-:pathcov-{name}.json:0123456789abcdef"]
        for f in job["functions"]:
            for p in f.get("paths", []):
                p["tests"] = tests
    A = saved("job1.json", job1)
    B = saved("job2.json", job2)
    R1 = saved("r1.json", report(101, "aa11", [
        (FIG3, checksum, 1, 2, 500), (FIG3, checksum, 3, 1, 700),
        (FIG3, checksum, 1, 5, 400)]))          # comdat: 1 twice
    R2 = saved("r2.json", report(102, "bb22", [(FIG3, checksum, 1, 3, 900)]))
    R3 = saved("r3.json", report(103, None, [
        (FIG3, "0123456789abcdef", 2, 4, 300),  # fig3 changed since
        ("nosuch", "fedcba9876543210", 0, 1, 350)]))

    AB = merge(A, B)
    check(AB == merge(B, A), "A+B != B+A")
    check(AB["profiles"] == 2, f"profiles {AB['profiles']}")
    f = next(f for f in AB["functions"] if f["identity"] == FIG3)
    single = {p["id"]: p["count"] for p in fig3["paths"]}
    check({p["id"]: p["count"] for p in f["paths"]} ==
          {i: 2 * c for i, c in single.items()}, "tested counts do not add")
    check(all(p["tests"] == ["t1", "t2"] for p in f["paths"]), "tests union")
    check(f["calls"] == 2 * fig3["calls"], "calls do not add")
    check(merge(A, A) == merge(A), "A+A != A")

    full = merge(A, B, R1, R2, R3)
    check(stderr_of[0].startswith(
        "pathcov merge: 2 field paths of 2 functions set aside, in the "
        "corpus's set_aside (first: "), f"set aside: {stderr_of[0]!r}")
    quiet = subprocess.run([args.pathcov, "merge", "-q", "-o",
                            os.path.join(work, "quiet.json"), A, B, R1, R2, R3],
                           capture_output=True, text=True)
    check(quiet.returncode == 0 and quiet.stderr == "",
          f"merge -q printed {quiet.stderr!r}")
    for order in ((R3, B, R1, A, R2), (R2, R1, R3, B, A)):
        check(merge(*order) == full, f"not commutative: {order}")
    AB_ = saved("ab.json", AB)
    R12 = saved("r12.json", merge(R1, R2))
    check(merge(AB_, R12, R3) == full, "(A+B)+(R1+R2)+R3 != A+B+R1+R2+R3")
    ABR1 = saved("abr1.json", merge(A, B, R1))
    R2R3 = saved("r2r3.json", merge(R2, R3))
    check(merge(ABR1, R2R3) == full, "(A+B+R1)+(R2+R3) != all")
    R3A = saved("r3a.json", merge(R3, A))
    check(merge(R3A, B, R12) == full, "(R3+A)+B+(R1+R2) != all")
    FULL = saved("full.json", full)
    # show --summary says so too: its totals count the corpus's functions.
    shown = subprocess.run([args.pathcov, "show", "--summary", FULL],
                           capture_output=True, text=True)
    check(shown.returncode == 0 and
          "\nfield: 2 field paths of 2 functions set aside, in the corpus's "
          "set_aside (first: " in shown.stdout,
          f"show --summary of the merged corpus: {shown.stdout[-300:]!r}")
    # gate --no-new-residual says that it did not count them.
    gated = subprocess.run([args.pathcov, "gate", FULL, "--baseline", A,
                            "--no-new-residual"], capture_output=True, text=True)
    check("; 2 field paths of 2 functions set aside, not counted (docs/merge.md, "
          '"Attribution")' in gated.stdout,
          f"gate of the merged corpus: {gated.stdout[-600:]!r}")
    check(merge(FULL, R1, R2) == full, "corpus+R+R != corpus+R")
    check(merge(FULL, FULL, A, B, R3) == full, "re-merging changed counts")
    check(merge(ABR1, ABR1, R1) == merge(A, B, R1), "idempotence")

    # Provenance.
    f = next(f for f in full["functions"] if f["identity"] == FIG3)
    fp = {p["id"]: p for p in f.get("field_paths", [])}
    check(sorted(fp) == [1, 3], f"field paths {sorted(fp)}")
    if 1 in fp:
        p = fp[1]
        check((p["count"], p["reports"], p["build_ids"], p["first_seen_ns"],
               p["last_seen_ns"]) == (10, 2, ["aa11", "bb22"], 400, 900),
              f"provenance of path 1: {p}")
    check({p["id"] for p in f["paths"]} == {p["id"] for p in fig3["paths"]},
          "field paths counted as tested")
    check(len(full["reports"]) == 3, "reports")
    aside = {(e["identity"], e["checksum"], e["id"]): e
             for e in full.get("set_aside", [])}
    check(set(aside) == {(FIG3, "0123456789abcdef", 2),
                         ("nosuch", "fedcba9876543210", 0)},
          f"set aside: {sorted(aside)}")
    e = aside.get((FIG3, "0123456789abcdef", 2), {})
    check("only with another CFG" in e.get("why", "") and
          checksum in e.get("why", ""),
          f"why: {e.get('why')}")
    check("no function nosuch" in
          aside.get(("nosuch", "fedcba9876543210", 0), {}).get("why", ""),
          "unknown function why")

    # Members in any order: merge streams a corpus, and must not depend on
    # the order pathcov writes (sorted keys: a field path's sightings before
    # its function's identity, reports after the functions).
    def reversed_members(value):
        if isinstance(value, dict):
            return {k: reversed_members(value[k]) for k in sorted(value, reverse=True)}
        if isinstance(value, list):
            return [reversed_members(v) for v in value]
        return value
    REV = saved("reversed.json", reversed_members(full))
    check(merge(REV) == full, "a corpus with its members reversed reads otherwise")
    check(merge(REV, R1, A) == full, "reversed corpus + R1 + A != all")

    # Entries listed twice, found as the corpus streams: exit 3, the place.
    def twice(name, edit, message):
        doc = copy.deepcopy(full)
        edit(doc)
        err = merge(saved(name, doc), expect=3)
        check(err.count("\n") == 1 and message in err, f"{name}: {err!r}")
    twice("report-twice.json", lambda d: d["reports"].append(d["reports"][0]),
          f"reports[3].id: report {full['reports'][0]['id']} is listed twice")
    fig3_index = next(i for i, f in enumerate(full["functions"])
                      if f["identity"] == FIG3)
    seen = full["functions"][fig3_index]["field_paths"][0]["seen"]
    twice("seen-twice.json",
          lambda d: d["functions"][fig3_index]["field_paths"][0]["seen"]
          .append(seen[0]),
          f"functions[{fig3_index}].field_paths[0].seen[{len(seen)}]: path 1 of "
          f"{FIG3} is listed twice for report {seen[0]['report']}")
    twice("aside-twice.json", lambda d: d["set_aside"].append(d["set_aside"][0]),
          f"set_aside[{len(full['set_aside'])}]: path")
    twice("unseen.json",
          lambda d: d["functions"][fig3_index]["field_paths"][0].update(seen=[]),
          f"functions[{fig3_index}].field_paths[0].seen: a field path was seen "
          "at least once")

    # A member named twice: nlohmann's document would keep the last, but a
    # streamed corpus's arrays are read as they come: refused.
    with open(FULL, encoding="utf-8") as f:
        text = f.read()
    doubled = os.path.join(work, "reports-named-twice.json")
    with open(doubled, "w", encoding="utf-8") as f:
        f.write(text.replace('"reports": [', '"reports": [], "reports": [', 1))
    err = merge(doubled, expect=3)
    check(err.count("\n") == 1 and
          '"reports": a member named twice in one object' in err,
          f"a member named twice: {err!r}")

    # A corpus that shares some, not all, of its profiles.
    err = merge(AB_, saved("job1r.json", merge(A, R1)), B, expect=0)
    mixed = copy.deepcopy(job1)
    mixed["profile_ids"] = job1["profile_ids"] + ["-:pathcov-p3.json:00"]
    err = merge(A, saved("mixed.json", mixed), expect=3)
    check(err.count("\n") == 1 and "mixed.json: shares 1 of its 2 profiles"
          in err, f"partial overlap: {err!r}")

    # Calling contexts: 12 reports sight path 1, 10 of them with contexts
    # sampled 1 to 10 times (two ties at 5); a path keeps the contexts of
    # 8 reports, those sampled most often, then by report id.
    def with_contexts(pid, samples):
        doc = report(pid, "ee55", [(FIG3, checksum, 1, 2, 1000 + pid)],
                     started=1795000000000000000 + pid)
        doc["format_version"] = "2.1"
        doc["context_depth"], doc["context_period"] = 8, 1048576
        doc["context_modules"] = [{"path": "/srv/app", "build_id": "ee55"}]
        if samples:
            doc["residual_paths"][0]["contexts"] = {"samples": samples, "kept": [
                {"count": samples, "error": 0,
                 "frames": [{"module": 0, "address": 4096 + pid}]}]}
        return saved(f"ctx{pid}.json", doc)
    sampled = {301: 5, 302: 1, 303: 10, 304: 5, 305: 2, 306: 0, 307: 8,
               308: 3, 309: 7, 310: 0, 311: 6, 312: 4}
    ctx = [with_contexts(pid, n) for pid, n in sampled.items()]
    kept_pids = sorted((pid for pid, n in sampled.items() if n),
                       key=lambda pid: -sampled[pid])[:8]
    with_ctx = merge(A, *ctx)
    f = next(f for f in with_ctx["functions"] if f["identity"] == FIG3)
    p1 = next(p for p in f["field_paths"] if p["id"] == 1)
    report_pid = {r["id"]: r["pid"] for r in with_ctx["reports"]}
    have = sorted(report_pid[s["report"]] for s in p1["seen"] if "contexts" in s)
    check(have == sorted(kept_pids),
          f"contexts kept for reports {have}, expected {sorted(kept_pids)}")
    check((p1["count"], p1["reports"]) == (24, 12), f"counts with contexts: {p1}")
    check(all(s["contexts"]["kept"][0]["frames"][0]["address"] ==
              4096 + report_pid[s["report"]] for s in p1["seen"] if "contexts" in s),
          "contexts kept with another report's sighting")
    CTX1 = saved("ctx-first.json", merge(*ctx[:6]))
    CTX2 = saved("ctx-second.json", merge(A, *ctx[6:]))
    check(merge(CTX2, CTX1) == with_ctx, "contexts: (R301..306)+(A+R307..312) != all")
    check(merge(CTX1, *reversed(ctx), A) == with_ctx,
          "contexts: merged again in another order")
    CTXALL = saved("ctx-all.json", with_ctx)
    check(merge(CTXALL, CTX1, *ctx) == with_ctx, "contexts: idempotence")

    if args.timing:
        many = os.path.join(work, "many")
        os.makedirs(many, exist_ok=True)
        for i in range(args.timing):
            write(os.path.join(many, f"pathcov-report-app-{i}-0.json"),
                  report(10000 + i, "cc33" if i % 2 else "dd44", [
                      (FIG3, checksum, 1 + i % 3, 1 + i % 7, 1000 + i),
                      (FIG3, checksum, 2, 1, 2000 + i)],
                      started=1795000000000000000 + i))
        start = time.monotonic()
        doc = merge(A, many)
        seconds = time.monotonic() - start
        print(f"merged {args.timing} reports in {seconds:.2f} s")
        check(len(doc["reports"]) == args.timing, "reports in the big merge")
        f = next(f for f in doc["functions"] if f["identity"] == FIG3)
        p2 = next(p for p in f["field_paths"] if p["id"] == 2)
        check(p2["reports"] == args.timing, "every report saw path 2")
        start = time.monotonic()
        again = merge(saved("many.json", doc), many)
        print(f"re-merged them into that corpus in "
              f"{time.monotonic() - start:.2f} s")
        check(again == doc, "re-merging 10000 reports changed the corpus")

    return finish(FAILURES, "ok: merge's algebra holds")


if __name__ == "__main__":
    sys.exit(main())
