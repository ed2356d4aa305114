#!/usr/bin/env python3
"""A C++ project with its own test suite, profiled the documented way
(docs/record-mode.md) with an installed pathcov.

1. Installs pathcov from the build tree into a scratch directory:
   `DESTDIR=STAGE cmake --install BUILD --prefix /pathcov`, so PREFIX is
   STAGE/pathcov: every file must be staged there, the plugin included
   (PATHCOV_PLUGIN_INSTALL_DIR, relative to the prefix unless the build was
   configured otherwise), and the spec files must name the plugin and the
   runtime at their final place, /pathcov/..., never the stage. The
   runtime's CMake package and pkg-config file find their prefix from
   their own location, so they work from the staged prefix.
2. Builds testsuite/projects/shapes twice with the same compiler: plain,
   and with -DSHAPES_PATHCOV=ON -DCMAKE_PREFIX_PATH=PREFIX
   -DPATHCOV_PLUGIN=<staged pathcov.so> (find_package(pathcov-runtime),
   -fplugin, link_libraries(pathcov::runtime), PATHCOV_TEST and
   PATHCOV_PROFILE_DIR per test, as the guide says). Runs the project's
   test suite with ctest in both; all tests must pass.
3. Runs the installed `pathcov collect` on the profiles and `pathcov show
   --summary`, and checks that every test that named itself in
   PATHCOV_TEST is in the corpus, that a class method, template
   instantiations and functions that throw have tested paths (the
   throwing ones a path that ends at the throw, run by the tests that give
   bad input), and that every test's command prints the same and exits
   alike in both builds.
4. Builds a small C program with `pkg-config --cflags --libs
   pathcov-runtime` (PKG_CONFIG_PATH=PREFIX/lib/pkgconfig), runs it and
   collects its profiles. Programs linked with pathcov::runtime or
   pkg-config's flags have packed relative relocations (DT_RELR).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import FAILURES, check, finish, must  # noqa: E402


def step(text):
    print(f"\n== {text}  [{time.monotonic() - START:.1f} s]")


def install(args, stage):
    env = dict(os.environ, DESTDIR=stage)
    must([args.cmake, "--install", args.build_dir, "--prefix", "/pathcov"],
         "cmake --install", env=env)
    prefix = os.path.join(stage, "pathcov")
    plugin_dir = args.plugin_install_dir
    plugin_dir = (stage + plugin_dir if os.path.isabs(plugin_dir)
                  else os.path.join(prefix, plugin_dir))
    plugin = os.path.join(plugin_dir, "pathcov.so")
    files = sorted(os.path.relpath(os.path.join(d, f), stage)
                   for d, _, fs in os.walk(stage) for f in fs)
    print("installed:\n  " + "\n  ".join(files))
    for wanted in ("pathcov/bin/pathcov", "/libpathcov-rt.a",
                   "/pkgconfig/pathcov-runtime.pc",
                   "/cmake/pathcov-runtime/pathcov-runtime-config.cmake",
                   "/cmake/pathcov/pathcovConfig.cmake",
                   "/cmake/pathcov/pathcovConfigVersion.cmake",
                   "pathcov/include/pathcov/pathcov.h"):
        check(any(f.startswith(wanted) or f.endswith(wanted) for f in files),
              f"installed {wanted.strip('/')}")
    check(os.path.isfile(plugin), f"the plugin is at {plugin}")
    final_plugin = plugin[len(stage):]
    runtime = [f for f in files if f.endswith("/libpathcov-rt.a")][:1]
    for mode in ("record", "residual"):
        specs = [f for f in files if f.endswith(f"/pathcov-{mode}.specs")]
        check(len(specs) == 1, f"installed pathcov-{mode}.specs: {specs}")
        with open(os.path.join(stage, specs[0]) if specs else os.devnull,
                  encoding="utf-8") as f:
            text = f.read()
        check(f"-fplugin={final_plugin} " in text and
              f":/{''.join(runtime)} -lpthread" in text and stage not in text,
              f"pathcov-{mode}.specs names {final_plugin} and "
              "/pathcov/.../libpathcov-rt.a, not the stage")
    pc_dirs = [os.path.join(stage, os.path.dirname(f)) for f in files
               if f.endswith("/pathcov-runtime.pc")]
    return prefix, plugin, os.path.join(prefix, "bin", "pathcov"), pc_dirs


def build_project(args, build, options):
    must([args.cmake, "-S", args.project, "-B", build,
          f"-DCMAKE_CXX_COMPILER={args.cxx}", *options],
         f"configure {build}")
    built = must([args.cmake, "--build", build, "-j2"], f"build {build}")
    warnings = [l for l in (built.stdout + built.stderr).splitlines()
                if "pathcov:" in l]
    check(not warnings, f"{os.path.basename(build)}: no pathcov warnings "
          "while building" + "".join("\n      " + w for w in warnings))
    tested = subprocess.run([args.ctest, "--test-dir", build,
                             "--output-on-failure"],
                            capture_output=True, text=True)
    check(tested.returncode == 0, f"{os.path.basename(build)}: the project's "
          "tests pass" + ("" if tested.returncode == 0 else
                          "\n" + tested.stdout + tested.stderr))
    shown = json.loads(must([args.ctest, "--test-dir", build,
                             "--show-only=json-v1"], "ctest --show-only")
                       .stdout)
    tests = {}
    for t in shown["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        tests[t["name"]] = (t["command"], props.get("ENVIRONMENT", []))
    return tests


def run_test_command(command, environment, profiles):
    env = dict(os.environ)
    for assignment in environment:
        name, _, value = assignment.partition("=")
        env[name] = value
    if "PATHCOV_PROFILE_DIR" in env:
        env["PATHCOV_PROFILE_DIR"] = profiles  # keep the corpus's dir clean
    r = subprocess.run(command, capture_output=True, text=True, env=env)
    return r.stdout, r.returncode


def function(shown, patterns):
    """The functions of `pathcov show --json` whose name contains each of
    patterns (GCC's printable names: "T shapes::Stats<T>::add(T) [with T =
    int]")."""
    return [f for f in shown["functions"]
            if all(p in f["name"] for p in patterns)]


def check_corpus(args, pathcov, build, tests):
    corpus = os.path.join(build, "corpus.json")
    must([pathcov, "collect", "-o", corpus, os.path.join(build, "profiles")],
         "pathcov collect")
    summary = must([pathcov, "show", "--summary", "--by-function", corpus],
                   "pathcov show --summary --by-function").stdout
    ours = [l for l in summary.splitlines() if l.startswith(args.project)]
    print("pathcov show --summary, the project's own functions:\n  " +
          "\n  ".join(l.replace(args.project + "/", "") for l in ours))
    shown = json.loads(must([pathcov, "show", "--json", "--max-paths",
                             "100000", corpus], "pathcov show --json").stdout)

    named = {}
    for name, (_, environment) in tests.items():
        check(f"PATHCOV_TEST={name}" in environment,
              f"test {name} names itself in PATHCOV_TEST")
        named[name] = set()
    for f in shown["functions"]:
        for p in f.get("paths", []):
            for t in p["tests"]:
                named.setdefault(t, set()).add(f["name"])
    for name in sorted(named):
        check(name in tests, f"corpus test {name!r} is a test of the project")
        check(bool(named[name]), f"test {name} ran paths in the corpus "
              f"({len(named[name])} functions)")

    def tested(pattern, test=None, end=None):
        found = function(shown, pattern.split("|"))
        paths = [p for f in found for p in f.get("paths", [])
                 if p["count"] and (test is None or test in p["tests"])
                 and (end is None or p["end"] == end)]
        what = (f"{pattern!r}: {len(found)} functions, {len(paths)} tested "
                "paths" + (f" ending at {end}" if end else "")
                + (f" run by {test}" if test else ""))
        check(bool(found) and bool(paths), what)

    # A class method (a virtual one, called through the base class).
    tested("shapes::Triangle::area() const", "cli.mixed")
    tested("std::string shapes::Rectangle::kind() const", "unit.rectangle")
    # Template instantiations (PATTERN|PATTERN: a name with both).
    tested("shapes::Stats<T>::median() const|[with T = int]", "unit.stats")
    tested("shapes::Stats<T>::add(T)|[with T = double]", "cli.mixed")
    tested("shapes::Stats<T>::median() const|[with T = double]",
           "unit.stats", "throw")
    # Functions that throw: the path to the throw, run by the bad inputs,
    # ends where the exception leaves the function (after the cleanups).
    tested("shapes::Triangle::Triangle(double, double, double)",
           "cli.bad-triangle", "throw")
    tested("shapes::parse(", "cli.bad-input", "throw")
    # ... and the handler in main that catches them.
    tested("main(int, char**)", "cli.bad-input")
    interrupted = [(f["name"], f["interrupted"]) for f in shown["functions"]
                   if f.get("interrupted")]
    print("interrupted calls (exceptions passing through): "
          + (", ".join(f"{n} {c}" for n, c in interrupted) or "none"))


def same_outputs(plain, instrumented, scratch):
    check(set(plain) == set(instrumented), "both builds have the same tests")
    for name in sorted(set(plain) & set(instrumented)):
        want = run_test_command(*plain[name], scratch)
        got = run_test_command(*instrumented[name], scratch)
        check(want == got, f"test {name}: same output and exit status "
              f"({want[1]}) in both builds" +
              ("" if want == got else f"\n      plain: {want!r}\n      "
               f"pathcov: {got!r}"))


def pkg_config(args, prefix, plugin, pathcov, pc_dirs, work):
    env = dict(os.environ, PKG_CONFIG_PATH=":".join(pc_dirs))
    flags = must(["pkg-config", "--cflags", "--libs", "pathcov-runtime"],
                 "pkg-config", env=env).stdout.split()
    print("pkg-config --cflags --libs pathcov-runtime: " + " ".join(flags))
    dirs = {(f[:2], os.path.normpath(f[2:])) for f in flags
            if f[:2] in ("-I", "-L")}
    check(("-I", os.path.join(prefix, "include")) in dirs and
          any(k == "-L" and d.startswith(prefix) for k, d in dirs) and
          "-lpathcov-rt" in flags,
          "pkg-config names PREFIX/include, a -L in PREFIX and -lpathcov-rt")
    check("-Wl,-z,pack-relative-relocs" in flags,
          "pkg-config asks for packed relative relocations")
    specs = must(["pkg-config", "--variable=specsdir", "pathcov-runtime"],
                 "pkg-config --variable=specsdir", env=env).stdout.strip()
    check("//" not in specs and os.path.isfile(os.path.join(specs, "pathcov-record.specs")),
          f"pkg-config's specsdir, {specs}, is a plain path to the specs")
    exe = os.path.join(work, "hello")
    must([args.cc, "-O2", "-g", f"-fplugin={plugin}", args.hello, *flags,
          "-o", exe], "build hello.c with pkg-config's flags")
    dynamic = must(["readelf", "-d", exe], "readelf -d hello").stdout
    check("(RELR)" in dynamic, "hello has packed relative relocations (DT_RELR)")
    profiles = os.path.join(work, "hello-profiles")
    os.makedirs(profiles)
    env = dict(os.environ, PATHCOV_PROFILE_DIR=profiles,
               PATHCOV_TEST="pkg-config")
    r = subprocess.run([exe, "world", "", "again"], capture_output=True,
                       text=True, env=env)
    check((r.stdout, r.returncode) ==
          ("hello, world\nhello, nobody\nhello, again\n", 1),
          f"hello runs ({r.returncode}, {r.stdout!r})")
    check(len(os.listdir(profiles)) == 2,
          f"hello wrote 2 profiles (flush, exit): {os.listdir(profiles)}")
    corpus = os.path.join(work, "hello-corpus.json")
    must([pathcov, "collect", "-o", corpus, profiles], "collect hello")
    shown = json.loads(must([pathcov, "show", "--json", "-f", "greet",
                             corpus], "show hello").stdout)
    greet = shown["functions"][0] if shown["functions"] else {}
    check(greet.get("calls") == 3 and
          sorted(p["count"] for p in greet.get("paths", [])) == [1, 2] and
          all(p["tests"] == ["pkg-config"] for p in greet["paths"]),
          f"greet(): 3 calls on 2 paths in test pkg-config "
          f"({greet.get('calls')} calls, paths "
          f"{[(p['id'], p['count']) for p in greet.get('paths', [])]})")


START = time.monotonic()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for option in ("build-dir", "cmake", "ctest", "plugin-install-dir",
                   "project", "workdir", "cc", "cxx", "hello"):
        ap.add_argument(f"--{option}", required=True)
    args = ap.parse_args()
    work = args.workdir
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    step("install pathcov into a scratch prefix")
    prefix, plugin, pathcov, pc_dirs = install(
        args, os.path.join(work, "stage"))
    if FAILURES:
        sys.exit("FAIL: the installation is incomplete")

    step("build and test shapes without the plugin")
    plain = build_project(args, os.path.join(work, "plain"), [])
    step("build and test shapes with the installed pathcov")
    instrumented = build_project(args, os.path.join(work, "pathcov"), [
        "-DSHAPES_PATHCOV=ON", f"-DCMAKE_PREFIX_PATH={prefix}",
        f"-DPATHCOV_PLUGIN={plugin}"])
    for module in ("shapes-cli", "libshapes.so"):
        dynamic = must(["readelf", "-d", os.path.join(work, "pathcov", module)],
                       f"readelf -d {module}").stdout
        check("(RELR)" in dynamic, f"{module}, linked with pathcov::runtime, "
              "has packed relative relocations (DT_RELR)")
    step("collect and show with the installed pathcov")
    check_corpus(args, pathcov, os.path.join(work, "pathcov"), instrumented)
    step("the same outputs with and without the plugin")
    scratch = os.path.join(work, "scratch-profiles")
    os.makedirs(scratch)
    same_outputs(plain, instrumented, scratch)
    step("pkg-config")
    pkg_config(args, prefix, plugin, pathcov, pc_dirs, work)
    step("done")
    return finish(FAILURES, "ok: the shapes project, profiled with the "
                  "installed pathcov")


if __name__ == "__main__":
    sys.exit(main())
