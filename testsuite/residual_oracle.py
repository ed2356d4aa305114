"""The residual oracle: the residual paths a residual build reports for a
run are the paths the run executed minus the tested ones, with their counts.

executed: a record build's profile of the same run, collected (`pathcov
collect`, schemas/corpus.schema.json); tested: the corpus the residual build
was compiled against; reported: the residual_paths of the run's reports
(schemas/report.schema.json), all of them together, the counts of a path
listed more than once added (a comdat function has one descriptor per
unit). Paths are {(identity, checksum): {Ball-Larus id: count}}, so a
function the tested corpus has with another checksum (stale) or lacks
(untested) has every path it executed residual.

The one definition for testsuite/residual/run_oracle.py (CTest's residual.*)
and bench/run_bench.py (`make bench`). Import it after
`sys.path.insert(0, <testsuite directory>)`, or run it on your own
program's files (docs/residual-mode.md, "Checking it yourself"):

  python3 residual_oracle.py [--paths-only] EXECUTED_CORPUS TESTED_CORPUS REPORT_DIR...

which prints both sets' sizes and each function whose residual paths
differ, then EXACT (exit 0) or MISMATCH (exit 1).
"""
import argparse
import glob
import json
import os
import signal
import sys


def _add_path(paths, function, path):
    counts = paths.setdefault(function, {})
    counts[path["id"]] = counts.get(path["id"], 0) + path["count"]


def _instrumented(corpus_file):
    with open(corpus_file, encoding="utf-8") as f:
        return [fn for fn in json.load(f)["functions"] if "skipped" not in fn]


def _paths_of(functions):
    paths = {}
    for fn in functions:
        key = (fn["identity"], fn["checksum"])
        paths.setdefault(key, {})
        for p in fn["paths"]:
            _add_path(paths, key, p)
    return paths


def corpus_paths(corpus_file):
    """The paths a corpus ran: every instrumented function, {} for one that
    ran none (a stale function's checksum counts, run or not)."""
    return _paths_of(_instrumented(corpus_file))


def tested_paths(corpus_file):
    """corpus_paths, with each copy of a header's static function of a
    corpus from before stop 51 (named by its unit, `low.c:clamp`, its file
    another: `clamp.h`) also under the header's identity (`clamp.h:clamp`),
    all copies' paths together, as residual mode reads such a corpus
    (headerIdentityOf, TestedPathScan.cc)."""
    functions = _instrumented(corpus_file)
    paths = _paths_of(functions)
    for fn in functions:
        identity, file = fn["identity"], fn.get("file", "")
        colon = identity.rfind(":")
        if colon < 0 or not file or identity[:colon] == file:
            continue
        alias = paths.setdefault((file + identity[colon:], fn["checksum"]), {})
        for i, n in paths[(identity, fn["checksum"])].items():
            alias[i] = alias.get(i, 0) + n
    return paths


def reports_in(directory):
    """The report documents in `directory` (*.json), by name; none when it
    does not exist (a run that wrote no report)."""
    reports = []
    for name in sorted(glob.glob(os.path.join(directory, "*.json"))):
        with open(name, encoding="utf-8") as f:
            reports.append(json.load(f))
    return reports


def report_paths(reports, listed="residual_paths"):
    """The paths the report documents list (residual_paths, or tested_paths
    with count-tested=1), counts added over all of them."""
    paths = {}
    for report in reports:
        for p in report[listed]:
            _add_path(paths, (p["identity"], p["checksum"]), p)
    return paths


def expected_residual(executed, tested):
    """The executed paths the tests never ran, by function (none empty)."""
    residual = {}
    for key, counts in executed.items():
        left = {i: n for i, n in counts.items()
                if i not in tested.get(key, {})}
        if left:
            residual[key] = left
    return residual


def mismatches(expected, reported):
    """[(function, missing ids, extra ids, ids with another count)] of each
    function whose reported residual paths are not the expected ones, sorted
    by function; [] is the oracle's pass."""
    found = []
    for key in sorted(set(expected) | set(reported)):
        want, got = expected.get(key, {}), reported.get(key, {})
        if want != got:
            found.append((key, sorted(set(want) - set(got)),
                          sorted(set(got) - set(want)),
                          sorted(i for i in set(want) & set(got)
                                 if want[i] != got[i])))
    return found


def check_reports(executed_corpus, tested_corpus, reports_directory):
    """The oracle on files: the paths the executed corpus ran that the
    tested corpus did not, and the mismatches (above) of the reports in
    `reports_directory` against them."""
    expected = expected_residual(corpus_paths(executed_corpus),
                                 tested_paths(tested_corpus))
    return expected, mismatches(
        expected, report_paths(reports_in(reports_directory)))


def summary(paths):
    return {"paths": sum(map(len, paths.values())),
            "functions": sum(1 for counts in paths.values() if counts),
            "runs": sum(sum(counts.values()) for counts in paths.values())}


def main(argv):
    ap = argparse.ArgumentParser(
        description="The residual oracle: the residual paths the reports in "
        "REPORT_DIR list must be the paths EXECUTED_CORPUS ran (a record "
        "build's profiles of the same runs, collected) that TESTED_CORPUS "
        "(the corpus the release was built against) did not, with their "
        "counts. Exit 0: EXACT; 1: MISMATCH.")
    ap.add_argument("--paths-only", action="store_true",
                    help="compare the sets of paths, not their counts (a "
                    "program whose loops spin a varying number of times)")
    ap.add_argument("executed_corpus")
    ap.add_argument("tested_corpus")
    ap.add_argument("report_dir", nargs="+")
    args = ap.parse_args(argv)
    expected = expected_residual(corpus_paths(args.executed_corpus),
                                 tested_paths(args.tested_corpus))
    reported = report_paths(
        r for directory in args.report_dir for r in reports_in(directory))
    if args.paths_only:
        expected, reported = ({key: dict.fromkeys(counts, 1)
                               for key, counts in paths.items()}
                              for paths in (expected, reported))
    for name, paths in (("expected (executed - tested)", expected),
                        ("reported", reported)):
        print(f"{name}: {summary(paths)}")
    found = mismatches(expected, reported)
    for (identity, checksum), missing, extra, other_counts in found[:20]:
        print(f"{identity} ({checksum}): missing {missing}, extra {extra}, "
              f"other counts {other_counts}")
    if len(found) > 20:
        print(f"... and {len(found) - 20} more functions")
    print("MISMATCH" if found else "EXACT")
    return 1 if found else 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends it quietly
    sys.exit(main(sys.argv[1:]))
