#!/usr/bin/env python3
"""docs/first-five-minutes.md, run as a new user would: pathcov installed
into a scratch prefix, then each of the page's blocks (`<!-- test:
five-minutes make -->` on testsuite/projects/calc, `... cmake -->` on
testsuite/projects/tally) in a copy of its project, with SPECS set and the
prefix's bin first in PATH. Checked after each block:

- the profiles are in ./profiles, one pathcov-*.json per test process and
  module;
- corpus.json names the tests as the block named them (PATHCOV_TEST);
- `pathcov show --summary` ends with a TOTAL line;
- coverage-html/index.html links a page per source file of the project.

usage: first_five_minutes_test.py --build-dir B --cmake CMAKE --doc PAGE
       --projects DIR --workdir W --cc CC"""
import argparse
import glob
import json
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_system_test import doc_block, new_user, run_block  # noqa: E402
from testlib import FAILURES, check, finish, must  # noqa: E402

# Per block: its project, the test names it gives, and the project's
# sources the HTML report must have a page for.
BLOCKS = {
    "make": ("calc", {"calc 1+2", "calc 2*(3+4)", "calc 7/0"},
             ["lexer.c", "parser.c", "main.c"]),
    "cmake": ("tally", {"words"},
              ["lib/wordclass.c", "lib/wordname.cc", "src/tally.c"]),
}


def check_block(name, work, tests, sources, env):
    profiles = glob.glob(os.path.join(work, "profiles", "pathcov-*.json"))
    check(len(profiles) >= len(tests),
          f"{name}: profiles in ./profiles ({len(profiles)})")
    with open(os.path.join(work, "corpus.json"), encoding="utf-8") as f:
        corpus = json.load(f)
    named = {t for fn in corpus["functions"] for p in fn.get("paths", [])
             for t in p.get("tests", [])}
    check(named == tests, f"{name}: the corpus names the tests {sorted(named)}")
    summary = must(["pathcov", "show", "--summary", "corpus.json"],
                   f"{name}: show --summary", cwd=work, env=env).stdout
    check(re.search(r"^TOTAL: \d+ of \d+ paths tested", summary, re.M),
          f"{name}: show --summary has a TOTAL line")
    index = os.path.join(work, "coverage-html", "index.html")
    text = open(index, encoding="utf-8").read() if os.path.exists(index) else ""
    for source in sources:
        check(f">{source}</a>" in text and
              os.path.exists(os.path.join(work, "coverage-html",
                                          source.replace("/", "_") + ".html")),
              f"{name}: coverage-html has a page for {source}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for option in ("build-dir", "cmake", "doc", "projects", "workdir", "cc"):
        ap.add_argument(f"--{option}", required=True)
    args = ap.parse_args()
    root = args.workdir
    _, _, env = new_user(args)
    with open(args.doc, encoding="utf-8") as f:
        doc = f.read()
    for name, (project, tests, sources) in BLOCKS.items():
        work = os.path.join(root, project)
        shutil.copytree(os.path.join(args.projects, project), work)
        # A project of its own, as a user's is: its checkout, not pathcov's,
        # is what source paths are relative to.
        must(["git", "init", "-q", work], "git init")
        run_block(doc_block(doc, "five-minutes", name), work, env,
                  f"five minutes with {name}")
        check_block(name, work, tests, sources, env)
    return finish(FAILURES, "ok: the first five minutes, with Make and with "
                  "CMake")


if __name__ == "__main__":
    sys.exit(main())
