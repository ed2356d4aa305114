#!/usr/bin/env python3
"""Runs a command that must fail in a given way.

usage: expect_error.py --exit-code N [--one-line] [--stdin FILE]
                       [--stderr-contains TEXT]... -- COMMAND...

The command must exit with N, print nothing on standard output and print
every TEXT on standard error; with --one-line, standard error must be a
single line.
"""
import argparse
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exit-code", type=int, required=True)
    parser.add_argument("--one-line", action="store_true")
    parser.add_argument("--stdin", help="feed this file to the command")
    parser.add_argument("--stderr-contains", action="append", default=[],
                        metavar="TEXT")
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()

    stdin = open(args.stdin, "rb") if args.stdin else subprocess.DEVNULL
    run = subprocess.run(args.command, stdin=stdin, capture_output=True)
    stderr = run.stderr.decode(errors="replace")
    failures = []
    if run.returncode != args.exit_code:
        failures.append(
            f"exit code {run.returncode}, expected {args.exit_code}")
    if run.stdout:
        failures.append(f"unexpected output: {run.stdout[:200]!r}")
    if args.one_line and stderr.count("\n") != 1:
        failures.append("standard error is not exactly one line")
    for text in args.stderr_contains:
        if text not in stderr:
            failures.append(f"standard error lacks {text!r}")
    if failures:
        print("FAIL: " + "\n      ".join(failures))
        print(f"standard error was:\n{stderr}")
        sys.exit(1)
    print(f"ok: exit code {run.returncode}: {stderr.strip()}")


if __name__ == "__main__":
    main()
