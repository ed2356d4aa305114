#include "shapes/shape.h"

#include <sstream>
#include <vector>

namespace shapes {

namespace {
std::vector<double> numbers(std::istringstream &in, const std::string &kind,
                            std::size_t wanted) {
  std::vector<double> values;
  double v;
  while (in >> v)
    values.push_back(v);
  if (!in.eof())
    throw ShapeError(kind + ": not a number");
  if (values.size() != wanted)
    throw ShapeError(kind + " takes " + std::to_string(wanted) +
                     (wanted == 1 ? " number" : " numbers") + ", not " +
                     std::to_string(values.size()));
  return values;
}
} // namespace

std::unique_ptr<Shape> parse(const std::string &text) {
  std::istringstream in(text);
  std::string kind;
  if (!(in >> kind))
    throw ShapeError("empty shape");
  if (kind == "circle") {
    const auto v = numbers(in, kind, 1);
    return std::make_unique<Circle>(v[0]);
  }
  if (kind == "rect") {
    const auto v = numbers(in, kind, 2);
    return std::make_unique<Rectangle>(v[0], v[1]);
  }
  if (kind == "square") {
    const auto v = numbers(in, kind, 1);
    return std::make_unique<Rectangle>(v[0], v[0]);
  }
  if (kind == "triangle") {
    const auto v = numbers(in, kind, 3);
    return std::make_unique<Triangle>(v[0], v[1], v[2]);
  }
  throw ShapeError("unknown shape '" + kind + "'");
}

} // namespace shapes
