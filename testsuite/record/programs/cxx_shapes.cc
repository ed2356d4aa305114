/* Virtual calls and a lambda passed to a template. */
#include "cxx.h"

namespace {

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
};

/* Two overriders: both are "area" to __func__; their markers differ. */
struct Square : Shape {
  explicit Square(double side) : side_(side) {}
  double area() const override {
    TRACE_ENTER();
    T('q');
    TRACE_LEAVE();
    return side_ * side_;
  }
  double side_;
};

struct Triangle : Shape {
  Triangle(double base, double height) : base_(base), height_(height) {}
  double area() const override {
    TRACE_ENTER();
    if (base_ > height_) {
      T('w');
      TRACE_LEAVE();
      return base_ * height_ / 2;
    }
    T('h');
    TRACE_LEAVE();
    return height_ * base_ / 2;
  }
  double base_, height_;
};

template <typename F> void each_shape(int n, F visit) {
  TRACE_ENTER();
  for (int i = 0; i < n; ++i) {
    T('i');
    if (i % 3) {
      T('t');
      Triangle t(i, 4);
      visit(t);
    } else {
      T('s');
      Square s(twice(i - 2));
      visit(s);
    }
    TRACE_LOOP();
  }
  TRACE_LEAVE();
}

} // namespace

int shapes_total(int n) {
  TRACE_ENTER();
  Tally tally;
  double sum = 0;
  each_shape(n, [&](const Shape &shape) {
    TRACE_ENTER();
    double a = shape.area();
    if (a > 10) {
      T('b');
      tally.add(clamp(static_cast<int>(a), 20));
    }
    sum += twice(a);
    TRACE_LEAVE();
  });
  TRACE_LEAVE();
  return tally.total() + static_cast<int>(sum);
}
