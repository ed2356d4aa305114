// shapes_unit TEST: one unit test of the library, by name; exit status 0
// when it passes. The project's CTest tests run one each.
#include "shapes/shape.h"
#include "shapes/stats.h"

#include <cmath>
#include <functional>
#include <iostream>
#include <map>
#include <string>

namespace {

int failures = 0;

void expect(bool ok, const std::string &what) {
  if (!ok) {
    std::cout << "FAILED: " << what << "\n";
    ++failures;
  }
}

bool near(double a, double b) { return std::fabs(a - b) < 1e-9; }

template <typename F> bool throws(F f) {
  try {
    f();
  } catch (const shapes::ShapeError &) {
    return true;
  }
  return false;
}

const std::map<std::string, std::function<void()>> tests = {
    {"circle",
     [] {
       shapes::Circle c(2);
       expect(near(c.area(), 4 * 3.14159265358979323846), "circle area");
       expect(c.kind() == "circle", "circle kind");
     }},
    {"rectangle",
     [] {
       shapes::Rectangle r(2, 3), s(2, 2);
       expect(near(r.area(), 6) && near(r.perimeter(), 10), "rect");
       expect(r.kind() == "rectangle" && s.kind() == "square", "kinds");
     }},
    {"triangle",
     [] {
       shapes::Triangle t(3, 4, 5);
       expect(near(t.area(), 6), "3-4-5 area");
       expect(throws([] { shapes::Triangle(1, 2, 3); }), "flat triangle");
       expect(throws([] { shapes::Triangle(1, -2, 3); }), "negative side");
     }},
    {"parse",
     [] {
       expect(shapes::parse("square 3")->kind() == "square", "square");
       expect(throws([] { shapes::parse("hexagon 1"); }), "unknown");
       expect(throws([] { shapes::parse("circle"); }), "missing number");
       expect(throws([] { shapes::parse("rect 1 x"); }), "not a number");
       expect(throws([] { shapes::parse(""); }), "empty");
     }},
    {"stats",
     [] {
       shapes::Stats<int> s;
       for (int v : {5, 1, 4, 2, 3})
         s.add(v);
       expect(s.min() == 1 && s.max() == 5 && s.median() == 3, "ints");
       expect(near(s.mean(), 3), "mean");
       shapes::Stats<double> empty;
       bool threw = false;
       try {
         empty.median();
       } catch (const std::logic_error &) {
         threw = true;
       }
       expect(threw, "median of nothing");
     }},
};

} // namespace

int main(int argc, char **argv) {
  if (argc != 2 || !tests.count(argv[1])) {
    std::cout << "usage: shapes_unit TEST (";
    for (const auto &[name, test] : tests)
      std::cout << " " << name;
    std::cout << " )\n";
    return 2;
  }
  tests.at(argv[1])();
  std::cout << argv[1] << ": " << (failures ? "FAILED" : "ok") << "\n";
  return failures ? 1 : 0;
}
