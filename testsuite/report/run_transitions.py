#!/usr/bin/env python3
"""`pathcov report --format html`: each loop's 2-iteration transitions.

Builds transitions.c with the plugin at k=2 (-fplugin-arg-pathcov-k=2,
-O0), runs it (test name "grid<&>", to see it escaped), collects the
corpus, writes the HTML report and checks, against the counts by hand in
transitions.c:
  - the file page's loop section of grid: "Loop transitions (2 loops,
    k=2)", the loop at line 17 with 2/12 transitions tested, then the one
    at line 18 with 5/18;
  - each loop's table: one row per tested transition, each a 2-window of
    the corpus's k_paths, every 2-window in exactly one table, most runs
    first (the outer loop's (inner-leave, outer-leave) ran twice), the
    test name escaped, every path linking to its entry in the tested paths;
  - main, which has no loop, has no loop section;
  - index.html: 7/30 loop transitions tested;
  - every page parses (run_html.check_html);
  - a corpus recorded without k (loops-corpus.json) has no loop section.
Exits 0 on success; prints what differs otherwise.
"""
import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from run_html import check_html  # noqa: E402
from run_report import parse_arguments  # noqa: E402
from testlib import FAILURES, check, finish, must  # noqa: E402


def loop_sections(page, anchor):
    """{header line: (tested/all text, [rows as (first id, second id,
    runs, tests)])} of function `anchor`'s loop sections."""
    loops = {}
    for m in re.finditer(
            rf'<div class="loop" id="{anchor}-loop(\d+)">\n<h4>Loop at line '
            rf'(\d+) .*?id="{anchor}-loop\1-tested">([^<]*)</span>(.*?)</div>',
            page, re.S):
        rows = [(int(a), int(b), int(runs), tests) for a, b, runs, tests in
                re.findall(rf'<tr><td><a href="#{anchor}-p(\d+)">.*?</td>'
                           rf'<td><a href="#{anchor}-p(\d+)">.*?</td>'
                           r'<td class="num">(\d+)</td><td>([^<]*)</td></tr>',
                           m.group(4))]
        loops[int(m.group(2))] = (m.group(3), rows)
    return loops


def main():
    args = parse_arguments(__doc__)
    work = os.path.abspath(args.workdir)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    program = os.path.join(work, "transitions")
    must([args.compiler, "-O0", "-g", f"-fplugin={args.plugin}",
          "-fplugin-arg-pathcov-k=2", os.path.abspath(args.source), "-o",
          program, args.runtime, "-lpthread"], "the k=2 build")
    profiles = os.path.join(work, "profiles")
    must([program], "the run", env=dict(os.environ, PATHCOV_TEST="grid<&>",
                                         PATHCOV_PROFILE_DIR=profiles))
    corpus = os.path.join(work, "corpus.json")
    must([args.pathcov, "collect", "-o", corpus, profiles], "pathcov collect")
    with open(corpus, encoding="utf-8") as f:
        functions = {fn["name"]: fn for fn in json.load(f)["functions"]}
    grid = functions["grid"]
    check(grid.get("k") == 2, f"grid's k is {grid.get('k')}, not 2")
    windows = {tuple(w["ids"]): w["count"] for w in grid.get("k_paths", [])}
    check(len(windows) == 7, f"grid has {len(windows)} windows, not 7")

    out = os.path.join(work, "html")
    must([args.pathcov, "report", "--format", "html", corpus, "-o", out],
         "pathcov report --format html")
    pages = sorted(os.listdir(out))
    for page in pages:
        check_html(os.path.join(out, page))
    index = open(os.path.join(out, "index.html"), encoding="utf-8").read()
    check('id="transitions">7/30<' in index,
          "index: no 7/30 loop transitions tested")
    link = re.search(r'<a href="([^"#]+\.html)#(f\d+)">grid</a>', index)
    check(link, "index: no link to grid")
    if not link:
        return finish(FAILURES, "")
    page = open(os.path.join(out, link.group(1)), encoding="utf-8").read()
    anchor = link.group(2)
    section = page.split(f'<div class="fn" id="{anchor}">', 1)[-1]
    check("<h3>Loop transitions (2 loops, k=2)</h3>" in section,
          "grid: no loop section heading")
    loops = loop_sections(page, anchor)
    check(list(loops) == [17, 18], f"grid's loops at lines {list(loops)}, "
          "want 17 then 18 (source order)")
    if sorted(loops) != [17, 18]:
        return finish(FAILURES, "")
    check(loops[17][0] == "2/12", f"outer loop: {loops[17][0]}, want 2/12")
    check(loops[18][0] == "5/18", f"inner loop: {loops[18][0]}, want 5/18")
    check(len(loops[17][1]) == 2 and len(loops[18][1]) == 5,
          f"rows: outer {len(loops[17][1])}, inner {len(loops[18][1])}")
    listed = [(a, b) for line in loops for a, b, _, _ in loops[line][1]]
    check(sorted(listed) == sorted(windows),
          f"transitions listed {sorted(listed)}, 2-windows {sorted(windows)}")
    for line, (_, rows) in loops.items():
        for a, b, runs, tests in rows:
            check(windows.get((a, b)) == runs,
                  f"loop at {line}: ({a}, {b}) {runs} runs, corpus "
                  f"{windows.get((a, b))}")
            check(tests == "grid&lt;&amp;&gt;", f"tests not escaped: {tests}")
        counts = [runs for _, _, runs, _ in rows]
        check(counts == sorted(counts, reverse=True),
              f"loop at {line}: not most runs first: {counts}")
    check(loops[17][1][0][2] == 2, "outer loop: its twice-run transition "
          "is not first")
    tables = "".join(re.findall(r'<table class="transitions">.*?</table>',
                                section.split('<div class="fn"', 1)[0], re.S))
    check(tables, "grid: no transitions table")
    tested_lists = "".join(re.findall(r'<ul class="paths tested">.*?</ul>',
                                      page, re.S))
    for target in re.findall(rf'href="#({anchor}-p\d+)"', tables):
        check(f'<li id="{target}" ' in tested_lists,
              f"link to #{target}: no tested path there")
    main_link = re.search(r'#(f\d+)">main</a>', index)
    if main_link:
        main_section = page.split(f'<div class="fn" id="{main_link.group(1)}">',
                                  1)[-1].split('<div class="fn"', 1)[0]
        check("Loop transitions" not in main_section,
              "main has no loop but a loop section")

    # Without k: no loop section, no index row.
    plain = os.path.join(work, "html-plain")
    must([args.pathcov, "report", "--format", "html",
          os.path.join(HERE, "loops-corpus.json"), "-o", plain],
         "pathcov report --format html (k 1)")
    for name in os.listdir(plain):
        text = open(os.path.join(plain, name), encoding="utf-8").read()
        check("Loop transitions" not in text and 'id="transitions"' not in text,
              f"{name}: loop transitions without k-paths")
    return finish(FAILURES, "ok: loop transitions in the HTML report")


if __name__ == "__main__":
    sys.exit(main())
