#!/usr/bin/env python3
"""A return's path end on the routes into it (plugin/Instrumenter.cc,
pathEndsOnEntries), and its limit: pick's ten routes join at one return.

- Record mode: each route counts its own path, a constant counter (ten
  `addq $1, K+__pathcov_counters...(%rip)` in pick, none indexed by the
  path register): a count is one instruction, so record mode puts it on
  every route in, however many.
- Residual mode: more than kMaxCheckedEntries (8) routes keep the path
  end in the return block: one bytemap check, one miss (a check on every
  route grew pcre2's match()). The residual build then reports exactly
  the untested route run in the field, and nothing on the tests' input.

usage: check_return_routes.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import FAILURES, check, finish, fresh_directory, must, recorded_corpus  # noqa: E402

SOURCE = os.path.join(HERE, "returns.c")


def function_asm(asm_file, name):
    """The instructions of `name` in an assembler listing."""
    with open(asm_file) as f:
        text = f.read()
    body = re.search(rf"^{name}:\n(.*?)^\s*\.size\s+{name},", text, re.M | re.S)
    return body.group(1) if body else ""


def main():
    plugin, runtime, pathcov, work = sys.argv[1:5]
    fresh_directory(work)
    flags = ["gcc", "-O2", f"-fplugin={plugin}"]

    record_asm = os.path.join(work, "record.s")
    must([*flags, "-S", SOURCE, "-o", record_asm], "record build")
    pick = function_asm(record_asm, "pick")
    constant = re.findall(r"addq \$1, \d*\+?__pathcov_counters\.\d+\(%rip\)", pick)
    indexed = re.findall(r"addq \$1, [^\n]*__pathcov_counters[^\n]*,8\)|"
                         r"addq \$1, \(%\w+,%\w+,8\)", pick)
    check(len(constant) == 10, "record: a constant count on each of pick's "
          "10 routes", f"{len(constant)}:\n{pick}")
    check(not indexed, "record: no count indexed by the path register",
          "\n".join(indexed))

    # The tests run routes 0, 1 and 2.
    corpus = recorded_corpus(plugin, runtime, pathcov, [SOURCE], work,
                             os.path.join(work, "corpus.json"),
                             args=["0", "1", "2"])
    residual_flags = [*flags, "-fplugin-arg-pathcov-mode=residual",
                      f"-fplugin-arg-pathcov-corpus={corpus}"]
    residual_asm = os.path.join(work, "residual.s")
    must([*residual_flags, "-S", SOURCE, "-o", residual_asm], "residual build")
    pick = function_asm(residual_asm, "pick")
    misses = re.findall(r"call\s+__pathcov_site_\w+", pick)
    checks = re.findall(r"cmpb\s+\$0, [^\n]*", pick)
    check(len(misses) == 1 and len(checks) == 1,
          "residual: pick's path end stays in its return block (one check, "
          "one miss)", f"{len(checks)} checks, {len(misses)} misses:\n{pick}")

    # The id of route 7's path, from the record build (recorded_corpus's).
    profiles = fresh_directory(os.path.join(work, "profiles-7"))
    must([os.path.join(work, "program"), "7"], "record run 7",
         env={**os.environ, "PATHCOV_PROFILE_DIR": profiles})
    executed = os.path.join(work, "executed-7.json")
    must([pathcov, "collect", "-o", executed, profiles], "collect run 7")
    with open(executed) as f:
        route7 = [p["id"] for fn in json.load(f)["functions"]
                  if fn["name"] == "pick" for p in fn["paths"]]

    program = os.path.join(work, "residual")
    must([*residual_flags, SOURCE, "-o", program, runtime, "-lpthread"],
         "residual link")
    for args, expected in [(["0", "1", "2", "1"], None), (["1", "7", "7"], 1)]:
        reports = fresh_directory(os.path.join(work, "reports-" + "-".join(args)))
        must([program, *args], f"run {args}",
             env={**os.environ, "PATHCOV_REPORT_DIR": reports})
        found = glob.glob(os.path.join(reports, "*.json"))
        if expected is None:
            check(not found, f"run {args}: no report", str(found))
            continue
        paths = []
        for name in found:
            with open(name) as f:
                report = json.load(f)
            paths += [(p["identity"].rsplit(":", 1)[-1], p["id"], p["count"])
                      for p in report["residual_paths"]]
        check(len(route7) == 1 and paths == [("pick", route7[0], 2)],
              f"run {args}: route 7's path (record id {route7}), twice",
              str(paths))
    return finish(FAILURES, "a return's routes: record counts on each, "
                  "residual keeps one check past 8")


if __name__ == "__main__":
    sys.exit(main())
