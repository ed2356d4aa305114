#include "pathcov/format/ProjectPath.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace pathcov;
namespace fs = std::filesystem;

TEST(AbsoluteNormal, ResolvesAgainstCwdAndNormalizesLexically) {
  EXPECT_EQ(absoluteNormal("src/a.c", "/w/p"), "/w/p/src/a.c");
  EXPECT_EQ(absoluteNormal("./src//x/../a.c", "/w/p/"), "/w/p/src/a.c");
  EXPECT_EQ(absoluteNormal("../../../../a.c", "/w/p"), "/a.c");
  EXPECT_EQ(absoluteNormal("/abs//./d/", "/w/p"), "/abs/d");
  EXPECT_EQ(absoluteNormal("<built-in>", "/w/p"), "<built-in>");
  EXPECT_EQ(absoluteNormal("", "/w/p"), "");
}

TEST(RelativeUnder, OnlyBelowTheRootAndOnWholeNames) {
  EXPECT_EQ(relativeUnder("/w/p/src/a.c", "/w/p"), "src/a.c");
  EXPECT_EQ(relativeUnder("/w/p/src/a.c", "/w/p/"), "src/a.c");
  EXPECT_EQ(relativeUnder("/w/a.c", "/"), "w/a.c");
  EXPECT_EQ(relativeUnder("/w/p2/a.c", "/w/p"), std::nullopt);
  EXPECT_EQ(relativeUnder("/w/p", "/w/p"), std::nullopt);
  EXPECT_EQ(relativeUnder("/w/p/a.c", ""), std::nullopt);
}

TEST(IsBuildProbe, ConfigureCMakeAndMesonProbesOnly) {
  EXPECT_TRUE(isBuildProbe("/b/conftest.c"));
  EXPECT_TRUE(isBuildProbe("/b/sub/conftest.cpp"));
  EXPECT_TRUE(
      isBuildProbe("/b/CMakeFiles/CMakeScratch/TryCompile-x1y2/src.c"));
  EXPECT_TRUE(isBuildProbe("/b/CMakeFiles/CMakeTmp/testCCompiler.c"));
  EXPECT_TRUE(isBuildProbe("/b/meson-private/tmpab12/testfile.c"));
  EXPECT_FALSE(isBuildProbe("/b/src/conftest_helper.c"));
  EXPECT_FALSE(isBuildProbe("/b/CMakeTmp/a.c"));
  EXPECT_FALSE(isBuildProbe("/b/CMakeFiles/app.dir/a.c"));
  EXPECT_FALSE(isBuildProbe("/w/p/src/a.c"));
}

namespace {
// A scratch directory tree, removed afterwards.
struct Tree {
  fs::path dir = fs::temp_directory_path() /
                 ("pathcov-project-path-" + std::to_string(getpid()));
  Tree() { fs::create_directories(dir); }
  ~Tree() { fs::remove_all(dir); }
  std::string make(const std::string &relative, bool directory) const {
    const fs::path p = dir / relative;
    fs::create_directories(directory ? p : p.parent_path());
    if (!directory)
      std::ofstream(p) << "";
    return p.string();
  }
};

std::string noMap(const std::string &path) { return path; }
} // namespace

TEST(FindProjectRoot, NearestMarkerOfAnyKind) {
  Tree t;
  t.make("repo/.git", true);
  t.make("repo/sub/.git", false); // a submodule's or worktree's .git file
  t.make("hg/.hg", true);
  t.make("marked/.pathcov-root", false);
  const std::string repo = (t.dir / "repo").string();
  EXPECT_EQ(findProjectRoot(repo + "/src/deep/a.c"), repo);
  EXPECT_EQ(findProjectRoot(repo + "/sub/b.c"), repo + "/sub");
  EXPECT_EQ(findProjectRoot((t.dir / "hg/x/c.c").string()), (t.dir / "hg").string());
  EXPECT_EQ(findProjectRoot((t.dir / "marked/d.c").string()),
            (t.dir / "marked").string());
}

TEST(ProjectPaths, RelativeToTheUnitsCheckoutWhateverTheDirectory) {
  Tree t;
  t.make("a/proj/.git", true);
  t.make("b/proj/.git", true);
  for (const char *copy : {"a", "b"}) {
    const std::string root = (t.dir / copy / "proj").string();
    // CMake: absolute names, compiled in an out-of-source build directory.
    const ProjectPaths paths(root + "/build", "", root + "/src/m.c", noMap);
    EXPECT_EQ(paths.root(), root);
    EXPECT_EQ(paths(root + "/src/m.c"), "src/m.c");
    EXPECT_EQ(paths("../include/m.h"), "include/m.h");
    EXPECT_EQ(paths("/usr/include/stdio.h"), "/usr/include/stdio.h");
  }
}

// gawk's awkgram.c, shipped in the source tree, says `#line "awkgram.y"`;
// built out of tree, that name is not in the compiler's directory but
// beside the unit. A name that is in the compiler's directory, or in
// neither, stays relative to it.
TEST(ProjectPaths, LineNamesBesideTheUnitInOutOfTreeBuilds) {
  Tree t;
  t.make("src/.pathcov-root", false);
  t.make("src/awkgram.y", false);
  t.make("src/both.y", false);
  t.make("build/both.y", false);
  const std::string src = (t.dir / "src").string();
  const std::string build = (t.dir / "build").string();
  const ProjectPaths paths(build, "", "../src/awkgram.c", noMap);
  EXPECT_EQ(paths.root(), src);
  EXPECT_EQ(paths("awkgram.y"), "awkgram.y");
  EXPECT_EQ(paths("both.y"), build + "/both.y");
  EXPECT_EQ(paths("missing.y"), build + "/missing.y");
  EXPECT_EQ(paths(src + "/awkgram.c"), "awkgram.c");
  // bash's y.tab.c: `#line "/usr/local/src/chet/src/bash/src/parse.y"`,
  // the maintainer's path, is the parse.y beside the unit; a missing name
  // with no such file stays as it is.
  t.make("src/parse.y", false);
  const std::string chet = (t.dir / "chet/src/parse.y").string();
  EXPECT_EQ(paths(chet), "parse.y");
  EXPECT_EQ(paths((t.dir / "chet/src/gone.y").string()),
            (t.dir / "chet/src/gone.y").string());
}

TEST(ProjectPaths, SourceRootFirstThenPrefixMapsThenCheckout) {
  Tree t;
  t.make("proj/.git", true);
  const std::string proj = (t.dir / "proj").string();
  const auto map = [&proj](const std::string &path) {
    return path.rfind(proj + "/lib/", 0) == 0
               ? "./vendor//" + path.substr(proj.size() + 5)
               : path;
  };
  const ProjectPaths mapped(proj, "", "src/m.c", map);
  EXPECT_EQ(mapped("lib/l.c"), "vendor/l.c");
  EXPECT_EQ(mapped("src/m.c"), "src/m.c");
  const ProjectPaths rooted(proj, "lib", "src/m.c", map);
  EXPECT_EQ(rooted.root(), proj + "/lib");
  EXPECT_EQ(rooted("lib/l.c"), "l.c");
  EXPECT_EQ(rooted("src/m.c"), proj + "/src/m.c"); // no checkout lookup
}

// A header's static function is named by the header where every build
// names it alike: not absolute, and not generated into a build directory
// (gnulib's dynarray.gl.h, in sed's out-of-tree builds); an in-tree
// build's state, above the unit too, says nothing of a header.
TEST(ProjectPaths, BuildIndependentUnlessGeneratedIntoABuild) {
  Tree t;
  t.make("proj/.git", true);
  t.make("proj/config.status", false); // an in-tree build
  t.make("proj/build/config.status", false);
  t.make("proj/build-cmake/CMakeCache.txt", false);
  t.make("proj/build-meson/meson-private", true);
  const std::string proj = (t.dir / "proj").string();
  const ProjectPaths paths(proj + "/build/lib", "", proj + "/lib/m.c", noMap);
  EXPECT_TRUE(paths.buildIndependent(proj + "/lib/m.h"));
  EXPECT_TRUE(paths.buildIndependent("../../include/deep/m.h"));
  EXPECT_FALSE(paths.buildIndependent("malloc/dynarray.gl.h"));
  EXPECT_FALSE(paths.buildIndependent(proj + "/build-cmake/gen/x.h"));
  EXPECT_FALSE(paths.buildIndependent(proj + "/build-meson/x.h"));
  EXPECT_FALSE(paths.buildIndependent((t.dir / "elsewhere/x.h").string()));
  EXPECT_FALSE(paths.buildIndependent("/usr/include/stdio.h"));
  EXPECT_FALSE(paths.buildIndependent("<built-in>"));
  // A unit the build generated is named by the build's directory already:
  // that build's headers are named alike, no worse.
  const ProjectPaths generated(proj + "/build", "", proj + "/build/gen/p.c", noMap);
  EXPECT_TRUE(generated.buildIndependent(proj + "/build/lib/x.h"));
}

TEST(ProjectPaths, AbsoluteOutsideAnyCheckout) {
  Tree t;
  const std::string dir = t.make("plain", true);
  const ProjectPaths paths(dir, "", "m.c", noMap);
  EXPECT_EQ(paths.root(), "");
  EXPECT_EQ(paths("m.c"), dir + "/m.c");
  EXPECT_EQ(paths("<built-in>"), "<built-in>");
}

// Debug information's names for a project's files (calling contexts) read
// as the plugin's: what a prefix-mapped build's DWARF says ("./a.c", from
// the comp_dir "."), and absolute names below the function's source root.
TEST(ProjectPaths, DebugInformationSpelledAsTheProjectsFiles) {
  EXPECT_EQ(projectSpelling("./pngrutil.c", ""), "pngrutil.c");
  EXPECT_EQ(projectSpelling("./src/../lib//a.c", "/p"), "lib/a.c");
  EXPECT_EQ(projectSpelling("/p/src/a.c", "/p"), "src/a.c");
  EXPECT_EQ(projectSpelling("/p/src/../b.c", "/p/"), "b.c");
  EXPECT_EQ(projectSpelling("/usr/include/stdio.h", "/p"), "/usr/include/stdio.h");
  EXPECT_EQ(projectSpelling("/p2/a.c", "/p"), "/p2/a.c");
  EXPECT_EQ(projectSpelling("/p/a.c", ""), "/p/a.c");
  EXPECT_EQ(projectSpelling("", "/p"), "");
  EXPECT_EQ(projectSpelling("<built-in>", "/p"), "<built-in>");
  // Relative to an absolute compilation directory: a build directory's
  // "../bin/main.c" is the project's bin/main.c; a file outside the
  // project (glibc's, built elsewhere) keeps its recorded name.
  EXPECT_EQ(projectSpelling("../bin/main.c", "/p", "/p/build"), "bin/main.c");
  EXPECT_EQ(projectSpelling("../sysdeps/x.h", "/p", "/build/glibc/csu"),
            "../sysdeps/x.h");
  EXPECT_EQ(projectSpelling("/p/a.c", "/p", "/elsewhere"), "a.c");
  EXPECT_EQ(projectSpelling("./a.c", "/p", "."), "a.c");
  // A prefix-mapped name is relative to the map's ".", not to an unmapped
  // compilation directory.
  EXPECT_EQ(projectSpelling("a.c", "/p", "/p/build"), "a.c");
}
