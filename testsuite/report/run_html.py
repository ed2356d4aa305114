#!/usr/bin/env python3
"""`pathcov report --format html`, rendered in headless Chromium.

Builds classify.c and collects its corpus as run_report.py does (classify:
paths 1, 2, 3 tested, path 0 never), adds field_paths (classify's paths 0
and 1 seen in the field), writes the HTML report, then checks:
  - every page parses with html.parser and names no external URL;
  - the same corpus gives the same bytes twice (deterministic);
  - Debian chromium (/usr/bin/chromium, from scripts/install-deps.sh)
    --dump-dom of index.html: the summary numbers (those of the json
    summary), the function names; of the file page: a tested and an
    untested path of classify, a field-observed one, the source lines with
    their counts, the CFG as SVG with green and red edges, and the path in
    the URL's #fragment highlighted by the page's script;
  - a --screenshot of the file page, kept in the work directory.
Exits 0 on success; prints what differs otherwise.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from html.parser import HTMLParser

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import testlib  # noqa: E402
from run_report import (parse_arguments, record_classify,  # noqa: E402
                        with_field_paths)
from testlib import FAILURES, check, must  # noqa: E402

CHROMIUM = "/usr/bin/chromium"


class StrictParser(HTMLParser):
    """Collects unbalanced tags and external references."""
    VOID = {"meta", "br", "img", "input", "link", "hr"}
    SVG_LEAVES = {"path", "rect", "text", "title", "marker", "defs", "g"}

    def __init__(self):
        super().__init__()
        self.stack, self.problems, self.urls = [], [], []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value and re.match(r"\s*(https?:|//|ftp:|data:)", value) and \
                    not (name == "xmlns" and tag == "svg"):
                self.urls.append(f"<{tag} {name}={value}>")
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:]}"
                                 f" at line {self.getpos()[0]}")
        else:
            self.stack.pop()


def check_html(path):
    text = open(path, encoding="utf-8").read()
    parser = StrictParser()
    parser.feed(text)
    parser.close()
    name = os.path.basename(path)
    check(not parser.problems, f"{name}: {parser.problems[:3]}")
    check(not parser.stack, f"{name}: unclosed {parser.stack}")
    check(not parser.urls, f"{name}: external URLs {parser.urls}")
    # Nothing fetched: no src= or href= outside the report, no @import/url().
    check(not re.search(r"(src|href)=\"(?!#|[\w.-]+\.html)", text),
          f"{name}: a reference outside the report")
    check("url(http" not in text and "@import" not in text,
          f"{name}: CSS fetches something")
    return text


def chromium(args, work, url, *flags):
    profile = tempfile.mkdtemp(prefix="chromium-", dir=work)
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
           "--disable-quic", "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync",
           f"--user-data-dir={profile}", *flags, url]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        sys.exit(f"FAIL: chromium: {' '.join(cmd)}\n{result.stderr}")
    return result.stdout


def main():
    args = parse_arguments(__doc__)
    if not os.access(CHROMIUM, os.X_OK):
        sys.exit(f"FAIL: {CHROMIUM} is missing: this test needs Debian's "
                 "chromium (scripts/install-deps.sh installs it)")
    work = os.path.abspath(args.workdir)
    source, corpus, _ = record_classify(args, work)
    check_lines_only_file(args, work)
    # Field paths: classify's paths 0 and 1 seen in the field.
    field_corpus = with_field_paths(corpus, {0: 7, 1: 2},
                                    os.path.join(work, "field-corpus.json"))

    # Made twice with SOURCE_DATE_EPOCH (reproducible builds): the same
    # bytes. The second time, the pages are read before they are replaced.
    out = os.path.join(work, "html")
    command = [args.pathcov, "report", "--format", "html", field_corpus,
               "-o", out, "--title", "Classify's <paths>"]
    fixed = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000"}
    must(command, "pathcov report --format html", env=fixed)
    pages = sorted(os.listdir(out))
    first = {page: open(os.path.join(out, page), "rb").read() for page in pages}
    must(command, "pathcov report --format html (again)", env=fixed)
    check(pages == sorted(os.listdir(out)), "pages differ between runs")
    for page in pages:
        check(first[page] == open(os.path.join(out, page), "rb").read(),
              f"{page}: not deterministic")
    result = subprocess.run(command, capture_output=True, text=True,
                            env={**os.environ, "SOURCE_DATE_EPOCH": "soon"})
    check(result.returncode == 2 and "SOURCE_DATE_EPOCH=soon" in result.stderr,
          f"a bad SOURCE_DATE_EPOCH: exit {result.returncode} {result.stderr}")
    # Without it, the date is now's.
    now = os.path.join(work, "html-now")
    before = time.strftime("%Y-%m-%d", time.gmtime())
    must([args.pathcov, "report", "--format", "html", field_corpus, "-o", now],
         "pathcov report --format html (now)",
         env={k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"})
    dates = {before, time.strftime("%Y-%m-%d", time.gmtime())}
    made = re.search(r'id="made">(\d{4}-\d\d-\d\d) \d\d:\d\d UTC, by <code>',
                     open(os.path.join(now, "index.html")).read())
    check(made and made.group(1) in dates,
          f"index without SOURCE_DATE_EPOCH: date {made and made.group(1)}, "
          f"want {dates}")
    result = subprocess.run([args.pathcov, "report", "--format", "html",
                             corpus], capture_output=True, text=True)
    check(result.returncode == 2 and "-o DIR" in result.stderr,
          f"html without -o: exit {result.returncode} {result.stderr}")

    for page in pages:
        check_html(os.path.join(out, page))
    summary = json.loads(must([args.pathcov, "report", "--format", "json",
                               corpus], "json summary").stdout)
    totals = summary["totals"]

    index = os.path.join(out, "index.html")
    dom = chromium(args, work, "file://" + index, "--dump-dom")
    # Its title, date and the command that made it, quoted for a shell.
    check("<title>Classify's &lt;paths&gt;</title>" in dom and
          "<h1>Classify's &lt;paths&gt;</h1>" in dom, "index: no title")
    quoted = f"{args.pathcov} report --format html {field_corpus} -o {out} " \
             "--title 'Classify'\\''s &lt;paths&gt;'"
    check(f'<p class="note" id="made">2023-11-14 22:13 UTC, by <code>{quoted}'
          '</code></p>' in dom, f"index: no date and command {quoted}")
    want = f'id="paths">{totals["tested_paths"]}/{totals["num_paths"]}<'
    check(want in dom, f"index: no {want}")
    check(f'id="functions">{totals["functions"]}<' in dom,
          "index: function count")
    for name in ("classify", "never", "main"):
        check(f">{name}</a>" in dom, f"index: no function {name}")
    # Field paths 0 (never tested) and 1 (tested) of classify.
    check('id="field">2<' in dom and 'id="residual">1 never tested<' in dom,
          "index: no count of field-observed paths")
    check(re.search(r'>classify</a></td>.*?<td class="num">1</td></tr>', dom),
          "index: classify's untested field path not in its row")
    links = re.findall(r'<a href="([^"#]+\.html)">([^<]+)</a>', dom)
    check([l[1] for l in links] == [source], f"index: file links {links}")
    if not links:
        return finish()
    page = os.path.join(out, links[0][0])

    # classify is function f0; its untested path 0 selected by the URL.
    url = "file://" + page + "#f0-p0"
    dom = chromium(args, work, url, "--dump-dom")
    check('<h2>classify <span class="note">line 5</span></h2>' in dom,
          "file page: no classify heading")
    check(f"<title>{source} - Classify's &lt;paths&gt;</title>" in dom and
          "\u2190 Classify's &lt;paths&gt;: all files</a> <span class=\"note\">"
          "2023-11-14 22:13 UTC</span>" in dom, "file page: no title and date")
    # classify.c is recorded relative to the checkout, as the demo's files
    # are: found through the corpus's source_root, not the working directory.
    check(not os.path.isabs(source) and 'id="no-source"' not in dom,
          f"file page: the source of {source} was not found")
    # The annotated source first (as gcovr), the functions' paths beside it.
    check(re.search(r'<div class="split">\s*<div class="source">\s*<h2>Source</h2>'
                    r'.*?</table>\s*</div>\s*<div class="functions">\s*'
                    r'<div class="fn" id="f0">', dom, re.S),
          "file page: the source is not first with the functions beside it")
    check(re.search(r'<ul class="paths tested">\s*(<li[^>]*>.*?</li>\s*)*'
                    r'<li id="f0-p3" data-blocks="[\d ]+"><a href="#f0-p3">'
                    r'path 3</a> ran 2x, tests: classify: 6 7\(false\) 9\(false\) '
                    r'11</li>', dom), "file page: tested path 3 of classify")
    check(re.search(r'<ul class="paths untested">\s*<li id="f0-p0" '
                    r'data-blocks="[\d ]+" class="on"><a href="#f0-p0">path 0'
                    r'</a> never run: 6 7\(true\) 8 9\(true\) 10 11</li>', dom),
          "file page: untested path 0 of classify, highlighted")
    check(re.search(r'class="residual"[^>]*><a href="#f0-p0">path 0</a> ran '
                    r'7x in the field, never tested', dom),
          "file page: field-observed path 0")
    check(re.search(r'<h3>Untested paths \(3\)</h3>', dom),
          "file page: main's 3 untested paths")
    highlighted = re.findall(r'<tr id="L(\d+)" class="[^"]*\bon\b', dom)
    check(highlighted == ["6", "7", "8", "9", "10", "11"],
          f"file page: highlighted lines {highlighted}")
    check(re.search(r'<tr id="L7" class="hit on"><td>7</td><td>4</td><td>3/4</td>'
                    r'<td>  if \(x &lt; 0\)</td>', dom), "file page: line 7")
    check(re.search(r'<tr id="L15" class="miss"><td>15</td><td>0</td><td>0/2</td>',
                    dom), "file page: line 15")
    svgs = re.findall(r"<svg class=\"cfg\".*?</svg>", dom, re.S)
    check(len(svgs) == 3, f"file page: {len(svgs)} CFGs, want 3")
    if svgs:
        classify_svg = svgs[0]
        check('class="edge tested"' in classify_svg,
              "classify CFG: no green edge")
        check('class="edge untested' not in classify_svg,
              "classify CFG: a red edge (every edge is on a tested path)")
        check(re.search(r'id="f0-b\d+" class="block ran on"', classify_svg),
              "classify CFG: no highlighted block")
    check(any('class="edge untested' in s for s in svgs),
          "file page: no red edge")
    check(any(re.search(r'class="edge \w+ leaves"', s) for s in svgs),
          "file page: no dashed (loop) edge in main")

    shot = os.path.join(work, "classify-page.png")
    chromium(args, work, "file://" + page + "?path=f0-p0",
             f"--screenshot={shot}", "--window-size=1280,1700",
             "--hide-scrollbars")
    check(os.path.getsize(shot) > 10000, "screenshot: too small")
    print("screenshot:", shot)
    return finish()


def check_lines_only_file(args, work):
    """included.c's sign has its body in body.inc, which defines no
    function: its row in the index and its page say so, with its lines
    and no path percentage (0 of 0 paths is not 100%)."""
    here = os.path.dirname(os.path.abspath(__file__))
    program = os.path.join(work, "included")
    must([args.compiler, "-O2", "-g", f"-fplugin={args.plugin}",
          os.path.join(here, "included.c"), "-o", program, args.runtime,
          "-lpthread"], "build included.c")
    profiles = os.path.join(work, "included-profiles")
    for arg in ("5", "-5"):
        must([program, arg], f"run included {arg}",
             env=dict(os.environ, PATHCOV_PROFILE_DIR=profiles))
    corpus = os.path.join(work, "included-corpus.json")
    must([args.pathcov, "collect", "-o", corpus, profiles], "collect included")
    out = os.path.join(work, "included-html")
    must([args.pathcov, "report", "--format", "html", corpus, "-o", out],
         "report included")
    index = open(os.path.join(out, "index.html"), encoding="utf-8").read()
    note = ("no function defined here: its lines are on paths of functions "
            "of other files")
    row = re.search(r'>([^<]*body\.inc)</a></td><td class="num">0</td>'
                    r'<td class="num"></td><td class="note">([^<]*)</td>'
                    r'<td class="num">(\d+)/(\d+)</td></tr>', index)
    check(row and row.group(2) == note and
          (row.group(3), row.group(4)) == ("4", "5"),
          f"index: body.inc's row {row and row.group(0)}")
    pages = [p for p in os.listdir(out) if "body" in p]
    page = open(os.path.join(out, pages[0]), encoding="utf-8").read() \
        if len(pages) == 1 else ""
    check(f"<p>{note}.</p>" in page and "paths tested" not in page,
          f"body.inc's page {pages}")


def finish():
    return testlib.finish(FAILURES, "ok: html report rendered in chromium")


if __name__ == "__main__":
    sys.exit(main())
