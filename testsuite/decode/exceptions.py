#!/usr/bin/env python3
"""Residual paths that leave a function by an exception, as decode says
them: sized's, through its string's cleanup, ends `[entry -> throw]`
(not "noreturn", though the cleanup ends in _Unwind_Resume), and where it
left the tested ground the tests' way is the call returning ("no throw, on
to line 16", not "on to line 16", the call's own line); check's, at the
throw statement, ends at a noreturn call (__cxa_throw). decode --json
gives `end: throw`, as schemas/decode.schema.json allows.

usage: exceptions.py PLUGIN RUNTIME PATHCOV WORKDIR SCHEMA"""
import json
import os
import sys

from jsonschema import Draft202012Validator

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import (FAILURES, check, finish, must,  # noqa: E402
                     tested_then_field)

SOURCE = os.path.join(HERE, "programs", "unwind.cc")


def main():
    plugin, runtime, pathcov, work, schema = sys.argv[1:6]
    reports = tested_then_field(plugin, runtime, pathcov, [SOURCE, "-lstdc++"],
                                work, ["1"], ["5"], ["-g"])
    decoded = must([pathcov, "decode", reports], "pathcov decode").stdout
    lines = decoded.splitlines()
    check(any(line.endswith("15 15 16(throw) 18(throw)  [entry -> throw]")
              for line in lines), "sized's path ends by the exception", decoded)
    check("residual path 1: 9(true) 10 10  [entry -> noreturn]" in decoded,
          "check's path ends at the throw's noreturn call", decoded)
    check("programs/unwind.cc:16: took throw, the tests that "
          "came this way always took no throw, on to line 16" in decoded,
          "the tests' way at the call is its return", decoded)
    as_json = json.loads(must([pathcov, "decode", "--json", reports],
                              "decode --json").stdout)
    ends = sorted(p["end"] for r in as_json["reports"]
                  for f in r["functions"] for p in f["paths"])
    check("throw" in ends and "noreturn" in ends, f"the paths' ends {ends}")
    with open(schema, encoding="utf-8") as f:
        errors = list(Draft202012Validator(json.load(f)).iter_errors(as_json))
    check(not errors, "decode --json against its schema",
          [e.message for e in errors[:3]])
    return finish(FAILURES, "ok: paths that leave by an exception")


if __name__ == "__main__":
    sys.exit(main())
