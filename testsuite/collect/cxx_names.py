#!/usr/bin/env python3
"""`pathcov show -f` takes a C++ function by the name people write: with or
without its scope, without its return type and parameters
("scanNext", "shapes::Scanner::scanNext", "operator<", "twice"), as well as
by its full name, identity or assembler name; a name of none still
matches nothing.

usage: cxx_names.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import FAILURES, check, finish, fresh_directory, recorded_corpus  # noqa: E402

SOURCE = os.path.join(HERE, "cxx_names_src", "names.cc")
EXPECTED = {
    "scanNext": "int shapes::Scanner::scanNext(int)",
    "shapes::Scanner::scanNext": "int shapes::Scanner::scanNext(int)",
    "operator<": "bool shapes::Scanner::operator<(const shapes::Scanner&) const",
    "shapes::twice*": "T shapes::twice(T) [with T = int]",
    "twice": "T shapes::twice(T) [with T = int]",
    "int main(int, char**)": "int main(int, char**)",
    "_ZN6shapes7Scanner8scanNextEi": "int shapes::Scanner::scanNext(int)",
}


def main():
    plugin, runtime, pathcov, work = sys.argv[1:5]
    fresh_directory(work)
    # recorded_corpus builds with gcc, which compiles C++ by the extension;
    # the link needs libstdc++.
    corpus = recorded_corpus(plugin, runtime, pathcov, [SOURCE, "-lstdc++"],
                             fresh_directory(os.path.join(work, "tests")),
                             os.path.join(work, "corpus.json"), args=["1"])
    for pattern, name in EXPECTED.items():
        r = subprocess.run([pathcov, "show", "-f", pattern, corpus],
                           capture_output=True, text=True)
        headings = [line for line in r.stdout.splitlines() if ": " in line and
                    not line.startswith(" ")]
        check(r.returncode == 0 and len(headings) == 1 and name in headings[0],
              f"-f {pattern!r} shows {name}", r.stdout + r.stderr)
    r = subprocess.run([pathcov, "show", "-f", "scan", corpus],
                       capture_output=True, text=True)
    check(r.returncode != 0 and "no function matches" in r.stderr,
          "-f 'scan' matches nothing", r.stdout + r.stderr)
    return finish(FAILURES, "ok: C++ functions by the names people write")


if __name__ == "__main__":
    sys.exit(main())
