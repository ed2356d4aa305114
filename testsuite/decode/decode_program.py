"""What decode_case.py and detach_case.py share: decode_program.c's test
and field inputs, its builds with the plugin, the corpus of its tests and
the one report of a run."""
import argparse
import glob
import os
import shutil
import sys

from testlib import must

TEST_RUNS = [["x:2", "x:7"], ["v:aei"], ["c:a", "c:b"], ["n:0"], ["l:7"]]
FIELD_RUN = ["x:-3", "v:xyz", "c:z", "n:2", "s:hi!", "l:1"]


def arguments():
    """The options both scripts take; a script adds its own."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--flags", default="")
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--runtime", required=True, help="libpathcov-rt.a")
    ap.add_argument("--runtime-include", required=True)
    ap.add_argument("--pathcov", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("source")
    return ap


class Program:
    """The program of `args.source`, built and run in a fresh workdir."""

    def __init__(self, args):
        self.args = args
        self.work = args.workdir
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        self.source = os.path.abspath(args.source)

    def build(self, name, extra):
        """Builds WORKDIR/name/field with the plugin and `extra` flags;
        returns its path and the compiler's warnings."""
        program = os.path.join(self.work, name, "field")
        os.makedirs(os.path.dirname(program))
        a = self.args
        result = must([a.compiler, *a.flags.split(), f"-fplugin={a.plugin}",
                       *extra, "-I", a.runtime_include, self.source, "-o",
                       program, a.runtime, "-lpthread"], f"{name} build")
        return program, result.stderr

    def record_corpus(self, recorded):
        """Runs the record-mode build on TEST_RUNS, one test each; returns
        the corpus collected from their profiles (in self.profiles)."""
        profiles = self.profiles = os.path.join(self.work, "profiles")
        for i, inputs in enumerate(TEST_RUNS):
            env = dict(os.environ, PATHCOV_PROFILE_DIR=profiles,
                       PATHCOV_TEST=f"test{i}")
            must([recorded, *inputs], "a test run", env=env)
        corpus = os.path.join(self.work, "corpus.json")
        must([self.args.pathcov, "collect", "-o", corpus, profiles],
             "pathcov collect")
        return corpus


def one_report(directory):
    found = glob.glob(os.path.join(directory, "pathcov-report-*.json"))
    if len(found) != 1:
        sys.exit(f"FAIL: {len(found)} reports in {directory}, expected one")
    return found[0]
