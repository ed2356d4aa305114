#!/usr/bin/env python3
"""Residual mode, path history (docs/residual-mode.md, "Path history"):
the sequences of paths a report's history holds, decoded, against what
programs/history.c ran.

The program is recorded on `loop` and `recursion`, then built in residual
mode with history=64 and run:
  - loop: run_loop(6), 13 paths: step's and the loop's in turn, exact,
    and the hot subpaths SEQUITUR finds in it (step and the loop's
    iteration, 4 times; not also its rule for two iterations); decode
    refuses it naming a function the module does not have;
  - recursion: fact(4), the base case then three recursive returns;
  - pairs: run_pairs(8), step's one path twice then the loop's, per
    iteration: decode's hot subpath reads "step path N (2 in a row)";
  - errno: EDOM set before the process's first path end, which starts
    the history (PATHCOV_HISTORY=16 read with strtoull), is EDOM after it
    (exit 3 if not);
  - deep: fact(16), one path 15 times in a row: no hot subpath (SEQUITUR's
    rules for two, four and eight of it are that path repeated);
  - longjmp: catcher's path up to setjmp (a cut), thrower's (it ends at
    the noreturn longjmp), then catcher's from setjmp's second return;
    the path from the first return into thrower, which the longjmp
    abandoned, is not there; both functions untested: residual;
  - threads: three rings, each thread's own sequence, the workers exited;
    reuse: a thread that starts after another exited takes its ring;
  - running: another thread's history copied while it runs, but for its
    newest path; fork: a child's report, its parent's other thread exited;
  - crash: the crash report (SIGSEGV) holds the crashing thread's paths;
  - PATHCOV_HISTORY=8: the last 8 of 13; PATHCOV_HISTORY=0: no history;
  - a shared library built with history, dlopen'ed by a program without;
  - bad arguments: history=3, history in record mode.
A path is told by the marked lines it runs through ("mark: NAME" in
history.c), not by its id. Every report is checked against
schemas/report.schema.json and decode's output against decode.schema.json.
Exits non-zero on failure."""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import (FAILURES, check, check_schema, finish,  # noqa: E402
                     fresh_directory, must)

PROGRAM = os.path.join(HERE, "programs", "history.c")
LIBRARY = os.path.join(HERE, "programs", "history_lib.c")
LOADER = os.path.join(HERE, "programs", "history_dlopen.c")


def marks(source=PROGRAM):
    """Line number -> mark name, from the source's "mark: NAME" comments."""
    found = {}
    with open(source) as f:
        for number, line in enumerate(f, 1):
            m = re.search(r"/\* mark: ([\w-]+) \*/", line)
            if m:
                found[number] = m.group(1)
    return found


MARKS = marks()


def step(name, *marked):
    return (name, frozenset(marked))


def sequence(thread, marked=MARKS):
    """A decoded thread's history as (function, marks on its path)."""
    def of(p):
        return step(p["name"], *(marked[n] for n in p["lines"] if n in marked))
    return [of(thread["paths"][i]) for i in thread["sequence"]]


class Run:
    def __init__(self, args, binary, name, env=None, status=0):
        directory = fresh_directory(os.path.join(args.workdir, name))
        requested = os.path.join(directory, "requested.json")
        run = "crash" if name == "crash" else name.split("-")[0]
        result = subprocess.run(
            [binary, run, requested], capture_output=True, text=True,
            env={**{k: v for k, v in os.environ.items()
                    if not k.startswith("PATHCOV_")},
                 "PATHCOV_REPORT_DIR": directory, **(env or {})})
        check(result.returncode == status, f"{name}: exit status",
              f"{result.returncode}, expected {status}: {result.stderr}")
        # The report asked for; a crash's, written by the runtime. (The
        # runs with residual paths write one at exit too.)
        if run == "crash":
            files = glob.glob(os.path.join(directory, "pathcov-report-*"))
            check(len(files) == 1, f"{name}: one crash report", str(files))
            self.file = files[0] if files else requested
        else:
            self.file = requested
        with open(self.file) as f:
            self.report = json.load(f)
        check_schema(self.report, "report.schema.json", f"{name}: report")
        self.decoded = json.loads(must([args.pathcov, "decode", "--json",
                                        self.file], f"{name}: decode").stdout)
        check_schema(self.decoded, "decode.schema.json", f"{name}: decode --json")
        self.threads = self.decoded["reports"][0].get("history", [])
        self.current = [t for t in self.threads if t["current"]]
        self.name = name

    def current_sequence(self):
        check(len(self.current) == 1, f"{self.name}: one current thread",
              json.dumps(self.threads)[:400])
        return sequence(self.current[0]) if self.current else []


LOOP = [step("step", "step-three"), step("run_loop", "loop-start", "loop-body"),
        step("step", "step-other"), step("run_loop", "loop-body"),
        step("step", "step-other"), step("run_loop", "loop-body"),
        step("step", "step-three"), step("run_loop", "loop-body"),
        step("step", "step-other"), step("run_loop", "loop-body"),
        step("step", "step-other"), step("run_loop", "loop-body"),
        step("run_loop", "loop-end")]
FACT = [step("fact", "fact-base")] + 3 * [step("fact", "fact-recurse")]
LOOP2 = LOOP[:4] + [step("run_loop", "loop-end")]
WORKER_A = LOOP2 + [step("meet"), step("worker_a", "worker-a")]
WORKER_B = FACT[:3] + [step("meet"), step("worker_b", "worker-b")]


def main():
    parser = argparse.ArgumentParser()
    for option in ("compiler", "plugin", "runtime", "runtime-include",
                   "pathcov", "workdir"):
        parser.add_argument("--" + option, required=True)
    args = parser.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    record = os.path.join(args.workdir, "record")
    residual = os.path.join(args.workdir, "residual")
    corpus = os.path.join(args.workdir, "corpus.json")
    profiles = fresh_directory(os.path.join(args.workdir, "profiles"))
    build = [args.compiler, "-O2", "-g", f"-I{args.runtime_include}",
             f"-fplugin={args.plugin}", PROGRAM]
    link = [args.runtime, "-lpthread"]
    must([*build, "-o", record, *link], "record build")
    for run in ("loop", "recursion"):
        must([record, run, os.path.join(args.workdir, "unused.json")],
             "test run", env={**os.environ, "PATHCOV_PROFILE_DIR": profiles})
    must([args.pathcov, "collect", "-o", corpus, profiles], "collect")
    residual_build = [*build, "-fplugin-arg-pathcov-mode=residual",
                      f"-fplugin-arg-pathcov-corpus={corpus}"]
    must([*residual_build, "-fplugin-arg-pathcov-history=64", "-o", residual,
          *link], "residual build")

    # A run of one path inside a hot subpath reads as one item.
    r = Run(args, residual, "pairs")
    text = must([args.pathcov, "decode", r.file], "pairs: decode").stdout
    check(re.search(r"\n    7 times: step path \d+ \(2 in a row\), "
                    r"run_pairs path \d+", text),
          "pairs: the iteration's hot subpath, step's two paths as one item",
          text[-1200:])

    # errno across the first path end, which starts the history and reads
    # PATHCOV_HISTORY (strtoull): as the program left it.
    r = Run(args, residual, "errno", env={"PATHCOV_HISTORY": "16"})
    check(r.current and r.current[0].get("size") == 16,
          "errno: PATHCOV_HISTORY=16 read", json.dumps(r.current)[:300])

    # One path 15 times in a row: SEQUITUR's rules for 2, 4, 8 of it are
    # no hot subpath (the history's list shows the run on one line).
    r = Run(args, residual, "deep")
    deep = r.current[0] if r.current else {}
    check(deep.get("completed") == 16 and deep.get("hot_subpaths") == [],
          "deep: 16 paths, no hot subpath of one path repeated",
          json.dumps(deep.get("hot_subpaths"))[:300])
    text = must([args.pathcov, "decode", r.file], "deep: decode").stdout
    check("hot subpaths" not in text and re.search(r"2-16 +fact path \d+ 15 times", text),
          "deep: decode's text, the run on one line", text[-800:])

    r = Run(args, residual, "loop")
    check(r.current_sequence() == LOOP, "loop: the 13 paths in order",
          f"{r.current_sequence()}")
    thread = r.current[0] if r.current else {}
    check(thread.get("completed") == 13 and thread.get("size") == 64,
          "loop: 13 completed, a ring of 64", json.dumps(thread)[:300])
    check(not any(p["residual"] for p in thread.get("paths", [])),
          "loop: every path tested")
    hot = sorted((tuple(sequence({"paths": thread["paths"],
                                  "sequence": h["paths"]})), h["occurrences"])
                 for h in thread.get("hot_subpaths", []))
    iteration = (step("step", "step-other"), step("run_loop", "loop-body"))
    # SEQUITUR also has a rule for two iterations (2 times): the same
    # iteration repeated, not shown.
    check(hot == [(iteration, 4)],
          "loop: the hot subpaths, an iteration 4 times (not also two "
          "iterations 2 times)", f"{hot}")
    raw = r.report["history"][0]
    check(len(raw["sequence"]) < 13 and raw["rules"],
          "loop: the report's sequence is compressed",
          json.dumps(raw)[-300:])
    text = must([args.pathcov, "decode", r.file], "loop: decode").stdout
    check("path history of thread" in text and "which wrote the report" in text
          and "hot subpaths" in text and
          re.search(r"\n  1   step path \d+: .*\n(.*\n){11}  13  run_loop path \d+: ",
                    text),
          "loop: decode's text", text[-1500:])

    # A history naming a function the module does not have: decode names
    # the place.
    raw["paths"][0]["identity"] = "nosuch.c:nothing"
    bad = os.path.join(args.workdir, "unknown-function.json")
    with open(bad, "w") as f:
        json.dump(r.report, f)
    result = subprocess.run([args.pathcov, "decode", bad], capture_output=True,
                            text=True)
    check(result.returncode == 3 and
          "history[0].paths[0]: function nosuch.c:nothing (checksum "
          in result.stderr and "is not in " + residual in result.stderr,
          "decode: a history's unknown function refused", result.stderr)

    r = Run(args, residual, "recursion")
    check(r.current_sequence() == FACT, "recursion: base, then three returns",
          f"{r.current_sequence()}")

    r = Run(args, residual, "longjmp")
    check(r.current_sequence() == [step("catcher"), step("thrower", "throw"),
                                   step("catcher", "catch-landed")],
          "longjmp: up to setjmp, thrower's path, then the second return",
          f"{r.current_sequence()}")
    check(r.current and all(p["residual"] for p in r.current[0]["paths"]),
          "longjmp: untested paths are residual")

    r = Run(args, residual, "threads")
    check(len(r.threads) == 3, "threads: three rings", str(len(r.threads)))
    by_thread = sorted((t["current"], t["exited"], sequence(t))
                       for t in r.threads)
    want = sorted([(True, False, 2 * FACT[:2]), (False, True, WORKER_A),
                   (False, True, WORKER_B)])
    check(by_thread == want, "threads: each thread's own paths",
          f"{by_thread} != {want}")
    main_thread = r.current[0]["thread"] if r.current else None
    check(main_thread == r.report["pid"] and
          len({t["thread"] for t in r.threads}) == 3,
          "threads: the main thread and two others")

    r = Run(args, residual, "reuse")
    by_thread = sorted((t["current"], t["exited"], sequence(t), t["completed"])
                       for t in r.threads)
    check(by_thread == sorted([(True, False, 2 * FACT[:2], 4),
                               (False, True, WORKER_B, 5)]),
          "reuse: the second worker took the first's ring", f"{by_thread}")

    # Another thread's history, copied while it runs: but for its newest
    # path (that path's entry might be half written).
    r = Run(args, residual, "running")
    check([(t["current"], t["exited"], sequence(t), t["completed"])
           for t in r.threads] == [(False, False, LOOP2[:4], 5)],
          "running: a running thread's paths but its newest",
          json.dumps(r.threads)[:500])

    # A forked child's report: its thread's ring goes on from the parent's
    # paths; the parent's other thread is exited there, whole.
    r = Run(args, residual, "fork")
    by_thread = sorted((t["current"], t["exited"], sequence(t))
                       for t in r.threads)
    check(by_thread == sorted([(True, False, 2 * FACT[:2]),
                               (False, True, FACT[:3])]),
          "fork: the child's thread and its parent's other, exited",
          f"{by_thread}")
    check(r.current and r.current[0]["thread"] == r.report["pid"],
          "fork: the child's own thread id", json.dumps(r.current)[:200])

    r = Run(args, residual, "crash", status=-11)
    check(r.report.get("reason") == "signal" and r.report.get("signal") == 11,
          "crash: a crash report", r.report.get("reason"))
    check(r.current_sequence() == LOOP2, "crash: the paths up to the crash",
          f"{r.current_sequence()}")

    r = Run(args, residual, "loop-8", {"PATHCOV_HISTORY": "8"})
    check(r.current_sequence() == LOOP[-8:] and
          r.current and r.current[0]["completed"] == 13 and
          r.current[0]["size"] == 8,
          "PATHCOV_HISTORY=8: the last 8 of 13", f"{r.current_sequence()}")
    r = Run(args, residual, "loop-12", {"PATHCOV_HISTORY": "12"})
    check(r.current and r.current[0]["size"] == 8,
          "PATHCOV_HISTORY=12: rounded down to 8")
    r = Run(args, residual, "loop-off", {"PATHCOV_HISTORY": "0"})
    check("history" not in r.report, "PATHCOV_HISTORY=0: no history")

    # A shared library with history, dlopen'ed by a program without: its
    # initial-exec thread-local pointer fits the loader's static TLS.
    library = os.path.join(args.workdir, "libhistory.so")
    loader = os.path.join(args.workdir, "loader")
    requested = os.path.join(args.workdir, "library.json")
    must([args.compiler, "-O2", "-g", "-fPIC", "-shared",
          f"-I{args.runtime_include}", f"-fplugin={args.plugin}",
          "-fplugin-arg-pathcov-mode=residual",
          f"-fplugin-arg-pathcov-corpus={corpus}",
          "-fplugin-arg-pathcov-history=16", LIBRARY, "-o", library, *link],
         "dlopen: library build")
    must([args.compiler, "-O2", LOADER, "-o", loader, "-ldl"],
         "dlopen: loader build")
    must([loader, library, requested], "dlopen: run")
    decoded = json.loads(must([args.pathcov, "decode", "--json", requested],
                              "dlopen: decode").stdout)
    threads = decoded["reports"][0].get("history", [])
    body = step("lib_work", "lib-body")
    check(len(threads) == 1 and
          sequence(threads[0], marks(LIBRARY)) == 3 * [body] +
          [step("lib_work")],
          "dlopen: the library's three iterations and its return",
          json.dumps(threads)[:500])

    for extra, why in ((["-fplugin-arg-pathcov-history=3"],
                        "expected a power of two from 2 to 65536"),
                       (["-fplugin-arg-pathcov-history=65536"], "")):
        result = subprocess.run([*residual_build, *extra, "-c", "-o",
                                 os.devnull], capture_output=True, text=True)
        if why:
            check(result.returncode != 0 and why in result.stderr,
                  f"{extra[0]}: refused", result.stderr)
        else:
            check(result.returncode == 0, f"{extra[0]}: accepted",
                  result.stderr)
    result = subprocess.run([*build, "-fplugin-arg-pathcov-history=8", "-c",
                             "-o", os.devnull], capture_output=True, text=True)
    check(result.returncode != 0 and "history=N is for residual mode"
          in result.stderr, "history in record mode: refused", result.stderr)
    return finish(FAILURES, "path history: exact sequences, threads, a crash")


if __name__ == "__main__":
    sys.exit(main())
