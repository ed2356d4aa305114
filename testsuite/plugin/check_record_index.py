#!/usr/bin/env python3
"""Record mode indexes a path end's counter with the path's id itself where
nothing can resume a path mid-way, and masks the id into the counters
where something can (a setjmp receiver, an abnormal edge), on
record_index.c:

- in the plugin's dump, `scan`'s counts take no `& mask` and `guarded`'s
  do;
- the profile is exact: `scan` on 0, 3, .., 21 ran 8 iterations (4 odd, 3
  even after the first) and its exit, no invalid id; `guarded` was called
  twice, one call resumed by the longjmp;
- with array-threshold=1 (every function hashed, its paths counted in
  seen slots: abi.h), each path end finds its slot with a movzwl of the id
  and compares the id itself with the tag (no `leaq 1(id)`), and the
  profile is the same.

usage: check_record_index.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import FAILURES, check, finish, fresh_directory, functions_in, must  # noqa: E402

SOURCE = os.path.join(HERE, "record_index.c")


def masked_counts(body):
    """The number of counts whose index is an id masked with `&`."""
    masked = set(re.findall(r"(pathcov_index_\d+) = pathcov_id_\d+ & \d+;", body))
    counts = re.findall(r"\"\+m\" __pathcov_counters\.\d+\[(\w+)\]", body)
    return sum(1 for index in counts if index in masked), len(counts)


def wide(low):
    """The 64-bit register of a 16-bit one: ax -> rax, r8w -> r8."""
    return low[:-1] if low.endswith("w") else "r" + low


def record(program, profiles, pathcov, corpus):
    """{function: its corpus entry} of a run of `program` on 3."""
    r = subprocess.run([program, "3"], capture_output=True, text=True,
                       env={**os.environ, "PATHCOV_PROFILE_DIR": profiles})
    check(r.returncode == 0 and r.stdout == "4 2 -7\n",
          f"{program}: the output ({r.returncode}, {r.stdout!r})")
    must([pathcov, "collect", "-o", corpus, profiles], "collect")
    with open(corpus, encoding="utf-8") as f:
        return {fn["name"]: fn for fn in json.load(f)["functions"]}


def main():
    plugin, runtime, pathcov, work = sys.argv[1:5]
    fresh_directory(work)
    program = os.path.join(work, "record_index")
    must(["gcc", "-O2", f"-fplugin={plugin}", "-fdump-tree-all", SOURCE,
          "-o", program, runtime, "-lpthread"], "record build", cwd=work)
    bodies = functions_in(os.path.join(work, "*.pathcov"))
    masked, counts = masked_counts(bodies.get("scan", ""))
    check(masked == 0 and counts > 0,
          f"scan: no count masks its id ({masked} of {counts} do)")
    masked, counts = masked_counts(bodies.get("guarded", ""))
    check(masked > 0 and masked == counts,
          f"guarded (a setjmp): every count masks its id ({masked} of {counts} do)")

    functions = record(program, os.path.join(work, "profiles"), pathcov,
                       os.path.join(work, "corpus.json"))
    scan = functions.get("scan", {})
    counts = sorted(p["count"] for p in scan.get("paths", []))
    check(scan.get("calls") == 1 and counts == [1, 1, 3, 4] and
          scan.get("invalid_ids") == 0,
          f"scan: 1 call, paths run 1, 1, 3 and 4 times, no invalid id ({scan})")
    guarded = functions.get("guarded", {})
    check(guarded.get("calls") == 2 and guarded.get("resumes") == 1 and
          guarded.get("invalid_ids") == 0,
          f"guarded: 2 calls, 1 resumed, no invalid id ({guarded})")
    hashed = os.path.join(work, "hashed")
    threshold = "-fplugin-arg-pathcov-array-threshold=1"
    must(["gcc", "-O2", f"-fplugin={plugin}", threshold, "-S", SOURCE,
          "-o", hashed + ".s"], "hashed build, assembly", cwd=work)
    with open(hashed + ".s") as f:
        text = f.read()
    finds = re.findall(r"movzwl %(\w+), %\w+\n\tcmpq %(\w+), ", text)
    misses = text.count("call __pathcov_site_record_miss")
    check(misses > 0 and len(finds) == misses and
          all(wide(low) == id for low, id in finds) and "leaq 1(" not in text,
          f"hashed: {misses} path ends, {len(finds)} find their slot by movzwl "
          "and compare the id with the tag")
    must(["gcc", "-O2", f"-fplugin={plugin}", threshold, SOURCE, "-o", hashed,
          runtime, "-lpthread"], "hashed build", cwd=work)
    again = record(hashed, os.path.join(work, "hashed-profiles"), pathcov,
                   os.path.join(work, "hashed.json"))
    for name in ("scan", "guarded", "main"):
        paths = lambda fns: sorted((p["id"], p["count"]) for p in fns.get(name, {}).get("paths", []))
        check(paths(again) == paths(functions) and paths(functions),
              f"{name}: the same paths hashed as in the array "
              f"({paths(again)} against {paths(functions)})")
    return finish(FAILURES, "ok: ids index the counters unmasked where no path "
                  "resumes mid-way; hashed path ends find their slot by the id")


if __name__ == "__main__":
    sys.exit(main())
