"""What the end-to-end test scripts share. Import it after
`sys.path.insert(0, <testsuite directory>)`."""
import argparse
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys


# pathcov's checkout: .pathcov-root marks it, so the plugin records the
# sources of the tests relative to it (docs/record-mode.md).
PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def project_path(source):
    """How the plugin records `source`, a file of this checkout."""
    return os.path.relpath(os.path.abspath(source), PROJECT_ROOT)


# What check() found wrong: each test script is a process of its own.
FAILURES = []


def check(ok, what, detail=""):
    """Unless ok, records the failure `what` (with `detail`, if any) for
    finish() and prints it at once, lest a later abort hide it."""
    if not ok:
        FAILURES.append(f"{what}: {detail}" if detail else what)
        print("FAIL:", FAILURES[-1], flush=True)


def check_schema(doc, schema, what):
    """check()s doc against schemas/SCHEMA; nothing to check without the
    jsonschema module."""
    try:
        import jsonschema
    except ImportError:
        return
    import json
    with open(os.path.join(PROJECT_ROOT, "schemas", schema)) as f:
        errors = list(jsonschema.Draft202012Validator(json.load(f))
                      .iter_errors(doc))
    check(not errors, f"{what}: against {schema}",
          "; ".join(e.message for e in errors[:3]))


def finish(failures, success):
    """Prints each failure (FAIL: ...), or `success` if there is none; the
    test's exit status."""
    for failure in failures:
        print("FAIL:", failure)
    if not failures:
        print(success)
    return 1 if failures else 0


def run(cmd, **kwargs):
    """Runs cmd, its output captured as text."""
    return subprocess.run(cmd, capture_output=True, text=True, **kwargs)


def must(cmd, what, **kwargs):
    """Runs cmd; on failure exits with FAIL, the command, its exit status and
    its output."""
    result = run(cmd, **kwargs)
    if result.returncode != 0:
        sys.exit(f"FAIL: {what}: {shlex.join(cmd)} (exit {result.returncode})"
                 f"\n{result.stdout}{result.stderr}")
    return result


# The section of the plugin's metadata records (coverage/ElfMetadata.h).
METADATA_SECTION = ".debug.pathcov"


def metadata_texts(module, scratch):
    """The texts of the metadata records of `module` (an object, executable
    or shared library), dumped by objcopy into files named after `scratch`:
    the section is not allocated, so objcopy -O binary leaves it out."""
    section = scratch + ".records"
    must(["objcopy", f"--dump-section={METADATA_SECTION}={section}", module,
          scratch + ".elf"], f"extract the metadata section of {module}")
    with open(section, "rb") as f:
        # NUL-terminated records; alignment may leave NULs between them.
        return [r for r in f.read().split(b"\0") if r.strip()]


def metadata_records(module, scratch):
    """metadata_texts, parsed."""
    return [json.loads(r) for r in metadata_texts(module, scratch)]


def recorded_corpus(plugin, runtime, pathcov, sources, work, corpus, args=()):
    """Builds the program of `sources` in record mode in `work`, runs it
    once with `args` and collects its profile into the corpus `corpus`."""
    program = os.path.join(work, "program")
    subprocess.run(["gcc", "-O2", f"-fplugin={plugin}", *sources, "-o", program,
                    runtime, "-lpthread"], check=True)
    profiles = os.path.join(work, "profiles")
    subprocess.run([program, *args], capture_output=True, check=True,
                   env={**os.environ, "PATHCOV_PROFILE_DIR": profiles})
    subprocess.run([pathcov, "collect", "-o", corpus, profiles], check=True)
    return corpus


def residual_field_run(flags, sources, runtime, work, args):
    """Links `sources` with the compiler flags `flags` (a residual build)
    in `work`, runs the program once with `args` and returns the directory
    its reports went to."""
    program = os.path.join(work, "residual")
    must(["gcc", "-O2", *flags, *sources, "-o", program, runtime, "-lpthread"],
         "residual link")
    reports = fresh_directory(os.path.join(work, "reports"))
    must([program, *args], "field run",
         env={**os.environ, "PATHCOV_REPORT_DIR": reports})
    return reports


def tested_then_field(plugin, runtime, pathcov, sources, work, test_args,
                      field_args, flags=()):
    """The reports directory of a release of `sources` (with `flags`) run
    on `field_args`, built against the corpus of one record run on
    `test_args`; in `work`, made afresh."""
    fresh_directory(work)
    corpus = recorded_corpus(plugin, runtime, pathcov, sources,
                             fresh_directory(os.path.join(work, "tests")),
                             os.path.join(work, "corpus.json"), args=test_args)
    residual = [f"-fplugin={plugin}", "-fplugin-arg-pathcov-mode=residual",
                f"-fplugin-arg-pathcov-corpus={corpus}", *flags]
    return residual_field_run(residual, sources, runtime,
                              fresh_directory(os.path.join(work, "field")),
                              field_args)


def functions_in(pattern):
    """{function: its GIMPLE} in the one GCC dump file matching `pattern`."""
    [dump] = glob.glob(pattern)
    with open(dump) as f:
        parts = re.split(r"^;; Function ", f.read(), flags=re.M)[1:]
    return {part.split()[0]: part for part in parts}


def fresh_directory(path):
    """`path`, emptied, mode 0755: a directory the plugin trusts with its
    corpus index whatever the umask (docs/residual-mode.md)."""
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    os.chmod(path, 0o755)
    return path


def e2e_arguments(*options):
    """The arguments --OPTION VALUE of each of `options` (all required),
    parsed, the directory --workdir names emptied and made."""
    parser = argparse.ArgumentParser()
    for option in options:
        parser.add_argument("--" + option, required=True)
    args = parser.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    return args
