#!/usr/bin/env python3
"""`pathcov merge` reads a corpus file as it streams, and standard input
whole (nlohmann's document, as every other tool reads a corpus): on every
input of the corpus readers' fuzzing queues (testsuite/fuzz/corpus and
tested-paths) and the tests' corpora, accepted and refused ones, both must
agree: the same exit
status, and when accepted, the same corpus byte for byte.

Usage: merge_streamed.py PATHCOV WORKDIR SEED_DIR...
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import FAILURES, check, finish  # noqa: E402


def merge(pathcov, output, source, stdin=None):
    run = subprocess.run([pathcov, "merge", "-q", "-o", output, source],
                         stdin=stdin, capture_output=True, encoding="utf-8",
                         errors="replace")
    # A refusal writes nothing (and /dev/null is no reference: on one
    # machine something run as root had replaced it with a regular file).
    if run.returncode != 0:
        return run.returncode, b"", run.stderr
    with open(output, "rb") as f:
        return run.returncode, f.read(), run.stderr


def main():
    pathcov, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    inputs = sorted(os.path.join(d, name) for d in sys.argv[3:]
                    for name in os.listdir(d))
    accepted = 0
    for path in inputs:
        # merge takes *.json files; the queue's names have no extension.
        source = os.path.join(work, "input.json")
        with open(path, "rb") as f, open(source, "wb") as out:
            out.write(f.read())
        streamed = merge(pathcov, os.path.join(work, "streamed.json"), source)
        with open(source, "rb") as f:
            whole = merge(pathcov, os.path.join(work, "whole.json"), "-", stdin=f)
        check(streamed[0] == whole[0],
              f"{path}: exit {streamed[0]} streamed, {whole[0]} read whole\n"
              f"      {streamed[2].strip()} | {whole[2].strip()}")
        check(streamed[1] == whole[1], f"{path}: another corpus streamed",
              f"exit {streamed[0]}, {len(streamed[1])} bytes streamed, "
              f"{len(whole[1])} read whole: {streamed[2].strip()[:200]} | "
              f"{whole[2].strip()[:200]}")
        accepted += streamed[0] == 0
    check(accepted > 0, "some inputs are accepted corpora")
    return finish(FAILURES, f"ok: {len(inputs)} inputs ({accepted} accepted) "
                  "merged alike streamed and read whole")


if __name__ == "__main__":
    sys.exit(main())
