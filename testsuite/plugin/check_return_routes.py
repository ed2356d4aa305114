#!/usr/bin/env python3
"""A return's path end on the routes into it (plugin/Instrumenter.cc,
pathEndsOnEntries), and its limit: pick's ten routes join at one return.

- Record mode: each route counts its own path, a constant counter (ten
  `addq $1, K+__pathcov_counters...(%rip)` in pick, none indexed by the
  path register): a count is one instruction, so record mode puts it on
  every route in, however many.
- Residual mode: only the routes some untested path takes need a check.
  With the tests running route 0 alone (twice: main's loop iterates), the
  nine others would: more than kMaxCheckedEntries (8), so the path end
  stays in the return block, one check (its id not a constant: the seen
  word indexed by the path register, plugin/TestedWords.h), one miss (a
  check on every route grew pcre2's match()).
  With the tests running routes 0, 1 and 2, seven would: the path end goes
  on the routes, the tested ones with nothing at all, each untested one a
  miss (its id a constant, its check folded). Either build then reports
  exactly the untested route run in the field, and nothing on the tests'
  input.
- Residual mode, a function the tests never ran (sign): every path end
  misses, nothing folds on the routes in, so the path end stays in the
  return block, one miss, not one per route; the field run reports the
  route it took.

usage: check_return_routes.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import residual_oracle  # noqa: E402
from testlib import FAILURES, check, finish, fresh_directory, must, recorded_corpus  # noqa: E402

SOURCE = os.path.join(HERE, "returns.c")


def function_asm(asm_file, name):
    """The instructions of `name` in an assembler listing."""
    with open(asm_file) as f:
        text = f.read()
    body = re.search(rf"^{name}:\n(.*?)^\s*\.size\s+{name},", text, re.M | re.S)
    return body.group(1) if body else ""


def untested_function(program, sign, where, plugin, runtime, pathcov, work):
    misses = re.findall(r"call\s+__pathcov_site_\w+", sign)
    check(len(misses) == 1, "residual: sign, which no test ran, has one miss, "
          "in its return block", f"{len(misses)} misses:\n{sign}")
    executed = os.path.join(work, "executed-sign.json")
    recorded_corpus(plugin, runtime, pathcov, [SOURCE],
                    fresh_directory(os.path.join(work, "profiles-sign")),
                    executed, args=["s", "-4"])
    with open(executed) as f:
        route = [p["id"] for fn in json.load(f)["functions"]
                 if fn["name"] == "sign" for p in fn["paths"]]
    reports = fresh_directory(os.path.join(where, "reports-sign"))
    must([program, "s", "-4"], "run s -4",
         env={**os.environ, "PATHCOV_REPORT_DIR": reports})
    paths = [(p["identity"].rsplit(":", 1)[-1], p["id"], p["count"])
             for report in residual_oracle.reports_in(reports)
             for p in report["residual_paths"] if "sign" in p["identity"]]
    check(len(route) == 1 and paths == [("sign", route[0], 1)],
          f"run s -4: sign's negative route (record id {route}), once", str(paths))


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

    # The id of route 7's path, from a record build.
    profiles = fresh_directory(os.path.join(work, "profiles-7"))
    recorded_corpus(plugin, runtime, pathcov, [SOURCE], profiles,
                    os.path.join(work, "executed-7.json"), args=["7"])
    with open(os.path.join(work, "executed-7.json")) as f:
        route7 = [p["id"] for fn in json.load(f)["functions"]
                  if fn["name"] == "pick" for p in fn["paths"]]

    for tested, (checks_expected, misses_expected) in [
            (["0", "0"], (1, 1)), (["0", "1", "2"], (0, 7))]:
        name = "tested-" + "-".join(tested)
        where = fresh_directory(os.path.join(work, name))
        corpus = recorded_corpus(plugin, runtime, pathcov, [SOURCE], where,
                                 os.path.join(where, "corpus.json"), args=tested)
        residual_flags = [*flags, "-fplugin-arg-pathcov-mode=residual",
                          f"-fplugin-arg-pathcov-corpus={corpus}"]
        residual_asm = os.path.join(where, "residual.s")
        must([*residual_flags, "-S", SOURCE, "-o", residual_asm], "residual build")
        pick = function_asm(residual_asm, "pick")
        misses = re.findall(r"call\s+__pathcov_site_\w+", pick)
        # A check of an id the compiler does not know: a bytemap's, or a
        # seen word's indexed by the path register.
        checks = re.findall(r"cmpb\s+\$0, [^\n]*|subq\s+\$1, [^\n]*,8\)", pick)
        check(len(checks) == checks_expected and len(misses) == misses_expected,
              f"residual, tests {tested}: pick has {checks_expected} checks, "
              f"{misses_expected} misses",
              f"{len(checks)} checks, {len(misses)} misses:\n{pick}")

        program = os.path.join(where, "residual")
        must([*residual_flags, SOURCE, "-o", program, runtime, "-lpthread"],
             "residual link")
        for args, expected in [([*tested, "0"], None), (["0", "7", "7"], 1)]:
            reports = fresh_directory(os.path.join(where, "reports-" + "-".join(args)))
            must([program, *args], f"run {args}",
                 env={**os.environ, "PATHCOV_REPORT_DIR": reports})
            found = residual_oracle.reports_in(reports)
            if expected is None:
                check(not found, f"{name}, run {args}: no report", str(found))
                continue
            paths = [(p["identity"].rsplit(":", 1)[-1], p["id"], p["count"])
                     for report in found for p in report["residual_paths"]]
            check(len(route7) == 1 and paths == [("pick", route7[0], 2)],
                  f"{name}, run {args}: route 7's path (record id {route7}), twice",
                  str(paths))
        if tested == ["0", "0"]:
            untested_function(program, function_asm(residual_asm, "sign"), where,
                              plugin, runtime, pathcov, work)
    return finish(FAILURES, "a return's routes: record counts on each, "
                  "residual checks the untested ones, one check past 8")


if __name__ == "__main__":
    sys.exit(main())
