"""Residual mode on random C programs (csmith): each program's only run is
recorded into a corpus, the release build against it must print what plain
-O2 prints and report nothing (every path it runs is tested: the PPP
paper's setting), and the record build must print the same too. Then the
release build against that corpus with a quarter of each function's paths
left out (chosen from the seed) must report exactly those paths, with the
counts the record run gave them: the residual oracle, on routes some of
whose paths are tested and some not, which decides where checks go
(routes whose every path was tested get none). Checks the
instrumentation, loop peeling included, on code nobody wrote for it.

usage: csmith_differential.py PLUGIN RUNTIME PATHCOV WORKDIR OPT SEED...
"""
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import residual_oracle  # noqa: E402
import testlib  # noqa: E402

CSMITH_INCLUDE = "/usr/include/csmith"
RUN_SECONDS = 10
# The instrumented builds may run slower; a hang still fails.
INSTRUMENTED_SECONDS = 6 * RUN_SECONDS


def run(program, env=None, seconds=RUN_SECONDS):
    """The program's output, or None when it runs too long (csmith
    programs may loop for minutes: such a seed proves nothing)."""
    try:
        r = subprocess.run([program], capture_output=True, text=True,
                           timeout=seconds, env=env)
    except subprocess.TimeoutExpired:
        return None
    return r.returncode, r.stdout


def main():
    plugin, runtime, pathcov, work, opt = sys.argv[1:6]
    seeds = sys.argv[6:]
    failures, checked, peeled = [], 0, 0
    residual_paths, tested_routes = 0, 0
    for seed in seeds:
        d = testlib.fresh_directory(os.path.join(work, f"seed-{seed}"))
        source = os.path.join(d, "program.c")
        with open(source, "w") as f:
            # In the seed's directory: csmith writes platform.info there.
            f.write(testlib.must(["csmith", "--seed", seed],
                                 f"csmith seed {seed}", cwd=d).stdout)

        def build(variant, *plugin_args):
            """Builds d/variant; with the plugin, linked with the runtime."""
            runtime_args = [runtime, "-lpthread"] if plugin_args else []
            testlib.must(["gcc", opt, "-w", f"-I{CSMITH_INCLUDE}", *plugin_args,
                          source, "-o", os.path.join(d, variant), *runtime_args],
                         f"seed {seed}: {variant} build")

        build("plain")
        expected = run(os.path.join(d, "plain"))
        if expected is None:
            continue

        def same_output(variant, variable, directory):
            """Runs the variant's program with `variable` naming `directory`;
            notes a failure unless it printed what plain did."""
            got = run(os.path.join(d, variant),
                      dict(os.environ, **{variable: directory}),
                      INSTRUMENTED_SECONDS)
            if got != expected:
                failures.append(f"seed {seed}: the {variant} build printed "
                                f"{got!r}, plain {expected!r}")
            return got == expected

        build("record", f"-fplugin={plugin}")
        profiles = os.path.join(d, "profiles")
        if not same_output("record", "PATHCOV_PROFILE_DIR", profiles):
            continue
        corpus = os.path.join(d, "corpus.json")
        testlib.must([pathcov, "collect", "-o", corpus, profiles],
                     f"seed {seed}: collect")
        def build_residual(variant, corpus):
            """Builds d/variant against `corpus`; returns its statistics'
            file."""
            stats = os.path.join(d, variant + "-stats.jsonl")
            build(variant, f"-fplugin={plugin}",
                  "-fplugin-arg-pathcov-mode=residual",
                  f"-fplugin-arg-pathcov-corpus={corpus}",
                  f"-fplugin-arg-pathcov-stats={stats}")
            return stats

        stats = build_residual("residual", corpus)
        reports = os.path.join(d, "reports")
        same_output("residual", "PATHCOV_REPORT_DIR", reports)
        if os.path.isdir(reports) and os.listdir(reports):
            failures.append(f"seed {seed}: the residual build reported "
                            f"{sorted(os.listdir(reports))} on its corpus's run")
        with open(stats) as f:
            peeled += sum(json.loads(line)["peeled"]["loops"] for line in f)

        # The same run against a corpus missing a quarter of its paths.
        with open(corpus) as f:
            thinned = json.load(f)
        pick = random.Random(int(seed))
        for fn in thinned["functions"]:
            if "paths" in fn:
                fn["paths"] = [p for p in fn["paths"] if pick.randrange(4) != 0]
        thinned_corpus = os.path.join(d, "thinned.json")
        with open(thinned_corpus, "w") as f:
            json.dump(thinned, f)
        thinned_stats = build_residual("thinned", thinned_corpus)
        thinned_reports = os.path.join(d, "thinned-reports")
        if not same_output("thinned", "PATHCOV_REPORT_DIR", thinned_reports):
            continue
        expected_paths, wrong = residual_oracle.check_reports(
            corpus, thinned_corpus, thinned_reports)
        if wrong:
            failures.append(f"seed {seed}: against the thinned corpus, "
                            f"(function, missing, extra, other count): {wrong[:5]}")
        residual_paths += residual_oracle.summary(expected_paths)["paths"]
        with open(thinned_stats) as f:
            for line in f:
                unit = json.loads(line)
                tested_routes += (unit["path_ends"]["tested_routes"] +
                                  unit["peeled"]["tested_routes"])
        checked += 1
    # Enough programs ran to say something, and peeling was exercised.
    if checked < len(seeds) // 2:
        failures.append(f"only {checked} of {len(seeds)} programs ran within "
                        f"{RUN_SECONDS} s")
    if opt != "-O0" and peeled == 0:
        failures.append("no loop was peeled in any program")
    if residual_paths == 0 or tested_routes == 0:
        failures.append(f"the thinned corpora left {residual_paths} residual "
                        f"paths and {tested_routes} routes without a check: "
                        "nothing was checked")
    return testlib.finish(failures, f"ok: {checked} csmith programs at {opt}, "
                          f"identical output, no report; {peeled} loops peeled; "
                          f"thinned corpora: {residual_paths} residual paths "
                          f"reported exactly, {tested_routes} routes without "
                          "a check")


if __name__ == "__main__":
    sys.exit(main())
