#!/usr/bin/env python3
"""A header's static function has a copy in each unit, and all copies are
one function, named by the header (`clamp.h:clamp`), as the copies of an
inline one are: which copy a caller runs may depend on the link (ninja's
MurmurHash2 at -O2 -flto), so a path the tests ran in one copy is tested
in every copy. The tests run only low.c's copy of clamp; the field runs
high.c's.

- show: one clamp, named by the header, its tested path among 3;
- a field run of high.c's copy on the path the tests ran in low.c's
  writes no report; one on an untested path reports it, once, under the
  header's identity;
- a corpus from before stop 51, where each copy was its unit's
  (`low.c:clamp`), serves the same: residual mode reads it under the
  header's identity too (and so does the residual oracle), and `pathcov
  gate` against it as a baseline finds no new function;
- but a header the build generates (copied into each out-of-tree build
  directory, which holds a config.status, as configure leaves) is named by
  that directory, which the tests' build and the release's differ in: its
  static function stays its unit's, and the release finds the tested path
  tested (gnulib's dynarray.gl.h in sed's build).

usage: header_statics.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import (FAILURES, check, finish, fresh_directory, must,  # noqa: E402
                     recorded_corpus, residual_field_run, run)
import residual_oracle  # noqa: E402

SOURCES = [os.path.join(HERE, "header_statics_src", f)
           for f in ("low.c", "high.c")]


def legacy_corpus(corpus, path):
    """`corpus` with clamp named as stop 50 named it: by its unit."""
    with open(corpus, encoding="utf-8") as f:
        doc = json.load(f)
    [clamp] = [f for f in doc["functions"] if f["name"] == "clamp"]
    clamp["identity"] = clamp["tu"] + ":clamp"
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    return path, clamp["identity"]


def clamp_paths(reports):
    """[(identity, id)] of clamp's residual paths in the reports in `reports`."""
    return [(p["identity"], p["id"]) for r in os.listdir(reports)
            for p in json.load(open(os.path.join(reports, r),
                                    encoding="utf-8"))["residual_paths"]
            if p["identity"].endswith(":clamp")]


def field_runs(plugin, runtime, pathcov, corpus, work):
    """high.c's copy of clamp on the path the tests ran in low.c's, then
    on one they did not run (main's and high's own paths are residual too:
    the tests ran neither)."""
    flags = [f"-fplugin={plugin}", "-fplugin-arg-pathcov-mode=residual",
             f"-fplugin-arg-pathcov-corpus={corpus}"]
    tested = residual_field_run(flags, SOURCES, runtime,
                                fresh_directory(os.path.join(work, "tested")),
                                ["150", "high"])
    check(clamp_paths(tested) == [],
          f"{corpus}: high.c's copy on the path the tests ran in low.c's "
          "is tested", clamp_paths(tested))
    untested = residual_field_run(flags, SOURCES, runtime,
                                  fresh_directory(os.path.join(work, "untested")),
                                  ["300", "high"])
    check([(identity.endswith("clamp.h:clamp"), id)
           for identity, id in clamp_paths(untested)] == [(True, 1)],
          f"{corpus}: the untested path of high.c's copy (v > hi), once, as "
          "the header's function", clamp_paths(untested))
    decoded = must([pathcov, "decode", untested], "pathcov decode DIR").stdout
    check("clamp: 1 residual path; 1 tested path of 3" in decoded and
          "compiled in" not in decoded,
          f"{corpus}: decode names clamp by its header", decoded)


def generated_header_build(work, name, flags, runtime):
    """generated.c built in the out-of-tree build directory `name`, with
    its generated.h there; the program's path."""
    build = fresh_directory(os.path.join(work, name))
    open(os.path.join(build, "config.status"), "w").close()
    shutil.copy(os.path.join(HERE, "header_statics_src", "generated.h.in"),
                os.path.join(build, "generated.h"))
    program = os.path.join(build, "program")
    must(["gcc", "-O2", *flags, "-I.",
          os.path.join(HERE, "header_statics_src", "generated.c"), "-o", program,
          runtime, "-lpthread"],
         f"the {name} build", cwd=build)
    return program


def generated_header(plugin, runtime, pathcov, work):
    program = generated_header_build(work, "gen-tests", [f"-fplugin={plugin}"],
                                     runtime)
    profiles = os.path.join(work, "gen-profiles")
    run([program, "7"], env={**os.environ, "PATHCOV_PROFILE_DIR": profiles})
    corpus = os.path.join(work, "gen-corpus.json")
    must([pathcov, "collect", "-o", corpus, profiles], "collect")
    with open(corpus, encoding="utf-8") as f:
        [pick] = [f["identity"] for f in json.load(f)["functions"]
                  if f["name"] == "pick"]
    check(pick.endswith("header_statics_src/generated.c:pick"),
          "a generated header's static function is its unit's", pick)
    shown = must([pathcov, "show", corpus], "pathcov show").stdout
    check("generated.h:3 pick (compiled in testsuite/identities/header_statics_src/"
          "generated.c)" in shown, "show names the unit of a unit's copy", shown)
    release = generated_header_build(
        work, "gen-release", [f"-fplugin={plugin}", "-fplugin-arg-pathcov-mode=residual",
                              f"-fplugin-arg-pathcov-corpus={corpus}"],
        runtime)
    reports = fresh_directory(os.path.join(work, "gen-reports"))
    run([release, "7"], env={**os.environ, "PATHCOV_REPORT_DIR": reports})
    check(os.listdir(reports) == [],
          "the release of another build directory finds the tested path tested",
          os.listdir(reports))


def another_version(plugin, runtime, pathcov, work):
    """high_logged.c's copy of clamp has another CFG (CLAMP_CHECKED): the
    tests, running low.c's, leave it in the corpus never run. The release's
    copy of that version is untested, and decode says that the tests ran the
    function, only with another CFG, rather than that they never ran it."""
    sources = [SOURCES[0], os.path.join(HERE, "header_statics_src", "high_logged.c")]
    corpus = recorded_corpus(plugin, runtime, pathcov, sources,
                             fresh_directory(os.path.join(work, "v-tests")),
                             os.path.join(work, "v-corpus.json"), args=["5"])
    with open(corpus, encoding="utf-8") as f:
        versions = {f["checksum"]: len(f["paths"]) for f in json.load(f)["functions"]
                    if f["identity"].endswith("clamp.h:clamp")}
    check(sorted(versions.values()) == [0, 1],
          "the corpus has clamp's two versions, one run", versions)
    [ran] = [c for c, n in versions.items() if n]
    shown = must([pathcov, "show", corpus], "pathcov show").stdout
    check(f"clamp (CFG {ran}, as compiled in testsuite/identities/"
          "header_statics_src/low.c): 1 of 3 paths tested" in shown and
          "high_logged.c): 0 of 4 paths tested" in shown,
          "show tells clamp's versions apart by the unit that built each", shown)
    flags = [f"-fplugin={plugin}", "-fplugin-arg-pathcov-mode=residual",
             f"-fplugin-arg-pathcov-corpus={corpus}"]
    reports = residual_field_run(flags, sources, runtime,
                                 fresh_directory(os.path.join(work, "v-field")),
                                 ["150", "high"])
    check(len(clamp_paths(reports)) == 1,
          "the never-run version's path (v in range) is residual, once",
          clamp_paths(reports))
    decoded = must([pathcov, "decode", reports], "pathcov decode DIR").stdout
    check(f"clamp: 1 residual path; the tests ran it only with another CFG "
          f"(checksum {ran}: 1 tested path), never this one" in decoded,
          "decode: the tests ran clamp only with another CFG", decoded)
    as_json = json.loads(must([pathcov, "decode", "--json", reports],
                              "pathcov decode --json").stdout)
    [clamp] = [f for r in as_json["reports"] for f in r["functions"]
               if f["name"] == "clamp"]
    check(clamp["policy"] == "untested" and
          clamp.get("tested_versions") == [{"checksum": ran, "tested_paths": 1}],
          "decode --json: clamp's tested_versions", clamp)


def main():
    plugin, runtime, pathcov, work = sys.argv[1:5]
    fresh_directory(work)
    corpus = recorded_corpus(plugin, runtime, pathcov, SOURCES,
                             fresh_directory(os.path.join(work, "tests")),
                             os.path.join(work, "corpus.json"), args=["5"])
    shown = must([pathcov, "show", corpus], "pathcov show").stdout
    headings = [line for line in shown.splitlines() if " clamp" in line]
    check(len(headings) == 1 and "clamp.h:4 clamp: 1 of 3 paths tested" in headings[0],
          "show: one clamp, named by its header, 1 path tested", shown)
    field_runs(plugin, runtime, pathcov, corpus,
               fresh_directory(os.path.join(work, "field")))
    legacy, identity = legacy_corpus(corpus, os.path.join(work, "legacy.json"))
    check(identity.endswith("low.c:clamp"), "the legacy corpus names low.c's copy",
          identity)
    legacy_field = fresh_directory(os.path.join(work, "legacy-field"))
    field_runs(plugin, runtime, pathcov, legacy, legacy_field)
    # The oracle reads an older corpus as residual mode does: the run of
    # high.c's copy on the path low.c's ran in the tests is exact.
    executed = recorded_corpus(plugin, runtime, pathcov, SOURCES,
                               fresh_directory(os.path.join(work, "executed")),
                               os.path.join(work, "executed.json"),
                               args=["150", "high"])
    expected, wrong = residual_oracle.check_reports(
        executed, legacy, os.path.join(legacy_field, "tested", "reports"))
    check(wrong == [] and expected, "the residual oracle against the legacy "
          "corpus: exact (main and high residual, clamp tested)", (expected, wrong))
    gated = run([pathcov, "gate", corpus, "--baseline", legacy, "--no-new-untested"])
    check(gated.returncode == 0 and "New untested paths <= 0: 0 in 0 functions" in gated.stdout,
          "gate against the legacy corpus: clamp is not new",
          f"exit {gated.returncode}\n{gated.stdout}{gated.stderr}")
    generated_header(plugin, runtime, pathcov, work)
    another_version(plugin, runtime, pathcov, work)
    return finish(FAILURES, "ok: a header's static function is one function")


if __name__ == "__main__":
    sys.exit(main())
