#include "shapes/shape.h"
#include "shapes/stats.h"

#include <cmath>
#include <sstream>

namespace shapes {

namespace {
constexpr double kPi = 3.14159265358979323846;

double positive(double value, const char *what) {
  if (!(value > 0))
    throw ShapeError(std::string(what) + " must be positive");
  return value;
}

std::string format(double value) {
  std::ostringstream os;
  os.precision(3);
  os << std::fixed << value;
  return os.str();
}
} // namespace

Shape::~Shape() = default;

std::string Shape::describe() const {
  return kind() + ": area " + format(area()) + ", perimeter " +
         format(perimeter());
}

Circle::Circle(double radius) : radius_(positive(radius, "radius")) {}
double Circle::area() const { return kPi * radius_ * radius_; }
double Circle::perimeter() const { return 2 * kPi * radius_; }
std::string Circle::describe() const {
  return "circle r=" + format(radius_) + ": area " + format(area()) +
         ", perimeter " + format(perimeter());
}

Rectangle::Rectangle(double width, double height)
    : width_(positive(width, "width")), height_(positive(height, "height")) {}
std::string Rectangle::kind() const {
  return width_ == height_ ? "square" : "rectangle";
}
double Rectangle::area() const { return width_ * height_; }
double Rectangle::perimeter() const { return 2 * (width_ + height_); }

Triangle::Triangle(double a, double b, double c)
    : a_(positive(a, "side")), b_(positive(b, "side")),
      c_(positive(c, "side")) {
  if (a_ + b_ <= c_ || a_ + c_ <= b_ || b_ + c_ <= a_)
    throw ShapeError("sides " + format(a_) + ", " + format(b_) + ", " +
                     format(c_) + " make no triangle");
}
double Triangle::area() const {
  const double s = perimeter() / 2;
  return std::sqrt(s * (s - a_) * (s - b_) * (s - c_));
}
double Triangle::perimeter() const { return a_ + b_ + c_; }

std::string Census::text() const {
  std::string text;
  for (const auto &[kind, n] : counts_) {
    if (!text.empty())
      text += ", ";
    text += kind + " " + std::to_string(n);
  }
  return text.empty() ? "none" : text;
}

} // namespace shapes
