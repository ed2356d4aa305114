#!/usr/bin/env python3
"""pathcov benchmark harness (`make bench`): Debian source packages built in
four variants (plain -O2, -O2 --coverage, pathcov record mode, pathcov
residual mode), each running a CPU-bound workload interleaved several times.

Writes docs/benchmarks.md (never edit it by hand). Standard library only.

Today: zlib and bzip2, residual scenario (a): the corpus is recorded on the
same workload, so the residual build must see no residual path.
"""

import argparse
import glob
import hashlib
import json
import os
import platform
import random
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANTS = ["plain", "gcov", "record", "residual"]
VARIANT_TITLE = {
    "plain": "-O2",
    "gcov": "-O2 --coverage",
    "record": "record",
    "residual": "residual (a)",
}
COMMANDS = []  # every command the harness ran that matters, for the docs


class BenchError(Exception):
    pass


def log(msg):
    print("bench: " + msg, flush=True)


def run(cmd, cwd=None, env=None, quiet=False, record=True, check=True):
    """Runs cmd (a list, or a string for the shell); returns (stdout+stderr text, seconds)."""
    shell = isinstance(cmd, str)
    text = cmd if shell else " ".join(shlex.quote(c) for c in cmd)
    if record:
        COMMANDS.append((cwd, text))
    if not quiet:
        log("$ " + text + (f"   (in {cwd})" if cwd else ""))
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=cwd, env=env, shell=shell,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       errors="replace")
    dt = time.monotonic() - t0
    if check and p.returncode != 0:
        sys.stdout.write(p.stdout[-6000:])
        raise BenchError(f"command failed ({p.returncode}): {text}")
    return p.stdout, dt


# ---------------------------------------------------------------- sources

def has_deb_src():
    files = glob.glob("/etc/apt/sources.list") + glob.glob("/etc/apt/sources.list.d/*.list") \
        + glob.glob("/etc/apt/sources.list.d/*.sources")
    for f in files:
        try:
            text = open(f).read()
        except OSError:
            continue
        if f.endswith(".list"):
            if re.search(r"^\s*deb-src\s.*\bbookworm\b", text, re.M):
                return True
        else:
            for stanza in re.split(r"\n\s*\n", text):
                if re.search(r"^Types:.*\bdeb-src\b", stanza, re.M | re.I) and \
                        re.search(r"^Suites:.*\bbookworm\b", stanza, re.M | re.I) and \
                        not re.search(r"^Enabled:\s*no", stanza, re.M | re.I):
                    return True
    return False


def ensure_deb_src():
    if has_deb_src():
        return
    if os.geteuid() != 0:
        raise BenchError("no deb-src entry for bookworm and not root: add one "
                         "(Types: deb-src, same URIs/Suites/Components as the deb entry) "
                         "and run apt-get update")
    stanzas = []
    for f in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        for stanza in re.split(r"\n\s*\n", open(f).read()):
            if re.search(r"^Types:.*\bdeb\b", stanza, re.M) and \
                    re.search(r"^Suites:.*\bbookworm\b", stanza, re.M):
                keep = [l for l in stanza.splitlines()
                        if re.match(r"(URIs|Suites|Components|Signed-By):", l)]
                stanzas.append("Types: deb-src\n" + "\n".join(keep) + "\n")
    if not stanzas:
        raise BenchError("no deb822 'deb' entry for bookworm to derive a deb-src entry from")
    path = "/etc/apt/sources.list.d/pathcov-bench-deb-src.sources"
    with open(path, "w") as f:
        f.write("# added by pathcov bench/run_bench.py\n" + "\n".join(stanzas))
    log(f"wrote {path}")
    COMMANDS.append((None, f"# wrote {path}: Types: deb-src, URIs/Suites/Components of the deb entries"))
    run(["apt-get", "update"])


def fetch_source(pkg, srcroot):
    """apt-get source --download-only + dpkg-source -x; returns (tree, version)."""
    d = os.path.join(srcroot, pkg)
    os.makedirs(d, exist_ok=True)
    dscs = glob.glob(os.path.join(d, f"{pkg}_*.dsc"))
    if not dscs:
        ensure_deb_src()
        run(["apt-get", "source", "--download-only", pkg], cwd=d)
        dscs = glob.glob(os.path.join(d, f"{pkg}_*.dsc"))
        if not dscs:
            raise BenchError(f"apt-get source gave no .dsc for {pkg}")
    else:
        COMMANDS.append((d, f"apt-get source --download-only {pkg}   # (cached)"))
    dsc = sorted(dscs)[-1]
    version = os.path.basename(dsc)[len(pkg) + 1:-4]
    tree = os.path.join(d, "tree")
    if not os.path.isdir(tree):
        run(["dpkg-source", "-x", os.path.basename(dsc), "tree"], cwd=d)
    else:
        COMMANDS.append((d, f"dpkg-source -x {os.path.basename(dsc)} tree   # (cached)"))
    return tree, version


# ---------------------------------------------------------------- inputs

def make_input(path, size):
    """Deterministic text-like data with some binary runs: compresses about 3:1."""
    if os.path.exists(path) and os.path.getsize(path) == size:
        return
    rng = random.Random(20250520)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 10)))
             for _ in range(4000)]
    weights = [1.0 / (i + 1) for i in range(len(words))]
    out = bytearray()
    while len(out) < size:
        line = " ".join(rng.choices(words, weights, k=rng.randint(4, 16)))
        if rng.random() < 0.2:
            line += " %d" % rng.randint(0, 10 ** 9)
        out += line.encode() + b"\n"
        if rng.random() < 0.002:
            out += rng.randbytes(rng.randint(16, 4096))
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(out[:size])
    os.replace(tmp, path)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# ---------------------------------------------------------------- packages

class Package:
    name = ""
    program = ""  # the workload's binary, relative to the build directory

    def build(self, tree, bdir, cflags, ldlibs):
        raise NotImplementedError

    def steps(self, exe, inp, outdir):
        """[(argv, stdin file, stdout file)]: the workload, run in order."""
        raise NotImplementedError


class Zlib(Package):
    name = "zlib"
    program = "minigzip"

    def build(self, tree, bdir, cflags, ldlibs):
        env = dict(os.environ, CC="gcc", CFLAGS=cflags)
        out1, _ = run(["./configure", "--static"], cwd=bdir, env=env)
        # zlib links its programs with $(TEST_LDFLAGS) = $(LDFLAGS) -L. libz.a:
        # the runtime must come after libz.a, so it goes in TEST_LDFLAGS.
        # CFLAGS come from configure (which adds its own -D flags to them).
        make = ["make", "-j1", "minigzip",
                f"TEST_LDFLAGS=-L. libz.a {ldlibs}".rstrip()]
        out2, dt = run(make, cwd=bdir)
        return out1 + out2, dt

    def steps(self, exe, inp, outdir):
        gz = os.path.join(outdir, "out.gz")
        return [([exe, "-9"], inp, gz), ([exe, "-d"], gz, os.path.join(outdir, "out"))]


class Bzip2(Package):
    name = "bzip2"
    program = "bzip2"
    SOURCES = ["blocksort.c", "huffman.c", "crctable.c", "randtable.c", "compress.c",
               "decompress.c", "bzlib.c", "bzip2.c"]

    def build(self, tree, bdir, cflags, ldlibs):
        # Compile the sources directly: Debian's Makefile links bzip2 against
        # the shared libbz2.so (benchmarking-notes.md).
        srcs = " ".join(self.SOURCES)
        objs = " ".join(s[:-2] + ".o" for s in self.SOURCES)
        script = (f"for s in {srcs}; do gcc {cflags} -D_FILE_OFFSET_BITS=64 -c $s || exit 1; "
                  f"done && gcc {cflags} -o bzip2 {objs}" + (f" {ldlibs}" if ldlibs else ""))
        return run(["sh", "-c", script], cwd=bdir)

    def steps(self, exe, inp, outdir):
        bz = os.path.join(outdir, "out.bz2")
        return [([exe, "-9", "-c"], inp, bz), ([exe, "-d", "-c"], bz, os.path.join(outdir, "out"))]


PACKAGES = {"zlib": Zlib(), "bzip2": Bzip2()}


def run_workload(pkg, exe, inp, outdir, env):
    """Runs the workload once; returns (wall seconds, peak RSS KiB, output checksums)."""
    os.makedirs(outdir, exist_ok=True)
    wall, rss, sums = 0.0, 0, []
    for argv, src, dst in pkg.steps(exe, inp, outdir):
        # /usr/bin/time: the child's own peak RSS (a child of this Python
        # process would inherit its high-water mark in ru_maxrss).
        tf = os.path.join(outdir, "time.out")
        with open(src, "rb") as fi, open(dst, "wb") as fo:
            t0 = time.monotonic()
            p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", tf] + argv, stdin=fi,
                               stdout=fo, stderr=subprocess.PIPE, env=env, cwd=outdir)
            wall += time.monotonic() - t0
        if p.returncode != 0:
            raise BenchError(f"{' '.join(argv)} < {src} failed ({p.returncode}): "
                             f"{p.stderr[-2000:].decode(errors='replace')}")
        rss = max(rss, int(open(tf).read().split()[-1]))
        sums.append(sha256(dst))
    return wall, rss, sums


def callgrind_ir(pkg, exe, inp, outdir, env):
    """Sum of callgrind Ir over the workload's steps (on a smaller input)."""
    os.makedirs(outdir, exist_ok=True)
    total = 0
    for i, (argv, src, dst) in enumerate(pkg.steps(exe, inp, outdir)):
        cg = os.path.join(outdir, f"callgrind.out.{i}")
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}"] + argv
        with open(src, "rb") as fi, open(dst, "wb") as fo:
            p = subprocess.run(cmd, stdin=fi, stdout=fo, stderr=subprocess.PIPE, env=env, cwd=outdir)
        if p.returncode != 0:
            raise BenchError(f"callgrind failed on {' '.join(argv)}: {p.stderr[-2000:]!r}")
        m = re.search(r"^(?:summary|totals):\s*(\d+)", open(cg).read(), re.M)
        if not m:
            raise BenchError(f"no Ir total in {cg}")
        total += int(m.group(1))
    return total


# ---------------------------------------------------------------- stats

STATS_RE = re.compile(
    r"residual mode: (\d+) functions with a PPP table, (\d+) searched, (\d+) untested, "
    r"(\d+) stale; PPP delta 1: (\d+), \(1,2\]: (\d+), \(2,4\]: (\d+), over 4: (\d+)")
STATS_KEYS = ["table", "searched", "untested", "stale", "d1", "d2", "d4", "dmore"]


def residual_stats(text):
    tot = dict.fromkeys(STATS_KEYS, 0)
    units = 0
    for m in STATS_RE.finditer(text):
        units += 1
        for k, v in zip(STATS_KEYS, m.groups()):
            tot[k] += int(v)
    tot["units"] = units
    return tot


def skipped(text):
    return len(set(re.findall(r"'([^']+)' is not instrumented", text)))


def size_of(exe):
    out, _ = run(["size", exe], quiet=True, record=False)
    text, data = out.splitlines()[1].split()[:2]
    return int(text) + int(data)


def corpus_facts(corpus):
    c = json.load(open(corpus))
    fns = c["functions"]
    cut = [f for f in fns if f.get("cuts")]
    return {
        "functions": len(fns),
        "run": sum(1 for f in fns if f.get("paths")),
        "paths": sum(len(f.get("paths") or []) for f in fns),
        "cut_functions": len(cut),
        "cuts": sum(len(f["cuts"]) for f in cut),
        "cut_names": sorted(f.get("name") or f.get("identity") for f in cut),
        "not_instrumented": sum(1 for f in fns if f.get("reason")),
    }


# ---------------------------------------------------------------- one package

def bench_package(pkg, args, paths):
    tree, version = fetch_source(pkg.name, paths["src"])
    work = os.path.join(paths["bench"], pkg.name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    plugin = os.path.join(paths["build"], "plugin", "pathcov.so")
    rt = os.path.join(paths["build"], "runtime", "libpathcov-rt.a")
    pathcov = os.path.join(paths["build"], "coverage", "pathcov")
    corpus = os.path.join(work, "corpus.json")
    base = "-O2"
    flags = {
        "plain": (base, ""),
        "gcov": (base + " --coverage -fprofile-update=single", ""),
        "record": (f"{base} -fplugin={plugin}", f"{rt} -lpthread"),
        "residual": (f"{base} -fplugin={plugin} -fplugin-arg-pathcov-mode=residual "
                     f"-fplugin-arg-pathcov-corpus={corpus} -fplugin-arg-pathcov-stats",
                     f"{rt} -lpthread"),
    }
    inp, small = paths["input"], paths["small_input"]
    res = {"name": pkg.name, "version": version, "flags": flags, "variants": {}}
    exes = {}

    def build(v):
        bdir = os.path.join(work, v)
        run(["cp", "-a", tree, bdir])
        out, dt = pkg.build(tree, bdir, *flags[v])
        exe = os.path.join(bdir, pkg.program)
        exes[v] = exe
        res["variants"][v] = {"compile": dt, "size": size_of(exe),
                              "file_size": os.path.getsize(exe), "log": out, "wall": [],
                              "rss": [], "sums": None, "reports": 0}

    for v in ["plain", "gcov", "record"]:
        build(v)

    # Scenario (a): the corpus is the record build run on the workload itself
    # (the timing input and the smaller callgrind input).
    prof = os.path.join(work, "corpus-profiles")
    env = dict(os.environ, PATHCOV_PROFILE_DIR=prof, PATHCOV_TEST="workload")
    COMMANDS.append((work, f"PATHCOV_PROFILE_DIR={prof} PATHCOV_TEST=workload <workload on record/{pkg.program}>"))
    run_workload(pkg, exes["record"], inp, os.path.join(work, "out-corpus"), env)
    if args.callgrind:
        run_workload(pkg, exes["record"], small, os.path.join(work, "out-corpus-small"), env)
    run([pathcov, "collect", "-o", corpus, prof])
    res["corpus"] = corpus_facts(corpus)
    build("residual")
    res["stats"] = residual_stats(res["variants"]["residual"]["log"])
    res["skipped_record"] = skipped(res["variants"]["record"]["log"])
    res["skipped_residual"] = skipped(res["variants"]["residual"]["log"])

    # Interleaved timing runs: A B C D A B C D ...
    for i in range(args.runs):
        for v in VARIANTS:
            d = os.path.join(work, "runs", f"{v}-{i}")
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
            env = dict(os.environ, PATHCOV_PROFILE_DIR=os.path.join(d, "profiles"),
                       PATHCOV_REPORT_DIR=os.path.join(d, "reports"))
            env.pop("PATHCOV_TEST", None)
            wall, rss, sums = run_workload(pkg, exes[v], inp, d, env)
            r = res["variants"][v]
            r["wall"].append(wall)
            r["rss"].append(rss)
            if r["sums"] is None:
                r["sums"] = sums
            elif r["sums"] != sums:
                raise BenchError(f"{pkg.name} {v}: outputs differ between runs")
            r["reports"] += len(glob.glob(os.path.join(d, "reports", "*.json")))
            log(f"{pkg.name} run {i + 1}/{args.runs} {v}: {wall:.3f} s, {rss} KiB")
            # keep the disk small: outputs are checked by checksum
            for f in glob.glob(os.path.join(d, "out*")):
                os.remove(f)

    if args.callgrind:
        for v in VARIANTS:
            d = os.path.join(work, "callgrind", v)
            env = dict(os.environ, PATHCOV_PROFILE_DIR=os.path.join(d, "profiles"),
                       PATHCOV_REPORT_DIR=os.path.join(d, "reports"))
            t0 = time.monotonic()
            res["variants"][v]["ir"] = callgrind_ir(pkg, exes[v], small, d, env)
            res["variants"][v]["reports"] += len(glob.glob(os.path.join(d, "reports", "*.json")))
            log(f"{pkg.name} callgrind {v}: {res['variants'][v]['ir']} Ir "
                f"({time.monotonic() - t0:.1f} s)")
        COMMANDS.append((work, f"valgrind --tool=callgrind --callgrind-out-file=... "
                               f"<each workload step, {args.callgrind_mib} MiB input>"))

    # The oracle, scenario (a): residual = executed - tested = nothing, and
    # every variant writes the same outputs.
    failures = []
    sums = {v: tuple(res["variants"][v]["sums"]) for v in VARIANTS}
    if len(set(sums.values())) != 1:
        failures.append("outputs differ between variants: " + repr(sums))
    if sums["plain"][-1] != paths["input_sha"]:
        failures.append("the decompressed output is not the input")
    if res["variants"]["residual"]["reports"]:
        failures.append(f"the residual build wrote {res['variants']['residual']['reports']} "
                        "report(s) on the workload its corpus was recorded on")
    res["oracle"] = "pass" if not failures else "FAIL: " + "; ".join(failures)
    if failures:
        raise BenchError(f"{pkg.name}: oracle failed: " + "; ".join(failures))
    return res


# ---------------------------------------------------------------- report

def machine():
    model = "?"
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    gcc = subprocess.run(["gcc", "--version"], stdout=subprocess.PIPE, text=True).stdout.splitlines()[0]
    mem = "?"
    for line in open("/proc/meminfo"):
        if line.startswith("MemTotal"):
            mem = "%.1f GiB" % (int(line.split()[1]) / 1024 / 1024)
    val = subprocess.run(["valgrind", "--version"], stdout=subprocess.PIPE, text=True).stdout.strip() \
        if shutil.which("valgrind") else "absent"
    return [("CPUs (nproc)", str(os.cpu_count())), ("CPU model", model), ("memory", mem),
            ("kernel", platform.release()), ("GCC", gcc), ("valgrind", val),
            ("Python", platform.python_version())]


def ratio(x, b):
    return "%.2f" % (x / b) if b else "-"


def write_doc(results, args, paths, errors, out):
    L = []
    L.append("# Benchmarks")
    L.append("")
    L.append("Generated by `make bench` (`bench/run_bench.py`) on "
             + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
             + ": do not edit by hand, rerun the benchmark.")
    L.append("")
    L.append("Each Debian source package is built in four variants: plain `-O2`, `-O2 --coverage` "
             "(gcov, `-fprofile-update=single`: non-atomic counters), pathcov record mode and pathcov "
             "residual mode (both with non-atomic counters, the default). Every variant runs the same "
             f"workload {args.runs} times, interleaved (A B C D A B C D ...); run time is the median wall "
             "time, peak memory the largest maximum RSS of the workload's processes. Ratios are to plain "
             "`-O2` measured in the same run. Callgrind Ir (instructions executed) is the repeatable "
             f"figure, measured once per variant on a smaller input ({args.callgrind_mib} MiB); wall "
             "times on this machine vary 20-30% between runs. Compile time is the wall time of `make` "
             "(zlib, after `./configure`) or of the compiler calls (bzip2), one job; size is `size` "
             "text + data of the workload binary.")
    L.append("")
    L.append("Residual scenario (a): the corpus is recorded by running the record build on the same "
             "workload (the timing input and the callgrind input), so no residual path may occur. The "
             "oracle, checked on every run: the residual build writes no report (residual = executed - "
             "tested = nothing) and all four variants' outputs (SHA-256 of the compressed and of the "
             "decompressed data) are identical, the decompressed data equal to the input.")
    L.append("")
    L.append("## Machine")
    L.append("")
    L.append("| | |")
    L.append("|---|---|")
    for k, v in machine():
        L.append(f"| {k} | {v} |")
    L.append("")
    L.append(f"Workload input: {args.size_mib} MiB of generated text-like data (deterministic, "
             f"SHA-256 `{paths['input_sha'][:16]}...`); callgrind input: the first "
             f"{args.callgrind_mib} MiB of the same generator's output.")
    L.append("")
    for r in results:
        L.append(f"## {r['name']} {r['version']}")
        L.append("")
        L.append(f"Workload: {WORKLOAD_TEXT[r['name']]}. Oracle: **{r['oracle']}**.")
        L.append("")
        b = r["variants"]["plain"]
        has_ir = "ir" in b
        hdr = "| variant | compile s | ratio | size B | ratio | run s (median) | ratio | peak RSS KiB | ratio |"
        sep = "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
        if has_ir:
            hdr += " Ir | ratio |"
            sep += "---:|---:|"
        L.append(hdr)
        L.append(sep)
        bw, br = statistics.median(b["wall"]), max(b["rss"])
        for v in VARIANTS:
            x = r["variants"][v]
            w, rs = statistics.median(x["wall"]), max(x["rss"])
            row = (f"| {VARIANT_TITLE[v]} | {x['compile']:.2f} | {ratio(x['compile'], b['compile'])} "
                   f"| {x['size']} | {ratio(x['size'], b['size'])} | {w:.3f} | {ratio(w, bw)} "
                   f"| {rs} | {ratio(rs, br)} |")
            if has_ir:
                row += f" {x['ir']} | {ratio(x['ir'], b['ir'])} |"
            L.append(row)
        L.append("")
        L.append("Run times of every run, in order (s): " + "; ".join(
            f"{VARIANT_TITLE[v]}: " + ", ".join("%.3f" % t for t in r["variants"][v]["wall"])
            for v in VARIANTS) + ".")
        L.append("")
        s, c = r["stats"], r["corpus"]
        L.append("| residual (a) | |")
        L.append("|---|---|")
        L.append(f"| units compiled (stats lines) | {s['units']} |")
        L.append(f"| functions with a PPP table (`array`) | {s['table']} |")
        L.append(f"| functions searched (`sorted`) | {s['searched']} |")
        L.append(f"| functions untested (not in the corpus) | {s['untested']} |")
        L.append(f"| functions stale | {s['stale']} |")
        L.append(f"| PPP delta 1 / (1,2] / (2,4] / over 4 | {s['d1']} / {s['d2']} / {s['d4']} / {s['dmore']} |")
        L.append(f"| skipped functions (not instrumented: record / residual) | "
                 f"{r['skipped_record']} / {r['skipped_residual']} |")
        L.append(f"| corpus: functions / run by the workload / tested paths | "
                 f"{c['functions']} / {c['run']} / {c['paths']} |")
        cutnames = ", ".join(f"`{n}`" for n in c["cut_names"][:10]) + \
            (" ..." if len(c["cut_names"]) > 10 else "")
        L.append(f"| cuts: functions with cuts / cuts | {c['cut_functions']} / {c['cuts']}"
                 + (f" ({cutnames})" if cutnames else "") + " |")
        L.append(f"| residual reports written (must be 0) | {r['variants']['residual']['reports']} |")
        L.append("")
    for e in errors:
        L.append(f"**Not measured:** {e}")
        L.append("")
    L.append("## Commands")
    L.append("")
    L.append("Compiler flags per variant (the same for every package):")
    L.append("")
    if results:
        for v in VARIANTS:
            cf, ld = results[0]["flags"][v]
            L.append(f"- {VARIANT_TITLE[v]}: `CFLAGS={rel(cf, paths)}`"
                     + (f", linked with `{rel(ld, paths)}`" if ld else ""))
        L.append("")
    L.append("Every command the harness ran (paths relative to the repository; `$BENCH` is "
             f"`{paths['bench'].replace(TOP + '/', '')}`):")
    L.append("")
    L.append("```sh")
    L.append("make bench   # = make all && python3 bench/run_bench.py --build BUILD " + " ".join(ARGV))
    seen = set()
    for cwd, text in COMMANDS:
        line = (f"(cd {rel(cwd, paths)} && {rel(text, paths)})" if cwd else rel(text, paths))
        if line in seen:
            continue
        seen.add(line)
        L.append(line)
    L.append("```")
    L.append("")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        f.write("\n".join(L))


def rel(text, paths):
    text = text.replace(paths["bench"], "$BENCH")
    return text.replace(TOP + "/", "")


WORKLOAD_TEXT = {
    "zlib": "`minigzip -9 < input > out.gz; minigzip -d < out.gz > out` (built with "
            "`./configure --static && make minigzip`)",
    "bzip2": "`bzip2 -9 -c < input > out.bz2; bzip2 -d -c < out.bz2 > out` (the library and "
             "`bzip2.c` compiled directly into one static program)",
}
ARGV = []


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="pathcov build tree (default: build)")
    ap.add_argument("--packages", default="zlib,bzip2")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--size-mib", type=int, default=32)
    ap.add_argument("--callgrind-mib", type=int, default=2)
    ap.add_argument("--no-callgrind", dest="callgrind", action="store_false")
    ap.add_argument("--output", default=os.path.join(TOP, "docs", "benchmarks.md"))
    args = ap.parse_args()
    ARGV.extend(sys.argv[1:])
    if ARGV[:1] == ["--build"]:
        del ARGV[:2]
    if args.callgrind and not shutil.which("valgrind"):
        log("valgrind not found: no callgrind figures")
        args.callgrind = False
    build = os.path.abspath(args.build)
    for f in ["plugin/pathcov.so", "runtime/libpathcov-rt.a", "coverage/pathcov"]:
        if not os.path.exists(os.path.join(build, f)):
            raise BenchError(f"{build}/{f} missing: run make first")
    bench = os.path.join(build, "bench")
    paths = {"build": build, "bench": bench, "src": os.path.join(bench, "src"),
             "input": os.path.join(bench, f"input-{args.size_mib}MiB"),
             "small_input": os.path.join(bench, f"input-{args.callgrind_mib}MiB")}
    os.makedirs(bench, exist_ok=True)
    make_input(paths["input"], args.size_mib << 20)
    make_input(paths["small_input"], args.callgrind_mib << 20)
    paths["input_sha"] = sha256(paths["input"])
    results, errors, failed = [], [], False
    for name in args.packages.split(","):
        try:
            results.append(bench_package(PACKAGES[name], args, paths))
        except BenchError as e:
            log(f"ERROR: {e}")
            errors.append(f"{name}: {e}")
            failed = True
    write_doc(results, args, paths, errors, args.output)
    log(f"wrote {args.output}")
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as e:
        log(f"ERROR: {e}")
        sys.exit(1)
