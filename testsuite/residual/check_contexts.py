#!/usr/bin/env python3
"""Residual mode, calling contexts (docs/residual-mode.md, "Calling
contexts"): the contexts a report gives a residual path, decoded, against
what programs/contexts.c ran.

The program is recorded on x = 5 (classify's x > 100 branch untested) and
built in residual mode (atomic=1, so that counts are exact under threads;
peel-iterations=0, so that each call site has one copy and the contexts
that fit are exact), then run on x = 500:
  - chains 10, a sample every run (PATHCOV_CONTEXT_PERIOD=1): classify's
    residual path holds the three call chains with their exact counts 50,
    30 and 10 and no error, named as functions and source lines;
  - the same with the default period (2^20): the first run's context only;
    with PATHCOV_CONTEXT_DEPTH=0: no contexts, the same count; a period
    of 6 is 4, a depth of 99 is refused with a warning;
  - many 2 at depth 3: six chains, 4 kept: Space Saving's guarantee
    (count - error <= true <= count for each kept context, every chain run
    more than samples / 4 times kept, the counts adding up to the samples);
  - threads 1000: 2000 runs counted exactly, each context in `worker`;
  - signal: the context goes through the handler and the signal frame to
    the code that raised it;
  - inlined: a call from code inlined into its caller is named after both,
    each at its line (classify <- scaled <- via_inline), and a function
    whose first instructions are inlined code after itself
    (starts_inlined, not bits_of);
  - split: a call from the part GCC split off split_head (called from
    split_head's head at the function's first line; both inlined into
    main) is one frame of split_head at its line, then main: the head's
    call of its own part is no caller;
  - frames name contexts.c as the function's heading does, in a build
    with -ffile-prefix-map too (its debug information says
    "./contexts.c");
  - crash 1: the crash report (SIGSEGV) holds the contexts;
  - a build without unwind tables: each context is the function alone;
  - the chains and crash reports merged into the test corpus: each
    sighting keeps its contexts, merging them again changes nothing,
    `pathcov sightings` rows merged back give the same corpus, and the
    HTML report and SARIF (a result's `stacks`) show them.
Every report is checked against schemas/report.schema.json and decode's
output against decode.schema.json. Exits non-zero on failure."""
import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import (FAILURES, check, check_schema, e2e_arguments,  # noqa: E402
                     finish, fresh_directory, must)

PROGRAM = os.path.join(HERE, "programs", "contexts.c")


def marker_line(text):
    """The line of contexts.c whose comment says `line: TEXT`."""
    with open(PROGRAM) as f:
        for number, line in enumerate(f, 1):
            if f"/* line: {text} */" in line:
                return number
    sys.exit(f"FAIL: no line marked {text!r} in {PROGRAM}")


class Run:
    def __init__(self, args, residual, name, argv, env, status=0):
        self.reports = fresh_directory(os.path.join(args.workdir, name))
        result = subprocess.run(
            [residual, "500", *argv], capture_output=True, text=True,
            env={**{k: v for k, v in os.environ.items()
                    if not k.startswith("PATHCOV_")},
                 "PATHCOV_REPORT_DIR": self.reports, **env})
        check(result.returncode == status, f"{name}: exit status",
              f"{result.returncode}, expected {status}: {result.stderr}")
        self.stderr = result.stderr
        files = sorted(glob.glob(os.path.join(self.reports, "*.json")))
        check(len(files) == 1, f"{name}: one report", str(files))
        with open(files[0]) as f:
            self.report = json.load(f)
        check_schema(self.report, "report.schema.json", f"{name}: report")
        decoded = json.loads(must([args.pathcov, "decode", "--json",
                                   files[0]], f"{name}: decode").stdout)
        check_schema(decoded, "decode.schema.json", f"{name}: decode --json")
        self.functions = {fn["name"]: fn
                          for fn in decoded["reports"][0]["functions"]}
        self.classify = self.functions["classify"]["paths"][0]
        self.name = name


def chain(context, stop):
    """A decoded context's callers up to the function `stop`, as
    (function, line) pairs."""
    out = []
    for frame in context["frames"][1:]:
        out.append((frame["function"], frame["line"]))
        if frame["function"] == stop:
            break
    return out


def check_spelling(run, name):
    """Frames in contexts.c name it as the function's heading does (the
    debug information's own name is absolute, or "./contexts.c")."""
    want = run.functions["classify"]["file"]
    files = {frame["file"] for c in run.classify["contexts"]["kept"]
             for frame in c["frames"]
             if (frame["file"] or "").endswith("contexts.c")}
    check(files == {want}, f"{name}: contexts.c spelled {want!r} in frames",
          str(files))


def main():
    args = e2e_arguments("compiler", "plugin", "runtime", "pathcov", "workdir")
    record = os.path.join(args.workdir, "record")
    residual = os.path.join(args.workdir, "residual")
    corpus = os.path.join(args.workdir, "corpus.json")
    profiles = fresh_directory(os.path.join(args.workdir, "profiles"))
    build = [args.compiler, "-O2", "-g", f"-fplugin={args.plugin}", PROGRAM]
    link = [args.runtime, "-lpthread"]
    must([*build, "-o", record, *link], "record build")
    for argv in (["chains", "1"], ["many", "1"], ["threads", "1"],
                 ["signal"], ["inlined"], ["split", "5"]):
        must([record, "5", *argv], "test run",
             env={**os.environ, "PATHCOV_PROFILE_DIR": profiles})
    must([args.pathcov, "collect", "-o", corpus, profiles], "collect")
    must([*build, "-fplugin-arg-pathcov-mode=residual",
          f"-fplugin-arg-pathcov-corpus={corpus}",
          "-fplugin-arg-pathcov-atomic=1",
          "-fplugin-arg-pathcov-peel-iterations=0", "-o", residual, *link],
         "residual build")

    via_a = ("via_a", marker_line("via_a"))
    via_b = ("via_b", marker_line("via_b"))
    via_c = ("via_c", marker_line("via_c"))

    # Three chains, every run sampled: exact.
    r = Run(args, residual, "chains", ["chains", "10"],
            {"PATHCOV_CONTEXT_PERIOD": "1"})
    p = r.classify
    check(p["count"] == 90 and p["contexts"]["samples"] == 90,
          "chains: 90 runs, each sampled", json.dumps(p.get("contexts")))
    got = sorted((chain(c, "chains"), c["count"], c["error"])
                 for c in p["contexts"]["kept"])
    want = sorted([
        ([via_a, ("chains", marker_line("main -> via_a"))], 50, 0),
        ([via_b, ("chains", marker_line("main -> via_b"))], 30, 0),
        ([via_b, via_c, ("chains", marker_line("main -> via_c"))], 10, 0)])
    check(got == want, "chains: the three contexts, exact", f"{got} != {want}")
    check(all(c["frames"][0]["function"] == "classify"
              for c in p["contexts"]["kept"]),
          "chains: each context starts in classify")
    check(r.report["context_period"] == 1 and r.report["context_depth"] == 8,
          "chains: the report's settings", str(r.report.get("context_period")))
    check_spelling(r, "chains")

    # The default period: the first run's context only.
    r = Run(args, residual, "first-only", ["chains", "10"], {})
    p = r.classify
    check(p["count"] == 90 and p["contexts"]["samples"] == 1 and
          [(chain(c, "chains"), c["count"]) for c in p["contexts"]["kept"]]
          == [([via_a, ("chains", marker_line("main -> via_a"))], 1)],
          "first-only: the first run's context", json.dumps(p["contexts"]))
    # Settings: a period rounded down to a power of two (the runtime masks
    # with it), a depth out of range refused with a warning (the default).
    r = Run(args, residual, "settings", ["chains", "10"],
            {"PATHCOV_CONTEXT_PERIOD": "6", "PATHCOV_CONTEXT_DEPTH": "99"})
    check(r.report["context_period"] == 4 and r.report["context_depth"] == 8
          and r.classify["contexts"]["samples"] == 1 + 89 // 4,
          "settings: period 6 -> 4, depth 99 -> 8",
          json.dumps(r.classify.get("contexts"))[:200])
    check("pathcov: PATHCOV_CONTEXT_DEPTH=99: expected a number from 0 to 16; "
          "using 8" in r.stderr, "settings: the depth's warning", r.stderr)
    r = Run(args, residual, "depth-0", ["chains", "10"],
            {"PATHCOV_CONTEXT_DEPTH": "0", "PATHCOV_CONTEXT_PERIOD": "1"})
    check(r.classify["count"] == 90 and "contexts" not in r.classify and
          "context_modules" not in r.report,
          "depth-0: no contexts, the same count", json.dumps(r.classify))

    # Space Saving: six chains, four counters.
    truth = {"d1": 80, "d2": 40, "d3": 20, "d4": 10, "d5": 6, "d6": 4}
    r = Run(args, residual, "many", ["many", "2"],
            {"PATHCOV_CONTEXT_PERIOD": "1", "PATHCOV_CONTEXT_DEPTH": "3"})
    contexts = r.classify["contexts"]
    samples, kept = contexts["samples"], contexts["kept"]
    check(samples == 160 and len(kept) == 4, "many: 160 samples, 4 kept",
          json.dumps(contexts))
    check(sum(c["count"] for c in kept) == samples,
          "many: the counts add up to the samples")
    names = [c["frames"][1]["function"] for c in kept]
    check(len(set(names)) == len(names) and set(names) <= set(truth),
          "many: one context per chain", str(names))
    for c, name in zip(kept, names):
        check(c["count"] - c["error"] <= truth.get(name, -1) <= c["count"],
              f"many: {name}'s count bounds its {truth.get(name)} runs",
              f"count {c['count']}, error {c['error']}")
        check(c["error"] <= samples // 4, f"many: {name}'s error <= samples / 4")
    for name, runs in truth.items():
        if runs > samples / 4:
            check(name in names, f"many: {name} ({runs} of {samples}) kept")

    # Threads: exact counts (atomic=1); the contexts are the workers'.
    r = Run(args, residual, "threads", ["threads", "1000"],
            {"PATHCOV_CONTEXT_PERIOD": "1"})
    contexts = r.classify["contexts"]
    check(r.classify["count"] == 2000, "threads: 2000 runs",
          str(r.classify["count"]))
    check(1 <= contexts["samples"] <= 2000 and
          sum(c["count"] for c in contexts["kept"]) == contexts["samples"],
          "threads: samples", json.dumps(contexts))
    worker = [via_a, ("worker", marker_line("worker -> via_a"))]
    check(all(chain(c, "worker") == worker for c in contexts["kept"]),
          "threads: each context in worker", json.dumps(contexts["kept"]))

    # A residual path in a signal handler.
    r = Run(args, residual, "signal", ["signal"],
            {"PATHCOV_CONTEXT_PERIOD": "1"})
    functions = [f["function"]
                 for f in r.classify["contexts"]["kept"][0]["frames"]]
    check(functions[1:3] == ["via_a", "on_signal"] and "raiser" in functions,
          "signal: via_a <- on_signal <- ... <- raiser", str(functions))

    # Inlined code: a call from it, and a function starting with it.
    r = Run(args, residual, "inlined", ["inlined"],
            {"PATHCOV_CONTEXT_PERIOD": "1"})
    [context] = r.classify["contexts"]["kept"]
    frames = [(f["function"], f["line"]) for f in context["frames"]]
    check(frames[1:3] == [("scaled", marker_line("scaled -> classify")),
                          ("via_inline", marker_line("via_inline"))],
          "inlined: classify <- scaled <- via_inline", str(frames))
    started = r.functions.get("starts_inlined", {}).get("paths", [{}])[0]
    check([c["frames"][0]["function"]
           for c in started.get("contexts", {}).get("kept", [])]
          == ["starts_inlined"],
          "inlined: starts_inlined's context starts in starts_inlined",
          json.dumps(started.get("contexts")))

    # A split-off part's call: one frame of its function.
    r = Run(args, residual, "split", ["split", "5"], {"PATHCOV_CONTEXT_PERIOD": "1"})
    [context] = r.classify["contexts"]["kept"]
    frames = [(f["function"], f["line"]) for f in context["frames"]]
    check(frames[1:2] == [("split_head", marker_line("split tail -> classify"))] and
          frames[2][0] == "main",
          "split: classify <- split_head <- main", str(frames))
    # That it was split: binutils' addr2line names split_head twice at the
    # call's return address (the part inlined into the head, inlined into
    # main).
    [path] = [p for p in r.report["residual_paths"]
              if p["identity"].endswith(":classify") and "contexts" in p]
    call = path["contexts"]["kept"][0]["frames"][1]["address"] - 1
    names = must(["addr2line", "-f", "-i", "-e", residual, hex(call)],
                 "addr2line").stdout.split()
    check(names.count("split_head") == 2,
          "split: GCC split split_head (addr2line -i names it twice)", str(names))

    # A crash report holds the contexts too.
    r = Run(args, residual, "crash", ["crash", "1"],
            {"PATHCOV_CONTEXT_PERIOD": "1"}, status=-11)
    check(r.report["reason"] == "signal" and
          sorted(c["count"] for c in r.classify["contexts"]["kept"])
          == [1, 3, 5], "crash: the contexts in the crash report",
          json.dumps(r.classify.get("contexts")))
    # Code without unwind tables: the context stops at the function (no
    # crash, no garbage), and says so.
    bare = os.path.join(args.workdir, "residual-no-unwind-tables")
    must([*build, "-fplugin-arg-pathcov-mode=residual",
          f"-fplugin-arg-pathcov-corpus={corpus}",
          "-fno-asynchronous-unwind-tables", "-fno-unwind-tables",
          "-o", bare, *link], "residual build without unwind tables")
    r = Run(args, bare, "no-unwind-tables", ["chains", "2"],
            {"PATHCOV_CONTEXT_PERIOD": "1"})
    kept = r.classify["contexts"]["kept"]
    check(r.classify["count"] == 18 and
          [len(c["frames"]) for c in kept] == [1] and
          kept[0]["frames"][0]["function"] == "classify",
          "no-unwind-tables: the function alone", json.dumps(kept))
    text = must([args.pathcov, "decode", *glob.glob(os.path.join(
        args.workdir, "no-unwind-tables", "*.json"))], "decode").stdout
    check("18: callers unknown" in text, "no-unwind-tables: decode says so",
          text)

    # A prefix-mapped build (Debian's default): its debug information says
    # "./contexts.c" where the function's file is "contexts.c".
    mapped = os.path.join(args.workdir, "residual-prefix-mapped")
    must([*build, "-fplugin-arg-pathcov-mode=residual",
          f"-fplugin-arg-pathcov-corpus={corpus}",
          f"-ffile-prefix-map={os.path.dirname(PROGRAM)}=.",
          "-o", mapped, *link], "residual build with -ffile-prefix-map")
    r = Run(args, mapped, "prefix-mapped", ["chains", "1"],
            {"PATHCOV_CONTEXT_PERIOD": "1"})
    check(r.functions["classify"]["file"] == "contexts.c",
          "prefix-mapped: the function's file", r.functions["classify"]["file"])
    check_spelling(r, "prefix-mapped")
    # Compiled from a build directory by a relative name (Meson's, an
    # out-of-tree build's "../src/x.c"): the debug information's name is
    # relative to that directory, and spelled as the function's file.
    relative = os.path.relpath(PROGRAM, args.workdir)
    check(relative.startswith("../"), f"a name that climbs: {relative}")
    from_build_dir = os.path.join(args.workdir, "residual-relative")
    must([args.compiler, "-O2", "-g", f"-fplugin={args.plugin}", relative,
          "-fplugin-arg-pathcov-mode=residual",
          f"-fplugin-arg-pathcov-corpus={corpus}", "-o", from_build_dir, *link],
         "residual build from a build directory", cwd=args.workdir)
    r = Run(args, from_build_dir, "relative", ["chains", "1"],
            {"PATHCOV_CONTEXT_PERIOD": "1"})
    check_spelling(r, "relative")

    check_merged(args, corpus, [os.path.join(args.workdir, name)
                                for name in ("chains", "crash")],
                 [via_a, ("chains", marker_line("main -> via_a"))])
    return finish(FAILURES, "contexts: chains exact, Space Saving's bounds, threads, "
                      "a signal handler, a crash; merged, idempotent, rows "
                      "round trip, shown by report (html, sarif)")


def check_merged(args, corpus, reports, hottest):
    """The reports merged into the test corpus keep their contexts
    (each sighting its report's), merge the same again and it is the same
    corpus, `sightings` rows merged back give the same corpus; the HTML
    report and SARIF show classify's contexts, the hottest first."""
    def merged(*inputs):
        out = os.path.join(args.workdir, f"merged-{len(os.listdir(args.workdir))}.json")
        must([args.pathcov, "merge", "-o", out, *inputs], "merge")
        with open(out, "rb") as f:
            return out, f.read()
    first, text = merged(corpus, *reports)
    doc = json.loads(text)
    check_schema(doc, "corpus.schema.json", "merged corpus")
    classify = next(f for f in doc["functions"] if f["name"] == "classify")
    seen = classify["field_paths"][0]["seen"]
    check(len(seen) == 2 and all(s["contexts"]["samples"] >= 1 for s in seen),
          "merge: each report's sighting keeps its contexts", json.dumps(seen)[:400])
    check(all(r["context_modules"] for r in doc["reports"]),
          "merge: each report keeps its context_modules")
    check(merged(first, *reports)[1] == text, "merge: the same reports again "
          "change nothing")
    rows = os.path.join(args.workdir, "rows.ndjson")
    must([args.pathcov, "sightings", "-o", rows, *reports], "sightings")
    check(merged(corpus, rows)[1] == text, "merge: rows give the same corpus")
    sarif = os.path.join(args.workdir, "report.sarif")
    must([args.pathcov, "report", "--format", "sarif", "-o", sarif, first],
         "report --format sarif")
    with open(sarif) as f:
        results = json.load(f)["runs"][0]["results"]
    stacks = next(r["stacks"] for r in results
                  if r["properties"]["identity"].endswith(":classify"))
    names = [(fr["location"]["logicalLocations"][0]["fullyQualifiedName"],
              fr["location"].get("physicalLocation", {}).get("region", {})
              .get("startLine")) for fr in stacks[0]["frames"]]
    check(names[0][0] == "classify" and names[1:3] == hottest,
          "sarif: classify's hottest context first", str(names))
    html = os.path.join(args.workdir, "html")
    must([args.pathcov, "report", "--format", "html", "-o", html, first],
         "report --format html")
    pages = "".join(open(p).read() for p in glob.glob(os.path.join(html, "*.html")))
    check("calling contexts (" in pages and
          f"called from via_a (" in pages, "html: the contexts shown")



if __name__ == "__main__":
    sys.exit(main())
