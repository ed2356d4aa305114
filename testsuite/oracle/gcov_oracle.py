#!/usr/bin/env python3
"""gcov as an oracle for record mode: an independent count of the same run.

Builds the program twice from the same sources - with `--coverage` (gcov)
and with the pathcov plugin and runtime -, runs both with the same inputs
(every --run is one process), checks that both builds print the same and
exit alike, and compares what gcov counted with what the path profile
implies:

Function entry counts, at every --level. From the path profile (`pathcov
show --json` of the corpus): a function's entries are the counts of its
tested paths that start at its entry ("start": "entry") plus its
interrupted calls. That must equal gcov's "execution_count" for the
function and the corpus's own "calls" (which the runtime counts on entry,
independently of the paths).

Line counts, at the levels given with --lines. A block's execution count
is the sum of the counts of the tested paths that run through it: every
execution of a block lies on exactly one counted acyclic path (paths are
cut at back edges, noreturn calls and setjmp, and nothing is lost when no
call is interrupted: docs/record-formats.md counts a path that a longjmp
back to the function's own setjmp abandons as interrupted, too). gcov's count of a line (GCC 12 gcov.cc,
accumulate_line_info) is the number of times control entered the line's
blocks from a block not on the line, plus the iterations of cycles that
lie entirely on the line. For a line that lies in one block only, that is
the number of times the block ran. So a line is compared when
  - it lies in exactly one block of exactly one instrumented function in
    the whole program (per the metadata's "blocks"/"lines"; so not a `for`
    header, a line with `&&`, `?:` or two statements in different blocks,
    nor a header line compiled into several units),
  - gcov reports a count for it exactly once (one unit, one function),
  - its function had no interrupted call (an interrupted path is not
    counted, so blocks on it would be undercounted: --allow-interrupted
    lets a program longjmp out of functions; only those functions' lines
    and path-derived entry counts are then left out, their "calls" are
    still compared with gcov).
gcov splits a block after each call (fake edges for calls that may not
return) and adds the function's declaration line to its first block and a
`goto`'s line to the block it ends; the split pieces lie on the same line
and are entered only through the first, and the declaration line is not a
statement line of ours, so none of this changes the count of a line that
lies in one of our blocks. Counts must be equal, exactly.

Line counts are only meaningful where both tools see the same CFG: at -O0
(gcov instruments after the early optimizations, which do little at -O0;
the plugin instruments right after the ssa pass). At -O2 gcov's CFG is
that of the early-optimized function, so only entry counts are compared
there, and both builds get the flags in EARLY_FLAGS: they turn off the two
early optimizations that change what gcov counts as an entry (early
inlining removes calls and whole functions; tail recursion elimination
turns recursive calls into loop iterations). The plugin runs before both,
so its input is the same with or without them; IPA inlining and cloning,
which run after both instrumentations, stay on. A function that calls
setjmp is left out at -O1 and above: there gcov counts each return from
setjmp as an entry of the function (checked by hand on calc's evaluate:
4 calls, 3 of them longjmp back, gcov says 7).

Prints a table of everything compared; fails if anything differs, or if
fewer than --min-lines executed lines were compared or fewer than
--min-functions functions were entered.
"""
import argparse
import collections
import json
import os
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import must  # noqa: E402

EARLY_FLAGS = ["-fno-early-inlining", "-fno-optimize-sibling-calls"]




def build(args, work, flags, extra_compile, extra_link):
    """Compiles each source into its own object in `work` (the compiler runs
    there: gcov's notes files land next to the objects) and links them."""
    os.makedirs(work)
    includes = [f"-I{os.path.abspath(d)}" for d in args.include]
    objects = []
    for source in args.sources:
        obj = os.path.join(work, os.path.splitext(os.path.basename(source))[0]
                           + ".o")
        result = must([args.compiler, *flags, *extra_compile, *includes, "-c",
                       os.path.abspath(source), "-o", obj],
                      f"compile {source}", cwd=work)
        if "pathcov:" in result.stderr:
            print(f"note: the plugin said:\n{result.stderr}")
        objects.append(obj)
    exe = os.path.join(work, args.name)
    must([args.compiler, *flags, *objects, "-o", exe, *extra_link], "link",
         cwd=work)
    return exe, objects


def run_all(exe, runs, env):
    outcomes = []
    for run in runs:
        r = subprocess.run([exe, *shlex.split(run)], capture_output=True,
                           text=True, env=env, cwd=os.path.dirname(exe))
        outcomes.append((run, r.stdout, r.returncode))
    return outcomes


def unit(source):
    """A translation unit's key: its source's real path, less the suffix."""
    return os.path.splitext(os.path.realpath(source))[0]


def gcov_counts(args, objects):
    """({(unit, function name): entry count}, {(file, line): [count, ...]})
    from `gcov --json-format --stdout`, one unit at a time."""
    functions = {}
    lines = collections.defaultdict(list)
    for source, obj in zip(args.sources, objects):
        work = os.path.dirname(obj)
        doc = json.loads(must([args.gcov, "--json-format", "--stdout",
                               os.path.basename(obj)],
                              f"gcov {obj}", cwd=work).stdout)
        cwd = doc.get("current_working_directory", work)
        tu = unit(source)
        for f in doc["files"]:
            path = os.path.realpath(os.path.join(cwd, f["file"]))
            for fn in f["functions"]:
                functions[(tu, fn["name"])] = fn["execution_count"]
            for line in f["lines"]:
                lines[(path, line["line_number"])].append(line["count"])
    return functions, lines


def profile_counts(args, exe, profiles, work):
    """The corpus's functions, each with its path-derived counts."""
    corpus_file = os.path.join(work, "corpus.json")
    must([args.pathcov, "collect", "--binary", exe, "-o", corpus_file,
          profiles], "pathcov collect")
    with open(corpus_file, encoding="utf-8") as f:
        corpus = json.load(f)
    shown = json.loads(must([args.pathcov, "show", "--json", "--max-paths",
                             "1000000", corpus_file], "pathcov show").stdout)
    shown = {f["identity"]: f for f in shown["functions"]}
    functions = []
    for f in corpus["functions"]:
        if "skipped" in f:
            print(f"note: {f['name']} is not instrumented: {f['skipped']}")
            continue
        s = shown[f["identity"]]
        if s["truncated"]:
            sys.exit(f"FAIL: pathcov show truncated the paths of {f['name']}")
        blocks = collections.Counter()
        entries = 0
        for p in s["paths"]:
            if p["start"] == "entry":
                entries += p["count"]
            for step in p["steps"]:
                blocks[step["block"]] += p["count"]
        # Relative names are relative to the record's source_root (the
        # checkout), else to where the compiler ran.
        home = f.get("source_root", os.path.dirname(exe))
        functions.append({
            "identity": f["identity"], "name": f["name"],
            "assembler_name": f["assembler_name"],
            "tu": unit(os.path.join(home, f["tu"])),
            "file": os.path.realpath(os.path.join(home, f["file"])),
            "lines": [[os.path.realpath(os.path.join(home, b["file"]))
                       if "file" in b else None, b["lines"]]
                      for b in f["blocks"]],
            "calls": f["calls"], "interrupted": f["interrupted"],
            "setjmp": bool(f["forced_cuts"]),
            "invalid_ids": f["invalid_ids"], "dropped": f["dropped"],
            # A resume (a longjmp back to the function's setjmp) abandons a
            # path that did not start at entry, and starts another.
            "path_entries": entries + f["interrupted"] - f["resumes"],
            "blocks": blocks})
    return functions


def entry_counts(level, functions, gcov_functions, failures):
    """Compares entry counts; returns how many functions were compared."""
    print(f"\n{level}: function entries  (gcov execution_count | path "
          "profile: paths from entry + interrupted | corpus calls)")
    print(f"  {'function':<28} {'gcov':>8} {'paths':>8} {'calls':>8}")
    compared = 0
    seen = set()
    for f in sorted(functions, key=lambda f: (f["tu"], f["name"])):
        key = (f["tu"], f["assembler_name"])
        seen.add(key)
        gcov = gcov_functions.get(key)
        note = ""
        if f["invalid_ids"] or f["dropped"]:
            failures.append(f"{level} {f['name']}: {f['invalid_ids']} invalid "
                            f"ids, {f['dropped']} dropped paths")
        if f["interrupted"]:
            note = f"  ({f['interrupted']} interrupted: paths not compared)"
        elif f["path_entries"] != f["calls"]:
            note = "  MISMATCH paths/calls"
            failures.append(f"{level} {f['name']}: paths from entry say "
                            f"{f['path_entries']} entries, calls {f['calls']}")
        if gcov is None:
            note += "  MISSING from gcov"
            failures.append(f"{level} {f['name']}: gcov has no function "
                            f"{f['assembler_name']}")
            print(f"  {f['name']:<28} {'-':>8} {f['path_entries']:>8} "
                  f"{f['calls']:>8}{note}")
            continue
        if f["setjmp"] and level != "O0":
            note += "  (calls setjmp: gcov not compared above -O0)"
        else:
            compared += 1
            if gcov != f["calls"]:
                note += "  MISMATCH gcov/calls"
                failures.append(f"{level} {f['name']}: gcov counted {gcov} "
                                f"entries, the profile {f['calls']} calls")
        print(f"  {f['name']:<28} {gcov:>8} {f['path_entries']:>8} "
              f"{f['calls']:>8}{note}")
    for key, count in sorted(gcov_functions.items()):
        if key not in seen:
            print(f"  {key[1]:<28} {count:>8} {'-':>8} {'-':>8}  "
                  "(gcov only)")
            if count:
                failures.append(f"{level} {key[1]} ({key[0]}): gcov counted "
                                f"{count} entries, not in the corpus")
    return compared


def line_counts(level, functions, gcov_lines, failures):
    """Compares line counts where the CFGs line up (see the top); returns how
    many lines were compared."""
    where = collections.defaultdict(list)  # (file, line) -> [(f, block)]
    for f in functions:
        for block, (file, lines) in enumerate(f["lines"]):
            for line in lines:
                where[(file or f["file"], line)].append((f, block))
    why_not = collections.Counter()
    rows = []
    for key in sorted(set(where) | set(gcov_lines)):
        ours = where.get(key, [])
        theirs = gcov_lines.get(key, [])
        if len(ours) != 1:
            why_not["in no block of ours" if not ours else
                    "in several blocks of ours"] += 1
            continue
        if len(theirs) != 1:
            why_not["no gcov count" if not theirs else
                    "several gcov counts"] += 1
            continue
        f, block = ours[0]
        if f["interrupted"]:
            why_not["function with interrupted calls"] += 1
            continue
        rows.append((key, f, block, theirs[0], f["blocks"][block]))
    print(f"\n{level}: line counts  (lines that lie in one block of ours, "
          "with one gcov count)")
    print(f"  {'file:line':<24} {'function':<20} {'block':>5} {'gcov':>8} "
          f"{'paths':>8}")
    for (file, line), f, block, gcov, ours in rows:
        note = ""
        if gcov != ours:
            note = "  MISMATCH"
            failures.append(f"{level} {os.path.basename(file)}:{line} "
                            f"({f['name']}, block {block}): gcov {gcov}, "
                            f"path profile {ours}" +
                            (" (the function calls setjmp and reports no "
                             "interrupted call)" if f["setjmp"] else ""))
        print(f"  {os.path.basename(file) + ':' + str(line):<24} "
              f"{f['name']:<20} {block:>5} {gcov:>8} {ours:>8}{note}")
    print(f"  {len(rows)} lines compared, "
          f"{sum(1 for r in rows if r[3])} of them executed; not compared: "
          + ", ".join(f"{n} {why}" for why, n in sorted(why_not.items())))
    return len(rows), sum(1 for r in rows if r[3])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--name", required=True)
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--gcov", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--runtime", required=True, help="libpathcov-rt.a")
    ap.add_argument("--pathcov", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--level", action="append", default=[],
                    help="optimization level (O0, O2, ...) to compare "
                         "entry counts at; repeatable")
    ap.add_argument("--lines", action="append", default=[],
                    help="also compare line counts at this level")
    ap.add_argument("--include", "-I", action="append", default=[])
    ap.add_argument("--run", action="append", default=[],
                    help="the arguments of one run (shell words); "
                         "repeatable; default: one run without arguments")
    ap.add_argument("--allow-interrupted", action="store_true")
    ap.add_argument("--min-lines", type=int, default=20)
    ap.add_argument("--min-functions", type=int, default=3)
    ap.add_argument("sources", nargs="+")
    args = ap.parse_args()
    runs = args.run or [""]  # one run without arguments

    shutil.rmtree(args.workdir, ignore_errors=True)
    failures = []
    for level in args.level:
        flags = [f"-{level}", "-g"] + ([] if level == "O0" else EARLY_FLAGS)
        print(f"\n== {args.name} at {' '.join(flags)}")
        work = os.path.join(args.workdir, level)
        gcov_exe, gcov_objects = build(args, os.path.join(work, "gcov"), flags,
                                       ["--coverage"], ["--coverage"])
        plugin_exe, _ = build(args, os.path.join(work, "pathcov"), flags,
                              [f"-fplugin={args.plugin}"],
                              [args.runtime, "-lpthread"])
        profiles = os.path.join(work, "profiles")
        os.makedirs(profiles)
        env = dict(os.environ, PATHCOV_PROFILE_DIR=profiles)
        env.pop("PATHCOV_TEST", None)
        expected = run_all(gcov_exe, runs, env)
        actual = run_all(plugin_exe, runs, env)
        for (run, out, rc), (_, out2, rc2) in zip(expected, actual):
            if (out, rc) != (out2, rc2):
                failures.append(f"{level} run {run!r}: the two builds differ:"
                                f"\n  gcov build ({rc}): {out!r}\n  plugin "
                                f"build ({rc2}): {out2!r}")
        gcov_functions, gcov_lines = gcov_counts(args, gcov_objects)
        functions = profile_counts(args, plugin_exe, profiles, work)
        if not args.allow_interrupted:
            for f in functions:
                if f["interrupted"]:
                    failures.append(f"{level} {f['name']}: {f['interrupted']}"
                                    " interrupted calls in a program that "
                                    "interrupts none")
        compared = entry_counts(level, functions, gcov_functions, failures)
        entered = sum(1 for f in functions if f["calls"])
        print(f"  {compared} functions compared, {entered} of them entered")
        if entered < args.min_functions:
            failures.append(f"{level}: only {entered} functions were entered "
                            f"(at least {args.min_functions} expected)")
        if level in args.lines:
            lines, executed = line_counts(level, functions, gcov_lines,
                                          failures)
            if executed < args.min_lines:
                failures.append(f"{level}: only {executed} executed lines "
                                f"compared (at least {args.min_lines} "
                                "expected)")
    if failures:
        sys.exit("\nFAIL:\n  " + "\n  ".join(failures))
    print(f"\nok: {args.name}: gcov and the path profile agree")


if __name__ == "__main__":
    main()
