#!/usr/bin/env python3
"""The build tree's own spec files (build/integration/pathcov-*.specs,
docs/record-mode.md "Without installing") instrument a project as the
installed ones do: a configure-style probe that links with CFLAGS alone
(no LDLIBS) links, as it does plain; the record build writes profiles that
collect into a corpus; the residual build against it reports exactly the
paths the tests did not run.

usage: build_tree_specs_test.py BUILD_DIR PATHCOV WORKDIR"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import residual_oracle  # noqa: E402
from testlib import FAILURES, check, finish, fresh_directory, must  # noqa: E402

CALC = os.path.join(os.path.dirname(HERE), "projects", "calc")
SOURCES = [os.path.join(CALC, f) for f in ("main.c", "lexer.c", "parser.c")]
TESTS = ["1+2", "3*4"]
FIELD = ["(1+2)*3", "7/0", "2-"]


def build_and_run(flags, work, args, env_name, env_dir):
    """Links calc with `flags` (compile and link alike) and runs it once per
    argument, each run's output kept in `env_dir` (PATHCOV_PROFILE_DIR or
    PATHCOV_REPORT_DIR, as `env_name` says)."""
    program = os.path.join(work, "calc")
    must(["gcc", "-O2", *flags, *SOURCES, "-o", program], "build calc")
    for arg in args:
        subprocess.run([program, arg], capture_output=True,
                       env={**os.environ, env_name: env_dir})


def main():
    build, pathcov, work = sys.argv[1:4]
    fresh_directory(work)
    specs = os.path.join(build, "integration")
    record = f"-specs={os.path.join(specs, 'pathcov-record.specs')}"
    residual = f"-specs={os.path.join(specs, 'pathcov-residual.specs')}"

    probe = os.path.join(work, "probe.c")
    with open(probe, "w", encoding="utf-8") as f:
        f.write("int main(int argc, char **argv) { return argc > 1 && *argv[1]; }\n")
    r = subprocess.run(["gcc", "-O2", record, probe, "-o",
                        os.path.join(work, "probe")], capture_output=True, text=True)
    check(r.returncode == 0, "a probe linked with CFLAGS alone (the record "
          "spec file) links", r.stderr)

    def recorded(name, args):
        """The corpus of the record build run once per argument in `args`."""
        where = fresh_directory(os.path.join(work, name))
        profiles = os.path.join(where, "profiles")
        build_and_run([record], where, args, "PATHCOV_PROFILE_DIR", profiles)
        corpus = os.path.join(work, f"{name}.json")
        must([pathcov, "collect", "-o", corpus, profiles], f"collect {name}")
        return corpus

    corpus, executed = recorded("tests", TESTS), recorded("field", FIELD)

    release = fresh_directory(os.path.join(work, "release"))
    reports = os.path.join(release, "reports")
    build_and_run([residual, f"-fplugin-arg-pathcov-corpus={corpus}"], release,
                  FIELD, "PATHCOV_REPORT_DIR", reports)
    expected, wrong = residual_oracle.check_reports(executed, corpus, reports)
    check(expected and not wrong, "the release build reports exactly the "
          "field run's untested paths, with their counts", str(wrong))
    return finish(FAILURES, "ok: the build tree's spec files, record and residual")


if __name__ == "__main__":
    sys.exit(main())
