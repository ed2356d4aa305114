#!/usr/bin/env python3
"""A corpus recorded at -O0 against an optimized release build (CMake's
default test build is -O0, issue 18's trap 1): GCC's CFGs differ between
-O0 and the optimizing levels, so every function is stale. The residual
build must say so in one line naming both options, not once per function;
corpora and release builds of the same class build silently.

- the corpus records each function's -O option ("optimization");
- -O0 corpus, -O2 release: one warning naming the unit, '-O0' and '-O2', no per-function
  stale warnings, every function stale;
- -O2 corpus, -O0 release: the same warning the other way round;
- -O2 corpus, release at -O1, -Og, -Os, -O3, -O2: no optimization warning;
- every build with -Werror -Wno-error=missing-profile: each warning is
  -Wmissing-profile's, and stays a warning;
- a stale function's metadata (what decode prints) names both options.

usage: check_optimization_class.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import FAILURES, check, finish, metadata_records  # noqa: E402
SOURCE = os.path.join(HERE, "short_circuits.c")
FUNCTIONS = ("both", "either", "main")


def record(level, work):
    """The corpus of short_circuits.c built at `level` and run once."""
    program = os.path.join(work, f"record{level}")
    subprocess.run(["gcc", level, f"-fplugin={PLUGIN}", SOURCE, "-o", program,
                    RUNTIME, "-lpthread"], check=True)
    profiles = os.path.join(work, f"profiles{level}")
    subprocess.run([program], capture_output=True, check=True,
                   env={**os.environ, "PATHCOV_PROFILE_DIR": profiles})
    corpus = os.path.join(work, f"corpus{level}.json")
    subprocess.run([PATHCOV, "collect", "-o", corpus, profiles], check=True)
    return corpus


def residual(level, corpus, work):
    """The pathcov warnings of a residual build at `level`, and how many of
    its functions got each table policy (-fplugin-arg-pathcov-stats)."""
    stats = os.path.join(work, f"stats{level}.json")
    if os.path.exists(stats):
        os.remove(stats)
    result = subprocess.run(
        ["gcc", level, "-Werror", "-Wno-error=missing-profile",
         f"-fplugin={PLUGIN}", "-fplugin-arg-pathcov-mode=residual",
         f"-fplugin-arg-pathcov-corpus={corpus}",
         f"-fplugin-arg-pathcov-stats={stats}", "-c", SOURCE,
         "-o", os.path.join(work, "out.o")],
        capture_output=True, text=True, env={**os.environ, "LC_ALL": "C"})
    check(result.returncode == 0, f"residual build at {level}", result.stderr)
    warnings = [line for line in result.stderr.splitlines()
                if "pathcov:" in line]
    check(all(w.endswith("[-Wmissing-profile]") for w in warnings),
          f"{level}: each warning under -Wmissing-profile, kept a warning "
          "under -Werror", "\n".join(warnings))
    # The unit's warning is not headed by a function of it.
    lines = result.stderr.splitlines()
    check(not any("this unit is built at" in line and i and "In function" in lines[i - 1]
                  for i, line in enumerate(lines)),
          f"{level}: the unit's warning is not under a function", result.stderr)
    policies = json.loads(open(stats).readline())["functions"] \
        if os.path.exists(stats) else {}
    return warnings, policies


def main():
    global PLUGIN, RUNTIME, PATHCOV
    PLUGIN, RUNTIME, PATHCOV, work = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    unoptimized = record("-O0", work)
    optimized = record("-O2", work)
    for corpus, level in ((unoptimized, "-O0"), (optimized, "-O2")):
        recorded = {f["name"]: f.get("optimization")
                    for f in json.load(open(corpus))["functions"]}
        check(all(recorded.get(name) == level for name in FUNCTIONS),
              f"the {level} corpus records {level}",
              str(recorded))

    for corpus, recorded, built in ((unoptimized, "-O0", "-O2"),
                                    (optimized, "-O2", "-O0")):
        warnings, policies = residual(built, corpus, work)
        # Of the unit, by name: not at its first function, which may be a
        # header's (jq's units all pointed at jv.h).
        said = f"pathcov: {SOURCE}: the corpus was recorded at '{recorded}', " \
               f"this unit is built at '{built}'"
        check(len(warnings) == 1 and said in warnings[0],
              f"{recorded} corpus, {built} build: one warning naming both",
              "\n".join(warnings))
        check(policies.get("stale") == len(FUNCTIONS),
              f"{recorded} corpus, {built} build: every function stale",
              str(policies))
        # What decode says of each: the two options too.
        why = f"; the tests were built at {recorded}, this build at {built}"
        stale = [r.get("stale", "") for r in metadata_records(
            os.path.join(work, "out.o"), os.path.join(work, "records"))]
        check(len(stale) == len(FUNCTIONS) and all(w.endswith(why) for w in stale),
              f"{recorded} corpus, {built} build: each record says why", str(stale))

    for level in ("-O1", "-Og", "-Os", "-O3", "-O2"):
        warnings, policies = residual(level, optimized, work)
        check(not any("recorded at" in w for w in warnings),
              f"-O2 corpus, {level} build: no optimization warning",
              "\n".join(warnings))
    warnings, policies = residual("-O2", optimized, work)
    check(not warnings and policies.get("stale") == 0,
          "-O2 corpus, -O2 build: silent, nothing stale",
          "\n".join(warnings) + str(policies))

    return finish(FAILURES, "ok: the optimization class of a corpus is "
                  "checked, once")


if __name__ == "__main__":
    sys.exit(main())
