"""The benchmarked Debian source packages: how each is built in a variant,
its workload (timed, and a small one for callgrind) and its own test suite
(the corpus of residual scenario (b)).

Every build compiles with relative source names in its own copy of the tree
(`cp -a`), so function identities (which name the translation unit for static
functions) are the same in every variant.
"""

import glob
import os
import re
import shutil

from common import BENCH_DIR, BenchError, run

LUA_DIR = os.path.join(BENCH_DIR, "lua")
CXX_DIR = os.path.join(BENCH_DIR, "cxx")


class Step:
    """One process of a workload: argv, stdin file (None: /dev/null), stdout file name."""

    def __init__(self, argv, stdin, out):
        self.argv, self.stdin, self.out = argv, stdin, out


class Package:
    name = ""
    source_version = None  # the Debian version to fetch; None: the newest
    lang = "c"
    program = ""          # the workload's binary, relative to the build directory
    input_mib = None      # (timed, callgrind) sizes of the generated input, or None
    pthread = False       # the build adds -pthread (see the gcov note)
    workload_text = ""
    tests_text = ""

    def prepare(self, tree, work):
        """One-time step shared by all variants; returns the tree each variant copies."""
        return tree

    def build(self, bdir, cflags, ldlibs):
        """Builds the workload program; returns (log, seconds)."""
        raise NotImplementedError

    def build_tests(self, bdir, cflags, ldlibs):
        """Builds the test programs (record variant only); returns the log."""
        return ""

    def workload(self, bdir, small, inputs):
        raise NotImplementedError

    def tests(self, bdir, cflags, ldlibs):
        """[(test name, shell command, cwd)], run with PATHCOV_TEST=name."""
        raise NotImplementedError

    def normalize(self, data):
        return data

    def check(self, sums, inputs, small):
        """A failure message if the outputs are wrong, else None."""
        return None


def sh(script, cwd, build=True):
    return run(["sh", "-c", script], cwd=cwd, build=build)


class Compressor(Package):
    ext = ""
    comp = []
    decomp = []

    def workload(self, bdir, small, inputs):
        exe = os.path.join(bdir, self.program)
        inp = inputs["small" if small else "full"]
        return [Step([exe] + self.comp, inp, "out" + self.ext),
                Step([exe] + self.decomp, None, "out")]

    def check(self, sums, inputs, small):
        want = inputs["small_sha" if small else "full_sha"]
        return None if sums[-1] == want else "the decompressed output is not the input"


class Zlib(Compressor):
    name = "zlib"
    program = "minigzip"
    input_mib = (16, 2)
    ext = ".gz"
    comp = ["-9"]
    decomp = ["-d"]
    workload_text = "`minigzip -9 < input > out.gz; minigzip -d < out.gz > out`"
    tests_text = ("`make teststatic test64` (zlib's `make test` without the shared library: "
                  "`example`, `example64` and `minigzip` on `hello world`)")

    def build(self, bdir, cflags, ldlibs):
        env = dict(os.environ, CC="gcc", CFLAGS=cflags)
        out1, _ = run(["./configure", "--static"], cwd=bdir, env=env, build=True)
        # zlib links its programs with $(TEST_LDFLAGS) = -L. libz.a: the
        # runtime must come after libz.a, so it goes in TEST_LDFLAGS.
        make = ["make", "-j1", "minigzip", f"TEST_LDFLAGS=-L. libz.a {ldlibs}".rstrip()]
        out2, dt = run(make, cwd=bdir, build=True)
        return out1 + out2, dt

    def build_tests(self, bdir, cflags, ldlibs):
        return run(["make", "-j2", "example", "example64", "minigzip64",
                    f"TEST_LDFLAGS=-L. libz.a {ldlibs}".rstrip()], cwd=bdir, build=True)[0]

    def tests(self, bdir, cflags, ldlibs):
        return [("zlib-make-test", f"make teststatic test64 'TEST_LDFLAGS=-L. libz.a {ldlibs}'",
                 bdir)]


class Bzip2(Compressor):
    name = "bzip2"
    program = "bzip2"
    input_mib = (16, 1)
    ext = ".bz2"
    comp = ["-9", "-c"]
    decomp = ["-d", "-c"]
    SOURCES = ["blocksort.c", "huffman.c", "crctable.c", "randtable.c", "compress.c",
               "decompress.c", "bzlib.c", "bzip2.c"]
    workload_text = ("`bzip2 -9 -c < input > out.bz2; bzip2 -d -c < out.bz2 > out` (the library "
                     "and `bzip2.c` compiled directly into one static program)")
    tests_text = ("the commands of bzip2's `make test`: `bzip2 -1/-2/-3` and `-d`/`-ds` on "
                  "`sample{1,2,3}`, compared with `cmp`")

    def build(self, bdir, cflags, ldlibs):
        # Compile the sources directly: Debian's Makefile links bzip2 against
        # the shared libbz2.so (benchmarking-notes.md).
        srcs = " ".join(self.SOURCES)
        objs = " ".join(s[:-2] + ".o" for s in self.SOURCES)
        script = (f"for s in {srcs}; do gcc {cflags} -D_FILE_OFFSET_BITS=64 -c $s || exit 1; "
                  f"done && gcc {cflags} -o bzip2 {objs}" + (f" {ldlibs}" if ldlibs else ""))
        return sh(script, bdir)

    def tests(self, bdir, cflags, ldlibs):
        t = ("./bzip2 -1 < sample1.ref > sample1.rb2 && ./bzip2 -2 < sample2.ref > sample2.rb2 && "
             "./bzip2 -3 < sample3.ref > sample3.rb2 && ./bzip2 -d < sample1.bz2 > sample1.tst && "
             "./bzip2 -d < sample2.bz2 > sample2.tst && ./bzip2 -ds < sample3.bz2 > sample3.tst && "
             "cmp sample1.bz2 sample1.rb2 && cmp sample2.bz2 sample2.rb2 && "
             "cmp sample3.bz2 sample3.rb2 && cmp sample1.tst sample1.ref && "
             "cmp sample2.tst sample2.ref && cmp sample3.tst sample3.ref")
        return [("bzip2-make-test", t, bdir)]


class Xz(Compressor):
    name = "xz-utils"
    program = "src/xz/xz"
    input_mib = (2, 1)
    ext = ".xz"
    comp = ["-6", "-T1", "-c"]
    decomp = ["-d", "-T1", "-c"]
    pthread = True
    workload_text = "`xz -6 -T1 -c < input > out.xz; xz -d -T1 -c < out.xz > out`"
    tests_text = "`make -C tests check` (its test programs and test scripts)"

    def prepare(self, tree, work):
        conf = os.path.join(work, "configured")
        run(["cp", "-a", tree, conf])
        run(["./configure", "--disable-shared", "--enable-static", "--disable-nls",
             "--disable-doc", "CFLAGS=-O2"], cwd=conf, build=True)
        return conf

    def _libs(self, bdir, ldlibs):
        text = open(os.path.join(bdir, "src", "xz", "Makefile")).read()
        m = re.search(r"^LIBS = (.*)$", text, re.M)
        return ((m.group(1).strip() if m else "") + " " + ldlibs).strip()

    def _make(self, bdir, cflags, ldlibs, targets):
        libs = self._libs(bdir, ldlibs)
        return (f"make -j1 -C src/liblzma CFLAGS='{cflags}' LIBS='{libs}' && "
                + " && ".join(f"make -j1 -C {t} CFLAGS='{cflags}' LIBS='{libs}'" for t in targets))

    def build(self, bdir, cflags, ldlibs):
        return sh(self._make(bdir, cflags, ldlibs, ["src/xz"]), bdir)

    def build_tests(self, bdir, cflags, ldlibs):
        return sh(self._make(bdir, cflags, ldlibs, ["src/xzdec", "src/lzmainfo"]), bdir)[0]

    def tests(self, bdir, cflags, ldlibs):
        libs = self._libs(bdir, ldlibs)
        return [("xz-make-check", f"make -j2 -C tests check CFLAGS='{cflags}' LIBS='{libs}'",
                 bdir)]


class Lua(Package):
    name = "lua5.4"
    program = "src/lua"
    workload_text = ("`lua bench/lua/workload.lua N`: closures, tables, sorting, string "
                     "building, pattern matching, integer and float arithmetic, coroutines; "
                     "prints a checksum. All variants are compiled with `-Dluai_makeseed(L)=0x2545F491u` (a fixed "
                     "string-hash seed instead of time and addresses) and `luaS_new`'s string cache is indexed "
                     "by the string's length instead of its address (which differs between binaries), so every "
                     "run of every variant takes the same paths")
    tests_text = ("Debian ships no Lua test suite: the scripts `bench/lua/test_*.lua` "
                  "(strings, tables, errors with pcall/error, i.e. longjmp, coroutines, "
                  "metatables), each run by the record build")
    SCALE = (150, 3)

    def prepare(self, tree, work):
        # debian/rules generates this header (override_dh_auto_configure).
        prep = os.path.join(work, "prepared")
        run(["cp", "-a", tree, prep])
        arch = run(["dpkg-architecture", "-qDEB_HOST_MULTIARCH"], quiet=True)[0].strip()
        with open(os.path.join(prep, "src", "lua5.4-deb-multiarch.h"), "w") as f:
            f.write("#ifndef _LUA_DEB_MULTIARCH_\n#define _LUA_DEB_MULTIARCH_\n"
                    f"#define DEB_HOST_MULTIARCH \"{arch}\"\n#endif\n")
        # luaS_new caches C strings in a slot chosen by the string's
        # address, which differs between binaries of different sizes: which
        # strings stay cached, and so the paths luaS_clearcache takes in the
        # garbage collector, differed between the record and the residual
        # builds. Any slot is correct (the cache compares the contents); the
        # string's length gives the same one in every build.
        lstring = os.path.join(prep, "src", "lstring.c")
        text = open(lstring).read()
        old = "unsigned int i = point2uint(str) % STRCACHE_N;"
        if old not in text:
            raise BenchError("lua5.4: lstring.c no longer has the address-indexed string cache")
        with open(lstring, "w") as f:
            f.write(text.replace(old, "unsigned int i = (unsigned int)strlen(str) % STRCACHE_N;"))
        return prep

    def build(self, bdir, cflags, ldlibs):
        srcs = sorted(os.path.basename(s) for s in glob.glob(os.path.join(bdir, "src", "*.c"))
                      if not s.endswith(("/luac.c", "/onelua.c")))
        # A fixed string-hash seed (lstate.c uses time and addresses): the
        # same paths on every run, in every variant.
        script = (f"for s in {' '.join(srcs)}; do gcc {cflags} -DLUA_COMPAT_5_3 -DLUA_USE_LINUX "
                  "'-Dluai_makeseed(L)=0x2545F491u' "
                  f"-c $s || exit 1; done && gcc {cflags} -o lua *.o -lm -ldl"
                  + (f" {ldlibs}" if ldlibs else ""))
        return sh(script, os.path.join(bdir, "src"))

    def workload(self, bdir, small, inputs):
        n = self.SCALE[1 if small else 0]
        return [Step([os.path.join(bdir, self.program), os.path.join(LUA_DIR, "workload.lua"),
                      str(n)], None, "out.txt")]

    def tests(self, bdir, cflags, ldlibs):
        return [(os.path.basename(t)[:-4], f"./src/lua {t}", bdir)
                for t in sorted(glob.glob(os.path.join(LUA_DIR, "test_*.lua")))]


SQLITE_OPTS = ("-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_ENABLE_MEMSYS5 "
               "-DSQLITE_PRINTF_PRECISION_LIMIT=1000 -DSQLITE_ENABLE_FTS4 "
               "-DSQLITE_ENABLE_FTS3_PARENTHESIS -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_RTREE "
               "-DSQLITE_ENABLE_GEOPOLY -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_ENABLE_BYTECODE_VTAB")


class Sqlite(Package):
    name = "sqlite3"
    program = "speedtest1"
    SIZE = (100, 3)
    workload_text = ("`speedtest1 --size N --memdb` (its timings are removed from the output "
                     "before the checksum)")
    tests_text = ("`fuzzcheck test/fuzzdata*.db` (fuzzcheck.c and its helpers compiled against "
                  "the same `sqlite3.o`, without tcl)")

    def prepare(self, tree, work):
        amalg = os.path.join(work, "amalgamation")
        run(["cp", "-a", tree, amalg])
        run(["./configure", "--disable-tcl"], cwd=amalg, build=True)
        run(["make", "-j2", "sqlite3.c"], cwd=amalg, build=True)
        return amalg

    def build(self, bdir, cflags, ldlibs):
        script = (f"gcc {cflags} {SQLITE_OPTS} -I. -c sqlite3.c -o sqlite3.o && "
                  f"gcc {cflags} -I. -c test/speedtest1.c -o speedtest1.o && "
                  f"gcc {cflags} -o speedtest1 speedtest1.o sqlite3.o -lm" +
                  (f" {ldlibs}" if ldlibs else ""))
        return sh(script, bdir)

    def build_tests(self, bdir, cflags, ldlibs):
        srcs = ["test/fuzzcheck.c", "test/ossfuzz.c", "test/fuzzinvariants.c",
                "ext/recover/dbdata.c", "ext/recover/sqlite3recover.c", "test/vt02.c"]
        opt = (f"{SQLITE_OPTS} -DSQLITE_OSS_FUZZ -DSQLITE_MAX_MEMORY=50000000 -I. -Itest "
               "-Iext/recover")
        script = " && ".join(f"gcc {cflags} {opt} -c {s} -o fz-{os.path.basename(s)[:-2]}.o"
                             for s in srcs)
        script += f" && gcc {cflags} -o fuzzcheck fz-*.o sqlite3.o -lm" + \
            (f" {ldlibs}" if ldlibs else "")
        return sh(script, bdir)[0]

    def workload(self, bdir, small, inputs):
        n = self.SIZE[1 if small else 0]
        return [Step([os.path.join(bdir, self.program), "--size", str(n), "--memdb"], None,
                     "out.txt")]

    def tests(self, bdir, cflags, ldlibs):
        dbs = " ".join(sorted(os.path.relpath(p, bdir)
                              for p in glob.glob(os.path.join(bdir, "test", "fuzzdata*.db"))))
        return [("fuzzcheck", f"./fuzzcheck {dbs}", bdir)]

    def normalize(self, data):
        return re.sub(rb"[ \t]*\d+\.\d+s\s*$", b"", data, flags=re.M)


class Tinyxml2(Package):
    name = "tinyxml2"
    lang = "c++"
    program = "tinyxml2_bench"
    SCALE = (100, 3)
    workload_text = ("`tinyxml2_bench N` (bench/cxx/tinyxml2_bench.cpp): builds N generated XML "
                     "documents as text, parses, walks, queries, edits and prints them; prints "
                     "a checksum")
    tests_text = "`xmltest` (the package's own test program, run in the source tree)"

    def build(self, bdir, cflags, ldlibs):
        shutil.copy(os.path.join(CXX_DIR, "tinyxml2_bench.cpp"), bdir)
        script = (f"g++ {cflags} -c tinyxml2.cpp && g++ {cflags} -I. -c tinyxml2_bench.cpp && "
                  f"g++ {cflags} -o tinyxml2_bench tinyxml2_bench.o tinyxml2.o"
                  + (f" {ldlibs}" if ldlibs else ""))
        return sh(script, bdir)

    def build_tests(self, bdir, cflags, ldlibs):
        return sh(f"g++ {cflags} -I. -c xmltest.cpp && g++ {cflags} -o xmltest xmltest.o "
                  f"tinyxml2.o" + (f" {ldlibs}" if ldlibs else ""), bdir)[0]

    def workload(self, bdir, small, inputs):
        n = self.SCALE[1 if small else 0]
        return [Step([os.path.join(bdir, self.program), str(n)], None, "out.txt")]

    def tests(self, bdir, cflags, ldlibs):
        return [("xmltest", "mkdir -p resources/out && ./xmltest", bdir)]


class Re2(Package):
    name = "re2"
    lang = "c++"
    program = "re2_bench"
    pthread = True
    SCALE = (30, 1)
    TESTS = ["charclass_test", "compile_test", "filtered_re2_test", "mimics_pcre_test",
             "parse_test", "possible_match_test", "re2_test", "re2_arg_test", "regexp_test",
             "required_prefix_test", "search_test", "set_test", "simplify_test",
             "string_generator_test"]
    workload_text = ("`re2_bench N` (bench/cxx/re2_bench.cpp): a dozen regular expressions "
                     "(captures, alternations, classes, case folding, anchors) over generated "
                     "log-like lines: PartialMatch, FindAndConsume, GlobalReplace, RE2::Set; "
                     "prints a checksum. The Debian source has no generated tables: they are made "
                     "once with `make REBUILD_TABLES=1` as debian/rules does, from the `unicode-data` "
                     "package (installed with apt-get)")
    tests_text = ("re2's own test programs `obj/test/{" + ",".join(TESTS) +
                  "}` (the Makefile's test list without the slow exhaustive, random and DFA tests)")

    def prepare(self, tree, work):
        # The Debian source (dfsg) ships no generated tables: debian/rules
        # builds with REBUILD_TABLES=1, from the unicode-data package
        # (/usr/share/unicode) and python3-six.
        if not os.path.isdir("/usr/share/unicode"):
            raise BenchError("re2 needs /usr/share/unicode: apt-get install unicode-data python3-six")
        prep = os.path.join(work, "prepared")
        run(["cp", "-a", tree, prep])
        run(["make", "REBUILD_TABLES=1", "re2/perl_groups.cc", "re2/unicode_casefold.cc",
             "re2/unicode_groups.cc"], cwd=prep, build=True)
        return prep

    def build(self, bdir, cflags, ldlibs):
        shutil.copy(os.path.join(CXX_DIR, "re2_bench.cpp"), bdir)
        script = (f"make -j1 obj/libre2.a CXXFLAGS='{cflags}' && "
                  f"g++ {cflags} -pthread -I. -c re2_bench.cpp && "
                  f"g++ {cflags} -pthread -o re2_bench re2_bench.o obj/libre2.a"
                  + (f" {ldlibs}" if ldlibs else ""))
        return sh(script, bdir)

    def build_tests(self, bdir, cflags, ldlibs):
        targets = " ".join("obj/test/" + t for t in self.TESTS)
        # The compiler flags link too: gcov's --coverage brings libgcov.
        return sh(f"make -j2 {targets} CXXFLAGS='{cflags}' LDFLAGS='{cflags} {ldlibs}'",
                  bdir)[0]

    def workload(self, bdir, small, inputs):
        n = self.SCALE[1 if small else 0]
        return [Step([os.path.join(bdir, self.program), str(n)], None, "out.txt")]

    def tests(self, bdir, cflags, ldlibs):
        return [(t, f"./obj/test/{t}", bdir) for t in self.TESTS]


class Pcre2(Package):
    """A regular-expression interpreter: pcre2_match.c's match() is one
    function with a big switch in a loop, billions of Ball-Larus paths, of
    which the tests run a few thousand: the case PPP was made for, and the
    one that once fell back to a runtime call at every path end (issue 10,
    "No policy cliff")."""
    name = "pcre2"
    # bookworm's security update 10.42-1+deb12u2 is listed, but its diff is
    # not on the mirror: the release version is.
    source_version = "10.42-1"
    program = "pcre2grep"
    input_mib = (4, 1)
    PATTERNS = [r"(\w+) \1", r"\b([a-z]{2,4})[a-z]* [a-z]* \1[a-z]*\b",
                r"^(?:[a-z]+ ){3,8}[0-9]+$", r"(?i)qu?[aeiou]+[^aeiou ]{2}(?=[a-z]* [0-9])",
                r"([a-z])[a-z]*(?:\1[a-z]*){3}"]
    workload_text = ("`pcre2grep -c -e PATTERN input` for five patterns (back references, "
                     "lookahead, counted repeats, case folding) over the generated input; "
                     "pcre2 built with `./configure --disable-shared` (no JIT: the interpreter)")
    tests_text = ("pcre2's own `RunTest 1 2` (`pcre2test` on `testdata/testinput1` and "
                  "`testinput2`: the main functionality and the API, without JIT) and "
                  "`RunGrepTest`")

    def prepare(self, tree, work):
        conf = os.path.join(work, "configured")
        run(["cp", "-a", tree, conf])
        run(["./configure", "--disable-shared", "--enable-static", "CFLAGS=-O2"], cwd=conf,
            build=True)
        # The Makefile would link the character tables by absolute path,
        # which each variant's copy of the tree would not find: a copy.
        run(["cp", "src/pcre2_chartables.c.dist", "src/pcre2_chartables.c"], cwd=conf)
        return conf

    def _make(self, bdir, cflags, ldlibs, targets):
        return sh(f"make -j1 {targets} CFLAGS='{cflags}' LIBS='{ldlibs}'", bdir)

    def build(self, bdir, cflags, ldlibs):
        return self._make(bdir, cflags, ldlibs, "pcre2grep")

    def build_tests(self, bdir, cflags, ldlibs):
        return self._make(bdir, cflags, ldlibs, "pcre2test")[0]

    def workload(self, bdir, small, inputs):
        exe = os.path.join(bdir, self.program)
        inp = inputs["small" if small else "full"]
        return [Step([exe, "-c", "-e", p, inp], None, f"out{i}.txt")
                for i, p in enumerate(self.PATTERNS)]

    def tests(self, bdir, cflags, ldlibs):
        return [("RunTest", "srcdir=. ./RunTest 1 2", bdir),
                ("RunGrepTest", "srcdir=. ./RunGrepTest", bdir)]


PACKAGES = {p.name: p for p in [Zlib(), Bzip2(), Lua(), Sqlite(), Xz(), Tinyxml2(), Re2(),
                                Pcre2()]}
