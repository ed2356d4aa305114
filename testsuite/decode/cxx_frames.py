#!/usr/bin/env python3
"""A residual path whose calling context runs through C++ functions, in a
build without debug information: decode names the frames from the symbol
table, demangled as c++filt would (`shapes::Walker::step(int)`, GCC's
clone suffix kept), not as the linker spells them (`_ZN6shapes6Walker...`).
A ninja build's frames read so under -flto.

usage: cxx_frames.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import (FAILURES, check, finish, fresh_directory, must,  # noqa: E402
                     recorded_corpus, residual_field_run)

SOURCE = os.path.join(HERE, "programs", "frames.cc")


def main():
    plugin, runtime, pathcov, work = sys.argv[1:5]
    fresh_directory(work)
    corpus = recorded_corpus(plugin, runtime, pathcov, [SOURCE, "-lstdc++"],
                             fresh_directory(os.path.join(work, "tests")),
                             os.path.join(work, "corpus.json"), args=["5"])
    flags = [f"-fplugin={plugin}", "-fplugin-arg-pathcov-mode=residual",
             f"-fplugin-arg-pathcov-corpus={corpus}", "-g0"]
    reports = residual_field_run(flags, [SOURCE, "-lstdc++"], runtime,
                                 fresh_directory(os.path.join(work, "field")),
                                 ["500"])
    decoded = must([pathcov, "decode", reports], "pathcov decode").stdout
    contexts = [line for line in decoded.splitlines() if "called from" in line]
    check(len(contexts) == 1 and "in shapes::classify(int): called from "
          "shapes::Walker::step(int)" in contexts[0] and "_Z" not in contexts[0],
          "the context's C++ frames, demangled", decoded)
    return finish(FAILURES, "ok: C++ frames from the symbol table, demangled")


if __name__ == "__main__":
    sys.exit(main())
