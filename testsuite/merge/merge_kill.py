#!/usr/bin/env python3
"""`pathcov merge -o corpus.json corpus.json reports/` killed with SIGKILL
at any moment leaves corpus.json as it was or as the finished merge
writes it, never part of either (docs/merge.md: the output is replaced by
a rename once complete and synced).

The kill lands at 16 moments spread over a merge of 3,000 reports into
the collect tests' corpus (and a little beyond its length, measured
first); after each, the corpus's bytes must be the old ones or the new
ones. How many were which is printed (the moments depend on the load).

usage: merge_kill.py PATHCOV CORPUS WORKDIR"""
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from merge_algebra import FIG3, report, write  # noqa: E402
from testlib import finish  # noqa: E402


def main():
    pathcov, corpus, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    reports = os.path.join(work, "reports")
    os.makedirs(reports)
    checksum = next(f for f in json.load(open(corpus))["functions"]
                    if f["identity"] == FIG3)["checksum"]
    for pid in range(1, 3001):
        write(os.path.join(reports, f"r{pid}.json"),
              report(pid, "ab12", [(FIG3, checksum, 1 + pid % 3, pid, pid)]))
    old = open(corpus, "rb").read()
    target = os.path.join(work, "corpus.json")

    def start():
        with open(target, "wb") as f:
            f.write(old)
        return subprocess.Popen([pathcov, "merge", "-q", "-o", target, target, reports],
                                stderr=subprocess.PIPE)

    began = time.monotonic()
    finished = start()
    if finished.wait() != 0:
        sys.exit(f"FAIL: the merge: {finished.stderr.read().decode()}")
    took = time.monotonic() - began
    new = open(target, "rb").read()
    failures = []
    if new == old:
        failures.append("the merge changed nothing")
    seen = []
    for k in range(16):
        running = start()
        time.sleep(took * k / 12)
        running.kill()
        running.wait()
        now = open(target, "rb").read()
        state = "old" if now == old else "new" if now == new else None
        if state is None:
            failures.append(f"killed after {took * k / 12:.3f} s: the corpus is "
                            f"neither the old nor the new one ({len(now)} bytes)")
        seen.append(state)
    return finish(failures, f"ok: 16 kills over a {took:.2f} s merge left the old "
                  f"corpus {seen.count('old')} times, the new one "
                  f"{seen.count('new')} times, never anything else")


if __name__ == "__main__":
    sys.exit(main())
