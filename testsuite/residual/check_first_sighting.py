#!/usr/bin/env python3
"""Residual mode, first sighting only (docs/residual-mode.md): a residual
path calls the runtime the first time it runs, then counts inline.

programs/first_sighting.c is recorded on its test run (a loop in mode 0),
then built in residual mode against that corpus and run in the field (the
loop N times in mode 1: residual paths in f (bytemap or array policy), in
main, and in g (untested), each repeated hundreds of times).

How the calls are counted: the residual build is linked with
first_sighting_wrap.c and `-Wl,--wrap=__pathcov_residual_path` (and
`__pathcov_residual_word`, a seen word's miss), so every
call into the runtime's recorder goes through a wrapper that counts it per
(function, id) and prints the counts at exit. This needs no tracer
(valgrind, ltrace: heavy, or blind to a call inside a static library) and
no test-only code in the runtime: the x86-64 stub __pathcov_site_residual_path
lives in its own object of the static library, so the linker redirects its
call, and other targets call __pathcov_residual_path directly from the
instrumented object, redirected as well.

Checks, for every variant (levels -O0 and -O2; default tables, PPP tables,
atomic=1, hash tables): each residual path of the report reached the
runtime exactly once, nothing else reached it, and the counts are exact (f
and g ran N times each); and on the tests' own input (every path tested)
nothing calls the runtime at all, neither the recorder nor the sorted
policy's __pathcov_residual_lookup (wrapped too). With count-tested=1 (no
seen slots, as before) every run of a residual path calls: the wrapper's
count is the report's, which shows the wrapper sees the calls. Exits
non-zero on failure."""
import argparse
import collections
import glob
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import must  # noqa: E402
PROGRAM = os.path.join(HERE, "programs", "first_sighting.c")
WRAPPER = os.path.join(HERE, "first_sighting_wrap.c")
RUNS = 1000  # the field run's loop

# The policy of small tested functions by default, and the argument that
# gives them PPP tables instead.
SMALL_POLICY, SMALL_LIMIT = "bytemap", "bytemap-limit"
# (name, plugin arguments, whether each residual path calls once, the
# policy of f)
VARIANTS = [("default", [], True, SMALL_POLICY),
            ("ppp", [f"{SMALL_LIMIT}=0"], True, "array"),
            ("atomic", ["atomic=1"], True, SMALL_POLICY),
            # No bytemap and no PPP table: the hash table, probed inline.
            ("hashed", [f"{SMALL_LIMIT}=0", "table-limit=0"], True, "hashed"),
            ("counted", ["count-tested=1"], False, "array"),
            # Counting without a PPP table: a hash table with counts, still
            # no call for a tested path.
            ("hashed-counted",
             [f"{SMALL_LIMIT}=0", "table-limit=0", "count-tested=1"], False,
             "hashed")]


class Failed(Exception):
    pass


def environment(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PATHCOV_")}
    env.update(extra)
    return env


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--runtime-include", required=True)
    ap.add_argument("--pathcov", required=True)
    ap.add_argument("--workdir", required=True)
    a = ap.parse_args()
    work = os.path.abspath(a.workdir)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    plugin = [f"-fplugin={a.plugin}"]
    failures = []

    wrap = os.path.join(work, "wrap.o")
    must([a.compiler, "-O2", "-c", f"-I{a.runtime_include}", WRAPPER, "-o",
          wrap], "the wrapper")
    for level in ("-O0", "-O2"):
        base = os.path.join(work, level[1:])
        os.makedirs(base)
        # The tests: the record build on mode 0.
        record = os.path.join(base, "record")
        must([a.compiler, level, "-g", *plugin, PROGRAM, "-o", record,
              a.runtime, "-lpthread"], f"{level} record build")
        profiles = os.path.join(base, "profiles")
        must([record, "20", "0"], f"{level} test run",
             env=environment(PATHCOV_PROFILE_DIR=profiles))
        corpus = os.path.join(base, "corpus.json")
        must([a.pathcov, "collect", "-o", corpus,
              *glob.glob(os.path.join(profiles, "pathcov-*.json"))],
             f"{level} collect")
        # h is there for its seen slots' tags: it must have more paths than
        # a function gives a slot each (4096), else every slot is one
        # path's.
        with open(corpus) as f:
            h_paths = [fn["acyclic_paths"] for fn in json.load(f)["functions"]
                       if fn["assembler_name"] == "h"]
        if h_paths != [8192]:
            failures.append(f"{level}: h has {h_paths} paths, expected 8192 "
                            "(more than 4096: shared seen slots)")
        for name, args, once, checked in VARIANTS:
            what = f"{level} {name}"
            out = os.path.join(base, name)
            os.makedirs(out)
            program = os.path.join(out, "program")
            stats = os.path.join(out, "stats.json")
            flags = [f"-fplugin-arg-pathcov-{x}" for x in
                     ["mode=residual", f"corpus={corpus}", f"stats={stats}",
                      *args]]
            # -fchecking: GCC verifies the GIMPLE the plugin made.
            must([a.compiler, level, "-g", "-fchecking", *plugin, *flags,
                  PROGRAM, wrap,
                  "-Wl,--wrap=__pathcov_residual_path",
                  "-Wl,--wrap=__pathcov_residual_word",
                  "-Wl,--wrap=pathcov_site_residual_path",
                  "-Wl,--wrap=pathcov_site_residual_word",
                  "-Wl,--wrap=__pathcov_residual_lookup", "-o", program,
                  a.runtime, "-lpthread"], f"{what}: residual build")

            def counted_calls(r):
                """The wrapper's counts: {(identity, id): n} of the
                recorder's calls and of the lookups."""
                calls, lookups = {}, {}
                for line in r.stderr.splitlines():
                    fields = line.split("\t")
                    if fields[0] not in ("calls", "lookups") or len(fields) != 4:
                        raise Failed(f"{what}: unexpected stderr line {line!r}")
                    into = calls if fields[0] == "calls" else lookups
                    into[(fields[1], int(fields[2]))] = int(fields[3])
                return calls, lookups

            def fail(text):
                failures.append(f"{what}: {text}")

            # The tests' own input: every path it runs is tested, and a
            # tested path end calls nothing.
            tested_run = must([program, str(RUNS), "0"], f"{what}: tested run",
                              env=environment(PATHCOV_REPORT_DIR=os.path.join(
                                  out, "tested-reports")))
            calls, lookups = counted_calls(tested_run)
            if calls:
                fail(f"the tested run called the recorder: {calls}")
            if lookups:
                fail(f"the tested run looked paths up: {lookups}")
            reports = os.path.join(out, "reports")
            r = must([program, str(RUNS), "1"], f"{what}: field run",
                     env=environment(PATHCOV_REPORT_DIR=reports))
            calls, lookups = counted_calls(r)
            found = glob.glob(os.path.join(reports, "pathcov-report-*.json"))
            if len(found) != 1:
                raise Failed(f"{what}: reports {found}, expected one")
            with open(found[0]) as f:
                report = json.load(f)
            counts = {(p["identity"], p["id"]): p["count"]
                      for p in report["residual_paths"]}
            with open(stats) as f:
                policies = json.loads(f.readline())["functions"]

            if report["dropped_paths"] != 0:
                fail(f"dropped_paths {report['dropped_paths']}")
            if lookups:
                fail(f"paths looked up: {lookups}")
            if set(calls) != set(counts):
                fail(f"paths that called the runtime {sorted(calls)}, "
                     f"residual paths reported {sorted(counts)}")
            for path, count in sorted(counts.items()):
                wanted = 1 if once else count
                if calls.get(path) != wanted:
                    fail(f"residual path {path} ran {count} times and called "
                         f"the runtime {calls.get(path)} times, expected "
                         f"{wanted}")
            per_function = collections.Counter()
            for (identity, _), count in counts.items():
                # "UNIT:name": the name is the assembler name after the unit.
                per_function[identity.rsplit(":", 1)[-1]] += count
            # f's mode-1 paths, g's paths and h's one field path are all
            # residual.
            for function in ("f", "g", "h"):
                if per_function[function] != RUNS:
                    fail(f"{function}'s residual paths ran "
                         f"{per_function[function]} times, expected {RUNS}")
            if not any(c >= RUNS // 2 for c in counts.values()):
                fail(f"no residual path repeated in the loop: {counts}")
            # The variants test what they say: g untested, f checked by a
            # bytemap, a PPP table, a hash table or the sorted ids.
            if policies.get("untested", 0) < 1 or policies.get(checked, 0) < 1:
                fail(f"policies {policies}, expected untested and {checked}")
            print(f"{what}: {len(counts)} residual paths, "
                  f"{sum(counts.values())} runs, "
                  f"{sum(calls.values())} runtime calls, "
                  f"{sum(lookups.values())} lookups; policies {policies}")
    for f in failures:
        print("FAIL", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Failed as e:
        print(f"FAIL {e}", file=sys.stderr)
        sys.exit(1)
