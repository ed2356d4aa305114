#!/usr/bin/env python3
"""A process that used up its memory mappings (programs/no_mappings_left.c)
still writes its profile at exit: the runtime maps the scratch it lists
paths in at start-up (record.c). The profile holds main's and mapped()'s
paths.

usage: check_no_mappings_left.py CC PLUGIN RUNTIME WORKDIR"""
import glob
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import FAILURES, check, finish, must  # noqa: E402


def main():
    cc, plugin, runtime, work = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    program = os.path.join(work, "no_mappings_left")
    must([cc, "-O2", f"-fplugin={plugin}",
          os.path.join(HERE, "programs", "no_mappings_left.c"), "-o", program,
          runtime, "-lpthread"], "build")
    profiles = os.path.join(work, "profiles")
    run = must([program], "run", env={**os.environ,
                                       "PATHCOV_PROFILE_DIR": profiles})
    check(run.stdout == "1\n" and run.stderr == "",
          "it used up its mappings, and nothing was said", run.stdout + run.stderr)
    written = glob.glob(os.path.join(profiles, "*"))
    check(len(written) == 1, "one profile", str(written))
    names = {f["identity"].rsplit(":", 1)[-1] for name in written
             for f in json.load(open(name))["functions"] if f["paths"]}
    check(names == {"main", "mapped"}, "main's and mapped's paths", str(names))
    return finish(FAILURES, "ok: a profile with no mapping left")


if __name__ == "__main__":
    sys.exit(main())
