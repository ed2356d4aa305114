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
from testlib import must, run  # noqa: E402

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


def profiled_paths(shown, markers):
    """{function: Counter(marker string -> count)} and {function: (calls,
    resumes)} from `pathcov show --json`, functions named as trace.h names
    them: 'file.c:name'."""
    paths = collections.defaultdict(collections.Counter)
    calls = collections.defaultdict(lambda: (0, 0))
    for f in shown["functions"]:
        if "skipped" in f:
            continue
        home = os.path.basename(f["file"])
        name = f"{home}:{plain_name(f['name'])}"
        calls[name] = (calls[name][0] + f["calls"],
                       calls[name][1] + f["resumes"])
        for p in f["paths"]:
            text = ""
            for step in p["steps"]:
                where = os.path.basename(step.get("file", home))
                for line in step["lines"]:
                    text += markers.get((where, line), "")
            paths[name][text] += p["count"]
    return paths, calls


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


def metadata_records(module, work):
    """The texts of the records in the module's section .debug_pathcov."""
    # Not allocated, so objcopy -O binary leaves it out: dumped instead.
    section = os.path.join(work, os.path.basename(module) + ".debug_pathcov")
    must(["objcopy", f"--dump-section=.debug_pathcov={section}", module,
          section + ".elf"], "extract the metadata section")
    with open(section, "rb") as f:
        # NUL-terminated records; alignment may leave NULs between them.
        return [r for r in f.read().split(b"\0") if r]


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
        for i, text in enumerate(metadata_records(module, work)):
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
    ap.add_argument("--plugin-args", default="")
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

    work = args.workdir
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "profiles"))
    plain, _ = build(args, [], "plain")
    plugin = [f"-fplugin={args.plugin}"] + [
        f"-fplugin-arg-pathcov-{a}" for a in args.plugin_args.split()]
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
    profiled, calls = profiled_paths(
        shown, markers_by_line(args.sources + args.shared))
    failures = []
    with open(corpus, encoding="utf-8") as f:
        modules = len(json.load(f)["modules"])
    if modules != (2 if args.shared else 1):
        failures.append(f"profiles of {modules} modules, expected one per "
                        "instrumented module")
    records = [json.loads(r) for r in metadata_records(instrumented, work)]
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
    print(f"ok: {len(trace)} functions, {runs} path runs match{valid}")


if __name__ == "__main__":
    main()
