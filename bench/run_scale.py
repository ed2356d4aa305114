#!/usr/bin/env python3
"""`make bench-scale`: what a large corpus costs a residual compilation.

For synthetic corpora of 10,000, 100,000 and 1,000,000 functions
(scripts/make-large-corpus.py, about 1.25 KB of JSON each): the wall time
and peak memory of compiling a one-function unit plainly, against the
corpus the first time (reading the JSON and writing the index), and
afterwards (through the index), and how many of 8 compilations started
together against a fresh copy indexed it. For 10,000 and 100,000 field
reports (one residual path each): merging them into a corpus, then
merging 1,000 more into the result (incremental: the old reports are not
read again). Prints Markdown tables and writes them to --output. Not part
of `make check` (the largest corpus is a gigabyte and takes minutes to
generate).

usage: run_scale.py --build build [--functions 10000,100000,1000000]
                    [--reports 10000,100000] [--output docs/bench-scale.md]"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "testsuite"))
from testlib import recorded_corpus  # noqa: E402
UNIT = "int one(int x) { return x > 3 ? x * 2 : x + 1; }\n"
MAIN = "int one(int);\nint main(int argc, char **argv) { return one(argc) > 100; }\n"


def timed(command):
    """(wall seconds, peak RSS in MB) of `command`: the time measured here
    (/usr/bin/time's has 10 ms steps), the memory by /usr/bin/time."""
    began = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M", *command],
                            capture_output=True, text=True)
    wall = time.perf_counter() - began
    if result.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}\n{result.stderr}")
    return wall, int(result.stderr.strip().splitlines()[-1]) / 1024


def compile_command(unit, plugin, corpus=None, stats=None):
    command = ["gcc", "-O2", "-c", unit, "-o", unit + ".o"]
    if corpus:
        command += [f"-fplugin={plugin}", "-fplugin-arg-pathcov-mode=residual",
                    f"-fplugin-arg-pathcov-corpus={corpus}"]
        if stats:
            command.append(f"-fplugin-arg-pathcov-stats={stats}")
    return command


def interleaved(commands, runs):
    """Each command's median wall time and peak memory over `runs` runs,
    the commands taking turns (A B A B ...) so that a change in the
    machine's load falls on all of them."""
    samples = [[] for _ in commands]
    for _ in range(runs):
        for i, command in enumerate(commands):
            samples[i].append(timed(command))
    return [(statistics.median(s[0] for s in ss), max(s[1] for s in ss))
            for ss in samples]


def unit_corpus(paths, work):
    """one.c's own corpus (its function tested on one of its 2 paths), and
    one.c compiled against it: what the unit must compile to against any
    corpus that holds it."""
    unit, main = os.path.join(work, "one.c"), os.path.join(work, "main.c")
    with open(main, "w") as f:
        f.write(MAIN)
    corpus_dir = os.path.join(work, "small")
    os.makedirs(corpus_dir)
    corpus = recorded_corpus(paths["plugin"], paths["runtime"], paths["pathcov"],
                             [unit, main], work, os.path.join(corpus_dir, "corpus.json"))
    subprocess.run(compile_command(unit, paths["plugin"], corpus), check=True)
    return corpus, open(unit + ".o", "rb").read()


def measure(functions, paths, work, runs, small, reference):
    plugin = paths["plugin"]
    corpus_dir = os.path.join(work, f"c{functions}")
    os.makedirs(corpus_dir)
    corpus = os.path.join(corpus_dir, "corpus.json")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "make-large-corpus.py"),
                    "--include", small, str(functions), corpus], check=True)
    unit = os.path.join(work, "one.c")
    first = timed(compile_command(unit, plugin, corpus))
    same_as_json = open(unit + ".o", "rb").read() == reference
    plain, later = interleaved([compile_command(unit, plugin),
                                compile_command(unit, plugin, corpus)], runs)
    same_as_index = open(unit + ".o", "rb").read() == reference
    index_bytes = os.path.getsize(corpus + ".pathcov-cache")
    # Eight compilations at once against a copy without an index.
    together_dir = os.path.join(work, f"t{functions}")
    os.makedirs(together_dir)
    together = os.path.join(together_dir, "corpus.json")
    shutil.copy(corpus, together)
    stats = os.path.join(work, f"stats{functions}.jsonl")
    units = []
    for i in range(8):
        units.append(os.path.join(work, f"unit{i}.c"))
        with open(units[-1], "w") as f:
            f.write(UNIT.replace("one", f"one{i}"))
    running = [subprocess.Popen(compile_command(u, plugin, together, stats))
               for u in units]
    if any(p.wait() != 0 for p in running):
        sys.exit("a compilation started together failed")
    sources = [json.loads(line)["corpus"] for line in open(stats)]
    result = {
        "functions": functions, "json_mb": os.path.getsize(corpus) / 2**20,
        "index_mb": index_bytes / 2**20,
        "plain_s": plain[0], "plain_mb": plain[1],
        "first_s": first[0], "first_mb": first[1],
        "later_s": later[0], "later_mb": later[1],
        "indexed_together": sources.count("indexed"),
        "used_index_together": sources.count("index"),
        "same_code": same_as_json and same_as_index,
    }
    shutil.rmtree(corpus_dir)
    shutil.rmtree(together_dir)
    return result


def write_reports(directory, count, first_pid):
    os.makedirs(directory)
    for pid in range(first_pid, first_pid + count):
        with open(os.path.join(directory, f"r{pid}.json"), "w") as f:
            json.dump({"format": "pathcov-report", "format_version": "2.0",
                       "module": "/srv/app", "build_id": "ab12", "pid": pid,
                       "started_ns": 1795000000000000000 + pid,
                       "written_ns": 1795000000000000000 + pid + 1000,
                       "reason": "exit", "dropped_paths": 0,
                       "residual_paths": [{"identity": f"src/m{pid % 97}.c:f{pid % 1000}",
                                           "checksum": "0123456789abcdef",
                                           "id": pid % 7, "count": 1 + pid % 5,
                                           "first_seen_ns": 1795000000000000000 + pid,
                                           "thread": pid}]}, f)


def measure_merge(reports, pathcov, work):
    """Merging `reports` reports into an empty corpus, then 1,000 more."""
    many = os.path.join(work, f"reports{reports}")
    write_reports(many, reports, 1)
    more = os.path.join(work, f"more{reports}")
    write_reports(more, 1000, reports + 1)
    corpus = os.path.join(work, f"merged{reports}.json")
    first = timed([pathcov, "merge", "-q", "-o", corpus, many])
    size = os.path.getsize(corpus)
    incremental = timed([pathcov, "merge", "-q", "-o", corpus, corpus, more])
    shutil.rmtree(many)
    shutil.rmtree(more)
    return {"reports": reports, "merge_s": first[0], "merge_mb": first[1],
            "corpus_mb": size / 2**20, "more_s": incremental[0],
            "more_mb": incremental[1]}


def merge_table(results):
    lines = [
        "",
        "## Merging field reports",
        "",
        "`pathcov merge -o corpus.json reports/`: N reports of one residual path "
        "each (97 units, 1,000 functions) into an empty corpus, then `pathcov "
        "merge -o corpus.json corpus.json more/` with 1,000 more (the old reports "
        "are not read again: the corpus holds their sightings). Wall time and "
        "peak memory of one run each.",
        "",
        "| reports | merge s | merge MB | corpus MB | +1,000 s | +1,000 MB |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(f"| {r['reports']:,} | {r['merge_s']:.2f} | {r['merge_mb']:.0f} "
                     f"| {r['corpus_mb']:.1f} | {r['more_s']:.2f} | {r['more_mb']:.0f} |")
    lines += ["", "Targets (issue 17): merging a million reports in memory that "
              "does not grow with the reports; incrementally (the corpus holds "
              "the old reports' sightings); a `kill -9` at any moment leaves the "
              "old corpus or the new one (`merge.kill`). The reports, their "
              "sightings and the list of inputs live in a temporary SQLite "
              "database with a 64 MiB cache (docs/merge.md, \"Memory\"); the "
              "corpus is read and written as it streams."]
    return "\n".join(lines) + "\n"


def table(results, runs):
    lines = [
        "# Large corpora (make bench-scale)",
        "",
        "Generated by `make bench-scale` (`bench/run_scale.py`) on "
        + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        + ": do not edit by hand, rerun it.",
        "",
        "A one-function unit compiled with `gcc -O2 -c`: plainly, and in residual "
        "mode against a synthetic corpus (`scripts/make-large-corpus.py`) the "
        "first time (the JSON read, the index written beside it) and afterwards "
        f"(through the index). Wall time: median of {runs} runs, plain and "
        "later interleaved (the first compilation: one run); memory: peak RSS (`/usr/bin/time`). Together: 8 "
        "compilations started at once against a copy of the corpus without an "
        "index, how many indexed it and how many used that index. The corpus "
        "holds one.c's own (recorded) beside the synthetic functions; same code: "
        "one.c's object, compiled the first time and through the index, is "
        "byte for byte the one compiled against one.c's corpus alone.",
        "",
        "| functions | JSON MB | index MB | plain s | plain MB | first s | first MB "
        "| later s | later MB | later - plain | together: indexed / used the index "
        "| same code |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r['functions']:,} | {r['json_mb']:.0f} | {r['index_mb']:.1f} "
            f"| {r['plain_s']:.3f} | {r['plain_mb']:.1f} | {r['first_s']:.2f} "
            f"| {r['first_mb']:.0f} | {r['later_s']:.3f} | {r['later_mb']:.1f} "
            f"| {1000 * (r['later_s'] - r['plain_s']):+.0f} ms, "
            f"{r['later_mb'] - r['plain_mb']:+.1f} MB "
            f"| {r['indexed_together']} / {r['used_index_together']} "
            f"| {'yes' if r['same_code'] else '**no**'} |")
    lines += ["", "Targets (issue 17): with 1,000,000 functions, a compilation through "
              "the index at most 20 ms and 20 MB above plain; indexing takes "
              "seconds, not minutes; compilations started together index once."]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--functions", default="10000,100000,1000000")
    parser.add_argument("--reports", default="10000,100000,1000000")
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--output", default=os.path.join(ROOT, "docs", "bench-scale.md"))
    args = parser.parse_args()
    paths = {name: os.path.abspath(os.path.join(args.build, *where)) for name, where in
             (("plugin", ("plugin", "pathcov.so")), ("pathcov", ("coverage", "pathcov")),
              ("runtime", ("runtime", "libpathcov-rt.a")))}
    work = tempfile.mkdtemp(prefix="pathcov-scale-")
    os.chmod(work, 0o755)
    try:
        with open(os.path.join(work, "one.c"), "w") as f:
            f.write(UNIT)
        small, reference = unit_corpus(paths, work)
        results = [measure(int(n), paths, work, args.runs, small, reference)
                   for n in args.functions.split(",") if n]
        merges = [measure_merge(int(n), paths["pathcov"], work)
                  for n in args.reports.split(",") if n]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    text = table(results, args.runs) + merge_table(merges)
    sys.stdout.write(text)
    with open(args.output, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
