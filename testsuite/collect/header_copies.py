#!/usr/bin/env python3
"""A header's static inline function has a copy per unit, each a function
of its own: `pathcov show` and `pathcov decode` name the unit of each copy
("(the copy in low.c)"), so that the tested copy and the untested one do
not read alike (a new user's zstd had 25 copies of MEM_isLittleEndian).
The tests run only low.c's copy; the field run high.c's.

usage: header_copies.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import (FAILURES, check, finish, fresh_directory, must,  # noqa: E402
                     recorded_corpus, residual_field_run)

SOURCES = [os.path.join(HERE, "header_copies_src", f)
           for f in ("low.c", "high.c")]


def main():
    plugin, runtime, pathcov, work = sys.argv[1:5]
    fresh_directory(work)
    corpus = recorded_corpus(plugin, runtime, pathcov, SOURCES,
                             fresh_directory(os.path.join(work, "tests")),
                             os.path.join(work, "corpus.json"), args=["5"])
    shown = must([pathcov, "show", corpus], "pathcov show").stdout
    headings = [line for line in shown.splitlines() if " clamp" in line]
    check(len(headings) == 2 and all("(the copy in " in h for h in headings),
          "show: each copy of clamp names its unit", "\n".join(headings))
    check(any("low.c)" in h and "1 of 3 paths tested" in h for h in headings) and
          any("high.c)" in h and "0 of 3 paths tested" in h for h in headings),
          "show: low.c's copy tested, high.c's not", "\n".join(headings))
    check(all("(the copy in" not in line for line in shown.splitlines()
              if " main" in line or " low:" in line),
          "show: a unit's own functions name no copy", shown)
    flags = [f"-fplugin={plugin}", "-fplugin-arg-pathcov-mode=residual",
             f"-fplugin-arg-pathcov-corpus={corpus}"]
    reports = residual_field_run(flags, SOURCES, runtime,
                                 fresh_directory(os.path.join(work, "field")),
                                 ["300", "high"])
    decoded = must([pathcov, "decode", *[os.path.join(reports, r)
                                          for r in os.listdir(reports)]],
                   "pathcov decode").stdout
    check(any("clamp (the copy in " in line and "high.c)" in line and
              "never ran this function" in line for line in decoded.splitlines()),
          "decode: the residual paths of high.c's copy, named so", decoded)
    return finish(FAILURES, "ok: each copy of a header's function names its unit")


if __name__ == "__main__":
    sys.exit(main())
