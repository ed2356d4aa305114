#!/usr/bin/env python3
"""`pathcov report`, every format, on a corpus from a real program.

Builds classify.c with the pathcov plugin and runtime, runs it on -1 20 5 5
(classify: paths 1, 2 and 3 run 1, 1 and 2 times; path 0, both ifs true,
never: every line and branch of classify is covered, 3 of its 4 paths are),
collects the corpus and checks, value by value:
  - lcov: the records for classify, and that lcov 1.x reads the file
    (lcov --summary with branch coverage on, genhtml);
  - cobertura and sonarqube: well-formed XML, the attributes of classify's
    lines (condition-coverage = tested paths through the line / paths
    through it); with --branches outcomes, branch outcomes whose totals
    are LCOV's BRDA; the timestamp from SOURCE_DATE_EPOCH;
  - sarif: the SARIF 2.1.0 structure, untested paths of called functions,
    and residual paths when the corpus has field_paths; stable fingerprints;
  - json: the pathcov-summary of classify;
  - field_paths naming a path past num_paths: exit code 3.
The line numbers are classify.c's: keep them in step with the file.
Exits 0 on success; prints what differs otherwise.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import FAILURES, PROJECT_ROOT, check, finish, must  # noqa: E402


def report(args, fmt, corpus, *extra):
    return must([args.pathcov, "report", "--format", fmt, corpus, *extra],
                f"pathcov report --format {fmt}").stdout


def check_lcov(args, work, corpus, source):
    out = os.path.join(work, "out.info")
    must([args.pathcov, "report", "--format", "lcov", corpus, "-o", out],
         "pathcov report --format lcov")
    text = open(out, encoding="utf-8").read()
    # SF: the file genhtml reads, found under the corpus's source_root.
    record = text.split(f"SF:{os.path.join(PROJECT_ROOT, source)}\n", 1)[1].split("end_of_record\n")[0]
    lines = record.splitlines()
    for want in ["FN:5,classify", "FNDA:4,classify", "FNDA:0,never",
                 "DA:6,4", "DA:7,4", "DA:8,1", "DA:9,4", "DA:10,1", "DA:11,4",
                 "DA:15,0", "BRDA:15,2,0,-", "BRDA:15,2,1,-"]:
        check(want in lines, f"lcov: no {want!r}")
    brda = sorted(l.split(",", 3)[3] for l in lines
                  if re.match(r"BRDA:(7|9),", l))
    check(brda == ["1", "1", "3", "3"],
          f"lcov: classify's branches taken {brda}, want 1, 1, 3, 3")
    for key in ["FNF", "FNH", "LF", "LH", "BRF", "BRH"]:
        found = [l for l in lines if l.startswith(key + ":")]
        check(len(found) == 1, f"lcov: {key} {found}")
    lf = int(next(l for l in lines if l.startswith("LF:"))[3:])
    lh = int(next(l for l in lines if l.startswith("LH:"))[3:])
    brf = int(next(l for l in lines if l.startswith("BRF:"))[4:])
    brh = int(next(l for l in lines if l.startswith("BRH:"))[4:])
    check(lf == len([l for l in lines if l.startswith("DA:")]), "lcov: LF")
    check(brf == len([l for l in lines if l.startswith("BRDA:")]), "lcov: BRF")
    # lcov 1.x must read it and agree on the totals.
    summary = must(["lcov", "--summary", out, "--rc", "lcov_branch_coverage=1"],
                   "lcov --summary")
    text = summary.stdout + summary.stderr
    check(f"({lh} of {lf} lines)" in text, f"lcov --summary lines:\n{text}")
    check(f"({brh} of {brf} branches)" in text,
          f"lcov --summary branches:\n{text}")
    check("(2 of 3 functions)" in text, f"lcov --summary functions:\n{text}")
    html = os.path.join(work, "html")
    must(["genhtml", "-q", "--branch-coverage", "-o", html, out], "genhtml")
    check(os.path.exists(os.path.join(html, "index.html")), "genhtml: no index")


def check_cobertura(args, corpus, source):
    root = ET.fromstring(report(args, "cobertura", corpus).encode())
    check(root.tag == "coverage", "cobertura: root")
    for attribute in ["line-rate", "branch-rate", "lines-covered",
                      "lines-valid", "branches-covered", "branches-valid",
                      "timestamp", "version"]:
        check(attribute in root.attrib, f"cobertura: no {attribute}")
    classes = [c for c in root.iter("class") if c.get("filename") == source]
    check(len(classes) == 1, "cobertura: one class for classify.c")
    if not classes:
        return
    methods = {m.get("name"): m for m in classes[0].iter("method")}
    lines = {int(l.get("number")): l for l in methods["classify"].iter("line")}
    check(sorted(lines) == [6, 7, 8, 9, 10, 11], f"cobertura: lines {sorted(lines)}")
    for number, hits in {6: 4, 7: 4, 8: 1, 9: 4, 10: 1, 11: 4}.items():
        check(lines[number].get("hits") == str(hits),
              f"cobertura: line {number} hits {lines[number].get('hits')}")
    for number in (7, 9):
        check(lines[number].get("branch") == "true" and
              lines[number].get("condition-coverage") == "75% (3/4)",
              f"cobertura: line {number}: {lines[number].attrib}")
    check(lines[6].get("branch") == "false", "cobertura: line 6 branch")
    check(methods["classify"].get("line-rate") == "1.0000" and
          methods["classify"].get("branch-rate") == "0.7500",
          f"cobertura: classify {methods['classify'].attrib}")
    never = [l.attrib for l in methods["never"].iter("line")]
    check(never == [{"number": "15", "hits": "0", "branch": "true",
                     "condition-coverage": "0% (0/2)"}],
          f"cobertura: never {never}")


def check_sonarqube(args, corpus, source):
    root = ET.fromstring(report(args, "sonarqube", corpus).encode())
    check(root.tag == "coverage" and root.get("version") == "1",
          "sonarqube: root")
    files = [f for f in root.iter("file") if f.get("path") == source]
    check(len(files) == 1, "sonarqube: one file for classify.c")
    if not files:
        return
    lines = {int(l.get("lineNumber")): l.attrib for l in files[0]}
    check(all(l.tag == "lineToCover" for l in files[0]), "sonarqube: tags")
    check(lines[7] == {"lineNumber": "7", "covered": "true",
                       "branchesToCover": "4", "coveredBranches": "3"},
          f"sonarqube: line 7 {lines[7]}")
    check(lines[8] == {"lineNumber": "8", "covered": "true"},
          f"sonarqube: line 8 {lines[8]}")
    check(lines[15] == {"lineNumber": "15", "covered": "false",
                        "branchesToCover": "2", "coveredBranches": "0"},
          f"sonarqube: line 15 {lines[15]}")
    for l in lines.values():
        if "branchesToCover" in l:
            check(0 <= int(l["coveredBranches"]) <= int(l["branchesToCover"]),
                  f"sonarqube: {l}")


def check_branch_outcomes(args, corpus, source):
    """--branches outcomes: Cobertura's and SonarQube's branches are LCOV's
    (gcov's) branch outcomes, and their totals agree with LCOV's BRDA."""
    text = report(args, "cobertura", corpus, "--branches", "outcomes")
    check("condition-coverage counts the branch outcomes" in text,
          "cobertura outcomes: the comment does not say what it counts")
    check("condition-coverage counts the paths" in
          report(args, "cobertura", corpus),
          "cobertura: the comment does not say it counts paths")
    root = ET.fromstring(text.encode())
    classes = [c for c in root.iter("class") if c.get("filename") == source]
    methods = {m.get("name"): m for m in classes[0].iter("method")}
    lines = {int(l.get("number")): l for l in methods["classify"].iter("line")}
    for number in (7, 9):
        check(lines[number].get("condition-coverage") == "100% (2/2)",
              f"cobertura outcomes: line {number}: {lines[number].attrib}")
    check(methods["classify"].get("branch-rate") == "1.0000",
          f"cobertura outcomes: classify {methods['classify'].attrib}")
    brda = [l.split(",", 3)[3] for l in report(args, "lcov", corpus).splitlines()
            if l.startswith("BRDA:")]
    taken = sum(t not in ("-", "0") for t in brda)
    check((root.get("branches-valid"), root.get("branches-covered")) ==
          (str(len(brda)), str(taken)),
          f"cobertura outcomes: branches {root.get('branches-covered')}/"
          f"{root.get('branches-valid')}, LCOV's BRDA {taken}/{len(brda)}")
    sonar = ET.fromstring(report(args, "sonarqube", corpus, "--branches",
                                 "outcomes").encode())
    line7 = [l.attrib for f in sonar.iter("file") if f.get("path") == source
             for l in f if l.get("lineNumber") == "7"]
    check(line7 == [{"lineNumber": "7", "covered": "true",
                     "branchesToCover": "2", "coveredBranches": "2"}],
          f"sonarqube outcomes: line 7 {line7}")
    stamped = subprocess.run(
        [args.pathcov, "report", "--format", "cobertura", corpus],
        capture_output=True, text=True,
        env={**os.environ, "SOURCE_DATE_EPOCH": "1700000000"}).stdout
    check('timestamp="1700000000"' in stamped,
          "cobertura: timestamp is not SOURCE_DATE_EPOCH's")


def check_sarif_structure(doc, what):
    check(doc.get("version") == "2.1.0", f"{what}: version")
    check(isinstance(doc.get("$schema"), str) and
          doc["$schema"].startswith("https://"), f"{what}: $schema")
    check(len(doc.get("runs", [])) == 1, f"{what}: runs")
    run = doc["runs"][0]
    check(run["tool"]["driver"]["name"] == "pathcov", f"{what}: driver")
    rules = {r["id"] for r in run["tool"]["driver"]["rules"]}
    for r in run["results"]:
        for key in ["ruleId", "message", "locations", "codeFlows",
                    "partialFingerprints"]:
            check(key in r, f"{what}: result without {key}")
        check(r["ruleId"] in rules, f"{what}: rule {r['ruleId']}")
        check(isinstance(r["message"].get("text"), str), f"{what}: message")
        flow = r["codeFlows"][0]["threadFlows"][0]["locations"]
        check(len(flow) > 0, f"{what}: empty threadFlow")
        for step in flow + [{"location": l} for l in r["locations"]]:
            physical = step["location"]["physicalLocation"]
            check(isinstance(physical["artifactLocation"]["uri"], str),
                  f"{what}: uri")
            check(isinstance(physical["region"]["startLine"], int) and
                  physical["region"]["startLine"] >= 1, f"{what}: startLine")
        check(re.fullmatch(r"[0-9a-f]{16}",
                           r["partialFingerprints"].get("pathcov/v1", "")),
              f"{what}: fingerprint {r['partialFingerprints']}")
    return run["results"]


def lines_of(result):
    return [s["location"]["physicalLocation"]["region"]["startLine"]
            for s in result["codeFlows"][0]["threadFlows"][0]["locations"]]


def check_sarif(args, work, corpus):
    doc = json.loads(report(args, "sarif", corpus))
    results = check_sarif_structure(doc, "sarif")
    # Untested paths of called functions: classify's path 0, main's 1, 2, 4.
    ids = sorted((r["properties"]["identity"].split(":")[-1],
                  r["properties"]["path_id"]) for r in results)
    check(ids == [("classify", 0), ("main", 1), ("main", 2), ("main", 4)],
          f"sarif: results {ids}")
    classify = [r for r in results
                if r["properties"]["identity"].endswith(":classify")]
    if classify:
        r = classify[0]
        check(r["ruleId"] == "pathcov/untested-path", "sarif: ruleId")
        check(lines_of(r) == [6, 7, 8, 9, 10, 11], f"sarif: flow {lines_of(r)}")
        check(r["locations"][0]["physicalLocation"]["region"]["startLine"] == 6,
              "sarif: first line")
    again = json.loads(report(args, "sarif", corpus))
    check([r["partialFingerprints"] for r in again["runs"][0]["results"]] ==
          [r["partialFingerprints"] for r in results], "sarif: fingerprints")
    limited = json.loads(report(args, "sarif", corpus, "--max-results", "1"))
    check(len(limited["runs"][0]["results"]) == 1 and
          limited["runs"][0]["properties"]["truncated"] is True,
          "sarif: --max-results 1")

    # Residual paths: field_paths on classify (paths 0 and 1 seen in the
    # field, as pathcov merge writes them; 1 is tested, so only 0 is
    # residual).
    residual_corpus = with_field_paths(corpus, {0: 7, 1: 2},
                                       os.path.join(work, "residual-corpus.json"))
    doc = json.loads(report(args, "sarif", residual_corpus))
    results = check_sarif_structure(doc, "sarif residual")
    check(len(results) == 1, f"sarif residual: {len(results)} results")
    if results:
        r = results[0]
        check(r["ruleId"] == "pathcov/residual-path" and
              r["properties"]["path_id"] == 0 and
              "(7 runs)" in r["message"]["text"], f"sarif residual: {r}")
        check(r["partialFingerprints"] == classify[0]["partialFingerprints"]
              if classify else False, "sarif residual: fingerprint differs")

    bad = with_field_paths(corpus, {4: 1}, os.path.join(work, "bad-field-paths.json"))
    result = subprocess.run([args.pathcov, "report", "--format", "sarif", bad],
                            capture_output=True, text=True)
    check(result.returncode == 3 and result.stdout == "" and
          "field_paths[0].id: 4 is not a path of" in result.stderr,
          f"bad field_paths: exit {result.returncode}: {result.stderr}")


def check_json(args, corpus, source):
    doc = json.loads(report(args, "json", corpus))
    check(doc["format"] == "pathcov-summary" and doc["format_version"] == "1.0",
          "json: format")
    files = {f["file"]: f for f in doc["files"]}
    functions = {f["name"]: f for f in files[source]["functions"]}
    got = {k: functions["classify"][k] for k in
           ["num_paths", "tested_paths", "calls", "lines", "lines_hit", "line"]}
    check(got == {"num_paths": 4, "tested_paths": 3, "calls": 4, "lines": 6,
                  "lines_hit": 6, "line": 5}, f"json: classify {got}")
    check(functions["never"]["calls"] == 0 and
          functions["never"]["tested_paths"] == 0, "json: never")


def record_classify(args, work):
    """Builds classify.c with the plugin in a fresh `work`, runs it on
    -1 20 5 5 and collects the corpus: (the source's name in the corpus,
    corpus, the run)."""
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    program = os.path.join(work, "classify")
    source = os.path.abspath(args.source)
    must([args.compiler, "-O2", "-g", f"-fplugin={args.plugin}", source,
          "-o", program, args.runtime, "-lpthread"], "build")
    env = dict(os.environ, PATHCOV_PROFILE_DIR=os.path.join(work, "profiles"),
               PATHCOV_TEST="classify")
    run = must([program, "-1", "20", "5", "5"], "run", env=env)
    corpus = os.path.join(work, "corpus.json")
    must([args.pathcov, "collect", "-o", corpus, env["PATHCOV_PROFILE_DIR"]],
         "pathcov collect")
    with open(corpus, encoding="utf-8") as f:
        classify = next(fn for fn in json.load(f)["functions"]
                        if fn["name"] == "classify")
    # A project path: relative to the checkout (docs/record-mode.md).
    recorded = os.path.join(classify["source_root"], classify["file"])
    check(not os.path.isabs(classify["file"]) and recorded == source,
          f"classify's file {classify['file']!r} in {classify['source_root']!r}")
    return classify["file"], corpus, run


def with_field_paths(corpus, paths, output):
    """`corpus` with field_paths on classify ({id: count}, seen in one field
    report), as pathcov merge writes them, saved as `output`."""
    data = json.load(open(corpus, encoding="utf-8"))
    rid = "-:42:1000:2000"
    data["reports"] = [{"id": rid, "module": "classify", "build_id": None,
                        "pid": 42, "started_ns": 1000, "written_ns": 2000,
                        "reason": "exit", "dropped_paths": 0}]
    for f in data["functions"]:
        if f.get("name") == "classify":
            f["field_paths"] = [
                {"id": i, "count": n, "seen": [
                    {"report": rid, "count": n, "first_seen_ns": 1500}]}
                for i, n in paths.items()]
    json.dump(data, open(output, "w", encoding="utf-8"))
    return output


def parse_arguments(description):
    """The arguments both report tests take (testsuite/report/CMakeLists.txt)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--pathcov", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("source")
    return ap.parse_args()


def main():
    args = parse_arguments(__doc__)
    work = args.workdir
    source, corpus, run = record_classify(args, work)
    check(run.stdout == "99\n", f"program printed {run.stdout!r}")

    check_lcov(args, work, corpus, source)
    check_cobertura(args, corpus, source)
    check_sonarqube(args, corpus, source)
    check_branch_outcomes(args, corpus, source)
    check_sarif(args, work, corpus)
    check_json(args, corpus, source)
    return finish(FAILURES, "ok: lcov, cobertura, sonarqube, sarif, json")


if __name__ == "__main__":
    sys.exit(main())
