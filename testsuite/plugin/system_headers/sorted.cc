// The C++ library's templates: std::vector and std::sort's paths.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  std::vector<int> values;
  for (int i = 1; i < argc; ++i)
    values.push_back(std::atoi(argv[i]));
  std::sort(values.begin(), values.end());
  for (int v : values)
    std::printf("%d\n", v);
  return 0;
}
