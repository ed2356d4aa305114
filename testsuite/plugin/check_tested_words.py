#!/usr/bin/env python3
"""A bytemap function's path ends with ids the optimizers could not fold
count in the path's seen word straight away, tested paths included
(plugin/TestedWords.h, abi.h PATHCOV_FN_TESTED_WORDS), on latches.c:

- after the pass, three's loop (three routes to its latch, so the back
  edge's id is not a constant) reads its bytemap nowhere, and keeps every
  miss it had;
- nested's inner loop, which the tests never iterate: before the pass,
  GCC's PRE merges the byte its first iteration loads with its back
  edge's known 0 (a PHI); after it, that merged check reads no bytemap
  either;
- failures.c: a check whose byte the optimizers also used for the return
  value stays a check of that byte, so that the release build returns what
  the plain build returns, on the tests' input (the buffer refusing to
  grow: every route fails) and on others;
- with atomic=1 the check stays (the word's subtraction would be locked);
- with -flto the pass runs in the link's compiler (lto1), the bytemap
  marked in the units it reads;
- the field run takes tested paths dozens of times each, and untested
  ones a few times: it reports exactly the untested ones, with their
  counts (the runtime sets a tested path's word out of reach the first
  time it goes negative, and never records it).

usage: check_tested_words.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import residual_oracle  # noqa: E402
from testlib import (FAILURES, check, finish, fresh_directory, must,  # noqa: E402
                     recorded_corpus, residual_field_run)

SOURCE = os.path.join(HERE, "latches.c")
FAILURES_SOURCE = os.path.join(HERE, "failures.c")
FAILURES_RUNS = [["1", "x", "k;", "a=b"], ["0", "x", "k;", "a=b", "##", "k;a=1"]]
TESTS = ["1", "-1"]
FIELD = ["3"] + ["1"] * 29 + ["-1"] * 25 + ["0", "1", "0", "0", "-1"]


def function_dumps(flags, work, suffixes):
    """{suffix: {function: its GIMPLE}} from the dumps `suffixes` of one
    build of latches.c (all dumps: a plugin's pass has no option of its
    own, as options are read before plugins load)."""
    must(["gcc", "-O2", *flags, "-fdump-tree-all", "-c", SOURCE,
          "-o", os.path.join(work, "latches.o")], "build", cwd=work)
    return {suffix: functions_in(os.path.join(work, f"*.{suffix}"))
            for suffix in suffixes}


def functions_in(pattern):
    """{function: its GIMPLE} in the one dump file matching `pattern`."""
    [dump] = glob.glob(pattern)
    with open(dump) as f:
        parts = re.split(r"^;; Function ", f.read(), flags=re.M)[1:]
    return {part.split()[0]: part for part in parts}


def check_same_results(plugin, runtime, pathcov, work):
    """failures.c: the release build's output is the plain build's."""
    corpus = recorded_corpus(plugin, runtime, pathcov, [FAILURES_SOURCE],
                             fresh_directory(os.path.join(work, "failures-tests")),
                             os.path.join(work, "failures-corpus.json"),
                             args=["1", "x"])
    where = fresh_directory(os.path.join(work, "failures"))
    outputs = {}
    for build, flags in (("plain", []),
                         ("residual", [f"-fplugin={plugin}",
                                       "-fplugin-arg-pathcov-mode=residual",
                                       f"-fplugin-arg-pathcov-corpus={corpus}"])):
        program = os.path.join(where, build)
        must(["gcc", "-O2", *flags, FAILURES_SOURCE, "-o", program, runtime,
              "-lpthread"], f"failures.c: {build} build")
        outputs[build] = [must([program, *args], f"failures.c: {build} run",
                               env={**os.environ, "PATHCOV_REPORT_DIR": where}).stdout
                          for args in FAILURES_RUNS]
    check(outputs["residual"] == outputs["plain"],
          "failures.c: the release build returns what the plain build returns",
          f"plain {outputs['plain']}, residual {outputs['residual']}")


def main():
    plugin, runtime, pathcov, work = sys.argv[1:5]
    fresh_directory(work)
    corpus = recorded_corpus(plugin, runtime, pathcov, [SOURCE],
                             fresh_directory(os.path.join(work, "tests")),
                             os.path.join(work, "corpus.json"), args=TESTS)
    executed = recorded_corpus(plugin, runtime, pathcov, [SOURCE],
                               fresh_directory(os.path.join(work, "field")),
                               os.path.join(work, "executed.json"), args=FIELD)
    flags = [f"-fplugin={plugin}", "-fplugin-arg-pathcov-mode=residual",
             f"-fplugin-arg-pathcov-corpus={corpus}"]

    dumps = function_dumps(flags, fresh_directory(os.path.join(work, "dumps")),
                           ["optimized", "pathcov_tested_words"])
    before, after = dumps["optimized"], dumps["pathcov_tested_words"]
    words = "__pathcov_site_residual_word"
    check("__pathcov_tested" in before.get("three", ""),
          "three: a bytemap check the optimizers left", before.get("three", ""))
    check("__pathcov_tested" not in after.get("three", "__pathcov_tested"),
          "three: no bytemap read after the pass", after.get("three", ""))
    check(before.get("three", "").count(words) >= 1 and
          after.get("three", "").count(words) == before["three"].count(words),
          "three: every miss kept", after.get("three", ""))

    nested_before = before.get("nested", "")
    loads = re.findall(r"(\w+) = __pathcov_tested[.\d]*\[", nested_before)
    check(any(re.search(rf"= PHI <.*\b0\(\d+\).*>", line) and
              any(re.search(rf"\b{load}\(", line) for load in loads)
              for line in nested_before.splitlines()),
          "nested: a byte merged with the back edge's 0 before the pass",
          nested_before)
    check("__pathcov_tested" not in after.get("nested", "__pathcov_tested"),
          "nested: no bytemap read after the pass", after.get("nested", ""))
    check(nested_before.count(words) >= 1 and
          after.get("nested", "").count(words) == nested_before.count(words),
          "nested: every miss kept", after.get("nested", ""))

    check_same_results(plugin, runtime, pathcov, work)

    atomic = function_dumps([*flags, "-fplugin-arg-pathcov-atomic=1"],
                            fresh_directory(os.path.join(work, "atomic")),
                            ["pathcov_tested_words"])["pathcov_tested_words"]
    check("__pathcov_tested" in atomic.get("three", ""),
          "atomic=1: three keeps its bytemap check", atomic.get("three", ""))

    for how, extra in (("", []), ("-flto: ", ["-flto", "-fdump-tree-all"])):
        where = fresh_directory(os.path.join(work, "lto" if extra else "plain"))
        reports = residual_field_run([*flags, *extra], [SOURCE], runtime, where, FIELD)
        if extra:
            linked = functions_in(os.path.join(where, "*.ltrans*.pathcov_tested_words"))
            check("__pathcov_tested" not in linked.get("three", "__pathcov_tested"),
                  "-flto: three reads no bytemap", linked.get("three", ""))
        expected, wrong = residual_oracle.check_reports(executed, corpus, reports)
        check(expected and not wrong, f"{how}the field run's untested paths, "
              "exactly, with their counts", str(wrong))
    return finish(FAILURES, "ok: unfolded bytemap checks count in the seen "
                  "words, tested paths never reported")


if __name__ == "__main__":
    sys.exit(main())
