#!/usr/bin/env python3
"""gcovr (Debian's 5.2) reads `pathcov report --format gcovr`: its line
totals, from `gcovr -a FILE --json-summary`, are pathcov's own (the
`--format json` summary's lines and lines_hit).

usage: gcovr_reads.py PATHCOV CORPUS WORKDIR"""
import json
import os
import subprocess
import sys


def main():
    pathcov, corpus, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    tracefile = os.path.join(work, "tracefile.json")
    subprocess.run([pathcov, "report", "--format", "gcovr", "-o", tracefile,
                    corpus], check=True)
    summary = json.loads(subprocess.run(
        [pathcov, "report", "--format", "json", corpus], check=True,
        capture_output=True, text=True).stdout)["totals"]
    gcovr = json.loads(subprocess.run(
        ["gcovr", "-a", tracefile, "--root", ".", "--json-summary"],
        check=True, capture_output=True, text=True, cwd=work).stdout)
    got = (gcovr["line_total"], gcovr["line_covered"])
    want = (summary["lines"], summary["lines_hit"])
    if got != want:
        sys.exit(f"FAIL: gcovr read {got} (lines, covered), pathcov's "
                 f"summary says {want}")
    print(f"ok: gcovr read {got[0]} lines, {got[1]} covered")


if __name__ == "__main__":
    main()
