#!/usr/bin/env python3
"""Every output of `pathcov report` says the same about what a corpus's
tested paths cover: they all read one computation (coverage/Projections.cc,
docs/report.md "Edges that leave the DAG").

Writes CORPUS (in CMake, loops-corpus.json: a loop whose back edge is a
branch, a cut block whose two branches leave the DAG, a function never
called) in every format, reads each back and checks, per file and line:
  - lines: LCOV's DA, gcovr's counts, Cobertura's hits and the HTML page's
    runs are the same lines with the same counts; SonarQube's covered lines,
    the HTML page's hit rows and the lines of its tested paths are the lines
    counted above 0; the JSON summary's lines and lines_hit count them;
  - branches: gcovr's counts are LCOV's BRDA; a branch's edge is green in
    the HTML CFG exactly when its BRDA is taken, its block green exactly
    when its BRDA is not "-"; with --branches outcomes, Cobertura's
    condition-coverage and SonarQube's coveredBranches/branchesToCover are
    the line's taken BRDA and all its BRDA;
  - paths: with --branches paths, Cobertura's condition-coverage and
    SonarQube's branchesToCover/coveredBranches are the HTML page's paths
    tested/all on the line; SARIF's untested paths of a function are the
    HTML page's, through the same lines.
Exits 0 on success; prints what differs otherwise.
"""
import argparse
import html
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import FAILURES, check, finish, must  # noqa: E402

DECISIONS = ("true", "false", "switch")


class Report:
    """Runs `pathcov report` on the corpus in the work directory."""

    def __init__(self, pathcov, corpus, work):
        self.pathcov, self.corpus, self.work = pathcov, corpus, work

    def text(self, fmt, *extra):
        return must([self.pathcov, "report", "--format", fmt, self.corpus, *extra],
                    f"pathcov report --format {fmt}", cwd=self.work).stdout

    def html(self):
        out = os.path.join(self.work, "html")
        must([self.pathcov, "report", "--format", "html", self.corpus, "-o", out],
             "pathcov report --format html", cwd=self.work)
        return out


def lcov(text, functions):
    """{file: (lines {line: count}, branches [(line, block, index, taken
    or None for "-")])}, each file by the corpus's name for it (SF names
    the file found under the function's source_root, if any)."""
    corpus_names = {os.path.join(f.get("source_root", ""), name): name
                    for f in functions
                    for name in [f["file"]] + [b["file"] for b in f["blocks"] if "file" in b]}
    files = {}
    for record in text.split("end_of_record\n")[:-1]:
        lines, branches, name = {}, [], None
        for row in record.splitlines():
            key, _, value = row.partition(":")
            if key == "SF":
                name = corpus_names.get(value, value)
            elif key == "DA":
                line, count = value.split(",")
                lines[int(line)] = int(count)
            elif key == "BRDA":
                line, block, index, taken = value.split(",")
                branches.append((int(line), int(block), int(index),
                                 None if taken == "-" else int(taken)))
        files[name] = (lines, branches)
    return files


def gcovr(text):
    """{file: {line: (count, [branch counts])}}"""
    return {f["file"]: {l["line_number"]: (l["count"], [b["count"] for b in l["branches"]])
                        for l in f["lines"]}
            for f in json.loads(text)["files"]}


def cobertura(text):
    """{file: {line: (hits, (covered, total) or None)}}, from each class's
    own lines."""
    files = {}
    for cls in ET.fromstring(text.encode()).iter("class"):
        lines = {}
        for line in cls.find("lines"):
            share = re.fullmatch(r"\d+% \((\d+)/(\d+)\)",
                                 line.get("condition-coverage", ""))
            lines[int(line.get("number"))] = (
                int(line.get("hits")),
                (int(share.group(1)), int(share.group(2))) if share else None)
        files[cls.get("filename")] = lines
    return files


def sonarqube(text):
    """{file: {line: (covered, (coveredBranches, branchesToCover) or None)}}"""
    return {f.get("path"): {
        int(l.get("lineNumber")): (
            l.get("covered") == "true",
            (int(l.get("coveredBranches")), int(l.get("branchesToCover")))
            if "branchesToCover" in l.attrib else None)
        for l in f}
        for f in ET.fromstring(text.encode()).iter("file")}


ROW = re.compile(r'<tr id="L(\d+)"(?: class="(hit|miss)")?><td>\d+</td>'
                 r'<td>(\d*)</td><td>(?:(\d+)/(\d+))?</td>')
SECTION = re.compile(r'<div class="fn" id="(f\d+)">\n<h2>(.*?) <span class="note">line (\d+)</span>')
PATH_LIST = re.compile(r'<ul class="paths (tested|untested|field)">(.*?)</ul>', re.S)
PATH = re.compile(r'<li id="(f\d+)-p(\d+)"(?: class="(\w+)")? data-blocks="([\d ]*)"')
SVG = re.compile(r'<svg class="cfg".*?</svg>', re.S)
EDGE = re.compile(r'<path class="edge (tested|untested)(?: leaves)?" d="[^"]*">'
                  r'<title>B(\d+) -&gt; B(\d+) \((\w+), \w+\)')
BLOCK = re.compile(r'<g id="(f\d+)-b(\d+)" class="block (end|ran|unrun)"'
                   r'(?: data-lines="([\d ]*)")?>')


def html_page(text):
    """One file's page: rows {line: (class, runs or None, (tested, all) or
    None)}, functions {(name, line): anchor}, paths [(anchor, id, kind,
    {lines})] (a path's lines: its blocks' data-lines, as the page's script
    highlights them), edges {(anchor, src, dst, kind): tested}, blocks
    {(anchor, block): tested}."""
    block_lines = {(m[0], m[1]): {int(l) for l in m[3].split()}
                   for m in BLOCK.findall(text)}
    edges = {}
    for svg in SVG.findall(text):
        anchor = re.search(r'<g id="(f\d+)-b', svg)
        for m in EDGE.findall(svg):
            edges[(anchor[1], int(m[1]), int(m[2]), m[3])] = m[0] == "tested"
    return {
        "rows": {int(m[0]): (m[1], int(m[2]) if m[2] else None,
                             (int(m[3]), int(m[4])) if m[3] else None)
                 for m in ROW.findall(text)},
        "functions": {(html.unescape(m[1]), int(m[2])): m[0]
                      for m in SECTION.findall(text)},
        "paths": [(m[0], int(m[1]), m[2] or kind,
                   set().union(*[block_lines.get((m[0], b), set())
                                 for b in m[3].split()]))
                  for kind, items in PATH_LIST.findall(text)
                  for m in PATH.findall(items)],
        "edges": edges,
        "blocks": {(m[0], int(m[1])): m[2] == "ran" for m in BLOCK.findall(text)},
    }


def html_pages(out):
    """{file: html_page} from index.html's table of files."""
    index = open(os.path.join(out, "index.html"), encoding="utf-8").read()
    files_table = index.split('<table id="files">', 1)[1].split("</table>", 1)[0]
    return {html.unescape(name): html_page(
                open(os.path.join(out, html.unescape(page)), encoding="utf-8").read())
            for page, name in re.findall(r'<tr><td><a href="([^"]+)">([^<]*)</a>',
                                         files_table)}


def decision_edges(function, block):
    """The decision out-edges of `block`, in order: LCOV's branch indices."""
    return [e for e in function["edges"] if e[0] == block and e[2] in DECISIONS]


def block_file(function, block):
    return function["blocks"][block].get("file") or function["file"]


def check_lines(name, da, gcovr_file, cobertura_file, sonar_file, rows, tested_lines):
    check(sorted(da) == sorted(gcovr_file) == sorted(cobertura_file) == sorted(sonar_file),
          f"{name}: the formats list different lines",
          f"lcov {sorted(da)}, gcovr {sorted(gcovr_file)}, cobertura "
          f"{sorted(cobertura_file)}, sonarqube {sorted(sonar_file)}")
    for line, count in sorted(da.items()):
        row = rows.get(line, (None, None, None))
        others = {"gcovr": gcovr_file.get(line, (None,))[0],
                  "cobertura": cobertura_file.get(line, (None,))[0],
                  "html": row[1]}
        check(all(c == count for c in others.values()),
              f"{name}:{line}: runs differ", f"lcov {count}, {others}")
        covered = {"sonarqube": sonar_file.get(line, (None,))[0],
                   "html row": row[0] == "hit",
                   "html tested paths": line in tested_lines}
        check(all(c == (count > 0) for c in covered.values()),
              f"{name}:{line}: covered or not differs", f"lcov {count}, {covered}")


def check_branches(name, branches, functions, gcovr_file, pages, outcomes):
    """LCOV's branches against gcovr, the HTML CFG and --branches outcomes."""
    taken_per_line = {}
    for line, block, index, taken in branches:
        taken_per_line.setdefault(line, []).append(taken or 0)
        owners = [f for f in functions
                  if block < len(f["blocks"]) and block_file(f, block) == name
                  and f["blocks"][block]["lines"][-1:] == [line]
                  and len(decision_edges(f, block)) >= 2]
        check(len(owners) == 1, f"{name}:{line}: BRDA block {block}",
              f"{len(owners)} functions have it")
        if len(owners) != 1:
            continue
        f = owners[0]
        page = pages[f["file"]]
        anchor = page["functions"][(f["name"], f["line"])]
        src, dst, kind, _ = decision_edges(f, block)[index]
        green = page["edges"].get((anchor, src, dst, kind))
        check(green == bool(taken), f"{name}:{line}: {f['name']} B{src}->B{dst} ({kind})",
              f"lcov taken {taken}, html {'tested' if green else 'untested'}")
        ran = page["blocks"].get((anchor, block))
        check(ran == (taken is not None), f"{name}:{line}: {f['name']} B{block} ran",
              f"lcov {'-' if taken is None else taken}, html {'tested' if ran else 'untested'}")
    for line, counts in taken_per_line.items():
        check(gcovr_file.get(line, (0, []))[1] == counts,
              f"{name}:{line}: gcovr's branches differ from LCOV's",
              f"{gcovr_file.get(line)} vs {counts}")
        share = (sum(c > 0 for c in counts), len(counts))
        for fmt, lines in outcomes.items():
            check(lines.get(line, (None, None))[1] == share,
                  f"{name}:{line}: {fmt} --branches outcomes", f"{lines.get(line)} vs {share}")


def check_paths(name, rows, by_paths):
    """Decision lines' paths (--branches paths) against the HTML page's."""
    for fmt, lines in by_paths.items():
        for line, (_, share) in lines.items():
            if share is None:
                continue
            row = rows.get(line, (None, None, None))[2]
            check(row == share, f"{name}:{line}: {fmt} paths tested/all",
                  f"{share}, html {row}")


def uri(file):
    """How SARIF names a file without characters to escape."""
    return "file://" + file if file.startswith("/") else file


def check_sarif(sarif, functions, pages):
    """SARIF's untested paths against the HTML pages' (functions whose
    untested paths the page lists in full)."""
    by_identity = {f["identity"]: f for f in functions}
    results = {}
    for r in sarif["runs"][0]["results"]:
        flow = [s["location"]["physicalLocation"]
                for s in r["codeFlows"][0]["threadFlows"][0]["locations"]]
        results[(r["properties"]["identity"], r["properties"]["path_id"])] = flow
    for f in functions:
        untested = f["num_paths"] - len(f["paths"])
        if f["calls"] == 0 or f["num_paths"] > 64 or untested > 50:
            continue
        page = pages[f["file"]]
        anchor = page["functions"][(f["name"], f["line"])]
        listed = {(id_, frozenset(lines)) for a, id_, kind, lines in page["paths"]
                  if a == anchor and kind == "untested"}
        reported = {(id_, frozenset(l["region"]["startLine"] for l in flow
                                    if l["artifactLocation"]["uri"] == uri(f["file"])))
                    for (identity, id_), flow in results.items()
                    if by_identity.get(identity) is f}
        check(listed == reported, f"{f['name']}: SARIF's untested paths are not the HTML page's",
              f"html {sorted(listed)}, sarif {sorted(reported)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pathcov", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("corpus")
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    report = Report(args.pathcov, os.path.abspath(args.corpus), args.workdir)
    functions = [f for f in json.load(open(args.corpus, encoding="utf-8"))["functions"]
                 if "skipped" not in f]
    lcov_files = lcov(report.text("lcov"), functions)
    gcovr_files = gcovr(report.text("gcovr"))
    cobertura_outcomes = cobertura(report.text("cobertura", "--branches", "outcomes"))
    cobertura_paths = cobertura(report.text("cobertura"))
    sonar_outcomes = sonarqube(report.text("sonarqube", "--branches", "outcomes"))
    sonar_paths = sonarqube(report.text("sonarqube"))
    summary = {f["file"]: f for f in json.loads(report.text("json"))["files"]}
    sarif = json.loads(report.text("sarif"))
    pages = html_pages(report.html())

    check(sorted(lcov_files) == sorted(pages) == sorted(summary),
          "the formats list different files",
          f"lcov {sorted(lcov_files)}, html {sorted(pages)}, json {sorted(summary)}")
    for name, (da, branches) in lcov_files.items():
        page = pages.get(name)
        if page is None:
            continue  # reported above: the files differ
        tested_lines = set().union(*[lines for _, _, kind, lines in page["paths"]
                                     if kind == "tested"])
        check_lines(name, da, gcovr_files.get(name, {}), cobertura_paths.get(name, {}),
                    sonar_paths.get(name, {}), page["rows"], tested_lines)
        lines = summary.get(name, {})
        check((lines.get("lines"), lines.get("lines_hit")) ==
              (len(da), sum(c > 0 for c in da.values())),
              f"{name}: the JSON summary's lines differ", str(lines))
        check_branches(name, branches, functions, gcovr_files.get(name, {}), pages,
                       {"cobertura": cobertura_outcomes.get(name, {}),
                        "sonarqube": sonar_outcomes.get(name, {})})
        check_paths(name, page["rows"], {"cobertura": cobertura_paths.get(name, {}),
                                         "sonarqube": sonar_paths.get(name, {})})
    check_sarif(sarif, functions, pages)
    return finish(FAILURES, f"ok: every format agrees on {len(lcov_files)} files")


if __name__ == "__main__":
    sys.exit(main())
