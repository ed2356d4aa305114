#!/usr/bin/env python3
"""`pathcov collect` of k-paths (record mode's k=N, docs/record-mode.md,
"Paths across iterations"): the windows of several profiles add up.

Builds good/loop.c with -fplugin-arg-pathcov-k=2 and runs it once, to learn
its module, build-id and count()'s identity, checksum and num_paths. Then
writes profiles of count() by hand, each forest built from a stream of path
ids as the runtime builds it (the chapter's process_bl_path_id, below), so
that the expected windows are known whatever ids the compiler gives the
function's paths (ids 0, 1 and 2; the tools do not ask which paths can
follow which):
  - A, test kpaths/a, k=2, dropped 1: * 0 1 1 2
  - B, test kpaths/b, k=2, dropped 2: * 0 1 2 * 1 2
  - C, test kpaths/c, k=4:            * 0 1 1 2
and checks:
  - `collect A` and `collect B` alone: their windows, exactly;
  - `collect A B`: k 2, k_dropped 3, windows (0 1) 2 runs (a, b), (1 1) 1
    run (a), (1 2) 3 runs (a, b), and the single paths' sums; `collect B A`
    the same corpus byte for byte; every profile and corpus valid against
    its schema;
  - `collect A B C`: exit 3, nothing written, one line naming C: the
    function counted with k=4 and with k=2 before.
"""
import argparse
import glob
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import FAILURES, check, finish, must, run  # noqa: E402

START = None  # the chapter's `*`


def k_slab_forest(stream, k):
    """[[parent, id, count], ...] as the runtime lists a k-SF: parents
    first (KSlabBuilder in core/src/KPaths.cc)."""
    nodes, child = [], {}
    n, top, bottom = 0, -1, -1

    def find_or_add(parent, r):
        if (parent, r) not in child:
            child[(parent, r)] = len(nodes)
            nodes.append([parent, r, 0])
        return child[(parent, r)]

    for r in stream:
        if r is START:
            n, top = 0, -1
            continue
        if n % (k - 1) == 0:
            bottom = -1 if n == 0 else top
            top = find_or_add(-1, r)
        else:
            top = find_or_add(top, r)
        if bottom != -1:
            bottom = find_or_add(bottom, r)
            nodes[bottom][2] += 1
        else:
            nodes[top][2] += 1
        n += 1
    return nodes


def main():
    ap = argparse.ArgumentParser()
    for option in ("compiler", "plugin", "runtime", "pathcov", "workdir",
                   "source", "schemas"):
        ap.add_argument("--" + option, required=True)
    args = ap.parse_args()
    work = args.workdir
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    program = os.path.join(work, "loop")
    must([args.compiler, "-O2", "-g", f"-fplugin={args.plugin}",
          "-fplugin-arg-pathcov-k=2", args.source, "-o", program,
          args.runtime, "-lpthread"], "build loop.c with k=2")
    probe_dir = os.path.join(work, "probe")
    must([program, "4"], "a run",
         env=dict(os.environ, PATHCOV_PROFILE_DIR=probe_dir))
    probes = glob.glob(os.path.join(probe_dir, "pathcov-*.json"))
    if len(probes) != 1:
        sys.exit(f"FAIL: the run wrote {len(probes)} profiles, not 1")
    with open(probes[0], encoding="utf-8") as f:
        probe = json.load(f)
    count = [f for f in probe["functions"]
             if f["identity"].endswith(":count")]
    if len(count) != 1 or count[0]["num_paths"] < 3:
        sys.exit(f"FAIL: count() in the run's profile: {count}")
    count = count[0]
    if not any(kp["identity"] == count["identity"] and kp["k"] == 2
               for kp in probe.get("k_paths", [])):
        sys.exit("FAIL: the k=2 build's profile has no k_paths for count()")

    def profile(name, test, k, dropped, stream):
        ids = [r for r in stream if r is not START]
        runs = {i: ids.count(i) for i in sorted(set(ids))}
        doc = {
            "format": "pathcov-profile", "format_version": "2.0",
            "module": probe["module"], "build_id": probe["build_id"],
            "pid": 4242, "test": test, "reason": "exit",
            "functions": [{
                "identity": count["identity"], "checksum": count["checksum"],
                "num_paths": count["num_paths"],
                "calls": stream.count(START),
                "paths": [[i, c] for i, c in runs.items()],
                "invalid_ids": 0, "dropped": 0}],
            "k_paths": [{
                "identity": count["identity"], "checksum": count["checksum"],
                "k": k, "dropped": dropped,
                "slab": k_slab_forest(stream, k)}]}
        path = os.path.join(work, f"pathcov-{name}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        return path, doc

    a, a_doc = profile("a", "kpaths/a", 2, 1, [START, 0, 1, 1, 2])
    b, b_doc = profile("b", "kpaths/b", 2, 2, [START, 0, 1, 2, START, 1, 2])
    c, _ = profile("c", "kpaths/c", 4, 0, [START, 0, 1, 1, 2])
    # The forests as the chapter's example draws them, checked once by hand.
    check(a_doc["k_paths"][0]["slab"] ==
          [[-1, 0, 1], [-1, 1, 0], [0, 1, 1], [1, 1, 1], [-1, 2, 0],
           [1, 2, 1]], "A's forest", str(a_doc["k_paths"][0]["slab"]))
    check(b_doc["k_paths"][0]["slab"] ==
          [[-1, 0, 1], [-1, 1, 1], [0, 1, 1], [-1, 2, 0], [1, 2, 2]],
          "B's forest", str(b_doc["k_paths"][0]["slab"]))

    from jsonschema import Draft202012Validator

    def validator(name):
        with open(os.path.join(args.schemas, name), encoding="utf-8") as f:
            return Draft202012Validator(json.load(f))

    profile_schema = validator("profile.schema.json")
    corpus_schema = validator("corpus.schema.json")
    for path in (a, b, c, probes[0]):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        errors = [e.message for e in profile_schema.iter_errors(doc)]
        check(not errors, f"{path} against profile.schema.json",
              "; ".join(errors[:3]))

    def collect(*profiles, name):
        output = os.path.join(work, name)
        done = run([args.pathcov, "collect", "-o", output, *profiles])
        if (done.returncode, done.stderr) != (0, ""):
            sys.exit(f"FAIL: collect {name}: exit {done.returncode}: "
                     f"{done.stderr}")
        with open(output, "rb") as f:
            text = f.read()
        doc = json.loads(text)
        errors = [e.message for e in corpus_schema.iter_errors(doc)]
        check(not errors, f"corpus {name} against corpus.schema.json",
              "; ".join(errors[:3]))
        f = [f for f in doc["functions"] if f["identity"] == count["identity"]]
        return text, f[0]

    def window(ids, runs, *tests):
        return {"ids": ids, "count": runs, "tests": list(tests)}

    def expect(f, what, k_dropped, windows, paths):
        got = (f.get("k"), f.get("k_dropped"), f.get("k_paths"),
               [[p["id"], p["count"]] for p in f["paths"]])
        want = (2, k_dropped, windows, paths)
        check(got == want, what, f"got {got}, expected {want}")

    _, alone = collect(a, name="a.json")
    expect(alone, "A's windows", 1,
           [window([0, 1], 1, "kpaths/a"), window([1, 1], 1, "kpaths/a"),
            window([1, 2], 1, "kpaths/a")], [[0, 1], [1, 2], [2, 1]])
    _, alone = collect(b, name="b.json")
    expect(alone, "B's windows", 2,
           [window([0, 1], 1, "kpaths/b"), window([1, 2], 2, "kpaths/b")],
           [[0, 1], [1, 2], [2, 2]])
    both_text, both = collect(a, b, name="ab.json")
    expect(both, "the windows of A and B", 3,
           [window([0, 1], 2, "kpaths/a", "kpaths/b"),
            window([1, 1], 1, "kpaths/a"),
            window([1, 2], 3, "kpaths/a", "kpaths/b")],
           [[0, 2], [1, 4], [2, 3]])
    reversed_text, _ = collect(b, a, name="ba.json")
    check(reversed_text == both_text, "collect B A is not collect A B")

    # Another k for the same function: refused, naming the profile.
    output = os.path.join(work, "abc.json")
    refused = run([args.pathcov, "collect", "-o", output, a, b, c])
    want = (f"pathcov collect: {c}: function {count['identity']} has paths "
            "across iterations counted with k=4, and with k=2 before: record "
            "every test of a function with one k\n")
    check((refused.returncode, refused.stdout, refused.stderr) ==
          (3, "", want), "collect A B C (k=4 after k=2)",
          f"exit {refused.returncode}: {refused.stderr!r}")
    check(not os.path.exists(output), "collect A B C wrote a corpus")
    return finish(FAILURES, "ok: the windows of two k=2 profiles add up "
                  "exactly; a k=4 profile of the function is refused")


if __name__ == "__main__":
    sys.exit(main())
