#!/usr/bin/env python3
"""A block's source lines are the lines its own statements came from
(plugin/GimpleCfg.cc, sourceOf): classify's three returns join at one
return block, where GCC ends the loop body's local `end` (a clobber) with
the location of the first return it lowered. Those lines are what
`pathcov show` and `decode` print for each path: no path to another return
may end on that return's line (expat's doContent ended every path to a
return at one `return XML_ERROR_...;`). A clobber on a route of its own
keeps its line: the `continue`'s.

A function a macro defines (node_depth, GENERATE_DEPTH in block_lines.h,
as BSD's tree.h's RB_GENERATE) has its blocks on the macro definition's
lines, in the header, a use of another macro on the line that uses it;
not every block on the line that expands it. A function a macro only
names (bounded) keeps its own lines, a macro its body uses included.

usage: check_block_lines.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import FAILURES, check, finish, fresh_directory, recorded_corpus  # noqa: E402

SOURCE = os.path.join(HERE, "block_lines.c")
HEADER = os.path.join(HERE, "block_lines.h")


def line_of(text, source=SOURCE):
    with open(source) as f:
        return next(n for n, line in enumerate(f, 1) if text in line)


def check_macro_functions(functions):
    depth = functions["node_depth"]
    placed = [(b.get("file", ""), line) for b in depth["blocks"]
              for line in b["lines"]]
    check(placed and all(f.endswith("block_lines.h") for f, _ in placed),
          "node_depth: every line in the macro's header", json.dumps(placed))
    want = {line_of(text, HEADER) for text in
            ("int depth = 0;", "while (PARENT_OF(n))", "n = PARENT_OF(n);",
             "++depth;", "if (depth > 3)", "return -1;", "return depth;")}
    check({line for _, line in placed} == want,
          f"node_depth: the definition's lines {sorted(want)}", json.dumps(placed))
    bounded = functions["bounded"]
    lines = {line for b in bounded["blocks"] for line in b["lines"]}
    check(all("file" not in b for b in bounded["blocks"]) and
          {line_of("bounded: at least"), line_of("bounded: big")} <= lines and
          line_of("#define AT_LEAST") not in lines,
          "bounded: its own lines, the macro's use on the line that uses it",
          json.dumps(bounded["blocks"]))


def main():
    plugin, runtime, pathcov, work = sys.argv[1:5]
    fresh_directory(work)
    corpus = recorded_corpus(plugin, runtime, pathcov, [SOURCE], work,
                             os.path.join(work, "corpus.json"),
                             ["5", "x", "200", "1,7"])
    with open(corpus) as f:
        functions = {fn["name"]: fn for fn in json.load(f)["functions"]}
    classify = functions["classify"]
    check_macro_functions(functions)
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
