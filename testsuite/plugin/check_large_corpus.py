#!/usr/bin/env python3
"""A large corpus through its index compiles exactly what the JSON says.

The corpus of short_circuits.c grown by 10,000 synthetic functions
(scripts/make-large-corpus.py): the object compiled against it is the one
compiled against the small corpus, whether the JSON is read (a directory
others can write: no index), indexed, or looked up in the index; a corpus
rewritten in place or replaced is indexed again; compilations started
together index it once, and the others use that index.

usage: check_large_corpus.py PLUGIN RUNTIME PATHCOV WORKDIR"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from testlib import (FAILURES, check, finish, fresh_directory,  # noqa: E402
                     recorded_corpus)

SOURCE = os.path.join(HERE, "short_circuits.c")
MAKE_CORPUS = os.path.join(HERE, "..", "..", "scripts", "make-large-corpus.py")


def residual_command(corpus, output, stats):
    return ["gcc", "-O2", f"-fplugin={PLUGIN}", "-fplugin-arg-pathcov-mode=residual",
            f"-fplugin-arg-pathcov-corpus={corpus}",
            f"-fplugin-arg-pathcov-stats={stats}", "-c", SOURCE, "-o", output]


def sources(stats):
    """How each compilation that appended to `stats` read its corpus."""
    if not os.path.exists(stats):
        return []
    return [json.loads(line)["corpus"] for line in open(stats)]


def same(a, b):
    return os.path.exists(a) and os.path.exists(b) and \
        open(a, "rb").read() == open(b, "rb").read()


def main():
    global PLUGIN
    PLUGIN, runtime, pathcov, work = sys.argv[1:5]
    fresh_directory(work)

    small = os.path.join(work, "small", "corpus.json")
    os.makedirs(os.path.dirname(small))
    recorded_corpus(PLUGIN, runtime, pathcov, [SOURCE], work, small, ["3"])
    large = os.path.join(work, "large.json")
    subprocess.run([sys.executable, MAKE_CORPUS, "--include", small, "10000", large],
                   check=True)
    check(len(json.load(open(large))["functions"]) ==
          len(json.load(open(small))["functions"]) + 10000,
          "the large corpus has 10,000 more functions")

    stats = os.path.join(work, "stats.jsonl")
    reference = os.path.join(work, "reference.o")
    r = subprocess.run(residual_command(small, reference, stats),
                       capture_output=True, text=True)
    check(r.returncode == 0, "against the small corpus: builds", r.stderr)

    # No index: a directory others can write.
    shared = os.path.join(work, "shared")
    os.makedirs(shared)
    os.chmod(shared, 0o777)
    shutil.copy(large, os.path.join(shared, "corpus.json"))
    output = os.path.join(work, "json.o")
    os.remove(stats)
    subprocess.run(residual_command(os.path.join(shared, "corpus.json"), output, stats),
                   check=True)
    check(same(output, reference), "JSON only: the same object")
    check(sources(stats) == ["json"] and
          os.listdir(shared) == ["corpus.json"],
          "JSON only: read as JSON, no index left", str(sources(stats)))

    # Indexed, then looked up.
    home = os.path.join(work, "home")
    os.makedirs(home)
    corpus = os.path.join(home, "corpus.json")
    shutil.copy(large, corpus)
    os.remove(stats)
    for name in ("indexed.o", "index.o"):
        output = os.path.join(work, name)
        subprocess.run(residual_command(corpus, output, stats), check=True)
        check(same(output, reference), f"{name}: the same object")
    check(sources(stats) == ["indexed", "index"], "indexed once, then looked up",
          str(sources(stats)))

    # The corpus rewritten in place (same bytes, new times), then replaced
    # by a rename (a new inode): each time indexed again.
    with open(corpus, "r+b") as f:
        data = f.read()
        f.seek(0)
        f.write(data)
    replacement = corpus + ".new"
    shutil.copy(large, replacement)
    os.remove(stats)
    output = os.path.join(work, "rewritten.o")
    subprocess.run(residual_command(corpus, output, stats), check=True)
    os.rename(replacement, corpus)
    subprocess.run(residual_command(corpus, output, stats), check=True)
    check(sources(stats) == ["indexed", "indexed"], "a changed corpus is indexed again",
          str(sources(stats)))
    check(same(output, reference), "a changed corpus: the same object")

    # Four compilations at once against a corpus without an index.
    together = os.path.join(work, "together")
    os.makedirs(together)
    corpus = os.path.join(together, "corpus.json")
    shutil.copy(large, corpus)
    os.remove(stats)
    outputs = [os.path.join(work, f"together{i}.o") for i in range(4)]
    running = [subprocess.Popen(residual_command(corpus, o, stats)) for o in outputs]
    check(all(p.wait() == 0 for p in running), "together: all build")
    check(sorted(sources(stats)) == ["index", "index", "index", "indexed"],
          "together: indexed once, the others use the index",
          str(sources(stats)))
    check(all(same(o, reference) for o in outputs), "together: the same objects")
    check(sorted(os.listdir(together)) == ["corpus.json", "corpus.json.pathcov-cache",
                                           "corpus.json.pathcov-cache.lock"],
          "together: no temporary file left",
          str(os.listdir(together)))

    return finish(FAILURES, "ok: a large corpus compiles the same through its index")


if __name__ == "__main__":
    sys.exit(main())
