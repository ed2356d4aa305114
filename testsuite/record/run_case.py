#!/usr/bin/env python3
"""Record mode, end to end, against the program's own trace (trace.h).

Builds the program twice - plain, and with the pathcov plugin and runtime -
runs both, and checks that:
  - the instrumented program behaves exactly like the plain one (output and
    exit status);
  - `pathcov collect` turns the profile into a corpus that `pathcov show`
    reads;
  - for every function the program traces, the paths the profile counted,
    mapped from their source lines back to the program's markers, are
    exactly the paths the program recorded, with the same counts;
  - each traced function's call count is the number of traced calls.
Exits 0 on success; prints what differs otherwise.
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys

MARKER = re.compile(r"^\s*T\('(.)'\);\s*(//.*)?$")


def run(cmd, **kwargs):
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    return result


def must(cmd, what, **kwargs):
    result = run(cmd, **kwargs)
    if result.returncode != 0:
        sys.exit(f"FAIL: {what}: {' '.join(cmd)}\n{result.stdout}{result.stderr}")
    return result


def markers_by_line(sources):
    """{(basename, line): marker} for every T('x'); line of the sources."""
    found = {}
    for source in sources:
        with open(source, encoding="utf-8") as f:
            for number, text in enumerate(f, 1):
                m = MARKER.match(text)
                if m:
                    found[(os.path.basename(source), number)] = m.group(1)
    return found


def plain_name(name):
    """The function name as __func__ spells it: 'ns::f(int)' -> 'f'."""
    return name.split("(")[0].split("::")[-1]


def profiled_paths(shown, markers):
    """{function: Counter(marker string -> count)} from `pathcov show --json`."""
    paths = collections.defaultdict(collections.Counter)
    calls = collections.Counter()
    for f in shown["functions"]:
        if "skipped" in f:
            continue
        name = plain_name(f["name"])
        calls[name] += f["calls"]
        home = os.path.basename(f["file"])
        for p in f["paths"]:
            text = ""
            for step in p["steps"]:
                where = os.path.basename(step.get("file", home))
                for line in step["lines"]:
                    text += markers.get((where, line), "")
            paths[name][text] += p["count"]
    return paths, calls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--flags", default="")
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--plugin-args", default="")
    ap.add_argument("--runtime", required=True, help="libpathcov-rt.a")
    ap.add_argument("--pathcov", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--run-args", default="")
    ap.add_argument("sources", nargs="+")
    args = ap.parse_args()

    work = args.workdir
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "profiles"))
    flags = args.flags.split()
    include = ["-I", os.path.dirname(os.path.abspath(__file__))]
    plain = os.path.join(work, "plain")
    instrumented = os.path.join(work, "instrumented")
    must([args.compiler, *flags, *include, *args.sources, "-o", plain,
          "-lpthread"], "plain build")
    plugin = [f"-fplugin={args.plugin}"] + [
        f"-fplugin-arg-pathcov-{a}" for a in args.plugin_args.split()]
    build = must([args.compiler, *flags, *plugin, *include, *args.sources,
                  "-o", instrumented, args.runtime, "-lpthread"],
                 "instrumented build")
    if "pathcov:" in build.stderr:
        sys.exit(f"FAIL: the plugin warned:\n{build.stderr}")

    env = dict(os.environ)
    env["TRACE_OUT"] = os.path.join(work, "trace.json")
    expected = run([plain, *args.run_args.split()], env=env)
    env["PATHCOV_PROFILE_DIR"] = os.path.join(work, "profiles")
    actual = run([instrumented, *args.run_args.split()], env=env)
    if (actual.stdout, actual.returncode) != (expected.stdout, expected.returncode):
        sys.exit(f"FAIL: the instrumented program behaves differently:\n"
                 f"plain ({expected.returncode}): {expected.stdout!r}\n"
                 f"instrumented ({actual.returncode}): {actual.stdout!r}\n"
                 f"{actual.stderr}")

    corpus = os.path.join(work, "corpus.json")
    must([args.pathcov, "collect", "-o", corpus, env["PATHCOV_PROFILE_DIR"]],
         "pathcov collect")
    shown = json.loads(must([args.pathcov, "show", "--json", "--max-paths",
                             "100000", corpus], "pathcov show").stdout)

    with open(env["TRACE_OUT"], encoding="utf-8") as f:
        trace = json.load(f)
    profiled, calls = profiled_paths(shown, markers_by_line(args.sources))
    failures = []
    for function, recorded in sorted(trace.items()):
        want = collections.Counter(recorded["paths"])
        got = profiled.get(function, collections.Counter())
        if want != got:
            failures.append(f"{function}: the program ran {dict(want)}\n"
                            f"  the profile counted {dict(got)}")
        if calls[function] != recorded["calls"]:
            failures.append(f"{function}: {recorded['calls']} calls, the "
                            f"profile counted {calls[function]}")
    if not trace:
        failures.append("the program traced nothing")
    if failures:
        sys.exit("FAIL:\n" + "\n".join(failures))
    runs = sum(sum(f["paths"].values()) for f in trace.values())
    print(f"ok: {len(trace)} functions, {runs} path runs match")


if __name__ == "__main__":
    main()
