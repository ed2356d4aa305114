// Three GoogleTest tests in one process, named per test through
// <pathcov/gtest.h> (check_gtest_names.py): each path of sign() must be
// known as the one test's that ran it; main's own paths, before and after
// the tests, as the process's PATHCOV_TEST.
#include <gtest/gtest.h>
#include <pathcov/gtest.h>

int sign(int x) {
  if (x < 0)
    return -1;
  if (x == 0)
    return 0;
  return 1;
}

int before(int argc) { return argc > 5 ? 2 : 1; }

TEST(Sign, Negative) { EXPECT_EQ(sign(-5), -1); }
TEST(Sign, Zero) { EXPECT_EQ(sign(0), 0); }
TEST(Sign, PositiveTwice) {
  EXPECT_EQ(sign(3), 1);
  EXPECT_EQ(sign(4), 1);
}

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const int b = before(argc);
  return RUN_ALL_TESTS() + b - 1;
}
