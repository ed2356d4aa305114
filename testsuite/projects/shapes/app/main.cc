// shapes SHAPE...: describes each shape ("circle 1.5", "rect 2 3", ...),
// then the census and the statistics of the areas. Bad shapes are reported
// and make the exit status 1; the others are still described.
#include "shapes/shape.h"
#include "shapes/stats.h"

#include <iostream>
#include <vector>

int main(int argc, char **argv) {
  std::vector<std::unique_ptr<shapes::Shape>> all;
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    try {
      all.push_back(shapes::parse(argv[i]));
    } catch (const shapes::ShapeError &e) {
      std::cout << "error: " << argv[i] << ": " << e.what() << "\n";
      status = 1;
    }
  }
  shapes::Census census;
  shapes::Stats<double> areas;
  shapes::Stats<int> sides; // a second instantiation, in the executable
  for (const auto &shape : all) {
    std::cout << shape->describe() << "\n";
    census.count(shape->kind());
    areas.add(shape->area());
    const std::string kind = shape->kind();
    sides.add(kind == "circle" ? 0 : kind == "triangle" ? 3 : 4);
  }
  std::cout << "census: " << census.text() << "\n";
  if (areas.count() > 0) {
    std::cout << "areas: min " << areas.min() << ", max " << areas.max()
              << ", mean " << areas.mean() << ", median " << areas.median()
              << "\n";
    std::cout << "sides: median " << sides.median() << "\n";
  }
  return status;
}
