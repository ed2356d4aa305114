// shapes: a small C++17 library of plane shapes, the C++ project the
// pathcov install test profiles (testsuite/install).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

namespace shapes {

// Bad input: a shape that cannot exist, or text that names none.
class ShapeError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class Shape {
public:
  virtual ~Shape();
  virtual std::string kind() const = 0;
  virtual double area() const = 0;
  virtual double perimeter() const = 0;
  // "circle r=1.5: area 7.069, perimeter 9.425"
  virtual std::string describe() const;
};

class Circle : public Shape {
public:
  explicit Circle(double radius);
  std::string kind() const override { return "circle"; }
  double area() const override;
  double perimeter() const override;
  std::string describe() const override;

private:
  double radius_;
};

class Rectangle : public Shape {
public:
  Rectangle(double width, double height);
  std::string kind() const override;
  double area() const override;
  double perimeter() const override;

private:
  double width_, height_;
};

class Triangle : public Shape {
public:
  // Throws ShapeError unless the sides make a triangle.
  Triangle(double a, double b, double c);
  std::string kind() const override { return "triangle"; }
  double area() const override;
  double perimeter() const override;

private:
  double a_, b_, c_;
};

// "circle 1.5", "rect 2 3", "square 2", "triangle 3 4 5". Throws ShapeError.
std::unique_ptr<Shape> parse(const std::string &text);

} // namespace shapes
