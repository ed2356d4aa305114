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
from testlib import (FAILURES, check, finish, must,  # noqa: E402
                     tested_then_field)

SOURCE = os.path.join(HERE, "programs", "frames.cc")


def main():
    plugin, runtime, pathcov, work = sys.argv[1:5]
    reports = tested_then_field(plugin, runtime, pathcov, [SOURCE, "-lstdc++"],
                                work, ["5"], ["500"], ["-g0"])
    decoded = must([pathcov, "decode", reports], "pathcov decode").stdout
    contexts = [line for line in decoded.splitlines() if "called from" in line]
    check(len(contexts) == 1 and "in shapes::classify(int): called from "
          "shapes::Walker::step(int)" in contexts[0] and "_Z" not in contexts[0],
          "the context's C++ frames, demangled", decoded)
    # The C library's start-up frames but the first are left out of the
    # text (the JSON keeps them).
    check(contexts and contexts[0].endswith("<- main <- __libc_start_call_main "
                                            "(../sysdeps/nptl/libc_start_call_main.h:58)")
          and "<- _start" not in contexts[0]
          and "__libc_start_main_impl" not in contexts[0],
          "the context's text stops at main's caller", contexts)
    as_json = must([pathcov, "decode", "--json", reports], "decode --json").stdout
    check('"_start"' in as_json, "decode --json keeps every frame", as_json[-2000:])
    return finish(FAILURES, "ok: C++ frames from the symbol table, demangled")


if __name__ == "__main__":
    sys.exit(main())
