#!/usr/bin/env python3
"""Identities that name the function, not the checkout (docs/record-mode.md,
"Source paths and identities"), on testsuite/projects/tools built with CMake
(absolute source paths, out-of-source build directories).

checkouts: the project copied into two checkouts, A and B. Record build and
  its tests in A, collect; residual build in B against that corpus. B's
  build warns of no stale function (the tools' own `main`s are untested,
  not stale); B's test runner on the tests' own inputs reports nothing; on
  a new input it reports exactly what A's record build runs on it minus the
  tested paths; an untested tool reports its own `main` and `helper`, never
  the test runner's. The HTML report and Cobertura find the sources, and
  so do decode and show with --source (--source-root first).
prefix-maps: two copies outside any checkout get different identities for
  their static function, the same with -ffile-prefix-map or source-root=;
  a release of one against the other's corpus warns that the corpus has
  none of its functions, and why.
old-format: a corpus of format 1 is refused by the plugin and by a tool,
  naming the file and asking to re-collect.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import metadata_records, must  # noqa: E402


def fail(message):
    sys.exit(f"FAIL: {message}")


def copy_project(args, checkout, marker=True):
    project = os.path.join(checkout, "tools")
    shutil.rmtree(checkout, ignore_errors=True)
    shutil.copytree(args.project, project)
    if marker:
        os.mkdir(os.path.join(checkout, ".git"))
    return project


def cmake_build(args, source, build, plugin_args):
    flags = " ".join([f"-fplugin={args.plugin}"] +
                     [f"-fplugin-arg-pathcov-{a}" for a in plugin_args])
    must([args.cmake, "-S", source, "-B", build, f"-DCMAKE_C_COMPILER={args.cc}",
          "-DCMAKE_C_FLAGS=-O2 -g", f"-DTOOLS_PATHCOV_FLAGS={flags}",
          f"-DTOOLS_PATHCOV_RUNTIME={args.runtime}"],
         f"configure {source}")
    return must([args.cmake, "--build", build], f"build {build}")


def run(program, arguments, env_var, directory):
    os.makedirs(directory, exist_ok=True)
    env = dict(os.environ, **{env_var: directory})
    must([program, *arguments], f"run {program}", env=env)


def residual_paths(directory):
    """{(identity, id)} of the reports in `directory`."""
    paths = set()
    for report in glob.glob(os.path.join(directory, "*.json")):
        with open(report, encoding="utf-8") as f:
            for p in json.load(f)["residual_paths"]:
                paths.add((p["identity"], p["id"]))
    return paths


def corpus_paths(args, corpus, profiles):
    must([args.pathcov, "collect", "-o", corpus, profiles], f"collect {profiles}")
    with open(corpus, encoding="utf-8") as f:
        doc = json.load(f)
    return doc, {(fn["identity"], p["id"])
                 for fn in doc["functions"] for p in fn.get("paths", [])}


def checkouts(args):
    work = args.workdir
    a = copy_project(args, os.path.join(work, "A"))
    b = copy_project(args, os.path.join(work, "B"))
    cmake_build(args, a, os.path.join(a, "build"), [])
    profiles = os.path.join(work, "profiles")
    shutil.rmtree(profiles, ignore_errors=True)
    must([args.ctest, "--test-dir", os.path.join(a, "build")], "A's tests",
         env=dict(os.environ, PATHCOV_PROFILE_DIR=profiles))
    corpus = os.path.join(work, "corpus.json")
    doc, tested = corpus_paths(args, corpus, profiles)

    identities = {fn["identity"] for fn in doc["functions"]}
    # Relative to the checkout (A, with .git), which holds the project.
    want = {"tools/tests/run_tests.c:main", "tools/tests/run_tests.c:helper",
            "tools/src/util.c:classify", "tools/src/util.c:helper"}
    if identities != want:
        fail(f"corpus identities {sorted(identities)}, expected {sorted(want)}")
    roots = {fn.get("source_root") for fn in doc["functions"]}
    if roots != {os.path.realpath(os.path.dirname(a))} and roots != {os.path.dirname(a)}:
        fail(f"source_root {roots}, expected {os.path.dirname(a)}")

    built = cmake_build(args, b, os.path.join(b, "build"),
                        ["mode=residual", f"corpus={corpus}"])
    if "stale" in built.stdout + built.stderr:
        fail(f"B's residual build warns of stale functions:\n{built.stdout}{built.stderr}")

    same = os.path.join(work, "reports-same")
    shutil.rmtree(same, ignore_errors=True)
    for test_input in ("12 3", "ab"): # as the project's CTest tests run it
        run(os.path.join(b, "build", "run-tests"), [test_input],
            "PATHCOV_REPORT_DIR", same)
    if residual_paths(same):
        fail(f"the tests' own inputs in B report {sorted(residual_paths(same))}")

    new_input = ["a b 1"]
    executed_dir = os.path.join(work, "profiles-new")
    shutil.rmtree(executed_dir, ignore_errors=True)
    run(os.path.join(a, "build", "run-tests"), new_input,
        "PATHCOV_PROFILE_DIR", executed_dir)
    _, executed = corpus_paths(args, os.path.join(work, "executed.json"),
                               executed_dir)
    new = os.path.join(work, "reports-new")
    shutil.rmtree(new, ignore_errors=True)
    run(os.path.join(b, "build", "run-tests"), new_input, "PATHCOV_REPORT_DIR", new)
    if residual_paths(new) != executed - tested or not executed - tested:
        fail(f"B reports {sorted(residual_paths(new))}, executed minus tested "
             f"is {sorted(executed - tested)}")

    tool = os.path.join(work, "reports-tool")
    shutil.rmtree(tool, ignore_errors=True)
    run(os.path.join(b, "build", "count"), ["12 3"], "PATHCOV_REPORT_DIR", tool)
    functions = {identity for identity, _ in residual_paths(tool)}
    if functions != {"tools/tools/count.c:main", "tools/tools/count.c:helper"}:
        fail(f"the untested tool reports {sorted(functions)}")

    # Reports run elsewhere still find the sources: the corpus's source_root.
    html = os.path.join(work, "html")
    must([args.pathcov, "report", "--format", "html", "-o", html, corpus],
         "HTML report", cwd="/")
    for page in glob.glob(os.path.join(html, "*.html")):
        with open(page, encoding="utf-8") as f:
            text = f.read()
        if 'id="no-source"' in text:
            fail(f"{page} could not read its source")
    with open(glob.glob(os.path.join(html, "*util.c*"))[0], encoding="utf-8") as f:
        if "int classify(const char *text) {" not in f.read():
            fail("the page of src/util.c does not show its source")
    cobertura = must([args.pathcov, "report", "--format", "cobertura",
                      "--source-root", "/elsewhere", corpus], "Cobertura").stdout
    want = f"<sources>\n  <source>/elsewhere</source>\n  <source>{os.path.dirname(a)}</source>\n </sources>"
    if want not in cobertura:
        fail(f"Cobertura's sources are not {want}:\n{cobertura[:600]}")
    check_source_text(args, work, corpus, tool)
    print("ok: checkouts")


def check_source_text(args, work, corpus, reports):
    """decode and show print the source text of a path (--source), found
    through the metadata's source_root (B's checkout) from anywhere, or
    first under --source-root: here a tree whose count.c has the line
    number as every line's text."""
    decoded = must([args.pathcov, "decode", "--source",
                    *glob.glob(os.path.join(reports, "*.json"))],
                   "decode --source", cwd="/").stdout
    if "    8 |   int n = 0;" not in decoded or \
            "  9 |   for (int i = 1; i < argc; ++i)  (" not in decoded:
        fail(f"decode --source does not show count.c's text:\n{decoded}")
    other = os.path.join(work, "other-root")
    for name in ("tools/count.c", "src/util.c"):
        os.makedirs(os.path.join(other, "tools", os.path.dirname(name)),
                    exist_ok=True)
        with open(os.path.join(other, "tools", name), "w") as f:
            f.writelines(f"text of line {n}\n" for n in range(1, 100))
    decoded = must([args.pathcov, "decode", "--source-root", other,
                    *glob.glob(os.path.join(reports, "*.json"))],
                   "decode --source-root", cwd="/").stdout
    if "    8 | text of line 8" not in decoded:
        fail(f"decode --source-root {other} does not read its count.c:\n"
             f"{decoded}")
    shown = must([args.pathcov, "show", "--source-root", other,
                   "-f", "classify", corpus], "show --source-root", cwd="/").stdout
    rows = re.findall(r"^ +(\d+) \| text of line (\d+)", shown, re.M)
    if not rows or any(a != b for a, b in rows):
        fail(f"show --source-root {other} does not read its util.c:\n{shown}")


def unit_identities(args, source, cwd, plugin_args=(), flags=()):
    """{name: identity} of the metadata records compiling `source` makes."""
    obj = os.path.join(cwd, "unit.o")
    must([args.cc, "-O2", "-c", f"-fplugin={args.plugin}", *flags,
          *[f"-fplugin-arg-pathcov-{a}" for a in plugin_args],
          "-Isrc", source, "-o", obj], f"compile {source}", cwd=cwd)
    records = metadata_records(obj, os.path.join(cwd, "records"))
    return {r["assembler_name"]: r["identity"] for r in records}


def prefix_maps(args):
    with tempfile.TemporaryDirectory(prefix="pathcov-ident-") as scratch:
        c = copy_project(args, os.path.join(scratch, "C"), marker=False)
        d = copy_project(args, os.path.join(scratch, "D"), marker=False)
        source = "src/util.c"
        plain = [unit_identities(args, os.path.join(p, source), p) for p in (c, d)]
        if plain[0]["helper"] == plain[1]["helper"]:
            fail(f"with no marker and no map, both copies give {plain[0]['helper']}")
        for copy, identities in zip((c, d), plain):
            if identities["helper"] != os.path.join(copy, source) + ":helper":
                fail(f"unmapped identities {identities}: not absolute")
        for what, make in [
                ("-ffile-prefix-map", lambda p: ([], [f"-ffile-prefix-map={p}=."])),
                ("-fdebug-prefix-map", lambda p: ([], [f"-fdebug-prefix-map={p}/="])),
                ("source-root=", lambda p: ([f"source-root={p}"], []))]:
            got = [unit_identities(args, os.path.join(p, source), p,
                                   *make(p)) for p in (c, d)]
            if got[0] != got[1] or got[0]["helper"] != "src/util.c:helper" or \
                    got[0]["classify"] != "src/util.c:classify":
                fail(f"{what}: identities {got}")
        named_elsewhere(args, scratch, c, d, source)
        # The same with a function the linker merges (a C++ header's
        # inline ones: named by its symbol, so the corpus has it wherever
        # the unit was built): the unit's own functions are still missing.
        merged = os.path.join("src", "merged.c")
        for copy in (c, d):
            with open(os.path.join(copy, merged), "w", encoding="utf-8") as f:
                f.write("__attribute__((weak)) int shared(int x) {\n"
                        "  return x > 0 ? x : -x;\n}\n"
                        "static int own(int x) { return x > 9 ? x : 2 * x; }\n"
                        "int entry(int x) { return own(shared(x)); }\n")
        named_elsewhere(args, scratch, c, d, merged)
    print("ok: prefix-maps")


def named_elsewhere(args, scratch, c, d, source):
    """A release built in copy D against a corpus of copy C, neither in a
    checkout: the corpus has none of D's functions (but those named by
    their symbols alone), and the compilation says why; in C it has them,
    and says nothing."""
    obj = os.path.join(c, "unit.o")
    must([args.cc, "-O2", "-c", f"-fplugin={args.plugin}", "-Isrc", source,
          "-o", obj], f"compile {source}", cwd=c)
    functions = []
    for record in metadata_records(obj, os.path.join(c, "records")):
        record.update(calls=1, interrupted=0, invalid_ids=0, dropped=0,
                      paths=[{"id": 0, "count": 1, "tests": ["t"]}])
        functions.append(record)
    corpus = os.path.join(scratch, "c-corpus.json")
    with open(corpus, "w", encoding="utf-8") as f:
        json.dump({"format": "pathcov-corpus", "format_version": "2.0",
                   "modules": [], "profiles": 1, "functions": functions}, f)
    # A note, which -Werror leaves alone: configure's probes use it.
    warning = "note: pathcov: the corpus has none of this unit's functions"
    for copy, flags, wanted in ((d, ["-Werror"], True), (c, [], False)):
        r = subprocess.run([args.cc, "-O2", "-c", f"-fplugin={args.plugin}",
                            "-fplugin-arg-pathcov-mode=residual",
                            f"-fplugin-arg-pathcov-corpus={corpus}", *flags,
                            "-Isrc", source, "-o", os.path.join(copy, "rel.o")],
                           cwd=copy, capture_output=True, text=True)
        # Either cause said: no tested program was built from the unit, or
        # the test build was elsewhere (a new user's libyaml tools).
        if r.returncode != 0 or (warning in r.stderr) != wanted or \
                (wanted and (os.path.join(copy, source) not in r.stderr or
                             "collect with --binary PROGRAM" not in r.stderr)):
            fail(f"residual build in {copy} against {c}'s corpus: "
                 f"{'no ' if wanted else ''}warning: {r.stderr}")
    # A configure probe of D's gets neither the note nor, under -Werror, a
    # stale function's warning (another probe of the same name, recorded):
    # libxml2's configure takes any compiler output as a failed probe.
    probe = os.path.join(d, "conftest.c")
    shutil.copyfile(os.path.join(d, source), probe)
    must([args.cc, "-O2", "-c", f"-fplugin={args.plugin}", "-Isrc", probe,
          "-o", os.path.join(d, "conftest.o")], f"compile {probe}", cwd=d)
    stale = [dict(record, checksum="0" * 16, calls=1, interrupted=0,
                  invalid_ids=0, dropped=0,
                  paths=[{"id": 0, "count": 1, "tests": ["t"]}])
             for record in metadata_records(os.path.join(d, "conftest.o"),
                                            os.path.join(d, "probe-records"))]
    with open(corpus) as f:
        probe_corpus = json.load(f)
    probe_corpus["functions"] += stale
    with open(os.path.join(scratch, "probe-corpus.json"), "w") as f:
        json.dump(probe_corpus, f)
    for probe_corpus_file in (corpus, os.path.join(scratch, "probe-corpus.json")):
        r = subprocess.run([args.cc, "-O2", "-c", f"-fplugin={args.plugin}",
                            "-fplugin-arg-pathcov-mode=residual",
                            f"-fplugin-arg-pathcov-corpus={probe_corpus_file}",
                            "-Werror", "-Isrc", probe,
                            "-o", os.path.join(d, "conftest.o")],
                           cwd=d, capture_output=True, text=True)
        if r.returncode != 0 or r.stderr:
            fail(f"configure probe {probe} against {probe_corpus_file}: "
                 f"exit {r.returncode}, output {r.stderr!r}")


def old_format(args):
    work = args.workdir
    os.makedirs(work, exist_ok=True)
    old = os.path.join(work, "old-corpus.json")
    with open(old, "w", encoding="utf-8") as f:
        json.dump({"format": "pathcov-corpus", "format_version": "1.1",
                   "modules": [], "profiles": 0, "functions": []}, f)
    source = os.path.join(args.project, "src", "util.c")
    for what, cmd in [
            ("plugin", [args.cc, "-c", f"-fplugin={args.plugin}",
                        "-fplugin-arg-pathcov-mode=residual",
                        f"-fplugin-arg-pathcov-corpus={old}", source,
                        "-o", os.path.join(work, "old.o")]),
            ("pathcov show", [args.pathcov, "show", old])]:
        result = subprocess.run(cmd, capture_output=True, text=True)
        if result.returncode == 0 or old not in result.stderr or \
                "older pathcov" not in result.stderr or \
                "re-collect" not in result.stderr:
            fail(f"{what} on a format 1 corpus: exit {result.returncode}, "
                 f"{result.stderr}")
    print("ok: old-format")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=["checkouts", "prefix-maps", "old-format"])
    for option in ("--cc", "--plugin", "--runtime", "--pathcov", "--cmake",
                   "--ctest", "--project", "--workdir"):
        ap.add_argument(option, required=True)
    args = ap.parse_args()
    {"checkouts": checkouts, "prefix-maps": prefix_maps,
     "old-format": old_format}[args.case](args)


if __name__ == "__main__":
    main()
