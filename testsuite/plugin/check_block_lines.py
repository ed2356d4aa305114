#!/usr/bin/env python3
"""A block's source lines are the lines its own statements came from
(plugin/GimpleCfg.cc, sourceOf): classify's three returns join at one
return block, where GCC ends the loop body's local `end` (a clobber) with
the location of the first return it lowered. Those lines are what
`pathcov show` and `decode` print for each path: no path to another return
may end on that return's line (expat's doContent ended every path to a
return at one `return XML_ERROR_...;`). A clobber on a route of its own
keeps its line: the `continue`'s.

usage: check_block_lines.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import FAILURES, check, finish, fresh_directory, recorded_corpus  # noqa: E402

SOURCE = os.path.join(HERE, "block_lines.c")


def line_of(text):
    with open(SOURCE) as f:
        return next(n for n, line in enumerate(f, 1) if text in line)


def main():
    plugin, runtime, pathcov, work = sys.argv[1:5]
    fresh_directory(work)
    corpus = recorded_corpus(plugin, runtime, pathcov, [SOURCE], work,
                             os.path.join(work, "corpus.json"),
                             ["5", "x", "200", "1,7"])
    with open(corpus) as f:
        [classify] = [fn for fn in json.load(f)["functions"]
                      if fn["name"] == "classify"]
    lines = [block["lines"] for block in classify["blocks"]]
    entries = [0] * len(lines)
    for src, dst, *_ in classify["edges"]:
        entries[dst] += 1
    returns = {line_of(mark) for mark in
               ("return -1;", "return 2;", "return v > 0;")}
    for ret in sorted(returns):
        holders = [b for b, ls in enumerate(lines) if ret in ls]
        check(len(holders) == 1, f"line {ret} (a return) in one block only",
              json.dumps(lines))
        check(all(entries[b] == 1 for b in holders),
              f"line {ret} in a block of its own route, not a join",
              json.dumps(lines))
    check(any(line_of("continue;") in ls for ls in lines),
          "the continue's line (its route's own clobber) is kept",
          json.dumps(lines))
    finish(FAILURES, "ok: block lines")


if __name__ == "__main__":
    main()
