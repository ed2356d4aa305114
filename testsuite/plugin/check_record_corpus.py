#!/usr/bin/env python3
"""Record mode with corpus= (profile-guided placement), on record_corpus.c:

- the build with the last run's corpus counts exactly the paths and calls
  the build without it counts, on the same input;
- its increments go where that run never went: over 100,000 iterations
  that all take the branch where the estimates put an increment, it runs
  at least one instruction fewer per iteration (callgrind's instruction count, which is
  exact for a given binary: a count, not a timing);
- a corpus whose `weigh` has another CFG (built with -DRECORD_CORPUS_STALE)
  is not used for it: the same profile, no warning;
- a corpus of the same CFG numbered under another path limit (the
  default's, for a build at path-limit=8, which cuts weigh: 7 paths where
  the corpus has ids 8 and 9) has another checksum (Dag.h
  numberingChecksum) and is not used either: the same profile as the
  build without it; a release build at path-limit=8 says weigh is stale,
  where before it read ids of one numbering in the other and reported
  paths the tests had run;
- a corrupt corpus (weigh's checksum, ids past its paths) gives no
  guidance: no warning, the same profile;
- a corpus that does not exist fails the build with its name.

usage: check_record_corpus.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import FAILURES, check, finish, fresh_directory, must, run  # noqa: E402

SOURCE = os.path.join(HERE, "record_corpus.c")
ITERATIONS = 100000


def build(plugin, runtime, work, name, *flags):
    program = os.path.join(work, name)
    result = must(["gcc", "-O2", f"-fplugin={plugin}", *flags, SOURCE, "-o",
                   program, runtime, "-lpthread"], f"build {name}", cwd=work)
    return program, result.stderr


def weigh_of(corpus):
    """weigh's entry in `corpus`: its checksum, path count and path ids."""
    with open(corpus, encoding="utf-8") as f:
        [fn] = [fn for fn in json.load(f)["functions"] if fn["name"] == "weigh"]
    return fn["checksum"], fn["num_paths"], [p["id"] for p in fn["paths"]]


def profile(program, pathcov, work, args):
    """{function: (calls, [(id, count)])} of one run of `program`."""
    profiles = fresh_directory(os.path.join(work, os.path.basename(program) + "-profiles"))
    must([program, *args], f"run {program}",
         env={**os.environ, "PATHCOV_PROFILE_DIR": profiles})
    corpus = profiles + ".json"
    must([pathcov, "collect", "-o", corpus, profiles], "collect")
    with open(corpus, encoding="utf-8") as f:
        functions = json.load(f)["functions"]
    return corpus, {fn["name"]: (fn.get("calls"),
                                 sorted((p["id"], p["count"]) for p in fn.get("paths", [])))
                    for fn in functions}


def instructions(program, work):
    """callgrind's total instruction count of one run on ITERATIONS."""
    out = os.path.join(work, os.path.basename(program) + ".callgrind")
    must(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
          program, str(ITERATIONS)], f"callgrind {program}",
         env={**os.environ, "PATHCOV_PROFILE_DIR": os.path.join(work, "cg-profiles")})
    with open(out) as f:
        return int(re.search(r"^summary: (\d+)", f.read(), re.M).group(1))


def main():
    plugin, runtime, pathcov, work = sys.argv[1:5]
    fresh_directory(work)
    estimated, _ = build(plugin, runtime, work, "estimated")
    corpus, want = profile(estimated, pathcov, work, [str(ITERATIONS)])
    weigh = want.get("weigh", (None, []))
    check(weigh[0] == 1 and sum(c for _, c in weigh[1]) == ITERATIONS + 1,
          f"weigh: 1 call, {ITERATIONS} iterations and its exit ({weigh})")

    measured, _ = build(plugin, runtime, work, "measured",
                        f"-fplugin-arg-pathcov-corpus={corpus}")
    _, got = profile(measured, pathcov, work, [str(ITERATIONS)])
    check(got == want, f"corpus=: the same calls, paths and counts ({got} against {want})")
    _, got = profile(measured, pathcov, work, ["7"])
    _, want7 = profile(estimated, pathcov, work, ["7"])
    check(got == want7, f"corpus=, another input: the same profile ({got} against {want7})")

    saved = instructions(estimated, work) - instructions(measured, work)
    check(saved >= ITERATIONS,
          f"corpus=: {saved} instructions fewer over {ITERATIONS} iterations "
          "(at least one an iteration: the increment left the hot branch)")

    stale_corpus, _ = profile(build(plugin, runtime, work, "stale-source",
                                    "-DRECORD_CORPUS_STALE")[0],
                              pathcov, work, [str(ITERATIONS)])
    check(weigh_of(stale_corpus)[0] != weigh_of(corpus)[0],
          "the -DRECORD_CORPUS_STALE corpus has weigh with another CFG")
    stale, warnings = build(plugin, runtime, work, "stale",
                            f"-fplugin-arg-pathcov-corpus={stale_corpus}")
    _, got = profile(stale, pathcov, work, [str(ITERATIONS)])
    check(got == want and "warning" not in warnings,
          f"a stale corpus: the same profile, no warning ({warnings!r})")

    limit = "-fplugin-arg-pathcov-path-limit=8"
    cut_corpus, want8 = profile(build(plugin, runtime, work, "cut", limit)[0],
                                pathcov, work, [str(ITERATIONS)])
    checksum8, paths8, _ = weigh_of(cut_corpus)
    checksum, num_paths, ids = weigh_of(corpus)
    check(checksum8 != checksum and max(ids) >= paths8,
          f"at path-limit=8 weigh is numbered otherwise ({paths8} paths, "
          f"checksum {checksum8}), the corpus's ids {ids} (checksum {checksum})")
    cut, warnings = build(plugin, runtime, work, "cut-measured", limit,
                          f"-fplugin-arg-pathcov-corpus={corpus}")
    _, got = profile(cut, pathcov, work, [str(ITERATIONS)])
    check(got == want8 and "warning" not in warnings,
          f"another numbering's corpus: the same profile as without it, no "
          f"warning ({got} against {want8}; {warnings!r})")
    _, warnings = build(plugin, runtime, work, "cut-release", limit,
                        "-fplugin-arg-pathcov-mode=residual",
                        f"-fplugin-arg-pathcov-corpus={corpus}")
    check("the corpus has 'weigh' only with another CFG" in warnings.replace("\u2018", "'").replace("\u2019", "'"),
          f"a release at another path limit: weigh is stale ({warnings!r})")

    with open(corpus, encoding="utf-8") as f:
        doc = json.load(f)
    for fn in doc["functions"]:
        if fn["name"] == "weigh":
            for k, p in enumerate(fn["paths"]):
                p["id"] = num_paths + 100 + k
    corrupt = os.path.join(work, "corrupt.json")
    with open(corrupt, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    guessed, warnings = build(plugin, runtime, work, "corrupt",
                              f"-fplugin-arg-pathcov-corpus={corrupt}")
    _, got = profile(guessed, pathcov, work, [str(ITERATIONS)])
    check(got == want and "warning" not in warnings,
          f"a corrupt corpus: no guidance, the same profile, no warning ({warnings!r})")

    missing = os.path.join(work, "no-such-corpus.json")
    result = run(["gcc", "-O2", f"-fplugin={plugin}", f"-fplugin-arg-pathcov-corpus={missing}",
                  "-c", SOURCE, "-o", os.path.join(work, "missing.o")], cwd=work)
    check(result.returncode != 0 and missing in result.stderr and
          "internal compiler error" not in result.stderr,
          f"a missing corpus fails the build naming it ({result.stderr!r})")
    shutil.rmtree(os.path.join(work, "cg-profiles"), ignore_errors=True)
    return finish(FAILURES, "ok: corpus= moves record mode's increments off the "
                  "paths the last run took, and counts the same")


if __name__ == "__main__":
    sys.exit(main())
