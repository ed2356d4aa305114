/* Names each GoogleTest test's paths in the corpus ("Suite.Test", where
 * PATHCOV_TEST names a whole process): include this header in one source
 * file of a test program built in record mode (docs/record-mode.md, "One
 * process, many tests"). A listener, added before main runs, writes the
 * profiles when the tests start (what ran before them is the process's),
 * then calls pathcov_test_begin at each test's start and pathcov_test_end
 * at its end: one profile per test and module. Works with gtest_main and
 * with a main of the program's own. Needs C++11. */
#ifndef PATHCOV_GTEST_H
#define PATHCOV_GTEST_H
// Its own functions are not the project's: not instrumented (record-mode.md,
// "System headers"), wherever it is installed.
#pragma GCC system_header

#include <gtest/gtest.h>

#include <string>

#include "pathcov/pathcov.h"

namespace pathcov {

class GoogleTestNames : public ::testing::EmptyTestEventListener {
public:
  // What ran before the tests (main's set-up) is the process's.
  void OnTestProgramStart(const ::testing::UnitTest &) override {
    pathcov_test_end();
  }
  void OnTestStart(const ::testing::TestInfo &test) override {
    const std::string name =
        std::string(test.test_suite_name()) + "." + test.name();
    pathcov_test_begin(name.c_str());
  }
  void OnTestEnd(const ::testing::TestInfo &) override { pathcov_test_end(); }
};

// Adds the listener once per program, whichever files include this.
inline bool nameGoogleTests() {
  static const bool added = [] {
    ::testing::UnitTest::GetInstance()->listeners().Append(new GoogleTestNames);
    return true;
  }();
  return added;
}

namespace {
const bool kGoogleTestsNamed = nameGoogleTests();
} // namespace

} // namespace pathcov

#endif
