#!/usr/bin/env python3
"""Record mode: a function of one path whose calls were all inlined by the
early inliner counts its entries alone (PATHCOV_FN_CALLS_ARE_PATH, decided
after "einline": plugin/AccessorCounts.h), and one whose call may exit
keeps its path's count, on accessors.c:

- width's path end count is gone after the pass (its own counters named
  before, not after); checked's stays;
- the profile is exact either way: width's path ran 10 times in 10 calls;
  checked ran 3 times, its path completed twice (the third call exited in
  must_be_positive, exit status 3);
- thrice's three inlined calls of get count get's entries by one
  `addq $3` (plugin/CountMerge.h), around's two, on either side of a call
  that may exit, by two `addq $1`; get's path ran 44 times (10 calls from
  width, 30 from thrice, 4 from around's two calls before the exit, 10
  from sign);
- clamp (two paths, no call) never counts its entries; sign (two paths,
  its call of get inlined early) counts them before the early inliner and
  not after; the profile gives each 10 calls, clamp's paths run 6 and 4
  times, sign's one path 10 times;
- every function's entry count is a word of its own, next to the others
  (section .bss.pathcov_calls, abi.h's `calls`: eight to a cache line,
  where the descriptor gave each its own line).

usage: check_accessor_counts.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import FAILURES, check, finish, fresh_directory, functions_in, must  # noqa: E402

SOURCE = os.path.join(HERE, "accessors.c")


def own_counters(body):
    """The path-end counts of the function's own counters in its GIMPLE:
    `__pathcov_counters.N` for the N its descriptor names."""
    return len(re.findall(r"addq \$1, %0\" : \"\+m\" __pathcov_counters", body))


def main():
    plugin, runtime, pathcov, work = sys.argv[1:5]
    fresh_directory(work)
    program = os.path.join(work, "accessors")
    must(["gcc", "-O2", f"-fplugin={plugin}", "-fdump-tree-all", SOURCE,
          "-o", program, runtime, "-lpthread"], "record build", cwd=work)
    before = functions_in(os.path.join(work, "*.einline"))
    after = functions_in(os.path.join(work, "*.pathcov_accessor_counts"))
    check(own_counters(before.get("width", "")) == 1 and
          own_counters(after.get("width", "x")) == 0,
          "width: its path end's count gone after the early inliner",
          after.get("width", ""))
    check(own_counters(after.get("checked", "")) == 1,
          "checked (its call may exit): its path end's count kept",
          after.get("checked", ""))

    r = subprocess.run(["nm", "-S", "-n", program], capture_output=True, text=True)
    words = [(int(m.group(1), 16), int(m.group(2), 16)) for m in re.finditer(
        r"^([0-9a-f]+) ([0-9a-f]+) b __pathcov_calls\.\d+$", r.stdout, re.M)]
    check(len(words) == 8 and all(size == 8 for _, size in words) and
          words[-1][0] - words[0][0] == 8 * (len(words) - 1),
          "the 8 functions' entry counts: adjacent words (clamp has none)", str(words))
    merged = functions_in(os.path.join(work, "*.pathcov_merge_counts")).get("thrice", "")
    adds = re.findall(r"addq \$(\d+), %0\" : \"\+m\" __pathcov_calls", merged)
    check(sorted(adds) == ["1", "3"],
          "thrice: its entries by one addq $1, get's three by one addq $3", merged)
    merged = functions_in(os.path.join(work, "*.pathcov_merge_counts")).get("around", "")
    adds = re.findall(r"addq \$(\d+), %0\" : \"\+m\" __pathcov_calls", merged)
    check(adds == ["1", "1", "1"],
          "around: its entries and get's two, a call between them, by three addq $1",
          merged)
    # A function's own entry count, as the instrumentation made it, and
    # how often a body counts into it.
    made = functions_in(os.path.join(work, "*.pathcov"))
    own = re.search(r"__pathcov_calls\.\d+", made.get("sign", ""))
    entries = lambda body: body.count(own.group(0) + " ") if own else -1
    check(entries(before.get("sign", "")) == 1 and entries(after.get("sign", "x")) == 0,
          "sign: its entry count gone after the early inliner", after.get("sign", ""))
    check("clamp" in made and "__pathcov_calls" not in made["clamp"] and
          "__pathcov_counters" in made["clamp"],
          "clamp: its paths counted, not its entries", made.get("clamp", ""))
    profiles = os.path.join(work, "profiles")
    r = subprocess.run([program, "5", "7", "-1"], capture_output=True, text=True,
                       env={**os.environ, "PATHCOV_PROFILE_DIR": profiles})
    check(r.returncode == 3, f"the program exited with 3 ({r.returncode})")
    corpus = os.path.join(work, "corpus.json")
    must([pathcov, "collect", "-o", corpus, profiles], "collect")
    with open(corpus, encoding="utf-8") as f:
        functions = {fn["name"]: fn for fn in json.load(f)["functions"]}
    for name, calls, runs in (("width", 10, 10), ("checked", 3, 2), ("get", 54, 54),
                              ("thrice", 10, 10), ("around", 2, 2), ("clamp", 10, 10),
                              ("sign", 10, 10)):
        fn = functions.get(name, {})
        counted = sum(p["count"] for p in fn.get("paths", []))
        check(fn.get("calls") == calls and counted == runs,
              f"{name}: {calls} calls, its path completed {runs} times "
              f"(profile: {fn.get('calls')} calls, {counted} runs)")
    clamp = sorted(p["count"] for p in functions.get("clamp", {}).get("paths", []))
    check(clamp == [4, 6], f"clamp: its paths ran 4 and 6 times ({clamp})")
    return finish(FAILURES, "ok: accessors count their calls, exactly")


if __name__ == "__main__":
    sys.exit(main())
