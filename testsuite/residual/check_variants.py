#!/usr/bin/env python3
"""A function built two ways into one program (programs/variants.c: one
identity, two CFGs): recorded on 5, run on 500 in residual mode, each
variant has a residual path, and decode's text names each heading with its
CFG's checksum, so that the two read apart (as show and gate do). Built
again with one variant changed (stale), run on the tests' input: decode's
summary says how many of the paths are a stale function's. Exits non-zero
on failure."""
import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import (FAILURES, check, e2e_arguments, finish,  # noqa: E402
                     fresh_directory, must)

PROGRAM = os.path.join(HERE, "programs", "variants.c")


def build(args, flags, output, v2_flags=()):
    objects = []
    for name, defines in (("main", ["-DMAIN"]), ("v1", ["-DVARIANT=1"]),
                          ("v2", ["-DVARIANT=2", *v2_flags])):
        obj = os.path.join(args.workdir, f"{output}-{name}.o")
        must([args.compiler, "-O2", f"-fplugin={args.plugin}", *flags, *defines,
              "-c", PROGRAM, "-o", obj], f"{output}: compile {name}")
        objects.append(obj)
    program = os.path.join(args.workdir, output)
    must([args.compiler, *objects, "-o", program, args.runtime, "-lpthread"],
         f"{output}: link")
    return program


def main():
    args = e2e_arguments("compiler", "plugin", "runtime", "pathcov", "workdir")
    profiles = fresh_directory(os.path.join(args.workdir, "profiles"))
    corpus = os.path.join(args.workdir, "corpus.json")
    must([build(args, [], "record"), "5"], "test run",
         env={**os.environ, "PATHCOV_PROFILE_DIR": profiles})
    must([args.pathcov, "collect", "-o", corpus, profiles], "collect")
    residual = build(args, ["-fplugin-arg-pathcov-mode=residual",
                            f"-fplugin-arg-pathcov-corpus={corpus}"],
                     "residual")
    reports = fresh_directory(os.path.join(args.workdir, "reports"))
    must([residual, "500"], "field run",
         env={**os.environ, "PATHCOV_REPORT_DIR": reports})
    text = must([args.pathcov, "decode", *glob.glob(os.path.join(
        reports, "*.json"))], "decode").stdout
    headings = re.findall(r"^\S+:\d+ clamp(.*): 1 residual path", text, re.M)
    check(len(headings) == 2 and
          all(re.fullmatch(r" \(CFG [0-9a-f]{16}\)", h) for h in headings) and
          headings[0] != headings[1],
          "decode: clamp twice, each with its CFG", text)
    check(not re.search(r"clamp_[12] \(CFG", text),
          "decode: functions built one way have no CFG in their heading", text)
    # The second variant changed since the tests: stale, every path it
    # runs reported, and the report's summary says how many of them.
    residual = build(args, ["-fplugin-arg-pathcov-mode=residual",
                            f"-fplugin-arg-pathcov-corpus={corpus}",
                            "-Wno-missing-profile"],
                     "residual-changed", ["-DCHANGED"])
    reports = fresh_directory(os.path.join(args.workdir, "reports-changed"))
    must([residual, "5"], "tests' input, one variant changed",
         env={**os.environ, "PATHCOV_REPORT_DIR": reports})
    text = must([args.pathcov, "decode", *glob.glob(os.path.join(
        reports, "*.json"))], "decode").stdout
    check("  1 residual path in 1 function\n  1 of them in 1 function the "
          "corpus has only with another CFG" in text,
          "decode: the stale function's paths counted apart", text)
    return finish(FAILURES, "variants: decode names each CFG of a function "
                            "built two ways; says how much is stale")


if __name__ == "__main__":
    sys.exit(main())
