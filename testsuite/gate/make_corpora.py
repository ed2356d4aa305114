#!/usr/bin/env python3
"""Makes the corpora the gate tests check, with the real tools.

usage: make_corpora.py --plugin SO --runtime LIB --pathcov EXE --workdir DIR

Builds program.c with the pathcov plugin and runtime (-O0, so that no libc
inline function joins the corpus), runs it and collects one corpus, full.json,
then writes variants of it to DIR that differ in what a gate compares:
  full.json        every function; classify and sign fully tested, wide
                   (2048 paths, above the default bound) partly, unused never
  regressed.json   full.json with one of classify's tested paths dropped
  no-unused.json   full.json without the function unused (a baseline in
                   which unused is not there yet)
  field.json       full.json with field_paths: unused 0 and 1 (untested:
                   residual), classify 0 (tested: not residual)
  field-base.json  full.json with field_paths: unused 0
  bad-field.json   full.json with a field path id past unused's paths
  baseline.cfg     a gate config file: baseline no-unused.json (a name
                   relative to the file), no-new-untested
and, from loops.c built with k=2 (-fplugin-arg-pathcov-k=2) and run on 1 3:
  kpaths.json      sum_odd's and main's loops with 6 of their 16
                   2-iteration transitions tested (loops.c says which)
  kpaths-unrun.json the same built with -DUNRUN: count_up, never run, adds
                   a loop of 4 transitions, none tested
Path lists can be dropped and fields added without breaking the metadata
checks, so every variant is a corpus pathcov reads. The field paths are
written as pathcov merge writes them (corpus format 1.1, docs/merge.md): one
made-up report that saw them.
"""
import argparse
import copy
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import must  # noqa: E402


def function(corpus, name):
    found = [f for f in corpus["functions"] if f["name"] == name]
    if len(found) != 1:
        sys.exit(f"FAIL: {len(found)} functions named {name} in the corpus")
    return found[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for option in ("--plugin", "--runtime", "--pathcov", "--workdir"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    work = args.workdir
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    program = os.path.join(work, "program")
    must(["gcc", "-O0", "-g", f"-fplugin={args.plugin}",
          os.path.join(HERE, "program.c"), "-o", program, args.runtime,
          "-lpthread"], "the record build")
    # classify: x & 3 = 0, 1, 2, 3 (all 4 paths); sign: both; wide: 5 paths.
    must([program, "0", "1", "2", "3", "-3"], "the test run",
         env=dict(os.environ, PATHCOV_TEST="t",
                  PATHCOV_PROFILE_DIR=os.path.join(work, "profiles")))
    full_file = os.path.join(work, "full.json")
    must([args.pathcov, "collect", "--binary", program, "-o", full_file,
          os.path.join(work, "profiles")], "pathcov collect")
    with open(full_file, encoding="utf-8") as f:
        full = json.load(f)

    def write(name, corpus):
        with open(os.path.join(work, name), "w", encoding="utf-8") as f:
            json.dump(corpus, f, indent=1)

    classify = function(full, "classify")
    if len(classify["paths"]) != 4 or function(full, "unused")["paths"]:
        sys.exit("FAIL: classify should have 4 tested paths, unused none")
    regressed = copy.deepcopy(full)
    function(regressed, "classify")["paths"].pop()
    write("regressed.json", regressed)

    # main built a second way (-DVARIANT: another CFG) in the same corpus:
    # a test job compiling the unit otherwise.
    variant = os.path.join(work, "program-variant")
    must(["gcc", "-O0", "-g", "-DVARIANT", f"-fplugin={args.plugin}",
          os.path.join(HERE, "program.c"), "-o", variant, args.runtime,
          "-lpthread"], "the variant's record build")
    must([variant, "5"], "the variant's test run",
         env=dict(os.environ, PATHCOV_TEST="v",
                  PATHCOV_PROFILE_DIR=os.path.join(work, "profiles-variant")))
    must([args.pathcov, "collect", "-o", os.path.join(work, "variants.json"),
          os.path.join(work, "profiles"),
          os.path.join(work, "profiles-variant")], "pathcov collect (variants)")

    # The sources moved away: their recorded root is gone.
    moved = copy.deepcopy(full)
    for f in moved["functions"]:
        f["source_root"] = "/nonexistent/checkout"
    write("moved.json", moved)
    # ... or were recorded by absolute path (outside any checkout), and are
    # not there: --source-root cannot help.
    gone = copy.deepcopy(full)
    for f in gone["functions"]:
        f["file"] = "/nonexistent/checkout/" + f["file"]
        for block in f["blocks"]:
            if "file" in block:
                block["file"] = "/nonexistent/checkout/" + block["file"]
    write("gone.json", gone)

    no_unused = copy.deepcopy(full)
    no_unused["functions"].remove(function(no_unused, "unused"))
    write("no-unused.json", no_unused)

    def with_field(paths):
        """full.json with {function name: [ids]} observed in the field by
        one report, as pathcov merge writes them (corpus format 1.1)."""
        corpus = copy.deepcopy(full)
        corpus["format_version"] = "2.0"
        build_id = corpus["modules"][0].get("build_id") or "-"
        report = f"{build_id}:1:100:200"
        corpus["reports"] = [{
            "id": report, "module": corpus["modules"][0]["path"],
            "build_id": corpus["modules"][0].get("build_id", ""), "pid": 1,
            "started_ns": 100, "written_ns": 200, "reason": "exit",
            "dropped_paths": 0}]
        for name, ids in paths.items():
            function(corpus, name)["field_paths"] = [{
                "id": i, "count": 1, "reports": 1, "build_ids": [build_id],
                "first_seen_ns": 100, "last_seen_ns": 100,
                "seen": [{"report": report, "count": 1,
                          "first_seen_ns": 100}]} for i in ids]
        return corpus

    write("field.json", with_field({"unused": [0, 1], "classify": [0]}))
    write("field-base.json", with_field({"unused": [0]}))
    write("bad-field.json", with_field({"unused": [7]}))
    # Loops recorded with k=2: their 2-windows are the transitions.
    def record_k2(name, *defines):
        """loops.c built with k=2 and `defines`, run on 1 3, collected with
        every function of the binary into NAME.json; returns the corpus."""
        binary = os.path.join(work, name)
        must(["gcc", "-O0", "-g", *defines, f"-fplugin={args.plugin}",
              "-fplugin-arg-pathcov-k=2", os.path.join(HERE, "loops.c"), "-o",
              binary, args.runtime, "-lpthread"], f"the k=2 record build ({name})")
        profiles = os.path.join(work, f"profiles-{name}")
        must([binary, "1", "3"], f"the k=2 test run ({name})",
             env=dict(os.environ, PATHCOV_TEST="k", PATHCOV_PROFILE_DIR=profiles))
        corpus = os.path.join(work, f"{name}.json")
        must([args.pathcov, "collect", "--binary", binary, "-o", corpus, profiles],
             f"pathcov collect ({name})")
        with open(corpus, encoding="utf-8") as f:
            return json.load(f)

    kpaths = record_k2("kpaths")
    windows = {name: len(function(kpaths, name).get("k_paths", []))
               for name in ("sum_odd", "main")}
    if windows != {"sum_odd": 4, "main": 2}:
        sys.exit(f"FAIL: kpaths.json has {windows} windows, want sum_odd 4, "
                 "main 2")
    # Two source files in one corpus, for --include-file and --exclude-file.
    must([args.pathcov, "collect", "--binary", program, "-o",
          os.path.join(work, "two-files.json"), os.path.join(work, "profiles"),
          os.path.join(work, "profiles-kpaths")], "pathcov collect (two files)")
    # The same with a function no test runs (-DUNRUN): built with k=2, its
    # loop counts with none of its transitions tested.
    record_k2("kpaths-unrun", "-DUNRUN")
    # A config file naming its baseline relative to itself.
    with open(os.path.join(work, "baseline.cfg"), "w", encoding="utf-8") as f:
        f.write("baseline = no-unused.json\nno-new-untested = yes\n")
    print(f"ok: corpora in {work}")


if __name__ == "__main__":
    main()
