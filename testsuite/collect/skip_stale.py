#!/usr/bin/env python3
"""`pathcov collect --skip-stale` (docs/record-mode.md, "4. Collect and
look"): profiles whose module is gone or was rebuilt are set aside, the
others collected.

Builds residual/programs/fig3.c in record mode as `app` and, at -O0 (other
code, so another build-id), as `tool`; runs each once (profiles A and T),
removes `tool`, rebuilds `app` at -O1 (same path, another build-id) and runs
it twice (profiles B and C). Then:
  - plain `collect` of the directory fails (exit 3) with one line naming
    A or T, and writes no corpus;
  - `collect --skip-stale` exits 5, names A (rebuilt: its build-id) and T
    (gone) on stderr with a summary line, and writes exactly the corpus of
    B and C collected alone;
  - `collect --skip-stale` of B and C alone exits 0 with nothing on stderr.
"""
import argparse
import glob
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import must, run  # noqa: E402


def expect(got, want, what):
    if got != want:
        sys.exit(f"FAIL: {what}: got {got!r}, expected {want!r}")


def main():
    ap = argparse.ArgumentParser()
    for option in ("compiler", "plugin", "runtime", "pathcov", "workdir",
                   "source"):
        ap.add_argument("--" + option, required=True)
    args = ap.parse_args()
    work = args.workdir
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    profiles = os.path.join(work, "profiles")

    def build(name, level):
        program = os.path.join(work, name)
        must([args.compiler, level, "-g", f"-fplugin={args.plugin}",
              args.source, "-o", program, args.runtime, "-lpthread"],
             f"build {name}")
        return program

    def profile_of(program, inputs):
        before = set(glob.glob(os.path.join(profiles, "*")))
        must([program, inputs], "a run",
             env=dict(os.environ, PATHCOV_PROFILE_DIR=profiles))
        written = set(glob.glob(os.path.join(profiles, "*"))) - before
        expect(len(written), 1, f"profiles written by {program} {inputs}")
        return written.pop()

    app = build("app", "-O2")
    stale = profile_of(app, "111")
    tool = build("tool", "-O0")
    gone = profile_of(tool, "000")
    os.remove(tool)
    build("app", "-O1")
    valid = [profile_of(app, "110"), profile_of(app, "101")]

    corpus = os.path.join(work, "corpus.json")
    strict = run([args.pathcov, "collect", "-o", corpus, profiles])
    expect(strict.returncode, 3, f"strict collect's exit status "
           f"({strict.stderr})")
    lines = strict.stderr.splitlines()
    expect(len(lines), 1, f"strict collect's stderr lines ({strict.stderr})")
    if not any(lines[0].startswith(f"pathcov collect: {p}: ")
               for p in (stale, gone)):
        sys.exit(f"FAIL: strict collect's error names neither {stale} nor "
                 f"{gone}: {lines[0]}")
    expect(os.path.exists(corpus), False, "a corpus written by strict collect")

    partial = run([args.pathcov, "collect", "--skip-stale", "-o", corpus,
                   profiles])
    expect(partial.returncode, 5, f"collect --skip-stale's exit status "
           f"({partial.stderr})")
    lines = partial.stderr.splitlines()
    expect(len(lines), 3, f"collect --skip-stale's stderr ({partial.stderr})")
    by_file = {}
    for line in lines[:2]:
        prefix = "pathcov collect: set aside "
        if not line.startswith(prefix):
            sys.exit(f"FAIL: not a set-aside line: {line}")
        name, _, why = line[len(prefix):].partition(": ")
        by_file[name] = why
    expect(sorted(by_file), sorted([stale, gone]), "the profiles set aside")
    if "now has build-id" not in by_file[stale]:
        sys.exit(f"FAIL: the rebuilt module's reason: {by_file[stale]}")
    if "cannot open" not in by_file[gone]:
        sys.exit(f"FAIL: the removed module's reason: {by_file[gone]}")
    expect(lines[2], "pathcov collect: 2 of 4 profiles set aside "
           "(--skip-stale): the corpus has the paths of the other 2",
           "the summary line")

    reference = os.path.join(work, "reference.json")
    alone = run([args.pathcov, "collect", "--skip-stale", "-o", reference,
                 *valid])
    expect((alone.returncode, alone.stderr), (0, ""),
           "collect --skip-stale of the valid profiles alone")
    with open(corpus, encoding="utf-8") as f:
        got = json.load(f)
    with open(reference, encoding="utf-8") as f:
        want = json.load(f)
    if got != want:
        sys.exit("FAIL: the corpus of collect --skip-stale is not the corpus "
                 "of the valid profiles alone")
    paths = sum(len(f["paths"]) for f in got["functions"])
    if paths == 0:
        sys.exit("FAIL: the valid profiles' corpus has no path")
    print(f"ok: 2 profiles set aside, {paths} paths from the other 2")


if __name__ == "__main__":
    main()
