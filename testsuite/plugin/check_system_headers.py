#!/usr/bin/env python3
"""Functions defined in system headers are not instrumented unless
system-headers=1 (docs/record-mode.md, "System headers"):

- clamp.c's header function clamp_to, found through -isystem, is not in
  the corpus; through -I it is, and through -isystem with
  system-headers=1 too; main is in all three, with the same paths;
- sorted.cc's std::vector and std::sort: no function of the corpus is
  defined under /usr/include by default, several are with
  system-headers=1;
- a release build with the tests' flags against the -isystem corpus,
  run on the tests' own input, reports nothing.

usage: check_system_headers.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import FAILURES, check, finish, fresh_directory, must  # noqa: E402

SOURCES = os.path.join(HERE, "system_headers")
INCLUDE = os.path.join(SOURCES, "include")
ARGS = ["150", "7", "-3", "42"]


def record(plugin, runtime, pathcov, work, name, source, flags):
    """The corpus of `source` built with `flags` and run on ARGS: its
    functions by name."""
    directory = os.path.join(work, name)
    os.makedirs(directory)
    compiler = "g++" if source.endswith(".cc") else "gcc"
    program = os.path.join(directory, "program")
    must([compiler, "-O2", f"-fplugin={plugin}", *flags,
          os.path.join(SOURCES, source), "-o", program, runtime, "-lpthread"],
         f"{name}: record build", cwd=directory)
    profiles = os.path.join(directory, "profiles")
    must([program, *ARGS], f"{name}: run", cwd=directory,
         env={**os.environ, "PATHCOV_PROFILE_DIR": profiles})
    corpus = os.path.join(directory, "corpus.json")
    must([pathcov, "collect", "-o", corpus, profiles], f"{name}: collect")
    with open(corpus, encoding="utf-8") as f:
        return corpus, {fn["name"]: fn for fn in json.load(f)["functions"]}


def tested(function):
    return sorted((p["id"], p["count"]) for p in function.get("paths", []))


def main():
    plugin, runtime, pathcov, work = sys.argv[1:5]
    fresh_directory(work)
    tools = (plugin, runtime, pathcov, work)

    corpus, system = record(*tools, "isystem", "clamp.c", ["-isystem", INCLUDE])
    _, user = record(*tools, "include", "clamp.c", ["-I", INCLUDE])
    _, forced = record(*tools, "forced", "clamp.c",
                       ["-isystem", INCLUDE,
                        "-fplugin-arg-pathcov-system-headers=1"])
    check("clamp_to" not in system and "main" in system,
          "-isystem: main instrumented, clamp_to not", sorted(system))
    for name, functions in (("-I", user), ("system-headers=1", forced)):
        check("clamp_to" in functions and len(tested(functions["clamp_to"])) == 3,
              f"{name}: clamp_to instrumented, its 3 paths tested",
              functions.get("clamp_to"))
        check(tested(functions.get("main", {})) == tested(system.get("main", {})),
              f"{name}: main's paths are the same as with -isystem")

    release = os.path.join(work, "release")
    os.makedirs(release)
    must(["gcc", "-O2", f"-fplugin={plugin}", "-fplugin-arg-pathcov-mode=residual",
          f"-fplugin-arg-pathcov-corpus={corpus}", "-isystem", INCLUDE,
          os.path.join(SOURCES, "clamp.c"), "-o", os.path.join(release, "program"),
          runtime, "-lpthread"], "release build", cwd=release)
    reports = os.path.join(release, "reports")
    r = must([os.path.join(release, "program"), *ARGS], "release run", cwd=release,
             env={**os.environ, "PATHCOV_REPORT_DIR": reports})
    check(r.stdout == "149\n", "release output", r.stdout)
    check(not glob.glob(os.path.join(reports, "*")),
          "the release build reports nothing on the tests' input",
          os.listdir(reports) if os.path.isdir(reports) else "")

    _, cxx = record(*tools, "cxx", "sorted.cc", [])
    _, cxx_forced = record(*tools, "cxx-forced", "sorted.cc",
                           ["-fplugin-arg-pathcov-system-headers=1"])
    library = [n for n, f in cxx.items() if f["file"].startswith("/usr/")]
    check(not library and "int main(int, char**)" in cxx,
          "C++: main instrumented, no function of /usr/include",
          sorted(cxx))
    check(len([f for f in cxx_forced.values()
               if f["file"].startswith("/usr/")]) >= 3,
          "C++, system-headers=1: the library's templates instrumented",
          sorted(cxx_forced))
    return finish(FAILURES, "ok: system headers instrumented only when asked")


if __name__ == "__main__":
    sys.exit(main())
