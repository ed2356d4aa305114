#!/usr/bin/env python3
"""`pathcov merge` of k-paths (record mode's k=N, docs/record-mode.md,
"Paths across iterations"), on good/loop.c recorded with k=2:

  A  collect/good/corpus-kpaths.json: `loop 5` and `loop 3` (tests loop/5,
     loop/3), k_dropped 0;
  B  kpaths/b.json: `loop 7` and `loop 4` (loop/7, loop/4), k_dropped set
     to 3 by hand (a full arena is not easily had);
  N  kpaths/no-k.json: `loop 2` (loop/2) built without k.

count()'s paths: 0 enters the loop and runs i = 0, 3 and 4 run an
iteration with i % 3 == 0 or not, 5 leaves; so `loop 5` runs 0 4 4 3 4 5,
`loop 3` 0 4 4 5, `loop 7` 0 4 4 3 4 4 3 5 and `loop 4` 0 4 4 3 5. Checks:
  - A B: k 2, k_dropped 3, each window's runs added up and its tests
    united (the numbers below, counted by hand from those runs), the
    single paths too; B A the same corpus byte for byte;
  - A N and N A: the same corpus, with A's k and windows (N has none) and
    the single paths of both;
  - A A: A's windows, not doubled (the same profiles);
  - A B N in one merge: A B's windows;
  - every corpus valid against corpus.schema.json, and `pathcov show
    --json` of A B against show.schema.json: at most --max-paths windows
    (k_truncated), and with --path only the windows that run it.

Usage: merge_kpaths.py PATHCOV A MERGE_DIR SCHEMA_DIR WORKDIR
"""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import FAILURES, check, finish, run  # noqa: E402

from jsonschema import Draft202012Validator  # noqa: E402


def window(ids, runs, *tests):
    return {"count": runs, "ids": ids, "tests": sorted(tests)}


# A's windows (collect/good/corpus-kpaths.json).
A_WINDOWS = [
    window([0, 4], 2, "loop/3", "loop/5"),
    window([3, 4], 1, "loop/5"),
    window([4, 3], 1, "loop/5"),
    window([4, 4], 2, "loop/3", "loop/5"),
    window([4, 5], 2, "loop/3", "loop/5"),
]
A_PATHS = [[0, 2], [3, 1], [4, 5], [5, 2]]
# A and B's: B has (0 4) 2 runs, (3 4) 1, (3 5) 2, (4 3) 3, (4 4) 3.
AB_WINDOWS = [
    window([0, 4], 4, "loop/3", "loop/4", "loop/5", "loop/7"),
    window([3, 4], 2, "loop/5", "loop/7"),
    window([3, 5], 2, "loop/4", "loop/7"),
    window([4, 3], 4, "loop/4", "loop/5", "loop/7"),
    window([4, 4], 5, "loop/3", "loop/4", "loop/5", "loop/7"),
    window([4, 5], 2, "loop/3", "loop/5"),
]
AB_PATHS = [[0, 4], [3, 4], [4, 11], [5, 4]]
# A and N's single paths (N: 0 4 5 once).
AN_PATHS = [[0, 3], [3, 1], [4, 6], [5, 3]]
ABN_PATHS = [[0, 5], [3, 4], [4, 12], [5, 5]]


def main():
    pathcov, a, merge_dir, schemas, work = sys.argv[1:6]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    b = os.path.join(merge_dir, "kpaths", "b.json")
    n = os.path.join(merge_dir, "kpaths", "no-k.json")

    def validator(name):
        with open(os.path.join(schemas, name), encoding="utf-8") as f:
            return Draft202012Validator(json.load(f))

    corpus_schema = validator("corpus.schema.json")
    show_schema = validator("show.schema.json")

    def valid(doc, schema, what):
        errors = [e.message for e in schema.iter_errors(doc)]
        check(not errors, f"{what}: not valid", "; ".join(errors[:3]))

    def merge(name, *inputs):
        output = os.path.join(work, name + ".json")
        done = run([pathcov, "merge", "-q", "-o", output, *inputs])
        if done.returncode != 0:
            check(False, f"merge {name}: exit {done.returncode}", done.stderr)
            return b"", None
        with open(output, "rb") as f:
            text = f.read()
        doc = json.loads(text)
        valid(doc, corpus_schema, f"merge {name}")
        return text, [f for f in doc["functions"]
                      if f["identity"].endswith(":count")][0]

    def expect(f, what, k, k_dropped, windows, paths):
        got = (f.get("k"), f.get("k_dropped"), f.get("k_paths"),
               [[p["id"], p["count"]] for p in f["paths"]])
        want = (k, k_dropped, windows, paths)
        check(got == want, what, f"got {got}, expected {want}")

    ab_text, ab = merge("ab", a, b)
    expect(ab, "A B", 2, 3, AB_WINDOWS, AB_PATHS)
    ba_text, _ = merge("ba", b, a)
    check(ba_text == ab_text, "merge B A is not merge A B")

    an_text, an = merge("an", a, n)
    expect(an, "A N", 2, 0, A_WINDOWS, AN_PATHS)
    na_text, _ = merge("na", n, a)
    check(na_text == an_text, "merge N A is not merge A N")
    _, n_alone = merge("n", n)
    check("k" not in n_alone and "k_paths" not in n_alone,
          "N alone has k-paths", str(n_alone.get("k_paths")))

    _, aa = merge("aa", a, a)
    expect(aa, "A A", 2, 0, A_WINDOWS, A_PATHS)
    _, abn = merge("abn", a, b, n)
    expect(abn, "A B N", 2, 3, AB_WINDOWS, ABN_PATHS)

    # What show prints of A B.
    def show(*options):
        done = run([pathcov, "show", "--json", "-f", "count", *options,
                    os.path.join(work, "ab.json")])
        check(done.returncode == 0, f"show {options}: exit {done.returncode}",
              done.stderr)
        doc = json.loads(done.stdout or "{}")
        valid(doc, show_schema, f"show --json {' '.join(options)}")
        f = doc.get("functions", [{}])[0]
        return (f.get("k"), f.get("k_dropped"), f.get("k_paths"),
                f.get("k_truncated"))

    for options, want in [
            ((), (2, 3, AB_WINDOWS, False)),
            (("--max-paths", "2"), (2, 3, AB_WINDOWS[:2], True)),
            (("--path", "5"), (2, 3, [AB_WINDOWS[2], AB_WINDOWS[5]], False))]:
        got = show(*options)
        check(got == want, f"show --json {' '.join(options)}",
              f"got {got}, expected {want}")

    return finish(FAILURES, "ok: k-paths merged: counts added, tests "
                  "united, k kept over a corpus without it")


if __name__ == "__main__":
    sys.exit(main())
