// eh_cost.cpp — what -fwasm-exceptions costs C++ code that never throws.
//
// Containers, strings and RAII in the style of matplotlib's _path/_tri
// helpers (vectors of points, polygons built and clipped, a map of names),
// no try/catch. Compiled twice by scripts/cxxeh/measure-eh-cost.sh, with
// -fwasm-exceptions (landing pads that run destructors) and with
// -fignore-exceptions (none), and run under wazero; the results are in
// docs/runtime-bundle.md, "C++ exceptions".
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Point {
  double x, y;
};

using Polygon = std::vector<Point>;

// Sutherland-Hodgman clip of a polygon against the half plane x <= edge.
[[gnu::noinline]] Polygon clip_right(const Polygon &in, double edge) {
  Polygon out;
  out.reserve(in.size() + 2);
  for (size_t i = 0; i < in.size(); i++) {
    const Point &a = in[i];
    const Point &b = in[(i + 1) % in.size()];
    bool ain = a.x <= edge, bin = b.x <= edge;
    if (ain) out.push_back(a);
    if (ain != bin) {
      double t = (edge - a.x) / (b.x - a.x);
      out.push_back({edge, a.y + t * (b.y - a.y)});
    }
  }
  return out;
}

[[gnu::noinline]] Polygon make_polygon(int n, double phase) {
  Polygon p;
  for (int i = 0; i < n; i++) {
    double a = phase + 6.283185307179586 * i / n;
    p.push_back({std::cos(a) * (1 + 0.3 * (i % 3)), std::sin(a)});
  }
  return p;
}

struct Path {
  std::vector<Polygon> polys;
  std::string label;
};

[[gnu::noinline]] double area(const Polygon &p) {
  double s = 0;
  for (size_t i = 0; i < p.size(); i++) {
    const Point &a = p[i], &b = p[(i + 1) % p.size()];
    s += a.x * b.y - b.x * a.y;
  }
  return s / 2;
}

}  // namespace

extern "C" __attribute__((export_name("run"))) double run(int n) {
  double total = 0;
  std::map<std::string, int> counts;
  for (int k = 0; k < n; k++) {
    auto path = std::make_unique<Path>();
    path->label = "path-" + std::to_string(k % 97);
    for (int j = 0; j < 8; j++) {
      Polygon p = make_polygon(16 + j, 0.01 * k);
      path->polys.push_back(clip_right(p, 0.5 - 0.05 * j));
    }
    std::sort(path->polys.begin(), path->polys.end(),
              [](const Polygon &a, const Polygon &b) { return area(a) < area(b); });
    for (const Polygon &p : path->polys) total += area(p);
    counts[path->label]++;
  }
  return total + static_cast<double>(counts.size());
}
