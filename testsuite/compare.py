#!/usr/bin/env python3
"""Runs a command and compares the JSON it writes with an expected file.

usage: compare.py EXPECTED [--stdin FILE] [--output FILE] -- COMMAND...

The command must exit with 0. Its JSON is read from standard output, or
from --output FILE if the command writes there. The comparison is semantic:
object key order and formatting do not matter, numbers compare by value
(floats within a relative 1e-12), and every difference is listed with its
JSON location.
"""
import argparse
import json
import math
import os
import subprocess
import sys


def differences(expected, actual, location="$"):
    """Yields one line per difference between two parsed JSON values."""
    def is_number(v):
        return isinstance(v, (int, float)) and not isinstance(v, bool)

    if is_number(expected) and is_number(actual):
        # Integers exactly: path ids go beyond a float's 53 bits.
        both_integers = isinstance(expected, int) and isinstance(actual, int)
        if not (expected == actual if both_integers else
                math.isclose(expected, actual, rel_tol=1e-12)):
            yield f"{location}: expected {expected!r}, got {actual!r}"
    elif isinstance(expected, dict) and isinstance(actual, dict):
        for key in expected.keys() - actual.keys():
            yield f"{location}.{key}: missing"
        for key in actual.keys() - expected.keys():
            yield f"{location}.{key}: unexpected"
        for key in expected.keys() & actual.keys():
            yield from differences(expected[key], actual[key],
                                   f"{location}.{key}")
    elif isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            yield (f"{location}: expected {len(expected)} elements, "
                   f"got {len(actual)}")
        for i, (e, a) in enumerate(zip(expected, actual)):
            yield from differences(e, a, f"{location}[{i}]")
    elif type(expected) is not type(actual) or expected != actual:
        yield (f"{location}: expected {json.dumps(expected)}, "
               f"got {json.dumps(actual)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("expected")
    parser.add_argument("--stdin", help="feed this file to the command")
    parser.add_argument("--output", help="read the JSON from this file")
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()

    if args.output and os.path.exists(args.output):
        os.remove(args.output)  # a stale file must not pass for new output
    stdin = open(args.stdin, "rb") if args.stdin else subprocess.DEVNULL
    run = subprocess.run(args.command, stdin=stdin, capture_output=True)
    if run.returncode != 0:
        sys.exit(f"FAIL: exit code {run.returncode}\n"
                 f"{run.stderr.decode(errors='replace')}")
    if args.output:
        with open(args.output, encoding="utf-8") as f:
            actual = json.load(f)
    else:
        actual = json.loads(run.stdout)
    with open(args.expected, encoding="utf-8") as f:
        expected = json.load(f)

    found = sorted(differences(expected, actual))
    if found:
        print(f"FAIL: output differs from {args.expected}:")
        print("\n".join(found))
        sys.exit(1)
    print(f"ok: output matches {args.expected}")


if __name__ == "__main__":
    main()
