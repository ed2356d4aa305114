#!/usr/bin/env python3
"""One process, many tests (docs/record-mode.md): programs/gtest_names.cc
built in record mode with <pathcov/gtest.h>, run with PATHCOV_TEST=whole.
The corpus must name each path of sign() after the one test that ran it,
with its runs (Sign.Negative, Sign.Zero, Sign.PositiveTwice: 2), and
main's and before()'s paths after the process (whole); a profile when
the tests start, one per test (reason flush), and one at exit; nothing of
the header's own listener in the corpus.

usage: check_gtest_names.py CXX PLUGIN RUNTIME RUNTIME_INCLUDE PATHCOV WORKDIR"""
import glob
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import FAILURES, check, finish, must  # noqa: E402


def main():
    cxx, plugin, runtime, include, pathcov, work = sys.argv[1:7]
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
    return finish(FAILURES, "ok: each GoogleTest test's paths named")


if __name__ == "__main__":
    sys.exit(main())
