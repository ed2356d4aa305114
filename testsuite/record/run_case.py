#!/usr/bin/env python3
"""Record mode, end to end, against the program's own trace (trace.h).

Builds the program twice - plain, and with the pathcov plugin and runtime -
(with --shared, each time with a shared library of those sources, which an
instrumented build links with its own runtime), runs both, and checks that:
  - the instrumented program behaves exactly like the plain one (output and
    exit status);
  - `pathcov collect` turns the profiles, one per instrumented module, into
    a corpus that `pathcov show` reads;
  - for every function the program traces, the paths the profile counted,
    mapped from their source lines back to the program's markers, are
    exactly the paths the program recorded, with the same counts;
  - each traced function's call count is the number of traced calls;
  - with --k N (N >= 2; the plugin's k=N), that for every function the
    program traces, the k-paths the profile counted (`k_paths` in `pathcov
    show --json`: windows of 2..N consecutive paths of one activation, as
    lists of path ids), each mapped to its paths' markers joined by '|', are
    exactly the windows of 2..N paths the program recorded, with the same
    counts; and, for every function shown, that each k-path names paths the
    function ran, and that its count is at most the count of its prefix and
    of its suffix of one path less (the k-iteration path forest's property;
    for two paths, the counts of the two paths);
  - with --schemas DIR, that every file the tools wrote is valid against its
    schema in DIR: the profiles, the corpus, what `pathcov show --json`
    prints, and each metadata record in the binary's section .debug_pathcov.
Exits 0 on success; prints what differs otherwise.
"""
import argparse
import collections
import glob
import json
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import metadata_texts, must, run  # noqa: E402

MARKER = re.compile(r"^\s*T\('(.)'\);\s*(//.*)?$")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
PARAMETER_TAIL = re.compile(r"^\)(\s*(const|volatile|&|&&|noexcept))*$")


def with_local_headers(sources):
    """The sources and the files they #include "like this", transitively."""
    found, todo = [], list(sources)
    while todo:
        source = os.path.abspath(todo.pop())
        if source in found:
            continue
        found.append(source)
        with open(source, encoding="utf-8") as f:
            for text in f:
                m = INCLUDE.match(text)
                header = m and os.path.join(os.path.dirname(source), m.group(1))
                if header and os.path.exists(header):
                    todo.append(header)
    return found


def markers_by_line(sources):
    """{(basename, line): marker} for every T('x'); line of the sources and
    of the headers they include."""
    found = {}
    for source in with_local_headers(sources):
        with open(source, encoding="utf-8") as f:
            for number, text in enumerate(f, 1):
                m = MARKER.match(text)
                if m:
                    found[(os.path.basename(source), number)] = m.group(1)
    return found


def top_level(text):
    """[(index, character)] of the characters of text outside any (), <>."""
    depth, found = 0, []
    for i, c in enumerate(text):
        if c in ")>":
            depth -= 1
        if depth == 0:
            found.append((i, c))
        if c in "(<":
            depth += 1
    return found


def plain_name(name):
    """The function name as __func__ spells it, from GCC's printable name:
    'f' -> 'f', 'virtual int ns::C::f(int) const' -> 'f',
    'V twice(V) [with V = int]' -> 'twice',
    'g(int)::<lambda(int)>' -> 'operator()'."""
    name = name.split(" [with ")[0]
    # The parameter list: the last top-level (...) with only qualifiers
    # after it (a lambda's name has none: its own is inside <...>).
    marks = top_level(name)
    parameters = [i for (i, c), (j, d) in zip(marks, marks[1:])
                  if (c, d) == ("(", ")") and PARAMETER_TAIL.match(name[j:])]
    if parameters:
        name = name[:parameters[-1]]
    # Past the return type, and past the scopes.
    start = max([i + 1 for i, c in top_level(name) if c in " :"], default=0)
    last = name[start:]
    if last.startswith("<lambda"):
        return "operator()"
    return last.split("<")[0]


def traced_name(f):
    """A function of `pathcov show --json` named as trace.h names it:
    'file.c:name'."""
    return f"{os.path.basename(f['file'])}:{plain_name(f['name'])}"


def path_text(f, p, markers):
    """The markers on the lines of path p of function f, in order."""
    home = os.path.basename(f["file"])
    text = ""
    for step in p["steps"]:
        where = os.path.basename(step.get("file", home))
        for line in step["lines"]:
            text += markers.get((where, line), "")
    return text


def profiled_paths(shown, markers):
    """{function: Counter(marker string -> count)} and {function: (calls,
    resumes)} from `pathcov show --json`, functions named as trace.h names
    them: 'file.c:name'."""
    paths = collections.defaultdict(collections.Counter)
    calls = collections.defaultdict(lambda: (0, 0))
    for f in shown["functions"]:
        if "skipped" in f:
            continue
        name = traced_name(f)
        calls[name] = (calls[name][0] + f["calls"],
                       calls[name][1] + f["resumes"])
        for p in f["paths"]:
            paths[name][path_text(f, p, markers)] += p["count"]
    return paths, calls


def profiled_k_paths(shown, markers, k):
    """{function: Counter('markers|markers...' -> count)} of the k-paths
    `pathcov show --json` lists (each function's `k_paths`: {"ids": [path
    id, ...], "count": n}, its paths' ids among the function's `paths`), and
    what is wrong with them: a k-path of fewer than 2 or more than k paths,
    of a path the function did not run, listed twice, counted more than its
    prefix or its suffix of one path less; a `k` other than k."""
    found = collections.defaultdict(collections.Counter)
    problems = []
    for f in shown["functions"]:
        if "skipped" in f or not (f.get("k_paths") or "k" in f):
            continue
        where = f"{f['name']} ({f['identity']})"
        if f.get("k") != k:
            problems.append(f"{where}: k {f.get('k')}, expected {k}")
        texts = {p["id"]: path_text(f, p, markers) for p in f["paths"]}
        counts = {(p["id"],): p["count"] for p in f["paths"]}
        listed = []
        for kp in f.get("k_paths", []):
            ids = tuple(kp["ids"])
            if not 2 <= len(ids) <= k:
                problems.append(f"{where}: k-path {list(ids)} of {len(ids)} "
                                f"paths, expected 2..{k}")
            unknown = [i for i in ids if i not in texts]
            if unknown:
                problems.append(f"{where}: k-path {list(ids)} names paths "
                                f"{unknown} the function did not run")
            if ids in counts:
                problems.append(f"{where}: k-path {list(ids)} listed twice")
                continue
            counts[ids] = kp["count"]
            listed.append(ids)
            found[traced_name(f)]["|".join(texts.get(i, f"?{i}")
                                           for i in ids)] += kp["count"]
        # The k-IPF's property: a window's every run is also a run of the
        # window one path shorter that starts, or ends, where it does.
        for ids in listed:
            for part, shorter in (("prefix", ids[:-1]), ("suffix", ids[1:])):
                if counts[ids] > counts.get(shorter, 0):
                    problems.append(
                        f"{where}: k-path {list(ids)} counted {counts[ids]}, "
                        f"more than its {part} {list(shorter)}: "
                        f"{counts.get(shorter, 0)}")
    return found, problems


def describe(counts, other):
    """counts, sorted, with what `other` counts differently marked: the
    windows of a k-path comparison are many."""
    return "{" + ", ".join(
        f"{w!r}: {n}" + ("" if other.get(w) == n else " *")
        for w, n in sorted(counts.items())) + "}"


def build(args, plugin, variant):
    """Builds the program (and its shared library) into workdir/variant/;
    returns the program and the compiler's stderr."""
    out = os.path.join(args.workdir, variant)
    os.makedirs(out)
    flags = args.flags.split()
    if plugin:
        flags += args.instrumented_flags.split()
    include = ["-I", os.path.dirname(os.path.abspath(__file__))]
    runtime = [args.runtime] if plugin else []
    stderr = ""
    libraries = []
    if args.shared:
        # Built with the plugin, a shared library links its own runtime.
        library = os.path.join(out, "libtraced.so")
        stderr += must([args.compiler, *flags, *plugin, *include, "-fPIC",
                        "-shared", *args.shared, "-o", library, *runtime,
                        "-lpthread"], f"{variant} shared library").stderr
        libraries = [library, f"-Wl,-rpath,{out}"]
    program = os.path.join(out, "program")
    stderr += must([args.compiler, *flags, *plugin, *include, *args.sources,
                    *libraries, "-o", program, *runtime, "-lpthread"],
                   f"{variant} build").stderr
    return program, stderr


def written_documents(args, work, program, corpus, shown_text):
    """[(schema file, what, JSON text)] for every file the tools wrote."""
    documents = []
    profiles = sorted(glob.glob(os.path.join(work, "profiles", "*")))
    for name in profiles:
        with open(name, "rb") as f:
            documents.append(("profile.schema.json", name, f.read()))
    with open(corpus, "rb") as f:
        documents.append(("corpus.schema.json", corpus, f.read()))
    documents.append(("show.schema.json", "pathcov show --json", shown_text))
    # Untested paths and a truncated list, too.
    every = must([args.pathcov, "show", "--json", "--all", "--max-paths", "3",
                  corpus], "pathcov show --all")
    documents.append(("show.schema.json", "pathcov show --json --all",
                      every.stdout))
    records = 0
    for module in [program] + glob.glob(
            os.path.join(os.path.dirname(program), "*.so")):
        for i, text in enumerate(metadata_texts(module, os.path.join(work, os.path.basename(module)))):
            documents.append(("function.schema.json", f"{module}: "
                              f"metadata record {i} ({text[:60]!r}...)",
                              text))
            records += 1
    if not profiles or not records:
        sys.exit(f"FAIL: {len(profiles)} profiles and {records} metadata "
                 "records to validate")
    return documents


def schema_problems(schemas, documents):
    """Checks each (schema file, what, JSON text) with validate.py's checks;
    one message per invalid document."""
    from jsonschema import Draft202012Validator
    from validate import problems
    validators = {}
    failures = []
    for schema, what, text in documents:
        if schema not in validators:
            with open(os.path.join(schemas, schema), encoding="utf-8") as f:
                loaded = json.load(f)
            Draft202012Validator.check_schema(loaded)
            validators[schema] = Draft202012Validator(loaded)
        try:
            found = list(problems(validators[schema], json.loads(text)))
        except ValueError as e:  # not UTF-8, not JSON
            found = [f"not JSON: {e}"]
        if found:
            failures.append(f"{what} is not valid against {schema}:\n  " +
                            "\n  ".join(found))
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--flags", default="")
    ap.add_argument("--instrumented-flags", default="",
                    help="more flags for the instrumented build only")
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--plugin-args", default="",
                    help="plugin arguments, space-separated (k=N as --k N)")
    ap.add_argument("--k", type=int, metavar="N",
                    help="build with the plugin's k=N (2..16) and check the "
                    "k-paths of up to N paths against the trace's windows; "
                    "default: the plugin arguments' k=N, else 1 (paths only)")
    ap.add_argument("--runtime", required=True, help="libpathcov-rt.a")
    ap.add_argument("--pathcov", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--run-args", default="")
    ap.add_argument("--shared", action="append", default=[], metavar="SOURCE",
                    help="a source of a shared library the program links "
                    "(repeatable)")
    ap.add_argument("--hashed", action="append", default=[], metavar="NAME",
                    help="a function the plugin must count in the runtime's "
                    "hash table (repeatable)")
    ap.add_argument("--schemas", metavar="DIR",
                    help="validate what the tools wrote against these schemas")
    ap.add_argument("sources", nargs="+")
    args = ap.parse_args()
    plugin_args = args.plugin_args.split()
    given = [int(a[2:]) for a in plugin_args if re.fullmatch(r"k=\d+", a)]
    k = args.k if args.k is not None else (given[-1] if given else 1)
    if any(g != k for g in given) or not 1 <= k <= 16:
        sys.exit(f"FAIL: k {k} (--k {args.k}, plugin arguments "
                 f"{args.plugin_args!r}): expected one k in 1..16")
    if k >= 2 and not given:
        plugin_args.append(f"k={k}")
    if k > 4:
        # trace.h counts the windows of up to TRACE_MAX_K paths (default 4).
        args.flags += f" -DTRACE_MAX_K={k}"

    work = args.workdir
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "profiles"))
    plain, _ = build(args, [], "plain")
    plugin = [f"-fplugin={args.plugin}"] + [
        f"-fplugin-arg-pathcov-{a}" for a in plugin_args]
    instrumented, warnings = build(args, plugin, "instrumented")
    if "pathcov:" in warnings:
        sys.exit(f"FAIL: the plugin warned:\n{warnings}")

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
    shown_text = must([args.pathcov, "show", "--json", "--max-paths",
                       "100000", corpus], "pathcov show").stdout
    shown = json.loads(shown_text)

    with open(env["TRACE_OUT"], encoding="utf-8") as f:
        trace = json.load(f)
    markers = markers_by_line(args.sources + args.shared)
    profiled, calls = profiled_paths(shown, markers)
    failures = []
    if k >= 2:
        profiled_k, problems = profiled_k_paths(shown, markers, k)
        failures += problems
    with open(corpus, encoding="utf-8") as f:
        modules = len(json.load(f)["modules"])
    if modules != (2 if args.shared else 1):
        failures.append(f"profiles of {modules} modules, expected one per "
                        "instrumented module")
    records = [json.loads(r) for r in metadata_texts(instrumented, os.path.join(work, os.path.basename(instrumented)))]
    for name in args.hashed:
        counting = {r.get("counting") for r in records
                    if plain_name(r["name"]) == name}
        if counting != {"hashed"}:
            failures.append(f"{name}: counting {counting}, expected hashed")
    for function, recorded in sorted(trace.items()):
        want = collections.Counter(recorded["paths"])
        got = profiled.get(function, collections.Counter())
        if want != got:
            failures.append(f"{function}: the program ran {dict(want)}\n"
                            f"  the profile counted {dict(got)}")
        if calls[function] != (recorded["calls"], recorded["resumes"]):
            failures.append(f"{function}: {recorded['calls']} calls and "
                            f"{recorded['resumes']} resumes, the profile "
                            f"counted {calls[function]}")
        if k >= 2:
            # The trace's windows of up to k paths (trace.h: "k-paths").
            want_k = {w: n for w, n in recorded["k_paths"].items()
                      if w.count("|") < k}
            got_k = dict(profiled_k.get(function, {}))
            if want_k != got_k:
                failures.append(
                    f"{function}: the program ran the k-paths (k={k}) "
                    f"{describe(want_k, got_k)}\n  the profile counted "
                    f"{describe(got_k, want_k)}")
    if not trace:
        failures.append("the program traced nothing")
    valid = ""
    if args.schemas:
        documents = written_documents(args, work, instrumented, corpus,
                                      shown_text)
        failures += schema_problems(args.schemas, documents)
        valid = f"; {len(documents)} documents valid against their schemas"
    if failures:
        sys.exit("FAIL:\n" + "\n".join(failures))
    runs = sum(sum(f["paths"].values()) for f in trace.values())
    k_runs = ""
    if k >= 2:
        windows = sum(n for f in trace.values()
                      for w, n in f["k_paths"].items() if w.count("|") < k)
        k_runs = f", {windows} k-path runs (k={k})"
    print(f"ok: {len(trace)} functions, {runs} path runs{k_runs} "
          f"match{valid}")


if __name__ == "__main__":
    main()
