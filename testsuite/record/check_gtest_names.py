#!/usr/bin/env python3
"""One process, many tests (docs/record-mode.md): programs/gtest_names.cc
built in record mode with <pathcov/gtest.h>, run with PATHCOV_TEST=whole.
The corpus must name each path of sign() after the one test that ran it,
with its runs (Sign.Negative, Sign.Zero, Sign.PositiveTwice: 2), and
main's and before()'s paths after the process (whole); a profile when
the tests start, one per test (reason flush), and one at exit; nothing of
the header's own listener in the corpus. Then the release, against the
corpus of Sign.Negative alone: its one report (at exit, test whole) says
which test first took each of sign()'s other paths (`first_test`), and
decode says so.

usage: check_gtest_names.py CXX PLUGIN RUNTIME RUNTIME_INCLUDE PATHCOV WORKDIR
                            SCHEMAS"""
import glob
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from jsonschema import Draft202012Validator  # noqa: E402
from testlib import FAILURES, check, finish, must  # noqa: E402


def main():
    cxx, plugin, runtime, include, pathcov, work, schemas = sys.argv[1:8]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    program = os.path.join(work, "gtest_names")
    must([cxx, "-O2", "-g", f"-fplugin={plugin}", f"-I{include}",
          os.path.join(HERE, "programs", "gtest_names.cc"), "-o", program,
          "-lgtest", "-pthread", runtime], "build")
    profiles = os.path.join(work, "profiles")
    must([program], "run", env={**os.environ, "PATHCOV_PROFILE_DIR": profiles,
                                "PATHCOV_TEST": "whole"})
    reasons = sorted((json.load(open(p))["test"], json.load(open(p))["reason"])
                     for p in glob.glob(os.path.join(profiles, "*")))
    check(reasons == [("Sign.Negative", "flush"), ("Sign.PositiveTwice", "flush"),
                      ("Sign.Zero", "flush"), ("whole", "exit"),
                      ("whole", "flush")],
          "a profile before the tests, one per test, the exit's",
          str(reasons))
    corpus = os.path.join(work, "corpus.json")
    must([pathcov, "collect", "-o", corpus, profiles], "collect")
    functions = {f["name"]: f for f in json.load(open(corpus))["functions"]}
    sign = sorted((p["count"], p["tests"])
                  for p in functions.get("int sign(int)", {}).get("paths", []))
    check(sign == [(1, ["Sign.Negative"]), (1, ["Sign.Zero"]),
                   (2, ["Sign.PositiveTwice"])],
          "sign's paths: each its test's", str(sign))
    check(not [n for n in functions if "GoogleTestNames" in n],
          "the header's listener is not instrumented", str(list(functions)))
    for name in ("int before(int)", "int main(int, char**)"):
        tests = {t for p in functions.get(name, {}).get("paths", [])
                 for t in p["tests"]}
        check(tests == {"whole"}, f"{name}: the process's name", str(tests))
    check_release(cxx, plugin, runtime, include, pathcov, work, schemas,
                  program)
    return finish(FAILURES, "ok: each GoogleTest test's paths named, in the "
                  "corpus and in the release's report")


def check_release(cxx, plugin, runtime, include, pathcov, work, schemas,
                  program):
    negative = os.path.join(work, "negative-profiles")
    must([program, "--gtest_filter=Sign.Negative"], "run Sign.Negative",
         env={**os.environ, "PATHCOV_PROFILE_DIR": negative,
              "PATHCOV_TEST": "whole"})
    corpus = os.path.join(work, "negative.json")
    must([pathcov, "collect", "-o", corpus, negative], "collect Sign.Negative")
    release = os.path.join(work, "gtest_names_release")
    must([cxx, "-O2", "-g", f"-fplugin={plugin}",
          "-fplugin-arg-pathcov-mode=residual",
          f"-fplugin-arg-pathcov-corpus={corpus}", f"-I{include}",
          os.path.join(HERE, "programs", "gtest_names.cc"), "-o", release,
          "-lgtest", "-pthread", runtime], "release build")
    reports = os.path.join(work, "reports")
    must([release], "release run",
         env={**os.environ, "PATHCOV_REPORT_DIR": reports,
              "PATHCOV_TEST": "whole"})
    files = glob.glob(os.path.join(reports, "*.json"))
    check(len(files) == 1, "one report, at exit", str(files))
    if len(files) != 1:
        return
    report = json.load(open(files[0]))
    validate(report, os.path.join(schemas, "report.schema.json"), "report")
    # sign()'s paths the tests but Sign.Negative took (the other tests'
    # own functions are residual too, each in its test).
    firsts = sorted((p["count"], p.get("first_test"))
                    for p in report["residual_paths"]
                    if p["identity"].endswith(":_Z4signi"))
    check(report["test"] == "whole" and
          firsts == [(1, "Sign.Zero"), (2, "Sign.PositiveTwice")],
          "each residual path of sign's first test", str(firsts))
    outside = [p["identity"] for p in report["residual_paths"]
               if "first_test" not in p]
    check(not outside, "every residual path ran first in a test", str(outside))
    text = must([pathcov, "decode", files[0]], "decode").stdout
    check("1 run; first in test Sign.Zero" in text and
          "2 runs; first in test Sign.PositiveTwice" in text,
          "decode names the first test", text)
    decoded = json.loads(must([pathcov, "decode", "--json", files[0]],
                              "decode --json").stdout)
    validate(decoded, os.path.join(schemas, "decode.schema.json"),
             "decode --json")
    check(sorted(p.get("first_test") for r in decoded["reports"]
                 for f in r["functions"] if f["name"] == "int sign(int)"
                 for p in f["paths"]) == ["Sign.PositiveTwice", "Sign.Zero"],
          "decode --json's first_test")


def validate(document, schema, what):
    with open(schema, encoding="utf-8") as f:
        errors = list(Draft202012Validator(json.load(f)).iter_errors(document))
    check(not errors, f"{what} against {os.path.basename(schema)}",
          str([e.message for e in errors[:3]]))


if __name__ == "__main__":
    sys.exit(main())
