#!/usr/bin/env python3
"""Runs a pathcov command and checks its exit code and what it wrote.

usage: check_output.py --exit-code N [--contains TEXT]... [--lacks TEXT]...
                       [--stderr-contains TEXT]... [--stderr-lacks TEXT]...
                       [--output FILE]
                       [--schema SCHEMA] [--json KEY=VALUE]... -- COMMAND...

The command must exit with N. What it wrote - FILE if given (the command's
-o), else its standard output - must contain every TEXT and no --lacks
TEXT; its standard error every --stderr-contains TEXT and no
--stderr-lacks TEXT. With --schema it must be JSON valid against SCHEMA (draft 2020-12),
and each --json KEY=VALUE (KEY: dot-separated, VALUE: JSON) must hold.
"""
import argparse
import json
import os
import subprocess
import sys

from jsonschema import Draft202012Validator


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exit-code", type=int, required=True)
    parser.add_argument("--contains", action="append", default=[])
    parser.add_argument("--lacks", action="append", default=[])
    parser.add_argument("--stderr-contains", action="append", default=[])
    parser.add_argument("--stderr-lacks", action="append", default=[])
    parser.add_argument("--output")
    parser.add_argument("--schema")
    parser.add_argument("--json", action="append", default=[])
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()

    if args.output and os.path.exists(args.output):
        os.remove(args.output)
    run = subprocess.run(args.command, capture_output=True, text=True)
    failures = []
    if run.returncode != args.exit_code:
        failures.append(f"exit code {run.returncode}, expected {args.exit_code}")
    written = run.stdout
    if args.output:
        if run.stdout:
            failures.append("wrote to standard output with -o")
        try:
            with open(args.output, encoding="utf-8") as f:
                written = f.read()
        except OSError as e:
            failures.append(f"no output file: {e}")
            written = ""
    for text in args.contains:
        if text not in written:
            failures.append(f"output lacks {text!r}")
    for text in args.stderr_contains:
        if text not in run.stderr:
            failures.append(f"standard error lacks {text!r}")
    for text in args.stderr_lacks:
        if text in run.stderr:
            failures.append(f"standard error has {text!r}")
    for text in args.lacks:
        if text in written:
            failures.append(f"output has {text!r}")
    if args.schema:
        with open(args.schema, encoding="utf-8") as f:
            schema = json.load(f)
        Draft202012Validator.check_schema(schema)
        try:
            doc = json.loads(written)
        except json.JSONDecodeError as e:
            doc = None
            failures.append(f"not JSON: {e}")
        if doc is not None:
            for error in Draft202012Validator(schema).iter_errors(doc):
                failures.append(f"schema: {list(error.absolute_path)}: "
                                f"{error.message}")
            for check in args.json:
                key, value = check.split("=", 1)
                found = doc
                for part in key.split("."):
                    found = (found[int(part)] if isinstance(found, list)
                             else found.get(part))
                if found != json.loads(value):
                    failures.append(f"{key} is {found!r}, expected {value}")
    if failures:
        print(f"FAIL: {' '.join(args.command)}")
        for failure in failures:
            print(f"  {failure}")
        print(f"--- output:\n{written}--- stderr:\n{run.stderr}")
        sys.exit(1)
    print(f"ok: {' '.join(args.command)}")


if __name__ == "__main__":
    main()
