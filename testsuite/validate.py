#!/usr/bin/env python3
"""Validates JSON documents against a JSON Schema (draft 2020-12).

usage: validate.py [--invalid] SCHEMA [FILE...] [--output-of COMMAND...]

Checks the schema itself, then every FILE and, if a command is given, what
it writes on standard output (it must exit with 0). With --invalid every
FILE must be rejected instead - not JSON at all, or not valid - which shows
that the schema catches what it should.
"""
import argparse
import json
import subprocess
import sys

from jsonschema import Draft202012Validator


def problems(validator, document):
    """One line per schema violation, with its JSON location."""
    for error in sorted(validator.iter_errors(document), key=str):
        location = "".join(f"[{p}]" if isinstance(p, int) else f".{p}"
                           for p in error.absolute_path)
        yield f"${location}: {error.message}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("schema")
    parser.add_argument("--invalid", action="store_true",
                        help="expect every FILE to be rejected")
    parser.add_argument("files", nargs="*")
    parser.add_argument("--output-of", dest="command", default=[],
                        nargs=argparse.REMAINDER, metavar="COMMAND",
                        help="also validate what this command prints")
    args = parser.parse_args()
    command = args.command

    with open(args.schema, encoding="utf-8") as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)

    failed = False
    for name in args.files:
        try:
            with open(name, encoding="utf-8") as f:
                found = list(problems(validator, json.load(f)))
        except json.JSONDecodeError as e:
            found = [f"not JSON: {e}"]
        if args.invalid and not found:
            print(f"FAIL: {name}: accepted, but should be invalid")
            failed = True
        elif not args.invalid and found:
            print(f"FAIL: {name}:\n  " + "\n  ".join(found))
            failed = True
        else:
            print(f"ok: {name}" + (f" ({found[0]})" if found else ""))

    if command:
        run = subprocess.run(command, capture_output=True)
        if run.returncode != 0:
            sys.exit(f"FAIL: {' '.join(command)}: exit code {run.returncode}\n"
                     f"{run.stderr.decode(errors='replace')}")
        found = list(problems(validator, json.loads(run.stdout)))
        if found:
            print(f"FAIL: output of {' '.join(command)}:\n  " +
                  "\n  ".join(found))
            failed = True
        else:
            print(f"ok: output of {' '.join(command)}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
