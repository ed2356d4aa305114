#!/usr/bin/env python3
"""docs/in-your-build.md's commands for one build system, run on
testsuite/projects/tally (a shared library, a program using it and a test)
against a pathcov installed into a scratch prefix, and checked:

1. `cmake --install BUILD --prefix WORK/prefix`: the spec files name the
   plugin and the runtime under that prefix.
2. The page's record block for SYSTEM (the block after
   `<!-- test: SYSTEM record -->`), run with bash in a copy of the project
   with PATHCOV (the prefix) and SPECS (its spec files' directory) set and
   PREFIX/bin first in PATH: its corpus.json must have tested paths of the
   library's functions (a static one included) and the program's, from
   both modules.
3. The record build runs the field input (FIELD below) -> the executed
   paths.
4. The page's release block: its test run (PATHCOV_REPORT_DIR=check-reports)
   must write no report; its field run (reports/) must report exactly the
   executed minus the tested paths, id by id, from both modules.
5. With --errors: the residual spec file without a corpus, with a missing
   corpus and with the plugin gone give errors naming what is missing; and
   it links with packed relative relocations, unless the user's
   -Wl,-z,nopack-relative-relocs says otherwise.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import FAILURES, check, finish, must, run  # noqa: E402

# The input the tests never give: punctuation and a mixed word.
FIELD = ["12", "x+y", "!?", "abc"]
FIELD_COMMAND = "tally 12 x+y '!?' abc"
# Where each build system's record build puts the program.
RECORD_PROGRAM = {"autotools": "record/tally", "cmake": "record/tally",
                  "meson": "record/tally", "meson-options": "record/tally",
                  "make": "tally"}
# How each build system builds its release again (in the project), where
# the build tracks dependencies; make's Makefile does not.
REBUILD = {"autotools": ["make", "-C", "release"],
           "cmake": ["cmake", "--build", "release"],
           "meson": ["meson", "compile", "-C", "release"],
           "meson-options": ["meson", "compile", "-C", "release"]}
# The record blocks that name their tests, and the names.
NAMED_TESTS = {"meson-options": ["words"]}
# By assembler name: wc_name is C++ (lib/wordname.cc).
FUNCTIONS = ["wc_classify", "wc_name", "all_of", "main", "print_counts"]


def doc_block(doc, system, role):
    """The ```sh block after `<!-- test: SYSTEM ROLE -->`."""
    m = re.search(rf"<!-- test: {system} {role} -->\s*```sh\n(.*?)```", doc,
                  re.S)
    if not m:
        sys.exit(f"FAIL: no `<!-- test: {system} {role} -->` sh block in "
                 "the docs page")
    return m.group(1)


def run_block(block, cwd, env, what):
    print(f"== {what}:\n{block}")
    r = subprocess.run(["bash", "-euxo", "pipefail", "-c", block], cwd=cwd,
                       env=env, capture_output=True, text=True)
    print(r.stdout + r.stderr)
    if r.returncode != 0:
        sys.exit(f"FAIL: {what} exited with {r.returncode}")


def new_user(args):
    """A fresh args.workdir with pathcov installed into WORKDIR/prefix
    (`cmake --install`), and the environment of a user of that prefix:
    PATHCOV and SPECS set, its bin first in PATH, CC as given, none of the
    caller's PATHCOV_* or build flags. Returns (prefix, specs, env)."""
    root = args.workdir
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    prefix = os.path.join(root, "prefix")
    must([args.cmake, "--install", args.build_dir, "--prefix", prefix],
         "cmake --install")
    specs = os.path.join(prefix, "lib", "pathcov")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PATHCOV") and k not in
           ("CFLAGS", "CXXFLAGS", "LDFLAGS", "MAKEFLAGS", "MFLAGS")}
    env.update(PATHCOV=prefix, SPECS=specs, CC=args.cc,
               PATH=os.path.join(prefix, "bin") + os.pathsep + env["PATH"])
    return prefix, specs, env


def paths_by_function(corpus):
    """{(identity, checksum): {id: count}} of a corpus."""
    with open(corpus, encoding="utf-8") as f:
        doc = json.load(f)
    found = {}
    for fn in doc["functions"]:
        counts = found.setdefault((fn["identity"], fn["checksum"]), {})
        for p in fn.get("paths", []):
            counts[p["id"]] = counts.get(p["id"], 0) + p["count"]
    return doc, found


def check_corpus(corpus):
    doc, _ = paths_by_function(corpus)
    for name in FUNCTIONS:
        fns = [f for f in doc["functions"] if f["assembler_name"] == name]
        check(any(f.get("paths") for f in fns),
              f"the corpus has tested paths of {name}")
    modules = [os.path.basename(m["path"]) for m in doc["modules"]]
    check(any(m.startswith("libwordclass.so") for m in modules) and
          any("tally" in m for m in modules),
          f"the corpus's modules are the library and the program: {modules}")


def check_test_names(corpus, names):
    """Every tested path of the corpus names its test, one of `names`."""
    doc, _ = paths_by_function(corpus)
    named = {t for f in doc["functions"] for p in f.get("paths", [])
             for t in p.get("tests", [])}
    check(named == set(names), f"the corpus's tests {sorted(named)}, "
          f"want {sorted(names)}")


def check_reports(work, tested, executed):
    check(not glob.glob(os.path.join(work, "check-reports", "*")),
          "the release build's test run wrote no report")
    reported, modules = {}, set()
    for name in sorted(glob.glob(os.path.join(work, "reports", "*.json"))):
        with open(name, encoding="utf-8") as f:
            report = json.load(f)
        modules.add(os.path.basename(report["module"]))
        for p in report["residual_paths"]:
            counts = reported.setdefault((p["identity"], p["checksum"]), {})
            counts[p["id"]] = counts.get(p["id"], 0) + p["count"]
    expected = {}
    for key, counts in executed.items():
        left = {i: n for i, n in counts.items() if i not in tested.get(key, {})}
        if left:
            expected[key] = left
    print(f"residual paths reported: {reported}\nexpected: {expected}")
    check(bool(expected), "the field input ran untested paths")
    check(reported == expected,
          "the field run reported exactly the executed minus the tested paths")
    check(any(m.startswith("libwordclass.so") for m in modules) and
          any("tally" in m for m in modules),
          f"both modules reported: {sorted(modules)}")


def check_errors(cc, specs, plugin, work, env):
    residual = os.path.join(specs, "pathcov-residual.specs")
    source = os.path.join(work, "src", "tally.c")

    def fails_with(extra, text, what):
        r = subprocess.run([cc, f"-specs={residual}", *extra, "-c", source,
                            "-o", os.devnull], capture_output=True,
                           text=True, env=env)
        check(r.returncode != 0 and text in r.stderr,
              f"{what}: an error naming {text!r}\n      {r.stderr.strip()}")

    fails_with([], "pathcov-residual.specs: residual mode needs "
               "-fplugin-arg-pathcov-corpus=FILE", "no corpus")
    missing = os.path.join(work, "no-such-corpus.json")
    fails_with([f"-fplugin-arg-pathcov-corpus={missing}"], missing,
               "a missing corpus")
    corpus = os.path.join(work, "corpus.json")
    os.rename(plugin, plugin + ".away")
    try:
        fails_with([f"-fplugin-arg-pathcov-corpus={corpus}"], plugin,
                   "the plugin gone")
    finally:
        os.rename(plugin + ".away", plugin)


def check_preprocessing(cc, specs, work, env):
    """Preprocessing alone (an assembler source `.S`, gcc -E, -save-temps)
    with pathcov's options in the flags, as Makefiles that pass CFLAGS to
    `.S` files do: cc1 gets the options there too, and the spec files load
    the plugin for it; -save-temps still instruments the compilation."""
    corpus = os.path.join(work, "corpus.json")
    assembler = os.path.join(work, "probe.S")
    with open(assembler, "w", encoding="utf-8") as f:
        f.write("#define RESULT 7\n\t.text\n\t.globl probe\nprobe:\n"
                "\tmovl $RESULT, %eax\n\tret\n"
                "\t.section .note.GNU-stack,\"\",@progbits\n")
    source = os.path.join(work, "lib", "wordclass.c")
    scratch = os.path.join(work, "preprocessing")
    os.makedirs(scratch, exist_ok=True)
    for mode, extra in (("residual", [f"-fplugin-arg-pathcov-corpus={corpus}"]),
                        ("record", ["-fplugin-arg-pathcov-atomic=1"])):
        flags = ["-O2", f"-specs={os.path.join(specs, f'pathcov-{mode}.specs')}",
                 *extra]
        for what, command in (
                ("an assembler source", [cc, *flags, "-c", assembler, "-o",
                                         os.path.join(scratch, "probe.o")]),
                ("gcc -E", [cc, *flags, "-E", source, "-o",
                            os.path.join(scratch, "wordclass.i")])):
            r = subprocess.run(command, capture_output=True, text=True,
                               env=env, cwd=scratch)
            check(r.returncode == 0 and not r.stderr,
                  f"{mode}: {what} with pathcov's options\n      {r.stderr.strip()}")
        obj = os.path.join(scratch, "wordclass.o")
        r = subprocess.run([cc, *flags, "-save-temps", "-c", source, "-o", obj],
                           capture_output=True, text=True, env=env, cwd=scratch)
        symbols = subprocess.run(["nm", obj], capture_output=True,
                                 text=True).stdout if r.returncode == 0 else ""
        check("__pathcov_" in symbols,
              f"{mode}: -save-temps compiles and instruments\n      {r.stderr.strip()}")


def has_packed_relocations(program):
    """Whether `program` has DT_RELR (readelf -d)."""
    r = must(["readelf", "-d", program], f"readelf -d {program}")
    return "(RELR)" in r.stdout


def check_packed_relocations(cc, specs, work, env):
    """The spec files link with packed relative relocations (the pointers
    of pathcov's descriptors), and -Wl,-z,nopack-relative-relocs on the
    user's command line turns them off."""
    residual = os.path.join(specs, "pathcov-residual.specs")
    source = os.path.join(work, "relocations.c")
    with open(source, "w", encoding="utf-8") as f:
        f.write("int main(int argc, char **argv) { return argc > 1 && "
                "argv[1][0] == 'x'; }\n")
    corpus = os.path.join(work, "corpus.json")
    for extra, wanted in (([], True),
                          (["-Wl,-z,nopack-relative-relocs"], False)):
        program = os.path.join(work, "relocations")
        must([cc, "-O2", "-fPIE", "-pie", f"-specs={residual}",
              f"-fplugin-arg-pathcov-corpus={corpus}", source, *extra, "-o",
              program], f"link with {' '.join(extra) or 'the spec file'}",
             env=env)
        must([program], f"run the program linked with {' '.join(extra)}",
             env=dict(env, PATHCOV_REPORT_DIR=os.path.join(
                 work, "relocations-reports")))
        check(has_packed_relocations(program) == wanted,
              f"-specs=pathcov-residual.specs {' '.join(extra)}: packed "
              f"relative relocations {'on' if wanted else 'off'}")


def check_lto_link(cc, specs, work, env):
    """-flto: the link's flags need not repeat the corpus (lto-wrapper runs
    the driver again, for lto1, with the link's flags and the spec file),
    whichever way lto1 runs (WPA then LTRANS, or both in one). And objects
    compiled without the plugin, linked with the spec file alone (the spec
    file only in LDFLAGS), get one warning from lto1, which sees the whole
    link: they are not instrumented and the program will say nothing."""
    residual = os.path.join(specs, "pathcov-residual.specs")
    source = os.path.join(work, "relocations.c")
    corpus = os.path.join(work, "corpus.json")
    obj = os.path.join(work, "lto.o")
    must([cc, "-O2", "-flto", f"-specs={residual}",
          f"-fplugin-arg-pathcov-corpus={corpus}", "-c", source, "-o", obj],
         "compile with -flto", env=env)
    plain_obj = os.path.join(work, "lto-plain.o")
    must([cc, "-O2", "-flto", "-c", source, "-o", plain_obj],
         "compile with -flto, without the spec file", env=env)
    warning = "none of the functions it compiles was instrumented"
    for extra in ([], ["-flto-partition=none"], ["-flto-partition=max"]):
        program = os.path.join(work, "lto")
        r = subprocess.run([cc, "-O2", "-flto", *extra, f"-specs={residual}",
                            obj, "-o", program], capture_output=True, text=True,
                           env=env)
        check(r.returncode == 0 and warning not in r.stderr,
              f"-flto {' '.join(extra)}: linked with the spec file alone, "
              f"without a warning\n      {r.stderr.strip()}")
        r = subprocess.run([cc, "-O2", "-flto", *extra, f"-specs={residual}",
                            plain_obj, "-o", program], capture_output=True,
                           text=True, env=env)
        check(r.returncode == 0 and r.stderr.count(warning) == 1 and
              "-Wmissing-profile" in r.stderr,
              f"-flto {' '.join(extra)}: objects compiled without the plugin "
              f"linked with the spec file: one warning (-Wmissing-profile), "
              f"exit 0\n      {r.stderr.strip()}")


def check_corpus_dependency(system, work, env):
    """The release's objects depend on the corpus (the plugin names it in
    their dependency files, or the CMake package in OBJECT_DEPENDS): the
    corpus changed, the build compiles them again, where a stale object
    would report paths the new corpus has."""
    objects = {}
    for directory, _, files in os.walk(os.path.join(work, "release")):
        for name in files:
            if name.endswith(".o"):
                path = os.path.join(directory, name)
                objects[path] = os.stat(path).st_mtime_ns
    check(objects, f"{system}: the release has objects")
    corpus = os.path.join(work, "corpus.json")
    later = max(objects.values()) // 10**9 + 10
    os.utime(corpus, (later, later))
    must(REBUILD[system], f"{system}: build the release again", cwd=work, env=env)
    stale = [p for p, t in objects.items() if os.stat(p).st_mtime_ns == t]
    check(not stale, f"{system}: a changed corpus compiles every object again",
          stale)


def check_cmake_args(cmake, work, env):
    """pathcov_instrument's ARGS: each a -fplugin-arg-pathcov-KEY=VALUE of
    the target's compilations (which then build); a compiler option, or
    mode=, refused at configure time with a message."""
    build = os.path.join(work, "args")
    must([cmake, "-S", work, "-B", build, "-DTALLY_PATHCOV=record",
          "-DTALLY_PATHCOV_ARGS=atomic=1;k=2",
          "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"], "configure with ARGS",
         env=env)
    must([cmake, "--build", build], "build with ARGS", env=env)
    with open(os.path.join(build, "compile_commands.json"),
              encoding="utf-8") as f:
        commands = [c["command"] for c in json.load(f)]
    check(commands and all("-fplugin-arg-pathcov-atomic=1" in c and
                           "-fplugin-arg-pathcov-k=2" in c for c in commands),
          "ARGS atomic=1;k=2: in every compilation", str(commands))
    for bad in ("-fno-inline", "mode=residual"):
        r = run([cmake, "-S", work, "-B", os.path.join(work, "bad-args"),
                 "-DTALLY_PATHCOV=record", f"-DTALLY_PATHCOV_ARGS={bad}"],
                env=env)
        # CMake wraps the message's lines.
        check(r.returncode != 0 and f"not '{bad}'" in " ".join(r.stderr.split()),
              f"ARGS {bad}: refused at configure time", r.stderr[-400:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--system", required=True, choices=sorted(RECORD_PROGRAM))
    for option in ("build-dir", "cmake", "doc", "project", "workdir", "cc"):
        ap.add_argument(f"--{option}", required=True)
    ap.add_argument("--errors", action="store_true")
    args = ap.parse_args()
    root = args.workdir
    prefix, specs, env = new_user(args)
    plugin = os.path.join(specs, "pathcov.so")
    for mode in ("record", "residual"):
        with open(os.path.join(specs, f"pathcov-{mode}.specs"),
                  encoding="utf-8") as f:
            text = f.read()
        check(f"-fplugin={plugin} -fplugin-arg-pathcov-mode={mode}" in text
              and os.path.join(prefix, "lib", "libpathcov-rt.a") in text,
              f"pathcov-{mode}.specs names the installed plugin and runtime")
    check(os.path.isfile(plugin), f"the plugin is at {plugin}")

    work = os.path.join(root, "tally")
    shutil.copytree(args.project, work)
    with open(args.doc, encoding="utf-8") as f:
        doc = f.read()

    run_block(doc_block(doc, args.system, "record"), work, env,
              f"{args.system}: the record build")
    corpus = os.path.join(work, "corpus.json")
    check_corpus(corpus)
    if args.system in NAMED_TESTS:
        check_test_names(corpus, NAMED_TESTS[args.system])
    _, tested = paths_by_function(corpus)

    field_profiles = os.path.join(root, "field-profiles")
    must([os.path.join(work, RECORD_PROGRAM[args.system]), *FIELD],
         "the record build on the field input",
         env=dict(env, PATHCOV_PROFILE_DIR=field_profiles))
    must(["pathcov", "collect", "-o", os.path.join(root, "field.json"),
          field_profiles], "collect the field run", env=env)
    _, executed = paths_by_function(os.path.join(root, "field.json"))

    release = doc_block(doc, args.system, "release")
    check(FIELD_COMMAND in release,
          f"the release block runs `{FIELD_COMMAND}`")
    run_block(release, work, env, f"{args.system}: the release build")
    check_reports(work, tested, executed)
    if args.system in REBUILD:
        check_corpus_dependency(args.system, work, env)
    if args.system == "cmake":
        check_cmake_args(args.cmake, work, env)
    if args.errors:
        check_errors(args.cc, specs, plugin, work, env)
        check_preprocessing(args.cc, specs, work, env)
        check_packed_relocations(args.cc, specs, work, env)
        check_lto_link(args.cc, specs, work, env)
    return finish(FAILURES, f"ok: {args.system}, record and residual, with "
                  "the spec files")


if __name__ == "__main__":
    sys.exit(main())
