#!/usr/bin/env python3
"""pathcov benchmark harness (`make bench`): Debian source packages built in
nine variants (plain -O2, -O2 --coverage, pathcov record mode, alone, with
paths across iterations (k=2, k=4) and with its last run's corpus
(corpus=), pathcov residual mode against two
corpora, and the second with the path history on), each running a CPU-bound workload interleaved several times.

Residual scenario (a): the corpus is recorded on the workload itself, so the
residual build must write no report. Scenario (b): the corpus comes from the
package's own tests, so the workload has residual paths; the oracle checks
that the reports hold exactly executed - tested (the oracle of the
residual tests, testsuite/residual_oracle.py).

Writes docs/benchmarks.md (never edit it by hand). Standard library only.
Modules: common.py (commands, inputs), packages.py (one class per package),
stats.py (the plugin's residual statistics).
"""

import argparse
import glob
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(os.path.dirname(HERE), "testsuite")]

from common import COMMANDS, TOP, BenchError, BuildError, log, make_input, run, sha256  # noqa: E402
import residual_oracle  # noqa: E402
import stats as pstats  # noqa: E402
from packages import PACKAGES  # noqa: E402

VARIANTS = ["plain", "gcov", "record", "rec_k2", "rec_k4", "rec_pg", "res_a", "res_b",
            "res_h"]
VARIANT_TITLE = {
    "plain": "-O2",
    "gcov": "-O2 --coverage",
    "record": "record",
    "rec_k2": "record k=2",
    "rec_k4": "record k=4",
    "rec_pg": "record corpus=",
    "res_a": "residual (a)",
    "res_b": "residual (b)",
    "res_h": "residual (b) + history",
}
RESIDUAL = ("res_a", "res_b", "res_h")
# The residual builds the release-build targets are about: the history is
# opt-in, measured against residual (b) on its own (HISTORY).
RELEASE = ("res_a", "res_b")
# res_h's history=N: each thread's last 256 paths.
HISTORY = 256
TEST_VARIANTS = ("plain", "gcov", "record")  # the test suite timed in each
# Record mode with paths across iterations (issue 14): k=N per variant.
KPATHS = {"rec_k2": 2, "rec_k4": 4}
# Record mode with the last run's corpus (corpus (a): the same workload, as
# a test suite's next run has its last one), which places the increments
# (issue 16): the same paths as record mode.
PROFILED = "rec_pg"
NATIVE = ["setarch", "-R"]
VALGRIND_NONE = ["valgrind", "--tool=none", "-q"]


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


def fetch_source(pkg, srcroot, version=None):
    """apt-get source --download-only (of `version` if given) + dpkg-source -x;
    returns (tree, version)."""
    d = os.path.join(srcroot, pkg)
    os.makedirs(d, exist_ok=True)
    dscs = glob.glob(os.path.join(d, f"{pkg}_*.dsc"))
    if not dscs:
        ensure_deb_src()
        run(["apt-get", "source", "--download-only", f"{pkg}={version}" if version else pkg],
            cwd=d)
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


# ---------------------------------------------------------------- probes

def gcov_update(lang, pthread):
    """The -fprofile-update the driver passes to cc1 for our gcov flags."""
    cc = "g++" if lang == "c++" else "gcc"
    cmd = [cc, "-###", "-O2", "--coverage", "-fprofile-update=single"] + \
        (["-pthread"] if pthread else []) + ["-x", "c++" if lang == "c++" else "c", "-c",
                                             "/dev/null", "-o", "/dev/null"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    cc1 = [l for l in p.stdout.splitlines() if "cc1" in l]
    ups = re.findall(r"-fprofile-update=([\w-]+)", cc1[0] if cc1 else p.stdout)
    return ups[-1] if ups else "?"


# ---------------------------------------------------------------- running

def workload_env():
    """The same environment for every workload run, in every variant: relative
    profile and report directories (in the run's own directory)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PATHCOV_")}
    env.update(PATHCOV_PROFILE_DIR="profiles", PATHCOV_REPORT_DIR="reports",
               PATHCOV_TEST="workload")
    return env


def local_argv(argv, outdir):
    """argv with the program replaced by ./NAME, a symbolic link in outdir: the
    same argv in every variant (lua keeps argv[0] in a heap string, so its
    length would change when the garbage collector runs)."""
    link = os.path.join(outdir, os.path.basename(argv[0]))
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(argv[0], link)
    return ["./" + os.path.basename(argv[0])] + argv[1:]


def run_workload(pkg, steps, outdir, prefix=None):
    """Runs the workload once in outdir (profiles and reports land in
    outdir/profiles and outdir/reports); returns (wall seconds, peak RSS KiB,
    output checksums). Native runs have address-space randomization off
    (`setarch -R`) so that programs hashing pointers take the same paths on
    every run, which the oracle needs; prefix=VALGRIND_NONE records under
    valgrind instead, with the addresses the callgrind runs see."""
    prefix = NATIVE if prefix is None else prefix
    os.makedirs(outdir, exist_ok=True)
    env = workload_env()
    wall, rss, sums = 0.0, 0, []
    prev = None
    for st in steps:
        # /usr/bin/time: the child's own peak RSS (a child of this Python
        # process would inherit its high-water mark in ru_maxrss).
        tf = os.path.join(outdir, "time.out")
        src = st.stdin if st.stdin else (prev or "/dev/null")
        dst = os.path.join(outdir, st.out)
        argv = local_argv(st.argv, outdir)
        with open(src, "rb") as fi, open(dst, "wb") as fo:
            t0 = time.monotonic()
            p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", tf] + prefix + argv,
                               stdin=fi, stdout=fo, stderr=subprocess.PIPE, env=env, cwd=outdir)
            wall += time.monotonic() - t0
        if p.returncode != 0:
            raise BenchError(f"{' '.join(st.argv)} < {src} failed ({p.returncode}): "
                             f"{p.stderr[-2000:].decode(errors='replace')}")
        rss = max(rss, int(open(tf).read().split()[-1]))
        sums.append(sha256(dst, pkg.normalize))
        prev = dst
    return wall, rss, sums


def callgrind_ir(steps, outdir):
    """Sum of callgrind Ir over the workload's steps."""
    os.makedirs(outdir, exist_ok=True)
    env = workload_env()
    total, prev = 0, None
    for i, st in enumerate(steps):
        cg = os.path.join(outdir, f"callgrind.out.{i}")
        src = st.stdin if st.stdin else (prev or "/dev/null")
        dst = os.path.join(outdir, st.out)
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}"] + \
            local_argv(st.argv, outdir)
        with open(src, "rb") as fi, open(dst, "wb") as fo:
            p = subprocess.run(cmd, stdin=fi, stdout=fo, stderr=subprocess.PIPE, env=env,
                               cwd=outdir)
        if p.returncode != 0:
            raise BenchError(f"callgrind failed on {' '.join(st.argv)}: {p.stderr[-2000:]!r}")
        m = re.search(r"^(?:summary|totals):\s*(\d+)", open(cg).read(), re.M)
        if not m:
            raise BenchError(f"no Ir total in {cg}")
        total += int(m.group(1))
        prev = dst
    return total


def size_of(exe):
    out, _ = run(["size", exe], quiet=True, record=False)
    text, data = out.splitlines()[1].split()[:2]
    return int(text) + int(data)


# Symbols of the plugin's tables (plugin/RuntimeDecls.cc: counters, residual
# tables and bytemaps, seen slots), local, named PREFIX.N.
TABLE_PREFIXES = ("__pathcov_tested", "__pathcov_counters", "__pathcov_seen")


def size_breakdown(exe):
    """Where a program's bytes go: .text; the pathcov tables (sizes of their
    symbols, nm -S); .debug.pathcov (the metadata records: in the file, not
    loaded); the file's size, and after strip -g (the metadata detached,
    with any debug info)."""
    out, _ = run(["size", "-A", exe], quiet=True, record=False)
    sections = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1].isdigit():
            sections[fields[0]] = int(fields[1])
    out, _ = run(["nm", "-S", exe], quiet=True, record=False)
    tables = 0
    for line in out.splitlines():
        fields = line.split()  # ADDRESS SIZE TYPE NAME, when it has a size
        if len(fields) == 4 and fields[3].startswith(TABLE_PREFIXES):
            tables += int(fields[1], 16)
    stripped = exe + ".strip-g"
    run(["strip", "-g", "-o", stripped, exe], quiet=True, record=False)
    after = os.path.getsize(stripped)
    os.remove(stripped)
    return {"text": sections.get(".text", 0), "tables": tables,
            "metadata": sections.get(".debug.pathcov", 0),
            "file": os.path.getsize(exe), "file_strip_g": after}


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
        "skipped": sorted(f.get("name") or f["identity"] for f in fns if f.get("skipped")),
    }


def field_reports(report_dir):
    """The residual reports a run wrote to report_dir."""
    reports = []
    for name in sorted(glob.glob(os.path.join(report_dir, "*.json"))):
        with open(name) as f:
            report = json.load(f)
        if report.get("format") == "pathcov-report":
            reports.append(report)
    return reports


def oracle_differences(expected, reported, dropped, limit=10):
    """[] if the oracle passes, else the first differences (human-readable
    lines, one a path)."""
    diffs = []
    if dropped:
        diffs.append(f"the runtime dropped {dropped} residual path runs (table full): "
                     "the residual set cannot be compared exactly")
    for key, missing, extra, wrong in residual_oracle.mismatches(expected, reported):
        ident, cs = key
        for pid in sorted(missing + extra + wrong):
            e, a = expected.get(key, {}).get(pid), reported.get(key, {}).get(pid)
            if pid in missing:
                diffs.append(f"missing from the reports: {ident} [{cs}] path {pid} (executed {e} times)")
            elif pid in extra:
                diffs.append(f"reported but not expected: {ident} [{cs}] path {pid} (count {a})")
            else:
                diffs.append(f"count differs: {ident} [{cs}] path {pid}: executed {e}, reported {a}")
            if len(diffs) >= limit:
                diffs.append("...")
                return diffs
    return diffs


# ---------------------------------------------------------------- one package

def variant_flags(paths, work):
    plugin = paths["plugin"]
    # The runtime, linked as `pkg-config --libs pathcov-runtime` gives it;
    # its -Wl,-z,pack-relative-relocs spelled as GCC's -z option, without
    # commas: xz's Makefile pastes LIBS into a sed s,,, command.
    rt = f"{paths['rt']} -lpthread -z pack-relative-relocs"
    extra = paths["residual_flags"]
    base = "-O2"
    flags = {
        "plain": (base, ""),
        "gcov": (base + " --coverage -fprofile-update=single", ""),
        "record": (f"{base} -fplugin={plugin}", rt),
    }
    for v, k in KPATHS.items():
        flags[v] = (f"{base} -fplugin={plugin} -fplugin-arg-pathcov-k={k}", rt)
    flags[PROFILED] = (f"{base} -fplugin={plugin} "
                       f"-fplugin-arg-pathcov-corpus={os.path.join(work, 'corpus-a.json')}", rt)
    for v, c, more in (("res_a", "corpus-a.json", ""), ("res_b", "corpus-b.json", ""),
                       ("res_h", "corpus-b.json",
                        f" -fplugin-arg-pathcov-history={HISTORY}")):
        st = f"-fplugin-arg-pathcov-stats={os.path.join(work, 'stats-' + v + '.jsonl')}"
        flags[v] = (f"{base} -fplugin={plugin} -fplugin-arg-pathcov-mode=residual "
                    f"-fplugin-arg-pathcov-corpus={os.path.join(work, c)} {st}{extra}{more}",
                    rt)
    return flags


def bench_package(pkg, args, paths, res):
    tree, version = fetch_source(pkg.name, paths["src"], pkg.source_version)
    res["version"] = version
    work = os.path.join(paths["bench"], pkg.name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    pathcov = paths["pathcov"]
    flags = variant_flags(paths, work)
    res["flags"] = flags
    res["gcov_update"] = gcov_update(pkg.lang, pkg.pthread)
    inputs = paths["inputs"].get(pkg.name, {})
    steps = {small: None for small in (False, True)}
    bdirs = {}
    prepared = pkg.prepare(tree, work)

    def build(v):
        bdir = os.path.join(work, v)
        run(["cp", "-a", prepared, bdir])
        # Each variant's tree is a checkout of its own, as a user's test and
        # release builds would be: identities are relative to it.
        open(os.path.join(bdir, ".pathcov-root"), "w").close()
        res["stage"] = f"building variant {VARIANT_TITLE[v]}"
        out, dt = pkg.build(bdir, *flags[v])
        exe = os.path.join(bdir, pkg.program)
        bdirs[v] = bdir
        res["variants"][v] = {"compile": dt, "size": size_of(exe),
                              "breakdown": size_breakdown(exe), "log": out, "wall": [],
                              "rss": [], "sums": None, "reports": 0, "skipped":
                              pstats.skipped(out)}

    for v in ["plain", "gcov", "record", *KPATHS]:
        build(v)
    rec = bdirs["record"]
    res["stage"] = "building the test programs"
    for v in TEST_VARIANTS:
        pkg.build_tests(bdirs[v], *flags[v])

    # executed: the record build on the workload (timed input, callgrind input).
    res["stage"] = "recording"
    for small, tag in ((False, "full"), (True, "small")):
        if small and not args.callgrind:
            continue
        d = os.path.join(work, f"rec-{tag}")
        COMMANDS.append((d, f"PATHCOV_PROFILE_DIR=profiles PATHCOV_TEST=workload "
                            f"{'valgrind --tool=none' if small else 'setarch -R'} "
                            f"<{tag} workload on record/{pkg.program}>"))
        run_workload(pkg, pkg.workload(rec, small, inputs), d, VALGRIND_NONE if small else NATIVE)
        run([pathcov, "collect", "-o", os.path.join(work, f"executed-{tag}.json"),
             os.path.join(d, "profiles")])
    profs = [os.path.join(work, "rec-full", "profiles")] + \
        ([os.path.join(work, "rec-small", "profiles")] if args.callgrind else [])
    run([pathcov, "collect", "-o", os.path.join(work, "corpus-a.json")] + profs)

    # tested: the package's own tests on the record build.
    # The test suite also runs in plain and gcov builds, for its wall time
    # beside record mode's (issue 16): one run each, record's last.
    tprof = os.path.join(work, "prof-tests")
    res["test_wall"] = {}
    for v in TEST_VARIANTS:
        wall = 0.0
        for name, cmd, cwd in pkg.tests(bdirs[v], *flags[v]):
            env = dict(os.environ)
            if v == "record":
                env.update(PATHCOV_PROFILE_DIR=tprof, PATHCOV_TEST=name)
                COMMANDS.append((cwd, f"PATHCOV_PROFILE_DIR={tprof} PATHCOV_TEST={name} {cmd}"))
            seconds = run(cmd, cwd=cwd, env=env, record=False)[1]
            wall += seconds
            log(f"{pkg.name} {VARIANT_TITLE[v]} test {name}: {seconds:.1f} s")
        res["test_wall"][v] = wall
    run([pathcov, "collect", "-o", os.path.join(work, "corpus-b.json"), tprof])
    res["corpus"] = {"a": corpus_facts(os.path.join(work, "corpus-a.json")),
                     "b": corpus_facts(os.path.join(work, "corpus-b.json"))}

    build(PROFILED)
    for v in RESIDUAL:
        build(v)
        res["stats"][v] = pstats.residual_stats(os.path.join(work, f"stats-{v}.jsonl"),
                                                bdirs[v])

    tested_b = residual_oracle.tested_paths(os.path.join(work, "corpus-b.json"))
    expected = {}
    for tag in ("full", "small"):
        ef = os.path.join(work, f"executed-{tag}.json")
        if os.path.exists(ef):
            expected[tag] = residual_oracle.expected_residual(residual_oracle.corpus_paths(ef), tested_b)
    res["expected_b"] = residual_oracle.summary(expected["full"])
    oracle_fail = {v: [] for v in RESIDUAL}
    res["oracle_runs"] = {v: 0 for v in RESIDUAL}

    def check_oracle(v, report_dir, tag, what):
        reports = field_reports(report_dir)
        nrep = len(reports)
        actual = residual_oracle.report_paths(reports)
        npaths = residual_oracle.summary(actual)["paths"]
        dropped = sum(int(r.get("dropped_paths") or 0) for r in reports)
        res["variants"][v]["reports"] += nrep
        if tag == "small":
            # Under valgrind: informational (see the docs), not the oracle.
            if v == "res_a":
                diffs = [f"{nrep} report(s), {npaths} residual path(s)"] if nrep else []
            else:
                diffs = oracle_differences(expected[tag], actual, dropped, limit=3)
            res["callgrind_notes"][v] = "; ".join(diffs) if diffs else "matches"
            if diffs:
                log(f"note: {pkg.name} {VARIANT_TITLE[v]} callgrind run: " + "; ".join(diffs))
            return
        res["oracle_runs"][v] += 1
        if v == "res_a":
            if nrep:
                oracle_fail[v].append(f"{what}: {nrep} report(s) written, "
                                      f"{npaths} residual path(s), e.g. "
                                      + ", ".join([f"{ident} path {pid}" for (ident, _), ids in actual.items()
                                                   for pid in ids][:3]))
            return
        diffs = oracle_differences(expected[tag], actual, dropped)
        if diffs and not oracle_fail[v]:
            oracle_fail[v].append(f"{what}: " + "; ".join(diffs))
            log(f"ORACLE MISMATCH {pkg.name} {VARIANT_TITLE[v]} {what}:\n  " + "\n  ".join(diffs))
        elif diffs:
            oracle_fail[v].append(f"{what}: differs too")
        res["actual_b"] = residual_oracle.summary(actual)

    # The k=N and corpus= builds count the same paths as record mode on
    # the same workload (the executed corpus, natively), and windows no
    # more often than their first path runs.
    paths_fail = []
    res["kpaths"] = {}

    def check_record_paths(v, run_dir):
        corpus = os.path.join(work, f"paths-{v}.json")
        run([pathcov, "collect", "-o", corpus, os.path.join(run_dir, "profiles")])
        got = residual_oracle.corpus_paths(corpus)
        want = residual_oracle.corpus_paths(os.path.join(work, "executed-full.json"))
        if got != want:
            paths_fail.append(f"{VARIANT_TITLE[v]}: its paths differ from record mode's")
        if v not in KPATHS:
            return
        with open(corpus, encoding="utf-8") as f:
            functions = [fn for fn in json.load(f)["functions"] if "skipped" not in fn]
        windows = runs = 0
        for fn in functions:
            counts = {p["id"]: p["count"] for p in fn["paths"]}
            for w in fn.get("k_paths", []):
                windows += 1
                runs += w["count"]
                if w["count"] > counts.get(w["ids"][0], 0):
                    paths_fail.append(f"{VARIANT_TITLE[v]}: {fn['identity']} window "
                                      f"{w['ids']} ran more often than its first path")
        res["kpaths"][v] = {"functions": sum(1 for fn in functions if fn.get("k", 1) > 1),
                            "windows": windows, "runs": runs,
                            "dropped": sum(fn.get("k_dropped", 0) for fn in functions)}

    # Interleaved timing runs: A B C D E A B C D E ...
    res["stage"] = "timing"
    for v in VARIANTS:
        steps[v] = pkg.workload(bdirs[v], False, inputs)
    for i in range(args.runs):
        for v in VARIANTS:
            d = os.path.join(work, "runs", f"{v}-{i}")
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
            wall, rss, sums = run_workload(pkg, steps[v], d)
            r = res["variants"][v]
            r["wall"].append(wall)
            r["rss"].append(rss)
            if r["sums"] is None:
                r["sums"] = sums
            elif r["sums"] != sums:
                raise BenchError(f"{pkg.name} {v}: outputs differ between runs")
            if v in RESIDUAL:
                check_oracle(v, os.path.join(d, "reports"), "full", f"timing run {i + 1}")
            if (v in KPATHS or v == PROFILED) and i == 0:
                check_record_paths(v, d)
            log(f"{pkg.name} run {i + 1}/{args.runs} {VARIANT_TITLE[v]}: {wall:.3f} s, {rss} KiB")
            for st in steps[v]:  # keep the disk small: outputs are checked by checksum
                try:
                    os.remove(os.path.join(d, st.out))
                except OSError:
                    pass

    if args.callgrind:
        res["stage"] = "callgrind"
        for v in VARIANTS:
            d = os.path.join(work, "callgrind", v)
            t0 = time.monotonic()
            res["variants"][v]["ir"] = callgrind_ir(pkg.workload(bdirs[v], True, inputs), d)
            if v in RESIDUAL:
                check_oracle(v, os.path.join(d, "reports"), "small", "callgrind run")
            log(f"{pkg.name} callgrind {VARIANT_TITLE[v]}: {res['variants'][v]['ir']} Ir "
                f"({time.monotonic() - t0:.1f} s)")
        COMMANDS.append((work, "valgrind --tool=callgrind --callgrind-out-file=... "
                               "<each step of the small workload>"))

    # Outputs: identical across variants, and right.
    sums = {v: tuple(res["variants"][v]["sums"]) for v in VARIANTS}
    out_fail = []
    if len(set(sums.values())) != 1:
        first = [f"{VARIANT_TITLE[v]}: {', '.join(s[:12] for s in sums[v])}" for v in VARIANTS]
        out_fail.append("outputs differ between variants: " + "; ".join(first))
    msg = pkg.check(list(sums["plain"]), inputs, False)
    if msg:
        out_fail.append(msg)
    res["outputs"] = "identical" if not out_fail else "FAIL: " + "; ".join(out_fail)
    res["output_sums"] = sums["plain"]
    res["oracle_paths"] = "pass" if not paths_fail else "FAIL: " + "; ".join(paths_fail)
    if paths_fail:
        raise BenchError(f"{pkg.name}: record mode's paths: " + "; ".join(paths_fail))
    for v in RESIDUAL:
        f = oracle_fail[v] + out_fail
        res["oracle"][v] = "pass" if not f else "FAIL: " + "; ".join(f)
    res["stage"] = "done"
    bad = [f"{VARIANT_TITLE[v]}: {res['oracle'][v]}" for v in RESIDUAL if res["oracle"][v] != "pass"]
    if bad:
        raise BenchError(f"{pkg.name}: oracle failed: " + " | ".join(bad))
    return res


# ---------------------------------------------------------------- report

LOAD_AT_START = os.getloadavg()[0]


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
    # Wall and compile times mean little on a loaded machine: say how
    # loaded it was (Ir does not depend on it).
    load = "start %.2f, end %.2f" % (LOAD_AT_START, os.getloadavg()[0])
    return [("CPUs (nproc)", str(os.cpu_count())), ("CPU model", model), ("memory", mem),
            ("kernel", platform.release()), ("GCC", gcc), ("valgrind", val),
            ("Python", platform.python_version()),
            ("load average (1 min) when the run started and ended", load)]


def ratio_v(x, b):
    return x / b if b else None


def fmt(r):
    return "-" if r is None else "%.2f" % r


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def wall_ratio(r, v, base="plain"):
    b, x = r["variants"].get(base), r["variants"].get(v)
    if not b or not x or not b["wall"] or not x["wall"]:
        return None
    return ratio_v(statistics.median(x["wall"]), statistics.median(b["wall"]))


def key_ratio(r, v, key, base="plain"):
    b, x = r["variants"].get(base), r["variants"].get(v)
    if not b or not x or key not in b or key not in x:
        return None
    return ratio_v(x[key], b[key])


def verdict(s):
    return "pass" if s == "pass" else ("**FAIL**" if s.startswith("FAIL") else s)


def write_doc(results, args, paths, out):
    L = []
    A = L.append
    A("# Benchmarks")
    A("")
    A("Generated by `make bench` (`bench/run_bench.py`) on "
      + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
      + ": do not edit by hand, rerun the benchmark.")
    A("")
    A(f"Runs per variant: {args.runs} (interleaved). Packages: {', '.join(r['name'] for r in results)}.")
    A("")
    A("## Summary")
    A("")
    A("Run time: median wall time as a ratio to plain `-O2` from the same run; Ir: callgrind "
      "instructions on the small workload, as a ratio to plain `-O2`. Oracle (a): no residual "
      "report on the workload the corpus was recorded on; oracle (b): the residual reports hold "
      "exactly executed - tested, with the executed counts; both also require identical outputs "
      "in all variants.")
    A("")
    A("| program | compile record | compile residual (b) | gcov time | record time | residual (a) time "
      "| residual (b) time | gcov Ir | record Ir | residual (a) Ir | residual (b) Ir | oracle (a) "
      "| oracle (b) |")
    A("|---|" + "---:|" * 10 + "---|---|")
    cols = []
    for r in results:
        if r.get("error"):
            A(f"| {r['name']} | " + " | ".join(["-"] * 10) + " | **not measured** | **not measured** |")
            continue
        row = [key_ratio(r, "record", "compile"), key_ratio(r, "res_b", "compile")] + \
              [wall_ratio(r, v) for v in ("gcov", "record", "res_a", "res_b")] + \
              [key_ratio(r, v, "ir") for v in ("gcov", "record", "res_a", "res_b")]
        cols.append(row)
        A(f"| {r['name']} | " + " | ".join(fmt(x) for x in row)
          + f" | {verdict(r['oracle'].get('res_a', '-'))} | {verdict(r['oracle'].get('res_b', '-'))} |")
    if cols:
        meds = [med([c[i] for c in cols]) for i in range(10)]
        A("| **median** | " + " | ".join(fmt(x) for x in meds) + " | | |")
    A("")
    ok = [r for r in results if not r.get("error")]
    if ok:
        A("Targets of issue 10 (measured, not asserted; Ir is the figure of record):")
        A("")
        A("| target | limit | measured | met |")
        A("|---|---:|---:|---|")

        def known(xs):
            return [x for x in xs if x is not None]

        def target(what, limit, value, met):
            A(f"| {what} | {limit} | {value} | {'yes' if met else '**no**'} |")

        def at_most(what, limit, xs, pick):
            xs = known(xs)
            if xs:
                v = pick(xs)
                target(what, f"<= {limit:.2f}", fmt(v), v <= limit)

        ir = {v: [key_ratio(r, v, "ir") for r in ok] for v in ("gcov", "res_a", "res_b")}
        at_most("residual (a) Ir, median", 1.03, ir["res_a"], med)
        at_most("residual (a) Ir, worst", 1.10, ir["res_a"], max)
        pairs = [(a, g) for a, g in zip(ir["res_a"], ir["gcov"]) if a is not None and g is not None]
        below = sum(1 for a, g in pairs if a < g)
        target("residual (a) Ir below gcov's", "every package", f"{below} of {len(pairs)}",
               below == len(pairs))
        at_most("residual (b) Ir, median", 1.10, ir["res_b"], med)
        at_most("residual (b) Ir, worst", 1.25, ir["res_b"], max)
        size = [key_ratio(r, v, "size") for r in ok for v in RELEASE]
        at_most("residual size (`size` text + data), worst", 1.15, size, max)
        cp = [key_ratio(r, v, "compile") for r in ok for v in RELEASE]
        at_most("residual compile time, median", 1.10, cp, med)
        at_most("residual compile time, worst", 1.25, cp, max)
        fails = [r["name"] for r in results if r.get("error") or
                 any(r["oracle"].get(v) != "pass" for v in RESIDUAL)]
        target("oracle mismatches / failed programs", "none",
               ", ".join(fails) if fails else "none", not fails)
        A("")
        A(f"Path history (issue 13): residual (b) built with `history={HISTORY}` against "
          "residual (b) without, same corpus and workload (ratios of the two; the oracle (b) "
          "holds for both):")
        A("")
        A("| program | Ir | run time | size | compile |")
        A("|---|---:|---:|---:|---:|")
        hist = []
        for r in ok:
            row = [key_ratio(r, "res_h", "ir", "res_b"), wall_ratio(r, "res_h", "res_b"),
                   key_ratio(r, "res_h", "size", "res_b"),
                   key_ratio(r, "res_h", "compile", "res_b")]
            hist.append(row)
            A(f"| {r['name']} | " + " | ".join(fmt(x) for x in row) + " |")
        A("| **median** | " + " | ".join(fmt(med([h[i] for h in hist])) for i in range(4)) + " |")
        A("")
        A("Paths across iterations (issue 14): record mode with `k=2` and `k=4` (every window "
          "of up to k consecutive paths of a call) against record mode (k=1), same workload; "
          "the windows the timed workload ran, and the check that the k builds counted "
          "exactly record mode's paths:")
        A("")
        A("| program | k=2 Ir | k=4 Ir | k=2 time | k=4 time | k=2 size | k=4 size | "
          "k=2 compile | k=4 compile | k=2 windows | k=4 windows | same paths |")
        A("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        krows = []
        for r in ok:
            row = [key_ratio(r, v, "ir", "record") for v in KPATHS] + \
                  [wall_ratio(r, v, "record") for v in KPATHS] + \
                  [key_ratio(r, v, "size", "record") for v in KPATHS] + \
                  [key_ratio(r, v, "compile", "record") for v in KPATHS]
            krows.append(row)
            windows = [str(r.get("kpaths", {}).get(v, {}).get("windows", "-")) for v in KPATHS]
            A(f"| {r['name']} | " + " | ".join(fmt(x) for x in row) + " | " +
              " | ".join(windows) + f" | {verdict(r.get('oracle_paths', '-'))} |")
        A("| **median** | " + " | ".join(fmt(med([h[i] for h in krows])) for i in range(8)) +
          " | | | |")
        A("")
        A("Against plain `-O2` (Ir): record " +
          fmt(med([key_ratio(r, "record", "ir") for r in ok])) + ", k=2 " +
          fmt(med([key_ratio(r, "rec_k2", "ir") for r in ok])) + ", k=4 " +
          fmt(med([key_ratio(r, "rec_k4", "ir") for r in ok])) + " (medians).")
        A("")
        A("Record mode with `corpus=` (issue 16): built with the corpus of its own last run "
          "on the workload, whose counts place the increments (docs/record-mode.md), against "
          "record mode without it; the paths it counts are checked against record mode's:")
        A("")
        A("| program | Ir against -O2 | Ir | run time | size | compile | same paths |")
        A("|---|---:|---:|---:|---:|---:|---|")
        prows = []
        for r in ok:
            row = [key_ratio(r, PROFILED, "ir"), key_ratio(r, PROFILED, "ir", "record"),
                   wall_ratio(r, PROFILED, "record"), key_ratio(r, PROFILED, "size", "record"),
                   key_ratio(r, PROFILED, "compile", "record")]
            prows.append(row)
            A(f"| {r['name']} | " + " | ".join(fmt(x) for x in row) +
              f" | {verdict(r.get('oracle_paths', '-'))} |")
        A("| **median** | " + " | ".join(fmt(med([h[i] for h in prows])) for i in range(5)) +
          " | |")
        A("")
        A("Targets of issue 16 (record mode; measured, not asserted):")
        A("")
        A("| target | limit | measured | met |")
        A("|---|---:|---:|---|")
        rec_ir = [key_ratio(r, "record", "ir") for r in ok]
        pairs = [(x, g) for x, g in zip(rec_ir, ir["gcov"]) if x is not None and g is not None]
        at_gcov = sum(1 for x, g in pairs if x <= g)
        target("record Ir at or below gcov's", "every package", f"{at_gcov} of {len(pairs)}",
               at_gcov == len(pairs))
        at_most("record Ir, median", 1.15, rec_ir, med)
        pg_ir = [key_ratio(r, PROFILED, "ir") for r in ok]
        pairs = [(x, g) for x, g in zip(pg_ir, ir["gcov"]) if x is not None and g is not None]
        at_gcov = sum(1 for x, g in pairs if x <= g)
        target("record with corpus= Ir at or below gcov's", "every package",
               f"{at_gcov} of {len(pairs)}", at_gcov == len(pairs))
        at_most("record with corpus= Ir, median", 1.15, pg_ir, med)
        rc = [key_ratio(r, "record", "compile") for r in ok]
        at_most("record compile time, median", 1.10, rc, med)
        at_most("record compile time, worst", 1.25, rc, max)
        suites = [(r["name"], r["test_wall"]) for r in ok if r.get("test_wall", {}).get("gcov")]
        quick = [n for n, w in suites if w["record"] <= w["gcov"]]
        target("test suite wall time, record at most gcov's", "every package",
               f"{len(quick)} of {len(suites)}", len(quick) == len(suites))
        A("")
        if suites:
            A("Test suites (the corpus (b) tests; wall time of one run each, s; tests this short "
              "vary by 20-30% between runs):")
            A("")
            A("| program | plain | gcov | record | record / gcov |")
            A("|---|---:|---:|---:|---:|")
            for n, w in suites:
                A(f"| {n} | {w['plain']:.2f} | {w['gcov']:.2f} | {w['record']:.2f} | "
                  f"{w['record'] / w['gcov']:.2f} |")
            A("")
    A("## How it is measured")
    A("")
    A("Each Debian source package is built in nine variants: plain `-O2`, `-O2 --coverage` "
      "(gcov, `-fprofile-update=single` on the command line; whether the driver still made the "
      "counters atomic is stated per program), pathcov record mode, alone, with `k=2` and "
      "`k=4` (paths across iterations) and with `corpus=` its own last run's corpus (corpus "
      "(a)), pathcov residual mode "
      f"compiled against two corpora, and the second again with the path history (`history={HISTORY}`). pathcov counters are non-atomic (the default) in record mode "
      "and for residual mode's tested paths; residual paths are always counted atomically by the "
      "runtime. pathcov instruments no function defined in a system header (its default, "
      "docs/record-mode.md \"System headers\": the C++ library's templates, for re2 and "
      "tinyxml2), where gcov's counters cover them too. Every variant runs the same workload, interleaved (A B C D E A B C D E ...); run "
      "time is the median wall time, peak memory the largest maximum RSS of the workload's "
      "processes (`/usr/bin/time`). Ratios are to plain `-O2` measured in the same run. Each "
      "package's own tests (the corpus (b) tests) are built and run once in the plain, gcov and "
      "record variants, their wall times summed per variant. Callgrind "
      "Ir is the repeatable figure, measured once per variant on a smaller workload; wall times "
      "on this machine vary 20-30% between runs. Compile time is the CPU time (user + "
      "system) of the build commands of the workload program (one job; configure steps "
      "excluded), once per variant: unlike their wall time, the other core's load barely "
      "changes it; size is `size` "
      "text + data of the workload binary. The pathcov variants link the runtime as "
      "`pkg-config --libs pathcov-runtime` gives it, with packed relative relocations "
      "(`-Wl,-z,pack-relative-relocs`, docs/in-your-build.md); plain `-O2` and gcov link as "
      "the package does.")
    A("")
    A("- Residual scenario (a): the corpus is the record build run on the workload itself (both "
      "the timed and the callgrind workload), so no residual path may occur: the residual build "
      "must write no report. Only the fast path is measured.")
    A("- Residual scenario (b): the corpus comes from the package's own tests run on the record "
      "build, the workload from elsewhere, so there is residual traffic. Oracle: executed = the "
      "record build's profile on the same workload (collected with `pathcov collect` into a "
      "separate corpus); the residual paths in the reports (summed over reports, keyed by "
      "function identity, checksum and Ball-Larus id) must equal executed minus tested, with "
      "the executed counts. Checked on every timing run (native, `setarch -R`). The callgrind "
      "run is compared too, with executed recorded under `valgrind --tool=none`, but only "
      "reported (\"callgrind-run residual set\" below): under valgrind a program need not "
      "take exactly the same paths as in a separate valgrind run (lua's garbage collector did "
      "not), so it is not part of the oracle.")
    A("- Workloads run natively under `setarch -R` (no address-space randomization, in every "
      "variant), each in its own directory with the same argv (`./PROGRAM`, a symbolic link) "
      "and the same environment (`PATHCOV_PROFILE_DIR=profiles PATHCOV_REPORT_DIR=reports "
      "PATHCOV_TEST=workload`), so programs that hash pointers or keep argv on the heap (lua) "
      "take the same paths on every run; the record run "
      "that gives the executed paths of the callgrind workload runs under `valgrind --tool=none`, "
      "with the addresses the callgrind runs see.")
    A("- Outputs: SHA-256 of every output file of the workload identical across all variants "
      "(and, for compressors, the decompressed output equal to the input).")
    A("")
    A("## Machine")
    A("")
    A("| | |")
    A("|---|---|")
    for k, v in machine():
        A(f"| {k} | {v} |")
    A("")
    A("Generated compressor inputs: deterministic text-like data (bench/common.py `make_input`), "
      "sizes per program below.")
    A("")
    for r in results:
        A(f"## {r['name']} {r.get('version', '')}")
        A("")
        pkg = PACKAGES[r["name"]]
        A(f"Workload: {pkg.workload_text}" + (f" on {pkg.input_mib[0]} MiB (callgrind: "
                                              f"{pkg.input_mib[1]} MiB)" if pkg.input_mib else
                                              f"; parameter {getattr(pkg, 'SCALE', getattr(pkg, 'SIZE', ('?', '?')))[0]}"
                                              f" (callgrind: {getattr(pkg, 'SCALE', getattr(pkg, 'SIZE', ('?', '?')))[1]})")
          + ". Tests (corpus b): " + pkg.tests_text + ".")
        A("")
        if r.get("gcov_update"):
            A(f"gcov counters: the driver passes `-fprofile-update={r['gcov_update']}` to the "
              "compiler (" + ("non-atomic" if r["gcov_update"] == "single" else "**atomic**")
              + ")" + (", although the build adds `-pthread`" if pkg.pthread and
                       r["gcov_update"] == "single" else
                       (" because the build adds `-pthread`" if pkg.pthread else "")) + ".")
            A("")
        if r.get("error"):
            A(f"**Not measured: failed while {r.get('stage', '?')}.** {r['error']}")
            A("")
            if r.get("build_cmd"):
                A("Failing command (directory `" + rel(r.get("build_cwd") or "", paths) + "`):")
                A("")
                A("```sh")
                A(rel(r["build_cmd"], paths))
                A("```")
                A("")
                A("Compiler output (last lines):")
                A("")
                A("```")
                for line in r.get("build_output", "").splitlines()[-25:]:
                    A(rel(line, paths)[:300])
                A("```")
                A("")
        if not r["variants"].get("plain"):
            continue
        A(f"Oracle (a): **{r['oracle'].get('res_a', 'not run')}**. Oracle (b): "
          f"**{r['oracle'].get('res_b', 'not run')}**. Outputs: {r.get('outputs', 'not compared')}.")
        A("")
        b = r["variants"]["plain"]
        has_ir = "ir" in b
        hdr = "| variant | compile s | ratio | size B | ratio | run s (median) | ratio | peak RSS KiB | ratio |"
        sep = "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
        if has_ir:
            hdr += " Ir | ratio |"
            sep += "---:|---:|"
        A(hdr)
        A(sep)
        bw = statistics.median(b["wall"]) if b["wall"] else None
        br = max(b["rss"]) if b["rss"] else None
        for v in VARIANTS:
            x = r["variants"].get(v)
            if not x:
                continue
            w = statistics.median(x["wall"]) if x["wall"] else None
            rs = max(x["rss"]) if x["rss"] else None
            row = (f"| {VARIANT_TITLE[v]} | {x['compile']:.2f} | {fmt(ratio_v(x['compile'], b['compile']))} "
                   f"| {x['size']} | {fmt(ratio_v(x['size'], b['size']))} | "
                   f"{'-' if w is None else '%.3f' % w} | {fmt(ratio_v(w, bw) if w and bw else None)} "
                   f"| {rs if rs else '-'} | {fmt(ratio_v(rs, br) if rs and br else None)} |")
            if has_ir:
                row += f" {x.get('ir', '-')} | {fmt(ratio_v(x['ir'], b['ir']) if 'ir' in x else None)} |"
            A(row)
        A("")
        if b.get("breakdown"):
            A("Sizes in bytes: `.text`; the pathcov tables (counters, residual tables, "
              "seen slots: their symbols' sizes, `nm -S`), loaded; the metadata "
              "(`.debug.pathcov`), in the file but not loaded; the file, and the file "
              "after `strip -g` (the metadata detached, with any debug info).")
            A("")
            A("| variant | .text | tables | .debug.pathcov | file | file after strip -g |")
            A("|---|---:|---:|---:|---:|---:|")
            for v in VARIANTS:
                d = r["variants"].get(v, {}).get("breakdown")
                if d:
                    A(f"| {VARIANT_TITLE[v]} | {d['text']} | {d['tables']} | {d['metadata']} "
                      f"| {d['file']} | {d['file_strip_g']} |")
            A("")
        if b["wall"]:
            A("Run times of every run, in order (s): " + "; ".join(
                f"{VARIANT_TITLE[v]}: " + ", ".join("%.3f" % t for t in r["variants"][v]["wall"])
                for v in VARIANTS if v in r["variants"]) + ".")
            A("")
        if r.get("stats"):
            A("| residual mode | (a) | (b) |")
            A("|---|---|---|")
            sa, sb = r["stats"].get("res_a", pstats.empty()), r["stats"].get("res_b", pstats.empty())
            A(f"| units compiled | {sa['units']} | {sb['units']} |")
            for g, title in (("functions", "functions per table policy"),
                             ("ppp_delta", "PPP delta (functions whose tested paths ending with a check, fewer than table-limit, PPP numbered)"),
                             ("path_ends", "path ends (tested routes: routes into a checked one that need no check)"),
                             ("seen_slots", "seen slots (first sighting only)"),
                             ("peeled", "loops peeled (first iteration; GCC's size estimate; tested routes: checks left out of the later iterations)"),
                             ("threaded", "routes given a copy of the blocks before a check (statements copied)")):
                if sa[g] or sb[g]:
                    A(f"| {title} | {pstats.describe(g, sa[g])} | {pstats.describe(g, sb[g])} |")
            va, vb = r["variants"].get("res_a", {}), r["variants"].get("res_b", {})
            A(f"| skipped functions (not instrumented; record: {r['variants']['record']['skipped']}) "
              f"| {va.get('skipped', '-')} | {vb.get('skipped', '-')} |")
            ca, cb = r["corpus"]["a"], r["corpus"]["b"]
            A(f"| corpus: functions / run / tested paths | {ca['functions']} / {ca['run']} / "
              f"{ca['paths']} | {cb['functions']} / {cb['run']} / {cb['paths']} |")
            cutnames = ", ".join(f"`{n}`" for n in ca["cut_names"][:8]) + \
                (" ..." if len(ca["cut_names"]) > 8 else "")
            A(f"| cuts (record build): functions with cuts / cuts | {ca['cut_functions']} / "
              f"{ca['cuts']}" + (f" ({cutnames})" if cutnames else "") + " | |")
            if ca["skipped"]:
                A(f"| functions the plugin skipped (corpus) | "
                  + ", ".join(f"`{n}`" for n in ca["skipped"][:8])
                  + (" ..." if len(ca["skipped"]) > 8 else "") + " | |")
            e = r.get("expected_b", {})
            A(f"| expected residual (executed - tested, timed workload): paths / functions / runs "
              f"| 0 / 0 / 0 | {e.get('paths', '-')} / {e.get('functions', '-')} / {e.get('runs', '-')} |")
            cn = r.get("callgrind_notes", {})
            if cn:
                A(f"| callgrind-run residual set vs executed (informational) | "
                  f"{cn.get('res_a', '-')} | {cn.get('res_b', '-')} |")
            A(f"| reports written over all runs / oracle checks | {va.get('reports', '-')} / "
              f"{r['oracle_runs'].get('res_a', 0)} | {vb.get('reports', '-')} / "
              f"{r['oracle_runs'].get('res_b', 0)} |")
            A("")
    A("## Commands")
    A("")
    A("Compiler flags per variant (the same for every package; `g++` for C++; `WORK` is the "
      "package's work directory):")
    A("")
    fl = next((r["flags"] for r in results if r.get("flags")), None)
    if fl:
        for v in VARIANTS:
            cf, ld = fl[v]
            cf = re.sub(r"/\S*/bench/[\w.+-]+/", "WORK/", cf)
            A(f"- {VARIANT_TITLE[v]}: `{rel(cf, paths)}`" + (f", linked with `{rel(ld, paths)}`"
                                                            if ld else ""))
        A("")
    A("Every command the harness ran (paths relative to the repository; `$BENCH` is "
      f"`{paths['bench'].replace(TOP + '/', '')}`):")
    A("")
    A("```sh")
    A("make bench   # = make all && python3 bench/run_bench.py --build BUILD " + " ".join(ARGV))
    A("python3 bench/run_bench.py --build " + rel(paths["build"], paths) + " " + " ".join(ARGV))
    seen = set()
    for cwd, text in COMMANDS:
        line = (f"(cd {rel(cwd, paths)} && {rel(text, paths)})" if cwd else rel(text, paths))
        if line in seen:
            continue
        seen.add(line)
        A(line)
    A("```")
    A("")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        f.write("\n".join(L))


def rel(text, paths):
    text = text.replace(paths["bench"], "$BENCH")
    return text.replace(TOP + "/", "")


ARGV = []


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="pathcov build tree (default: build)")
    ap.add_argument("--packages", default=",".join(PACKAGES))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--scale", type=float, default=1.0,
                    help="multiply every workload's size (for quick trials)")
    ap.add_argument("--no-callgrind", dest="callgrind", action="store_false")
    ap.add_argument("--residual-flags", default="",
                    help="more compiler flags for the residual variants, to measure "
                         "one technique against another (e.g. "
                         "-fplugin-arg-pathcov-bytemap-limit=0)")
    ap.add_argument("--output", default=os.path.join(TOP, "docs", "benchmarks.md"))
    args = ap.parse_args()
    ARGV.extend(a for a in sys.argv[1:])
    if "--build" in ARGV:
        i = ARGV.index("--build")
        del ARGV[i:i + 2]
    if args.callgrind and not shutil.which("valgrind"):
        log("valgrind not found: no callgrind figures")
        args.callgrind = False
    build = os.path.abspath(args.build)
    for f in ["plugin/pathcov.so", "runtime/libpathcov-rt.a", "coverage/pathcov"]:
        if not os.path.exists(os.path.join(build, f)):
            raise BenchError(f"{build}/{f} missing: run make first")
    bench = os.path.join(build, "bench")
    paths = {"build": build, "bench": bench, "src": os.path.join(bench, "src"),
             "plugin": os.path.join(build, "plugin", "pathcov.so"),
             "rt": os.path.join(build, "runtime", "libpathcov-rt.a"),
             "pathcov": os.path.join(build, "coverage", "pathcov"), "inputs": {},
             "residual_flags": " " + args.residual_flags if args.residual_flags else ""}
    os.makedirs(bench, exist_ok=True)
    paths["flags"] = variant_flags(paths, bench)
    names = [n for n in args.packages.split(",") if n]
    for n in names:
        if n not in PACKAGES:
            raise BenchError(f"unknown package {n}; known: {', '.join(PACKAGES)}")
        pkg = PACKAGES[n]
        if args.scale != 1.0:
            for attr in ("SCALE", "SIZE"):
                if hasattr(pkg, attr):
                    setattr(pkg, attr, tuple(max(1, int(x * args.scale)) for x in getattr(pkg, attr)))
            if pkg.input_mib:
                pkg.input_mib = tuple(max(1, int(x * args.scale)) for x in pkg.input_mib)
        if pkg.input_mib:
            full = os.path.join(bench, f"input-{pkg.input_mib[0]}MiB")
            small = os.path.join(bench, f"input-{pkg.input_mib[1]}MiB")
            make_input(full, pkg.input_mib[0] << 20)
            make_input(small, pkg.input_mib[1] << 20)
            paths["inputs"][n] = {"full": full, "small": small, "full_sha": sha256(full),
                                  "small_sha": sha256(small)}
    results, failed = [], False
    for name in names:
        res = {"name": name, "variants": {}, "stats": {}, "oracle": {}, "oracle_runs": {},
               "callgrind_notes": {}}
        t0 = time.monotonic()
        try:
            bench_package(PACKAGES[name], args, paths, res)
        except BuildError as e:
            log(f"ERROR: {e}")
            res.update(error=str(e), build_cmd=e.cmd, build_cwd=e.cwd, build_output=e.output)
            failed = True
        except BenchError as e:
            log(f"ERROR: {e}")
            if not res["oracle"]:
                res["error"] = str(e)
            failed = True
        log(f"{name}: {time.monotonic() - t0:.0f} s")
        results.append(res)
        write_doc(results, args, paths, args.output)
    write_doc(results, args, paths, args.output)
    log(f"wrote {args.output}")
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as e:
        log(f"ERROR: {e}")
        sys.exit(1)
