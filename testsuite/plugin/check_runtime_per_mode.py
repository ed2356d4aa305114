#!/usr/bin/env python3
"""Each mode's binaries link that mode's runtime alone (runtime/CMakeLists.txt,
abi.h's two anchors): a record build has record.c and profile.c and none of
residual.c, residual_table.c or context.c; kpath.c only with k=N; a
residual build the reverse. A forgotten runtime names each mode's anchor.
Both still do their job: the record build writes a profile, the residual
build a report of the route its tests did not run.

usage: check_runtime_per_mode.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import residual_oracle  # noqa: E402
from testlib import FAILURES, check, finish, fresh_directory, must, recorded_corpus  # noqa: E402

SOURCE = os.path.join(HERE, "returns.c")
RECORD = {"__pathcov_runtime_missing_link_with_lpathcov_rt",  # record.c
          "__pathcov_record_path", "pathcov_profile_open"}    # profile.c
RESIDUAL = {"__pathcov_residual_runtime_missing_link_with_lpathcov_rt",  # residual.c
            "__pathcov_residual_word",                                   # residual_table.c
            "pathcov_sample_context"}                                    # context.c
KPATHS = {"__pathcov_kpath", "pathcov_kpaths_write"}


def defined(program):
    out = must(["nm", "--defined-only", program], "nm").stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def main():
    plugin, runtime, pathcov, work = sys.argv[1:5]
    fresh_directory(work)
    corpus = recorded_corpus(plugin, runtime, pathcov, [SOURCE], work,
                             os.path.join(work, "corpus.json"), args=["0", "1"])
    builds = {
        "record": ([], RECORD, RESIDUAL | KPATHS),
        "record k=2": (["-fplugin-arg-pathcov-k=2"], RECORD | KPATHS, RESIDUAL),
        "residual": (["-fplugin-arg-pathcov-mode=residual",
                      f"-fplugin-arg-pathcov-corpus={corpus}"],
                     RESIDUAL, RECORD | KPATHS),
    }
    for name, (args, wanted, unwanted) in builds.items():
        flags = ["gcc", "-O2", f"-fplugin={plugin}", *args, SOURCE]
        program = os.path.join(work, name.replace(" ", "-").replace("=", ""))
        must([*flags, "-o", program, runtime, "-lpthread"], f"{name} build")
        symbols = defined(program)
        check(wanted <= symbols, f"{name}: links its mode's runtime",
              str(sorted(wanted - symbols)))
        check(not unwanted & symbols, f"{name}: and nothing of the other's",
              str(sorted(unwanted & symbols)))
        [anchor] = [s for s in wanted if "missing_link" in s]
        r = subprocess.run([*flags, "-o", program + "-alone"],
                           capture_output=True, text=True)
        check(r.returncode != 0 and anchor in r.stderr,
              f"{name} without the runtime: the link error names {anchor}",
              r.stderr)
        out = fresh_directory(os.path.join(work, name.replace(" ", "-") + "-out"))
        must([program, "0", "7"], f"{name} run",
             env={**os.environ, "PATHCOV_PROFILE_DIR": out, "PATHCOV_REPORT_DIR": out})
        files = os.listdir(out)
        if name.startswith("record"):
            check(any(f.startswith("pathcov-") and "report" not in f for f in files),
                  f"{name}: writes a profile", str(files))
        else:
            reports = residual_oracle.reports_in(out)
            routes = {p["identity"].rsplit(":", 1)[-1]
                      for r in reports for p in r["residual_paths"]}
            check(routes == {"pick"}, f"{name}: reports route 7 of pick",
                  str(reports))
            settings_read_first(program, work)
    return finish(FAILURES, "each mode links its own runtime")


def settings_read_first(program, work):
    """The residual runtime reads the diagnostics' settings before its own:
    with PATHCOV_DIAGNOSTICS=always, a bad setting's warning reaches a
    stderr that is a plain file (record.c, which used to read them, is not
    in the binary any more)."""
    log = os.path.join(work, "stderr.txt")
    with open(log, "w") as stderr:
        subprocess.run([program, "0"], stderr=stderr, stdout=subprocess.DEVNULL,
                       env={**os.environ, "PATHCOV_DIAGNOSTICS": "always",
                            "PATHCOV_CONTEXT_DEPTH": "99",
                            "PATHCOV_REPORT_DIR": work}, check=True)
    with open(log) as f:
        text = f.read()
    check("PATHCOV_CONTEXT_DEPTH=99: expected a number" in text,
          "residual: a bad setting's warning, stderr a file", text)


if __name__ == "__main__":
    sys.exit(main())
