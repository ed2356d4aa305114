#!/usr/bin/env python3
"""Residual mode, end to end: the reported residual set must EQUAL the
executed paths minus the tested ones, function by function, id by id.

For a program and two sets of inputs, "test" and "field" (each --test-args
or --field-args is one run of the program: its arguments, shell-quoted,
optionally followed by `<<< TEXT`, which the run reads on standard input):
  1. record build (the plugin in record mode) + the test runs (or
     --test-script run with the record build) -> profiles -> `pathcov
     collect` -> the test corpus: the tested paths;
  2. record build + the field runs -> `pathcov collect` -> the executed
     paths;
  3. residual build (the same flags, plus mode=residual and corpus=<the test
     corpus>) + the field runs -> reports in $PATHCOV_REPORT_DIR;
  4. for every function (identity and CFG checksum), the residual
     Ball-Larus ids of the reports (all report files merged, counts of
     duplicate entries added: a comdat function has one descriptor per
     unit) must equal the executed ids minus the tested ids, and each
     residual path's count its count in the field record run; the residual
     and record builds must print what the plain build prints and exit as
     it does.
It also checks each report (against DIR/report.schema.json if --schemas DIR
has one, and always the fields docs/residual-mode.md lists, its module,
build-id and pid), the residual build's metadata records (their tested_ids
are the test corpus's paths, their policy fits the corpus), and what
the options below ask for (with --validate-metadata, the residual metadata
records against function.schema.json).

Prints the number of residual paths compared. Fails when the field runs had
no residual path at all (the comparison would be vacuous), unless
--expect-none says that they must have none (then no report may be written).
"""
import argparse
import collections
import glob
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from residual_oracle import (corpus_paths, expected_residual,  # noqa: E402
                            mismatches, report_paths, summary)
from testlib import metadata_texts, must, project_path  # noqa: E402

HEX16 = re.compile(r"^[0-9a-f]{16}$")
BUILD_ID = re.compile(r"^[0-9a-f]+$")
MARKER = re.compile(r"/\*\s*@([A-Za-z])\s*\*/")
REPORT_FIELDS = {"format", "format_version", "module", "build_id", "pid",
                 "started_ns", "written_ns", "reason", "residual_paths",
                 "dropped_paths"}
PATH_FIELDS = {"identity", "checksum", "id", "count", "first_seen_ns",
               "thread"}


class Failed(Exception):
    pass


def brief(items, limit=40):
    """A dict {id: count} or a list, the first `limit` items only."""
    if isinstance(items, dict):
        text = [f"{i}: {n}" for i, n in sorted(items.items())]
        ends = "{}"
    else:
        text = [str(i) for i in items]
        ends = "[]"
    more = f", ... ({len(text) - limit} more)" if len(text) > limit else ""
    return ends[0] + ", ".join(text[:limit]) + more + ends[1]


def parse_run(spec):
    """(arguments, standard input or None) of one run's specification."""
    stdin = None
    if "<<<" in spec:
        spec, text = spec.split("<<<", 1)
        stdin = text.strip() + "\n"
    return shlex.split(spec), stdin


class Oracle:
    def __init__(self, args):
        self.args = args
        self.work = os.path.abspath(args.workdir)
        self.failures = []
        self.notes = []
        self.times = collections.OrderedDict()
        self.clock = time.monotonic()

    # ------------------------------------------------------------ helpers
    def fail(self, text):
        self.failures.append(text)

    def lap(self, what):
        now = time.monotonic()
        self.times[what] = self.times.get(what, 0) + now - self.clock
        self.clock = now

    def build(self, variant, plugin, sources):
        """Builds sources into workdir/variant/program; returns its path and
        the compiler's standard error."""
        out = os.path.join(self.work, variant)
        os.makedirs(out)
        program = os.path.join(out, "program")
        runtime = [self.args.runtime] if plugin else []
        env = dict(os.environ, LC_ALL="C")  # ASCII quotes in diagnostics
        result = must([self.args.compiler, *self.args.flags.split(), *plugin,
                       *sources, "-o", program, *runtime, "-lpthread"],
                      f"{variant} build", env=env)
        return program, result.stderr

    def plugin(self, mode_args):
        return [f"-fplugin={self.args.plugin}"] + [
            f"-fplugin-arg-pathcov-{a}"
            for a in self.args.plugin_args.split() + mode_args]

    def run(self, program, spec, env_extra, timeout=60):
        """Runs program with one run's arguments; returns (stdout, exit
        status, pid, stderr)."""
        argv, stdin = parse_run(spec)
        env = dict(os.environ)
        for name in ("PATHCOV_PROFILE_DIR", "PATHCOV_REPORT_DIR",
                     "PATHCOV_TEST", "PATHCOV_REPORT"):
            env.pop(name, None)
        env.update(env_extra)
        p = subprocess.Popen([program, *argv], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=env, cwd=self.work)
        try:
            out, err = p.communicate(stdin or "", timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            raise Failed(f"{program} {spec!r}: timed out")
        return out, p.returncode, p.pid, err

    def collect(self, name, profiles):
        """pathcov collect of the profile files -> {(identity, checksum):
        {id: count}} and the corpus file."""
        corpus = os.path.join(self.work, name + ".json")
        if not profiles:
            return {}, None
        must([self.args.pathcov, "collect", "-o", corpus, *profiles],
             f"pathcov collect ({name})")
        return corpus_paths(corpus), corpus

    # ----------------------------------------------------------- metadata
    def metadata_records(self, module):
        return metadata_texts(module, os.path.join(self.work, "metadata"))

    def descriptor_count(self, module):
        """The descriptors linked into module: pointers to them fill the
        section pathcov_functions (abi.h)."""
        sections = must(["readelf", "-SW", module], "readelf -S").stdout
        m = re.search(r"\spathcov_functions\s+\S+\s+\S+\s+\S+\s+([0-9a-f]+)",
                      sections)
        return int(m.group(1), 16) // 8 if m else 0

    def table_bytes(self, module):
        """The bytes of the residual tables other than bytemaps in module
        (symbols __pathcov_counters.N, nm -S)."""
        symbols = must(["nm", "-S", module], "nm -S").stdout
        return sum(int(size, 16) for _, size, _, name in
                   (line.split() for line in symbols.splitlines()
                    if len(line.split()) == 4)
                   if name.startswith("__pathcov_counters."))

    @staticmethod
    def array_table_bytes(record):
        """abi.h: an array's entries, a power of two above the PPP
        interval, or with ppp_base one for every path's PPP id (more than
        the interval, at most twice the power of two); 32-bit ids without
        counts where every id fits (PATHCOV_FN_NARROW), else 64-bit ids,
        then as many counts."""
        entries = 1
        while entries < record["ppp_interval"] + 1:
            entries *= 2
        if "ppp_base" in record:
            unmasked = record["table_entries"]
            if not record["ppp_interval"] + 1 <= unmasked <= 2 * entries:
                return -1  # no table the oracle expects
            entries = unmasked
        if record.get("count_tested"):
            return 16 * entries
        return (4 if record["num_paths"] < 2**32 - 1 else 8) * entries

    def build_id(self, module):
        notes = must(["readelf", "-n", module], "readelf -n").stdout
        m = re.search(r"Build ID:\s*([0-9a-f]+)", notes)
        return m.group(1) if m else None

    @staticmethod
    def matches(record, name):
        identity = record.get("identity", "")
        return name in (record.get("name"), identity,
                        record.get("assembler_name")) or \
            identity.endswith(":" + name)

    # ------------------------------------------------------------ reports
    def validator(self, schema_name):
        if not self.args.schemas:
            return None
        schema = os.path.join(self.args.schemas, schema_name)
        if not os.path.exists(schema):
            return None
        from jsonschema import Draft202012Validator
        from validate import problems
        with open(schema, encoding="utf-8") as f:
            loaded = json.load(f)
        Draft202012Validator.check_schema(loaded)
        v = Draft202012Validator(loaded)
        return lambda doc: list(problems(v, doc))

    def check_report_fields(self, name, r):
        """The fields docs/residual-mode.md lists, whatever the schema says."""
        problems = []
        missing = REPORT_FIELDS - set(r)
        if missing:
            return [f"missing fields {sorted(missing)}"]
        if r["format"] != "pathcov-report":
            problems.append(f"format {r['format']!r}")
        if not re.match(r"^2\.[0-9]+$", str(r["format_version"])):
            problems.append(f"format_version {r['format_version']!r}")
        for field in ("pid", "started_ns", "written_ns", "dropped_paths"):
            if not isinstance(r[field], int) or r[field] < 0:
                problems.append(f"{field} {r[field]!r}")
        if problems:
            return problems
        if r["written_ns"] < r["started_ns"]:
            problems.append("written_ns before started_ns")
        if r["build_id"] is not None and not (
                isinstance(r["build_id"], str) and BUILD_ID.match(r["build_id"])):
            problems.append(f"build_id {r['build_id']!r}")
        if r["reason"] not in ("exit", "signal", "request", "exec"):
            problems.append(f"reason {r['reason']!r}")
        if (r["reason"] == "signal") != ("signal" in r):
            problems.append(f"reason {r['reason']!r} with signal "
                            f"{r.get('signal')!r}")
        if r["dropped_paths"]:
            problems.append(f"{r['dropped_paths']} dropped paths")
        if not isinstance(r["residual_paths"], list):
            return problems + ["residual_paths is not a list"]
        seen = collections.Counter()
        for i, p in enumerate(r["residual_paths"]):
            where = f"residual_paths[{i}]"
            if not isinstance(p, dict) or PATH_FIELDS - set(p):
                problems.append(f"{where}: missing fields "
                                f"{sorted(PATH_FIELDS - set(p or {}))}")
                continue
            if not isinstance(p["identity"], str) or not p["identity"]:
                problems.append(f"{where}.identity {p['identity']!r}")
            if not isinstance(p["checksum"], str) or not HEX16.match(p["checksum"]):
                problems.append(f"{where}.checksum {p['checksum']!r}")
            for field in ("id", "count", "first_seen_ns", "thread"):
                if not isinstance(p[field], int) or p[field] < 0:
                    problems.append(f"{where}.{field} {p[field]!r}")
            if problems:
                continue
            if p["count"] < 1:
                problems.append(f"{where}: count 0")
            if p["thread"] < 1:
                problems.append(f"{where}: thread 0")
            if not r["started_ns"] <= p["first_seen_ns"] <= r["written_ns"]:
                problems.append(f"{where}: first_seen_ns {p['first_seen_ns']} "
                                f"not within [started_ns, written_ns]")
            seen[(p["identity"], p["checksum"], p["id"])] += 1
            # The path is one of a residual function of this binary, and
            # not one of its tested paths.
            meta = self.meta.get((p["identity"], p["checksum"]))
            if not meta or meta.get("mode") != "residual":
                problems.append(f"{where}: {p['identity']} ({p['checksum']})"
                                " is no residual function of the binary")
            elif p["id"] >= meta["num_paths"] or \
                    p["id"] in meta.get("tested_ids", []):
                problems.append(f"{where}: {p['identity']} path {p['id']}: "
                                f"not below num_paths {meta['num_paths']}, or "
                                "one of its tested_ids")
        for (identity, checksum, pid), n in seen.items():
            if n > 1 and self.descriptors.get(identity, 0) < 2:
                problems.append(f"{identity} ({checksum}) path {pid} listed "
                                f"{n} times, and it has one descriptor")
        return problems

    def read_reports(self, directory, program):
        """[(file, report)] of the reports in directory, each checked."""
        found = []
        for name in sorted(os.listdir(directory)):
            path = os.path.join(directory, name)
            if not name.startswith("pathcov-report-") or not name.endswith(".json"):
                self.fail(f"{path}: a file that is not a report (a temporary "
                          "file left behind?)")
                continue
            with open(path, "rb") as f:
                text = f.read()
            try:
                report = json.loads(text)
            except ValueError as e:
                self.fail(f"{path}: not JSON ({e}): {text[:200]!r}")
                continue
            problems = self.check_report_fields(name, report)
            if self.report_schema and not problems:
                problems += self.report_schema(report)
            if not problems:
                if os.path.realpath(report["module"]) != os.path.realpath(program):
                    problems.append(f"module {report['module']!r}, expected "
                                    f"{program}")
                if report["build_id"] != self.residual_build_id:
                    problems.append(f"build_id {report['build_id']!r}, the "
                                    f"binary's is {self.residual_build_id!r}")
                if f"-{report['pid']}-" not in name:
                    problems.append(f"pid {report['pid']} not in its name")
            if problems:
                self.fail(f"{path}: invalid report:\n  " + "\n  ".join(problems))
                continue
            self.reports_checked += 1
            found.append((path, report))
        return found

    # ----------------------------------------------------------- markers
    def marker_paths(self, corpus, name, ids):
        """{id: marker letters} of the paths of function `name` in corpus,
        from the /* @x */ comments on the lines pathcov show gives."""
        markers = {}
        for source in self.args.sources:
            with open(source, encoding="utf-8") as f:
                for number, text in enumerate(f, 1):
                    m = MARKER.search(text)
                    if m:
                        markers[(os.path.basename(source), number)] = m.group(1)
        shown = json.loads(must(
            [self.args.pathcov, "show", "--json", "--all", "--max-paths",
             "100000", "-f", name, corpus], "pathcov show").stdout)
        letters = {}
        for fn in shown["functions"]:
            home = os.path.basename(fn["file"])
            for p in fn.get("paths", []):
                if p["id"] not in ids:
                    continue
                text = ""
                for step in p["steps"]:
                    where = os.path.basename(step.get("file", home))
                    for line in step["lines"]:
                        letter = markers.get((where, line), "")
                        if letter and not text.endswith(letter):
                            text += letter
                letters[p["id"]] = text
        return letters

    def show(self, corpus, identity, ids):
        """`pathcov show` of these paths of the function (at most 8)."""
        if not corpus:
            return "(no corpus)"
        chosen = [str(i) for i in ids[:8]]
        r = subprocess.run([self.args.pathcov, "show", "-f", identity,
                            *[a for i in chosen for a in ("-p", i)], corpus],
                           capture_output=True, text=True)
        more = f"\n({len(ids) - 8} more)" if len(ids) > 8 else ""
        return (r.stdout + r.stderr).strip() + more

    # --------------------------------------------------------------- main
    def main(self):
        a = self.args
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        sources = [os.path.abspath(s) for s in a.sources]
        test_sources = [os.path.abspath(s) for s in a.test_sources or sources]

        # 1. The test corpus.
        plain, _ = self.build("plain", [], sources)
        record, warnings = self.build("record", self.plugin([]), sources)
        if "pathcov:" in warnings:
            raise Failed(f"the record build warned:\n{warnings}")
        test_record = record
        if a.test_sources:
            # An earlier version of the sources: the same files, edited, so
            # recorded under the sources' names (a prefix map may name a
            # whole file).
            renamed = [f"-ffile-prefix-map={old}={project_path(new)}"
                       for old, new in zip(test_sources, sources)]
            test_record, _ = self.build("test-record",
                                        self.plugin([]) + renamed,
                                        test_sources)
        self.lap("builds")
        test_dir = os.path.join(self.work, "test-profiles")
        os.makedirs(test_dir)
        if a.test_script:
            must(["sh", a.test_script, test_record], "the test script",
                 env=dict(os.environ, PATHCOV_PROFILE_DIR=test_dir),
                 cwd=self.work)
        for i, spec in enumerate(a.test_args):
            env = {"PATHCOV_PROFILE_DIR": test_dir,
                   "PATHCOV_TEST": f"oracle-test-{i}"}
            out, status, _, err = self.run(test_record, spec, env)
            if status < 0 and not (a.crash and status == -signal.SIGSEGV):
                raise Failed(f"test run {spec!r} died of signal {-status}:"
                             f"\n{err}")
        tested, test_corpus = self.collect(
            "test-corpus", sorted(glob.glob(os.path.join(test_dir, "*"))))
        if not test_corpus:
            raise Failed("the test runs wrote no profile")
        self.lap("test runs")

        stats = os.path.join(self.work, "residual-stats.jsonl")
        residual, warnings = self.build("residual", self.plugin(
            ["mode=residual", f"corpus={test_corpus}"] +
            ([f"stats={stats}"] if a.expect_stat else []) +
            a.residual_args.split()), sources)
        if a.expect_stat:
            with open(stats) as f:
                lines = [json.loads(line) for line in f]
        for expected in a.expect_stat:
            key, _, number = expected.partition("=")
            group, _, field = key.partition(".")
            total = sum(line[group][field] for line in lines)
            if total != int(number):
                self.fail(f"the residual build's statistics say {key} {total}, "
                          f"expected {number}")
            else:
                self.notes.append(f"{key} {total}")
        self.residual_build_id = self.build_id(residual)
        self.lap("builds")

        # The residual build's metadata.
        records = [json.loads(t) for t in self.metadata_records(residual)]
        function_schema = (self.validator("function.schema.json")
                           if a.validate_metadata else None)
        self.report_schema = self.validator("report.schema.json")
        self.descriptors = collections.Counter(
            r["identity"] for r in records if "skipped" not in r)
        self.meta = {(r["identity"], r["checksum"]): r for r in records
                     if "skipped" not in r}
        self.check_metadata(records, tested, function_schema)
        # A descriptor per function with code at its path ends: none for
        # complete ones.
        described = sum(1 for r in records
                        if "skipped" not in r and r.get("policy") != "complete")
        descriptors = self.descriptor_count(residual)
        if descriptors != described:
            self.fail(f"the residual build has {descriptors} descriptors, "
                      f"expected {described} (one per function but the "
                      "complete ones)")
        # Where arrays are the only tables, their size says their layout.
        live = [r for r in records if "skipped" not in r]
        if not any(r.get("policy") in ("hashed", "sorted") for r in live):
            expected = sum(self.array_table_bytes(r) for r in live
                           if r.get("policy") == "array")
            found = self.table_bytes(residual)
            if found != expected:
                self.fail(f"the residual build's tables take {found} bytes, "
                          f"expected {expected} (abi.h)")
        self.check_stale(warnings, records, tested)
        self.check_split({"plain": plain, "record": record,
                          "residual": residual})
        if "pathcov:" in warnings and not a.expect_stale:
            self.fail(f"the residual build warned:\n{warnings}")

        # 2 and 3. The field runs: plain, record, residual.
        field_profiles = collections.defaultdict(list)  # role -> files
        reports = collections.defaultdict(list)  # role -> [(file, report)]
        self.reports_checked = 0
        for i, spec in enumerate(a.field_args):
            runs = {}
            for variant, program in (("plain", plain), ("record", record),
                                     ("residual", residual)):
                profiles = os.path.join(self.work, f"field-{i}", variant,
                                        "profiles")
                report_dir = os.path.join(self.work, f"field-{i}", variant,
                                          "reports")
                os.makedirs(profiles)
                os.makedirs(report_dir)
                env = {"PATHCOV_PROFILE_DIR": profiles,
                       "PATHCOV_REPORT_DIR": report_dir}
                runs[variant] = self.run(program, spec, env) + (
                    profiles, report_dir)
            self.lap("field runs")
            self.check_outputs(spec, runs)
            # Profiles of the record run, by process.
            _, _, record_pid, _, profiles, _ = runs["record"]
            exec_profiles = 0
            for name in sorted(glob.glob(os.path.join(profiles, "*"))):
                with open(name, encoding="utf-8") as f:
                    profile = json.load(f)
                pid = profile["pid"]
                field_profiles[self.role(pid, record_pid)].append(name)
                exec_profiles += (pid != record_pid and
                                  profile["reason"] == "exec")
                # The record run died too: its profile is the crash's.
                if a.crash and pid == record_pid and (
                        profile["reason"] != "signal" or
                        profile.get("signal") != signal.SIGSEGV):
                    self.fail(f"{name}: reason {profile['reason']!r}, signal "
                              f"{profile.get('signal')!r}; expected signal 11")
            if a.exec and exec_profiles != 1:
                self.fail(f"run {spec!r}: {exec_profiles} child profiles "
                          "written before exec, expected one")
            # Reports of the residual run, by process.
            _, status, pid, _, profiles, report_dir = runs["residual"]
            if os.listdir(profiles):
                self.fail(f"the residual build wrote profiles: "
                          f"{os.listdir(profiles)}")
            found = self.read_reports(report_dir, residual)
            self.check_reasons(spec, found, status, pid)
            for name, report in found:
                reports[self.role(report["pid"], pid)].append((name, report))
            if a.fork:
                self.check_fork(spec, found, pid)
        self.lap("field runs")

        # 4. The oracle, per process role (all processes in one unless
        # --fork).
        compared = 0
        for role in sorted(set(field_profiles) | set(reports)):
            executed, field_corpus = self.collect(
                f"field-corpus-{role}", field_profiles[role])
            compared += self.compare(role, executed, tested, reports[role],
                                     field_corpus)
            if field_corpus and role == "all":
                self.check_oracle_command(test_corpus, field_corpus,
                                          reports[role])
            if field_corpus and role in ("all", "parent"):
                self.field_corpus = field_corpus
                self.check_expected_paths(test_corpus, tested, reports[role])
                self.check_calls(field_corpus)
        self.lap("compare")

        stray = glob.glob(os.path.join(self.work, "pathcov-report-*"))
        if stray:
            self.fail(f"reports outside $PATHCOV_REPORT_DIR: {stray}")

        if a.expect_none:
            if compared:
                self.fail(f"control case: {compared} residual paths, expected "
                          "none")
            files = sum(len(r) for r in reports.values())
            if files:
                self.fail(f"control case: {files} reports written, expected "
                          "none (a report only when there is something to say)")
        elif compared == 0:
            self.fail("the field runs had no residual path at all: the "
                      "comparison is vacuous")
        if self.failures:
            raise Failed("\n".join(self.failures))
        timing = ", ".join(f"{k} {v:.2f}s" for k, v in self.times.items())
        schema = " and the report schema" if self.report_schema else ""
        print(f"ok: {compared} residual paths compared "
              f"({len(a.field_args)} field runs, {self.reports_checked} "
              f"reports valid{schema}); {'; '.join(self.notes)}; {timing}")

    def role(self, pid, main_pid):
        if not self.args.fork:
            return "all"
        return "parent" if pid == main_pid else "child"

    # -------------------------------------------------------- the checks
    def check_metadata(self, records, tested, schema):
        policies = collections.Counter()
        for r in records:
            what = f"metadata record of {r.get('identity')}"
            if schema:
                problems = schema(r)
                if problems:
                    self.fail(f"{what} is not valid against function.schema."
                              "json:\n  " + "\n  ".join(problems))
            if "skipped" in r:
                self.fail(f"{r['identity']} was not instrumented: "
                          f"{r['skipped']}")
                continue
            if r.get("mode") != "residual":
                self.fail(f"{what}: mode {r.get('mode')!r}")
                continue
            policy = r.get("policy")
            policies[policy] += 1
            key = (r["identity"], r["checksum"])
            ids = sorted(tested.get(key, {}))
            if policy in ("bytemap", "array", "hashed", "sorted", "complete"):
                if r.get("tested_ids") != ids:
                    self.fail(f"{what} ({policy}): tested_ids "
                              f"{brief(r.get('tested_ids') or [])}, the test "
                              f"corpus has {brief(ids)}")
            elif policy == "untested":
                if ids:
                    self.fail(f"{what}: untested, but the test corpus has "
                              f"paths {ids}")
            elif policy == "stale":
                if not any(i == r["identity"] and c != r["checksum"]
                           for i, c in tested):
                    self.fail(f"{what}: stale, but the test corpus has no "
                              "other checksum of it")
            else:
                self.fail(f"{what}: policy {policy!r}")
            if policy == "complete" and len(ids) != r.get("num_paths"):
                self.fail(f"{what}: complete, but the test corpus has "
                          f"{len(ids)} of its {r.get('num_paths')} paths")
            if policy == "array":
                # PPP numbers the tested paths that end with a checked end:
                # at least one (an array has a check), at most all.
                interval, numbered = r.get("ppp_interval"), r.get("ppp_paths")
                if not isinstance(numbered, int) or not 1 <= numbered <= len(ids) \
                        or not isinstance(interval, int) or interval < numbered \
                        or r.get("ppp_delta") != interval / numbered:
                    self.fail(f"{what}: ppp_paths {numbered!r}, ppp_interval "
                              f"{interval!r}, ppp_delta {r.get('ppp_delta')!r} "
                              f"for {len(ids)} tested paths")
        self.notes.append("policies " + ", ".join(
            f"{p} {n}" for p, n in sorted(policies.items())))
        for spec in self.args.expect_policy:
            name, policy = spec.split("=", 1)
            found = [r.get("policy") for r in records if self.matches(r, name)]
            if not found or set(found) != {policy}:
                self.fail(f"{name}: policy {found}, expected {policy}")
        for spec in self.args.expect_meta:
            name, rest = spec.split(":", 1)
            field, value = rest.split("=", 1)
            want = json.loads(value)
            found = [r.get(field) for r in records if self.matches(r, name)]
            if not found or any(v != want for v in found):
                self.fail(f"{name}: {field} {found}, expected {want}")
            else:
                self.notes.append(f"{name} {field} {want}")

    def check_stale(self, warnings, records, tested):
        for name in self.args.expect_stale:
            text = f"the corpus has '{name}' only with another CFG"
            if text not in warnings or "[-Wmissing-profile]" not in warnings:
                self.fail(f"the residual build did not warn {text!r}:\n"
                          f"{warnings}")
            found = [r.get("policy") for r in records if self.matches(r, name)]
            if set(found) != {"stale"}:
                self.fail(f"{name}: policy {found}, expected stale")
            else:
                self.notes.append(f"{name} stale, warned")

    def check_split(self, programs):
        """--expect-split: GCC split each function (NAME.part.N) in every
        build, as it did in the plain one."""
        for name in self.args.expect_split:
            for variant, program in programs.items():
                symbols = must(["nm", program], "nm").stdout.split()
                if not any(s.startswith(f"{name}.part.") for s in symbols):
                    self.fail(f"the {variant} build did not split {name} "
                              f"(no {name}.part.N)")

    def check_outputs(self, spec, runs):
        plain_out, plain_status = runs["plain"][:2]
        for variant in ("record", "residual"):
            out, status, _, err = runs[variant][:4]
            if out != plain_out or status != plain_status:
                self.fail(f"run {spec!r}: the {variant} build printed "
                          f"{out!r} and exited with {status}, the plain one "
                          f"{plain_out!r} and {plain_status}\n{err}")
        if self.args.crash and plain_status != -signal.SIGSEGV:
            self.fail(f"run {spec!r}: the builds exited with {plain_status}, "
                      "expected death by SIGSEGV")

    def check_reasons(self, spec, found, status, pid):
        for name, report in found:
            if self.args.crash and report["pid"] == pid:
                if report["reason"] != "signal" or report.get("signal") != \
                        signal.SIGSEGV:
                    self.fail(f"{name}: reason {report['reason']!r}, signal "
                              f"{report.get('signal')!r}; expected signal 11")
            elif report["reason"] != "exit" and not (
                    self.args.exec and report["reason"] == "exec"):
                self.fail(f"{name}: reason {report['reason']!r}, expected exit")
        # One report per process and reason: with --exec, a child whose
        # exec failed writes one before the exec and one at exit.
        per_pid = collections.Counter((r["pid"], r["reason"])
                                      for _, r in found)
        for (p, reason), n in per_pid.items():
            if n > 1:
                self.fail(f"run {spec!r}: process {p} wrote {n} reports "
                          f"with reason {reason}")
        if self.args.crash and found and pid not in {p for p, _ in per_pid}:
            self.fail(f"run {spec!r}: the crashed process wrote no report")

    def check_fork(self, spec, found, pid):
        parents = [r for _, r in found if r["pid"] == pid]
        children = [r for _, r in found if r["pid"] != pid]
        if self.args.exec:
            # The one written before the exec (an exit report may follow
            # it, when the exec failed: compare() adds them up). The parent
            # may have run only tested paths: compare() checks that.
            children = [r for r in children if r["reason"] == "exec"]
            if len(children) != 1:
                self.fail(f"run {spec!r}: {len(children)} child reports "
                          "written before exec, expected one")
            if len(parents) != 1:
                return
        if len(parents) != 1 or len(children) != 1:
            self.fail(f"run {spec!r}: {len(parents)} parent reports and "
                      f"{len(children)} child reports, expected one each")
            return
        parent, child = parents[0], children[0]
        if child["started_ns"] <= parent["started_ns"]:
            self.fail(f"run {spec!r}: the child's started_ns is not after "
                      "the parent's (the fork)")
        self.notes.append(
            f"parent {len(parent['residual_paths'])} and child "
            f"{len(child['residual_paths'])} residual paths")

    def check_oracle_command(self, test_corpus, field_corpus, found):
        """residual_oracle.py as a user runs it, on this case's files: EXACT,
        as the comparison above found (its other verdicts are
        residual.oracle-command's)."""
        oracle = os.path.join(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))), "residual_oracle.py")
        directories = sorted({os.path.dirname(name) for name, _ in found}) or [
            os.path.join(self.work, "no-reports")]
        run = subprocess.run([sys.executable, oracle, field_corpus, test_corpus,
                              *directories], capture_output=True, text=True)
        if (run.returncode, run.stdout.splitlines()[-1:]) != (0, ["EXACT"]):
            self.fail(f"residual_oracle.py: exit {run.returncode}, expected "
                      f"EXACT:\n{run.stdout}{run.stderr}")

    def compare(self, role, executed, tested, found, field_corpus):
        """The oracle (residual_oracle.py); returns the number of residual
        paths compared."""
        expected = expected_residual(executed, tested)
        reported = report_paths(report for _, report in found)
        where = "" if role == "all" else f" ({role} process)"
        for key, missing, extra, wrong in mismatches(expected, reported):
            want, got = expected.get(key, {}), reported.get(key, {})
            identity, checksum = key
            lines = [f"{identity} ({checksum}){where}: the residual set "
                     "differs from executed minus tested",
                     f"  executed in the field record run ({{id: count}}): "
                     f"{brief(executed.get(key, {}))}",
                     f"  tested: {brief(sorted(tested.get(key, {})))}",
                     f"  expected residual: {brief(want)}",
                     f"  reported residual: {brief(got)}",
                     f"  missing {brief(missing)}, extra {brief(extra)}, "
                     f"wrong counts {brief(wrong)}",
                     "  pathcov show of those paths (field record run's "
                     "corpus):\n    " + self.show(
                         field_corpus, identity, missing + extra + wrong
                     ).replace("\n", "\n    ")]
            self.fail("\n".join(lines))
        for name in self.args.expect_stale:
            # Every path of a stale function run in the field is residual.
            keys = [k for k in executed if k[0] == name or
                    k[0].endswith(":" + name)]
            ran = {(k, i) for k in keys for i in executed[k]}
            got = {(k, i) for k in keys for i in reported.get(k, {})}
            if not ran or ran != got:
                self.fail(f"{name} (stale): the field ran paths "
                          f"{sorted(i for _, i in ran)}, the reports list "
                          f"{sorted(i for _, i in got)}")
            else:
                self.notes.append(f"{name}: all {len(ran)} paths run reported")
        if self.args.threads:
            first_seen_by = len({(report["pid"], p["thread"])
                                 for _, report in found
                                 for p in report["residual_paths"]})
            if first_seen_by < 2:
                self.fail(f"residual paths first seen by {first_seen_by} "
                          "threads, expected several")
            self.notes.append(f"first seen by {first_seen_by} threads")
        self.compare_tested_counts(role, executed, tested, found)
        total = summary(expected)
        self.notes.append(f"{role}: {total['paths']} residual paths in "
                          f"{total['functions']} functions, "
                          f"{total['runs']} runs")
        return total["paths"]

    def compare_tested_counts(self, role, executed, tested, found):
        """Reports list how often each tested path ran (tested_paths) in a
        build with count-tested=1, and only then. Every field run that ran
        a path writes a report then, one that ran only tested paths too, and
        the sums over reports are the executed counts of the tested
        paths."""
        reported = report_paths((report for _, report in found),
                                "tested_paths")
        if "count-tested=1" not in self.args.residual_args.split():
            if reported:
                self.fail(f"{role}: tested_paths listed without count-tested=1: "
                          f"{brief(reported)}")
            return
        if role != "all":
            self.notes.append(f"{role}: tested_paths compared over all runs")
            return
        if len(found) != len(self.args.field_args):
            self.fail(f"count-tested=1: {len(found)} reports for "
                      f"{len(self.args.field_args)} field runs: a run's tested "
                      "counts were lost")
            return
        expected = {}
        for key, counts in executed.items():
            ran = {i: n for i, n in counts.items() if i in tested.get(key, {})}
            if ran:
                expected[key] = ran
        if reported != expected:
            self.fail(f"{role}: tested_paths {brief(reported)}, the field "
                      f"record run ran the tested paths {brief(expected)}")
        else:
            self.notes.append(f"tested_paths: {sum(map(len, expected.values()))} "
                              "tested paths with their executed counts")

    def check_calls(self, corpus):
        """--expect-calls NAME=N: the field record run called NAME N times,
        and its paths' counts add up to N (each call ran one path)."""
        for spec in self.args.expect_calls:
            name, want = spec.split("=", 1)
            with open(corpus, encoding="utf-8") as f:
                functions = [fn for fn in json.load(f)["functions"]
                             if self.matches(fn, name) and "skipped" not in fn]
            calls = sum(fn["calls"] for fn in functions)
            runs = sum(p["count"] for fn in functions for p in fn["paths"])
            if not functions or calls != int(want) or runs != int(want):
                self.fail(f"{name}: the field record run counted {calls} calls "
                          f"and {runs} path runs, expected {want}")
            else:
                self.notes.append(f"{name}: {calls} calls")

    def check_expected_paths(self, test_corpus, tested, found):
        """--expect-tested / --expect-residual NAME=PATH,...: the paths by
        their marker letters."""
        for spec in self.args.expect_tested:
            name, want = spec.split("=", 1)
            keys = [k for k in tested if k[0] == name or
                    k[0].endswith(":" + name)]
            ids = {i for k in keys for i in tested[k]}
            letters = self.marker_paths(test_corpus, name, ids)
            got = sorted(letters.values())
            if got != sorted(want.split(",")):
                self.fail(f"{name}: the tests ran {got} (ids {sorted(ids)}), "
                          f"expected {sorted(want.split(','))}")
            else:
                self.notes.append(f"{name} tested {','.join(got)} = ids "
                                  f"{sorted(ids)}")
            # The residual build's tables hold exactly those ids.
            for key, record in self.meta.items():
                if self.matches(record, name) and \
                        record.get("tested_ids") != sorted(ids):
                    self.fail(f"{name}: metadata tested_ids "
                              f"{record.get('tested_ids')}, the Ball-Larus "
                              f"ids of {','.join(got)} are {sorted(ids)}")
        for spec in self.args.expect_residual:
            name, want = spec.split("=", 1)
            ids = {p["id"] for _, r in found for p in r["residual_paths"]
                   if p["identity"] == name or
                   p["identity"].endswith(":" + name)}
            letters = self.marker_paths(self.field_corpus, name, ids)
            got = sorted(letters.get(i, f"?{i}") for i in ids)
            if got != sorted(want.split(",")):
                self.fail(f"{name}: reported residual {got} (ids "
                          f"{sorted(ids)}), expected {sorted(want.split(','))}")
            else:
                self.notes.append(f"{name} residual {','.join(got)} = ids "
                                  f"{sorted(ids)}")


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[1:]))
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--flags", default="")
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--plugin-args", default="",
                    help="plugin arguments (KEY=VALUE) of every instrumented "
                    "build")
    ap.add_argument("--residual-args", default="",
                    help="more plugin arguments of the residual build")
    ap.add_argument("--runtime", required=True, help="libpathcov-rt.a")
    ap.add_argument("--pathcov", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--schemas", metavar="DIR")
    ap.add_argument("--test-args", action="append", default=[],
                    metavar="RUN", help="one test run (repeatable)")
    ap.add_argument("--test-script", metavar="SCRIPT",
                    help="a test suite, run as `sh SCRIPT PROGRAM`")
    ap.add_argument("--field-args", action="append", default=[],
                    metavar="RUN", help="one field run (repeatable)")
    ap.add_argument("--test-sources", action="append", metavar="SOURCE",
                    help="build the test runs' program from this source "
                    "instead (repeatable; a stale corpus)")
    ap.add_argument("--expect-none", action="store_true",
                    help="a control: the field runs have no residual path")
    ap.add_argument("--expect-policy", action="append", default=[],
                    metavar="NAME=POLICY")
    ap.add_argument("--expect-stat", action="append", default=[],
                    metavar="GROUP.FIELD=N",
                    help="the residual build's statistics (stats=FILE) add "
                         "up to N, e.g. peeled.loops=4")
    ap.add_argument("--expect-meta", action="append", default=[],
                    metavar="NAME:FIELD=JSON",
                    help="a field of NAME's residual metadata record")
    ap.add_argument("--expect-tested", action="append", default=[],
                    metavar="NAME=PATH,...",
                    help="the tested paths of NAME, as /* @x */ letters")
    ap.add_argument("--expect-residual", action="append", default=[],
                    metavar="NAME=PATH,...",
                    help="the reported residual paths of NAME, as letters")
    ap.add_argument("--expect-calls", action="append", default=[],
                    metavar="NAME=N", help="the field record runs called NAME "
                    "N times, each call one path")
    ap.add_argument("--expect-stale", action="append", default=[],
                    metavar="NAME", help="the residual build warns that the "
                    "corpus has NAME only with another CFG (-Wmissing-profile)")
    ap.add_argument("--expect-split", action="append", default=[],
                    metavar="NAME", help="GCC split NAME (NAME.part.N) in "
                    "the plain, record and residual builds alike")
    ap.add_argument("--validate-metadata", action="store_true",
                    help="validate the residual build's metadata records "
                    "against --schemas DIR/function.schema.json")
    ap.add_argument("--crash", action="store_true",
                    help="the runs die of SIGSEGV, the tests' and the field's: "
                    "the record build's profiles and the residual build's "
                    "reports have reason signal")
    ap.add_argument("--threads", action="store_true",
                    help="residual paths must be first seen by several threads")
    ap.add_argument("--fork", action="store_true",
                    help="compare per process: the parent, and its child")
    ap.add_argument("--exec", action="store_true",
                    help="with --fork: the child execs; it must write a "
                    "profile (record run) and a report (residual run) with "
                    "reason exec before it")
    ap.add_argument("sources", nargs="+")
    args = ap.parse_args()
    if not args.field_args:
        ap.error("no field run")
    if not args.test_args and not args.test_script:
        ap.error("no test run")
    start = time.monotonic()
    try:
        Oracle(args).main()
    except Failed as e:
        sys.exit(f"FAIL ({time.monotonic() - start:.1f}s):\n{e}")


if __name__ == "__main__":
    main()
