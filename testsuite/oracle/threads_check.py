#!/usr/bin/env python3
"""Exact path counts under threads (programs/threads.c).

Builds threads.c with the plugin and the given plugin arguments (atomic=1,
and possibly array-threshold=1 so that work() is counted by the runtime's
hash table), runs it, collects its profile, and checks that the corpus
counted every path of work() EXACTLY as often as the program says it ran
it (the program counts per argument pattern, per thread, and adds up after
joining; each pattern runs one path, named by the @markers on its lines),
that work() and thread_main() have the right number of calls, and that no
count was dropped or invalid. The metadata must say the counting method
(--counting) and atomic updates (the records in section .debug_pathcov).

With k=N among the plugin arguments (paths across iterations), the windows
of thread_main()'s loop are checked too: each thread's call runs its loop
ITERATIONS times, so its windows of 2 paths must add up to exactly 8 x
ITERATIONS, all threads adding to the same forest's nodes at once.

Then builds the same program without atomic=1 and shows (does not check:
it is a race) how many of work()'s runs its counters kept.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import metadata_records, must  # noqa: E402

MARKER = re.compile(r"//\s*@(\w+)")




def markers(source):
    with open(source, encoding="utf-8") as f:
        return {n: m.group(1) for n, text in enumerate(f, 1)
                if (m := MARKER.search(text))}


def metadata(binary, work):
    """{name: record} of the metadata records in binary."""
    return {r["name"]: r for r in metadata_records(binary, os.path.join(work, "metadata"))}


def build_and_run(args, name, plugin_args):
    """Builds, runs, collects; returns (expected counts, corpus functions
    by name, work()'s profiled paths by marker key, work()'s metadata)."""
    work = os.path.join(args.workdir, name)
    profiles = os.path.join(work, "profiles")
    os.makedirs(profiles)
    exe = os.path.join(work, "threads")
    plugin = [f"-fplugin={args.plugin}"] + [
        f"-fplugin-arg-pathcov-{a}" for a in plugin_args]
    built = must([args.compiler, "-O2", "-g", "-pthread", *plugin, args.source,
                  "-o", exe, args.runtime, "-lpthread"], f"build ({name})")
    if "pathcov:" in built.stderr:
        sys.exit(f"FAIL: the plugin warned:\n{built.stderr}")
    expected_file = os.path.join(work, "expected.json")
    env = dict(os.environ, PATHCOV_PROFILE_DIR=profiles)
    must([exe, str(args.iterations), expected_file], f"run ({name})", env=env)
    with open(expected_file, encoding="utf-8") as f:
        expected = json.load(f)
    corpus_file = os.path.join(work, "corpus.json")
    must([args.pathcov, "collect", "-o", corpus_file, profiles],
         f"pathcov collect ({name})")
    with open(corpus_file, encoding="utf-8") as f:
        corpus = {fn["name"]: fn for fn in json.load(f)["functions"]}
    shown = json.loads(must([args.pathcov, "show", "--json", "--max-paths",
                             "1000000", "-f", "work", corpus_file],
                            "pathcov show").stdout)["functions"]
    if len(shown) != 1 or "work" not in corpus:
        sys.exit(f"FAIL: ({name}) work() is not in the corpus exactly once")
    by_line = markers(args.source)
    paths = {}
    for p in shown[0]["paths"]:
        key = " ".join(by_line[line] for line in p["lines"] if line in by_line)
        if key in paths:
            sys.exit(f"FAIL: ({name}) two paths of work() run {key!r}")
        paths[key] = p["count"]
    return expected, corpus, paths, metadata(exe, work)["work"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--pathcov", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--plugin-args", default="atomic=1",
                    help="for the checked build (space-separated)")
    ap.add_argument("--counting", choices=["array", "hashed"], required=True,
                    help="how the metadata must say work() is counted")
    ap.add_argument("--iterations", type=int, default=100000)
    ap.add_argument("source")
    args = ap.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    plugin_args = args.plugin_args.split()
    if "atomic=1" not in plugin_args:
        ap.error("the checked build needs atomic=1")

    failures = []
    expected, corpus, paths, work = build_and_run(args, "atomic", plugin_args)
    print(f"work(): {work['num_paths']} paths, counting {work['counting']}, "
          f"atomic {work['atomic']}; {expected['calls']} calls from 8 threads")
    if (work["counting"], work["atomic"]) != (args.counting, True):
        failures.append(f"work() is counted {work['counting']!r}, atomic "
                        f"{work['atomic']}; expected {args.counting!r}, True")
    print(f"  {'path (markers)':<22} {'program':>9} {'profile':>9}")
    for key in sorted(set(expected["paths"]) | set(paths)):
        want, got = expected["paths"].get(key, 0), paths.get(key, 0)
        print(f"  {key:<22} {want:>9} {got:>9}"
              + ("" if want == got else "  MISMATCH"))
        if want != got:
            failures.append(f"path {key!r}: the program ran it {want} times, "
                            f"the profile counted {got}")
    total = sum(paths.values())
    print(f"  {'total':<22} {expected['calls']:>9} {total:>9}")
    for name, calls in (("work", expected["calls"]), ("thread_main", 8)):
        f = corpus.get(name, {})
        if f.get("calls") != calls:
            failures.append(f"{name}: {calls} calls, the profile counted "
                            f"{f.get('calls')}")
    if any(a.startswith("k=") for a in plugin_args):
        loop = corpus.get("thread_main", {})
        pairs = sum(w["count"] for w in loop.get("k_paths", []) if len(w["ids"]) == 2)
        want = 8 * args.iterations
        print(f"thread_main(): windows of 2 paths: {pairs} (expected {want})")
        if pairs != want or loop.get("k_dropped"):
            failures.append(f"thread_main: windows of 2 paths add up to {pairs}, "
                            f"expected {want} (k_dropped {loop.get('k_dropped')})")
    for f in corpus.values():
        for field in ("invalid_ids", "dropped", "interrupted"):
            if f.get(field):
                failures.append(f"{f['name']}: {field} = {f[field]}")

    plain_args = [a for a in plugin_args if a != "atomic=1"]
    plain_expected, plain_corpus, plain_paths, _ = build_and_run(
        args, "nonatomic", plain_args)
    if plain_expected != expected:
        failures.append("the two builds computed different results")
    kept = sum(plain_paths.values())
    print(f"without atomic=1 ({' '.join(plain_args) or 'default arguments'}):"
          f" work() ran {plain_expected['calls']} times, its path counters "
          f"kept {kept} ({kept - plain_expected['calls']:+d}), its call "
          f"counter {plain_corpus['work']['calls']} (racy: shown, not "
          "checked)")
    if failures:
        sys.exit("FAIL:\n  " + "\n  ".join(failures))
    print(f"ok: {len(paths)} paths of work(), {total} runs, exact")


if __name__ == "__main__":
    main()
