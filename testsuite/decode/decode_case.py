#!/usr/bin/env python3
"""Residual mode end to end, decoded: `pathcov decode` names the residual
paths of a field run, their nearest tested paths and the lines where they
left the tested ground, all known by construction of the program.

Builds programs/field.c (its comments say which paths its tests and its
field runs take, and mark the lines that matter with "@name") with the
plugin in record mode (with -DOLD_LEGACY: the corpus is stale for legacy),
runs the test inputs and collects a corpus; builds it in residual mode
against that corpus, runs it with field inputs (a run that exits, one that
crashes with SIGABRT, one that asks for a report), and checks that:
  - the build warns that the corpus has legacy only with another CFG,
    and only that;
  - every report is valid against report.schema.json, with the right
    reason (and signal), pid and times, and the crashing run's test
    (PATHCOV_TEST) in its report and decode's header;
  - `pathcov decode --json` (valid against decode.schema.json) shows, per
    function, exactly the expected residual paths: their source lines and
    branch outcomes, counts, thread; for each, the nearest tested path
    (checked against the corpus: a tested path sharing the longest prefix
    of blocks, the smallest id on ties) and the divergence (the marked line,
    the outcome taken there, the tests' outcomes); untested and stale
    functions without either;
  - the text output says the same, line by line;
  - decode finds a moved binary with --binary, and several reports at once
    go to -o FILE.
It leaves in WORKDIR, for the decode.bad.* tests: exit-report.json and
broken copies of it (see write_broken_reports).
"""
import glob
import json
import os
import re
import resource
import shutil
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import must, project_path, run  # noqa: E402
from decode_program import (FIELD_RUN, Program, arguments,  # noqa: E402
                            one_report)

MARKER = re.compile(r"/\* @(\w+) \*/")

failures = []


def fail(message):
    failures.append(message)


def markers(source):
    """{name: line} of the "@name" comments."""
    found = {}
    with open(source, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            for m in MARKER.finditer(text):
                found[m.group(1)] = number
    return found


def no_core():
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def validate(validate_py, schema, files):
    result = run([sys.executable, validate_py, schema, *files])
    if result.returncode != 0:
        fail(f"not valid against {os.path.basename(schema)}:\n"
             f"{result.stdout}{result.stderr}")


def exits(path, marked):
    """{line: exit} of a decoded path's steps at the marked lines: the
    branch outcome taken after the block whose last line it is."""
    found = {}
    for step in path["steps"]:
        if step.get("exit") and step["lines"] and step["lines"][-1] in marked:
            found[step["lines"][-1]] = step["exit"]
    return found


def block_sequence(path):
    """How a path starts, then its blocks: two paths share a prefix of DAG
    edges exactly as long as they share a prefix of this (field.c has no
    parallel edges)."""
    return [path["start"]] + [step["block"] for step in path["steps"]]


def shared_prefix(a, b):
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def check_function(fn, want, m, source, tested):
    """Checks one decoded function against `want`, its expected paths."""
    name = fn["name"]
    marked = set(m.values())
    if fn["policy"] != want["policy"]:
        fail(f"{name}: policy {fn['policy']}, expected {want['policy']}")
    got = fn["paths"]
    if len(got) != len(want["paths"]):
        fail(f"{name}: {len(got)} residual paths, expected "
             f"{len(want['paths'])}: {[p['lines'] for p in got]}")
        return
    # Paths come in the order first seen, which is the order run.
    for p, w in zip(got, want["paths"]):
        what = f"{name}: residual path {p['id']} ({p['lines']})"
        if (p["start"], p["end"], p["count"]) != w["shape"]:
            fail(f"{what}: start, end, count {(p['start'], p['end'], p['count'])}"
                 f", expected {w['shape']}")
        want_exits = {m[k]: v for k, v in w["exits"].items()}
        if exits(p, marked) != want_exits:
            fail(f"{what}: branch outcomes {exits(p, marked)}, expected {want_exits}")
        if p["id"] in tested:
            fail(f"{what}: a tested path of the corpus")
        if fn["policy"] in ("untested", "stale"):
            if p["nearest_tested"] is not None or p["divergence"] is not None:
                fail(f"{what}: a nearest tested path or divergence without "
                     "tested paths")
            continue
        nearest = p["nearest_tested"]
        # The nearest tested path, from the corpus's tested paths.
        sequence = block_sequence(p)
        best = max(tested.items(), key=lambda item: (
            shared_prefix(sequence, block_sequence(item[1])), -item[0]))
        if nearest is None or nearest["id"] != best[0]:
            fail(f"{what}: nearest tested path "
                 f"{nearest and nearest['id']}, expected {best[0]}")
        elif nearest["lines"] != best[1]["lines"]:
            fail(f"{what}: nearest tested path {best[0]} shown as "
                 f"{nearest['lines']}, the corpus has {best[1]['lines']}")
        want_nearest = {m[k]: v for k, v in w["nearest_exits"].items()}
        if nearest and exits(nearest, marked) != want_nearest:
            fail(f"{what}: nearest tested path's outcomes "
                 f"{exits(nearest, marked)}, expected {want_nearest}")
        d = p["divergence"]
        at, marker, took, tests_took = w["divergence"]
        if d is None:
            fail(f"{what}: no divergence")
            continue
        if (d["at"], d["file"], d["line"]) != (at, source, m[marker]):
            fail(f"{what}: diverges at {d['at']} {d['file']}:{d['line']}, "
                 f"expected {at} {source}:{m[marker]}")
        key = "starts" if at == "start" else "exit"
        got_took = d["took"].get(key)
        got_tests = sorted(o.get(key) for o in d["tests_took"])
        if (got_took, got_tests) != (took, sorted(tests_took)):
            fail(f"{what}: took {got_took}, the tests {got_tests}; expected "
                 f"{took}, the tests {sorted(tests_took)}")
        for target, outcome in w.get("to_lines", {}).items():
            o = d["took"] if outcome == "took" else next(
                (t for t in d["tests_took"] if m[target] in t["to_lines"]),
                None)
            if o is None or m[target] not in o["to_lines"]:
                fail(f"{what}: no outcome of the divergence goes to line "
                     f"{m[target]} (@{target})")


def expected_functions():
    """Per function: policy, and its residual paths in the order the field
    run first runs them: (start, end, count), branch outcomes by marker,
    the nearest tested path's outcomes, the divergence (at, marker, took,
    the tests' outcomes)."""
    branch_sign = ("branch", "sign", "false", ["true"])
    vowel = ("branch", "vowel", "false", ["true"])
    return {
        "classify": {"policy": "bytemap", "paths": [
            {"shape": ("entry", "return", 1),
             "exits": {"parity": "false", "sign": "false"},
             "nearest_exits": {"parity": "false", "sign": "true"},
             "divergence": branch_sign}]},
        "vowels": {"policy": "bytemap", "paths": [
            {"shape": ("entry", "loop", 1), "exits": {"vowel": "false"},
             "nearest_exits": {"vowel": "true"}, "divergence": vowel},
            {"shape": ("loop", "loop", 2), "exits": {"vowel": "false"},
             "nearest_exits": {"vowel": "true"}, "divergence": vowel}]},
        "command": {"policy": "bytemap", "paths": [
            {"shape": ("entry", "return", 1), "exits": {"switch": "switch"},
             "nearest_exits": {"switch": "switch"},
             "divergence": ("branch", "switch", "switch",
                            ["switch", "switch"]),
             "to_lines": {"default": "took", "case_a": "tests",
                          "case_b": "tests"}}]},
        "repeat": {"policy": "bytemap", "paths": [
            {"shape": ("entry", "loop", 1), "exits": {"repeat": "true"},
             "nearest_exits": {"repeat": "false"},
             "divergence": ("branch", "repeat", "true", ["false"])},
            {"shape": ("loop", "loop", 1), "exits": {"repeat": "true"},
             "nearest_exits": {"repeat": "false"},
             "divergence": ("start", "repeat", "loop", ["entry"])},
            {"shape": ("loop", "return", 1), "exits": {"repeat": "false"},
             "nearest_exits": {"repeat": "false"},
             "divergence": ("start", "repeat", "loop", ["entry"])}]},
        # "hi!": h, then i, then !, then the end of the string.
        "shout": {"policy": "untested", "paths": [
            {"shape": ("entry", "loop", 1), "exits": {}},
            {"shape": ("loop", "loop", 1), "exits": {}},
            {"shape": ("loop", "loop", 1), "exits": {}},
            {"shape": ("loop", "return", 1), "exits": {}}]},
        "legacy": {"policy": "stale", "paths": [
            {"shape": ("entry", "return", 1), "exits": {"legacy": "false"}}]},
    }


def expected_text(decoded, source, m):
    """Lines the text output must have: one per function and per residual
    path's divergence."""
    lines = []
    for fn in decoded["functions"]:
        head = f"{fn['file']}:{fn['line']} {fn['name']}: "
        if fn["policy"] == "untested":
            lines.append(head + f"{len(fn['paths'])} residual paths; the "
                         "tests never ran this function")
        elif fn["policy"] == "stale":
            lines.append(head + "1 residual path; the corpus has this "
                         f"function only with another CFG ({fn['stale']}): "
                         "all its paths are reported")
        for p in fn["paths"]:
            if p["nearest_tested"]:
                lines.append(f"    nearest tested path "
                             f"{p['nearest_tested']['id']}: ")
            if p["divergence"]:
                lines.append("    left the tested ground at "
                             f"{p['divergence']['text']}")
    c = m["sign"]
    lines.append(f"    left the tested ground at {source}:{c}: took false, "
                 "the tests that came this way always took true")
    lines.append(f"    left the tested ground at {source}:{m['repeat']}: "
                 "started here (loop), the tests always started at function "
                 "entry")
    return lines


def write_broken_reports(work, report, record_profile, tested_ids):
    """Copies of the exit report with one thing wrong, for decode.bad.*."""
    with open(report, encoding="utf-8") as f:
        doc = json.load(f)
    with open(record_profile, encoding="utf-8") as f:
        profile = json.load(f)

    def write(name, change):
        copy = json.loads(json.dumps(doc))
        change(copy)
        with open(os.path.join(work, name), "w", encoding="utf-8") as f:
            json.dump(copy, f, indent=1)

    classify = next(i for i, p in enumerate(doc["residual_paths"])
                    if p["identity"].endswith(":classify"))

    def moved(d):
        d["module"] = os.path.join(work, "gone", "field")

    def rebuilt(d):
        d["build_id"] = "f" * 40

    def unknown_function(d):
        d["residual_paths"][classify]["identity"] = "no_such_function"

    def path_id(d):
        d["residual_paths"][classify]["id"] = 1000000

    def tested_path(d):
        d["residual_paths"][classify]["id"] = min(tested_ids)

    def record_mode(d):  # the record build's module and build-id
        d["module"], d["build_id"] = profile["module"], profile["build_id"]

    write("moved-report.json", moved)
    write("rebuilt-report.json", rebuilt)
    write("unknown-function-report.json", unknown_function)
    write("path-id-report.json", path_id)
    write("tested-path-report.json", tested_path)
    write("record-mode-report.json", record_mode)


def main():
    ap = arguments()
    ap.add_argument("--schemas", required=True)
    ap.add_argument("--validate", required=True, help="validate.py")
    args = ap.parse_args()

    program = Program(args)
    work, source = program.work, program.source
    m = markers(source)
    pathcov = args.pathcov
    schema = lambda name: os.path.join(args.schemas, name)

    # The tests: a record-mode build, its profiles, the corpus.
    recorded, warnings = program.build("record", ["-DOLD_LEGACY"])
    if "pathcov:" in warnings:
        sys.exit(f"FAIL: the record-mode build warned:\n{warnings}")
    corpus = program.record_corpus(recorded)
    profiles = program.profiles
    shown = json.loads(must([pathcov, "show", "--json", "--max-paths",
                             "100000", corpus], "pathcov show").stdout)
    tested = {f["name"]: {p["id"]: p for p in f["paths"]}
              for f in shown["functions"] if "paths" in f}

    # The release: a residual-mode build against the corpus.
    field, warnings = program.build("residual", [
        "-fplugin-arg-pathcov-mode=residual",
        f"-fplugin-arg-pathcov-corpus={corpus}"])
    stale = [w for w in warnings.splitlines() if "pathcov:" in w]
    if len(stale) != 1 or "the corpus has ‘legacy’ only with another CFG" not in stale[0] \
            and "the corpus has 'legacy' only with another CFG" not in stale[0]:
        fail(f"the residual build should warn once, that the corpus has "
             f"legacy only with another CFG:\n{warnings}")

    # The field: a run that exits, one that crashes, one that asks.
    reports = os.path.join(work, "reports")
    env = dict(os.environ, PATHCOV_REPORT_DIR=os.path.join(reports, "exit"))
    must([field, *FIELD_RUN], "the field run", env=env)
    exit_report = one_report(env["PATHCOV_REPORT_DIR"])
    env["PATHCOV_REPORT_DIR"] = os.path.join(reports, "crash")
    crash = run([field, "x:-3", "crash"], env={**env, "PATHCOV_TEST": "field crash"},
                preexec_fn=no_core)
    if crash.returncode != -signal.SIGABRT:
        fail(f"the crashing run ended with {crash.returncode}, expected "
             f"SIGABRT\n{crash.stderr}")
    crash_report = one_report(env["PATHCOV_REPORT_DIR"])
    env["PATHCOV_REPORT_DIR"] = os.path.join(reports, "request-exit")
    request_report = os.path.join(reports, "request.json")
    env["FIELD_REQUEST_FILE"] = request_report
    must([field, "c:z", "request"], "the field run that asks for a report",
         env=env)
    all_reports = [exit_report, crash_report, request_report,
                   one_report(env["PATHCOV_REPORT_DIR"])]
    validate(args.validate, schema("report.schema.json"), all_reports)

    for report, reason in zip(all_reports[:3], ["exit", "signal", "request"]):
        with open(report, encoding="utf-8") as f:
            doc = json.load(f)
        if doc["reason"] != reason or doc["module"] != field or \
                doc.get("signal") != (signal.SIGABRT if reason == "signal"
                                      else None):
            fail(f"{report}: reason {doc['reason']}, signal "
                 f"{doc.get('signal')}, module {doc['module']}")
        if not doc["started_ns"] <= doc["written_ns"]:
            fail(f"{report}: written before it started")

    # Decode the exit report.
    decoded_json = os.path.join(work, "decoded.json")
    must([pathcov, "decode", "--json", "-o", decoded_json, exit_report],
         "pathcov decode --json")
    validate(args.validate, schema("decode.schema.json"), [decoded_json])
    with open(decoded_json, encoding="utf-8") as f:
        decoded = json.load(f)
    report = decoded["reports"][0]
    with open(exit_report, encoding="utf-8") as f:
        raw = json.load(f)
    if (report["module"], report["binary"], report["pid"], report["reason"]) \
            != (field, field, raw["pid"], "exit"):
        fail(f"decoded report: {report['module']} {report['binary']} "
             f"{report['pid']} {report['reason']}")
    if report["residual_paths"] != len(raw["residual_paths"]):
        fail(f"decoded {report['residual_paths']} residual paths, the report "
             f"lists {len(raw['residual_paths'])}")
    functions = {fn["name"]: fn for fn in report["functions"]}
    for name, want in expected_functions().items():
        if name not in functions:
            fail(f"{name}: no residual path decoded")
            continue
        check_function(functions[name], want, m, project_path(source),
                       tested.get(name, {}))
    for fn in report["functions"]:
        for p in fn["paths"]:
            if p["thread"] != raw["pid"]:
                fail(f"{fn['name']}: path {p['id']} first seen by thread "
                     f"{p['thread']}, not the main thread")
            if not raw["started_ns"] <= p["first_seen_ns"] <= raw["written_ns"]:
                fail(f"{fn['name']}: path {p['id']} first seen outside the "
                     "run")
            if fn["policy"] in ("bytemap", "array", "hashed", "sorted") and not p["divergence"]:
                fail(f"{fn['name']}: path {p['id']} has no divergence")
    if set(functions) != set(expected_functions()) | {"main"}:
        fail(f"residual paths in {sorted(functions)}")

    # The same as text.
    text = must([pathcov, "decode", exit_report], "pathcov decode").stdout
    for line in expected_text(report, project_path(source), m):
        if not any(l.startswith(line) for l in text.splitlines()):
            fail(f"the text output lacks the line {line!r}")
    shown_paths = [l for l in text.splitlines()
                   if l.startswith("  residual path ")]
    if len(shown_paths) != report["residual_paths"]:
        fail("the text output does not show every residual path once")
    # Compact by default: the header on one short line, a path's runs
    # without its timing; --details adds the build-id and the first sightings.
    header = text.splitlines()[0]
    if "build-id" in header or not re.search(
            r", written at exit \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$", header) \
            or "first seen" in text:
        fail(f"the default text is not compact:\n{text}")
    detailed = must([pathcov, "decode", "--details", exit_report],
                    "pathcov decode --details").stdout
    first_seen = [l for l in detailed.splitlines()
                  if re.match(r"    \d+ runs?; first seen \d{4}-.*Z \(\d+\.\d{6} s "
                              r"after start\) by thread \d+", l)]
    if "(build-id " not in detailed.splitlines()[0] or \
            len(first_seen) != len(shown_paths):
        fail(f"decode --details lacks the build-id or first sightings:\n"
             f"{detailed}")

    # A crash report, and several reports at once, into a file.
    text = must([pathcov, "decode", crash_report], "decode a crash").stdout
    if ", test field crash, written on signal 6 (SIGABRT)" not in text or \
            f"{project_path(source)}:{m['sign']}: took false" not in text:
        fail(f"decoding the crash report:\n{text}")
    several = os.path.join(work, "several.json")
    must([pathcov, "decode", "--json", "-o", several, *all_reports],
         "decode several reports")
    validate(args.validate, schema("decode.schema.json"), [several])
    with open(several, encoding="utf-8") as f:
        reasons = [r["reason"] for r in json.load(f)["reports"]]
    if reasons != ["exit", "signal", "request", "exit"]:
        fail(f"several reports decoded as {reasons}")

    # A moved binary, found with --binary.
    moved = os.path.join(work, "moved", "field")
    os.makedirs(os.path.dirname(moved))
    shutil.copy(field, moved)
    shutil.copy(exit_report, os.path.join(work, "exit-report.json"))
    write_broken_reports(work, exit_report,
                         sorted(glob.glob(os.path.join(profiles, "*")))[0],
                         tested["classify"])
    text = must([pathcov, "decode", "--binary", moved,
                 os.path.join(work, "moved-report.json")],
                "decode with --binary").stdout
    if f"  metadata from {moved}\n" not in text:
        fail(f"decode --binary did not say where the metadata came from:\n"
             f"{text}")

    if failures:
        sys.exit("FAIL:\n" + "\n".join(failures))
    paths = sum(len(fn["paths"]) for fn in report["functions"])
    print(f"ok: {paths} residual paths in {len(functions)} functions "
          f"decoded as expected; {len(all_reports)} reports and 2 decodings "
          "valid against their schemas")


if __name__ == "__main__":
    main()
