#include "looks.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

#include "elements.hpp"

namespace ladder::svg {
using namespace detail;
namespace {

// Okabe and Ito's palette, strongest on white first; yellow last, as thin lines in it are faint on paper.
constexpr std::array<std::string_view, 8> palette = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                     "#E69F00", "#56B4E9", "#000000", "#F0E442"};

// The eight shapes in the order the looks take them: the filled ones first, the open strokes (fainter)
// last, on the palette's last colours.
constexpr std::array<Shape, 8> shape_order = {Shape::circle,  Shape::square, Shape::triangle,
                                              Shape::diamond, Shape::star,   Shape::triangle_down,
                                              Shape::cross,   Shape::plus};
constexpr std::array<std::string_view, 4> dashes = {"solid", "7 4", "2 3", "10 3 2 3"};

// The slot's look with the series' own colour, less what its style does not draw.
Look styled(Look look, const Series& series) {
  if (valid_colour(series.color)) look.color = series.color;
  // A series of one point draws no line, so its dash cannot tell it apart (its colour and marker must).
  const auto finite = std::count_if(series.points.begin(), series.points.end(), [](const Point& point) {
    return std::isfinite(point.x) && std::isfinite(point.y);
  });
  if (finite < 2 && series.style != Style::line && series.style != Style::dashed) look.dash = "none";
  switch (series.style) {
    case Style::markers:
      look.dash = "none";
      break;
    case Style::line:
      look.shape = Shape::none;
      break;
    case Style::dashed:
      look.shape = Shape::none;
      if (look.dash == "solid") look.dash = "6 4";
      break;
    case Style::line_and_markers:
      break;
  }
  return look;
}

bool same(const Look& a, const Look& b) {
  return a.color == b.color && a.shape == b.shape && a.dash == b.dash;
}

}  // namespace

namespace detail {

bool valid_colour(std::string_view wanted) {
  const bool hex =
      wanted.size() > 1 && wanted.size() <= 9 && wanted[0] == '#' &&
      std::all_of(wanted.begin() + 1, wanted.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
  const bool name =
      !wanted.empty() && wanted.size() <= 20 &&
      std::all_of(wanted.begin(), wanted.end(), [](unsigned char c) { return std::isalpha(c) != 0; });
  return hex || name;
}

std::string colour(std::string_view wanted, std::size_t& next_in_palette) {
  if (valid_colour(wanted)) return std::string(wanted);
  return std::string(palette[next_in_palette++ % palette.size()]);
}

std::vector<Look> looks_of(const std::vector<Series>& series) {
  std::vector<Look> looks(series.size());
  std::vector<Look> taken;
  const auto take = [&](std::size_t index, const Look& candidate) {
    const bool free =
        std::none_of(taken.begin(), taken.end(), [&](const Look& t) { return same(t, candidate); });
    if (free) {
      looks[index] = candidate;
      taken.push_back(candidate);
    }
    return free;
  };
  std::vector<bool> done(series.size(), false);
  for (std::size_t index = 0; index < series.size(); ++index)
    if (series[index].slot) done[index] = take(index, styled(look(*series[index].slot), series[index]));
  std::size_t next = 0;  // a series of its own colour looks from the first, using up none of the palette's
  for (std::size_t index = 0; index < series.size(); ++index) {
    std::size_t own = 0;
    std::size_t& candidate = valid_colour(series[index].color) ? own : next;
    // 4 dashes × 8 shapes × 8 colours: past that many series a look repeats (as it must, the styles allowing
    // fewer).
    const std::size_t limit = candidate + 256;
    while (!done[index] && candidate < limit)
      done[index] = take(index, styled(look(candidate++), series[index]));
    if (!done[index]) looks[index] = styled(look(index), series[index]);
  }
  return looks;
}

std::string dash_attribute(std::string_view dash) {
  return dash == "solid" || dash == "none" ? "" : " stroke-dasharray=\"" + std::string(dash) + "\"";
}

std::string shape_element(Shape shape, double x, double y, double r, std::string_view colour,
                          std::string_view attributes, std::string_view inside) {
  const std::string fill = " fill=\"" + std::string(colour) + "\" stroke=\"#fff\" stroke-width=\"1\"";
  const std::string open_stroke =
      " fill=\"none\" stroke=\"" + std::string(colour) + "\" stroke-width=\"2.2\" stroke-linecap=\"square\"";
  const auto p = [](double a, double b) { return px(a) + " " + px(b); };
  std::string d, paint = fill;
  switch (shape) {
    case Shape::circle:
    case Shape::none:
      return "<circle" + std::string(attributes) + " cx=\"" + px(x) + "\" cy=\"" + px(y) + "\" r=\"" +
             px(shape == Shape::none ? 1.5 : r) + "\"" +
             (shape == Shape::none ? " fill=\"" + std::string(colour) + "\" stroke=\"none\"" : fill) + ">" +
             std::string(inside) + "</circle>\n";
    case Shape::square:
      d = "M" + p(x - 0.85 * r, y - 0.85 * r) + "L" + p(x + 0.85 * r, y - 0.85 * r) + "L" +
          p(x + 0.85 * r, y + 0.85 * r) + "L" + p(x - 0.85 * r, y + 0.85 * r) + "Z";
      break;
    case Shape::triangle:
      d = "M" + p(x, y - 1.2 * r) + "L" + p(x + 1.05 * r, y + 0.75 * r) + "L" +
          p(x - 1.05 * r, y + 0.75 * r) + "Z";
      break;
    case Shape::triangle_down:
      d = "M" + p(x, y + 1.2 * r) + "L" + p(x + 1.05 * r, y - 0.75 * r) + "L" +
          p(x - 1.05 * r, y - 0.75 * r) + "Z";
      break;
    case Shape::diamond:
      d = "M" + p(x, y - 1.25 * r) + "L" + p(x + r, y) + "L" + p(x, y + 1.25 * r) + "L" + p(x - r, y) + "Z";
      break;
    case Shape::cross:
      d = "M" + p(x - 0.8 * r, y - 0.8 * r) + "L" + p(x + 0.8 * r, y + 0.8 * r) + "M" +
          p(x + 0.8 * r, y - 0.8 * r) + "L" + p(x - 0.8 * r, y + 0.8 * r);
      paint = open_stroke;
      break;
    case Shape::plus:
      d = "M" + p(x - r, y) + "L" + p(x + r, y) + "M" + p(x, y - r) + "L" + p(x, y + r);
      paint = open_stroke;
      break;
    case Shape::star:
      for (int vertex = 0; vertex < 10; ++vertex) {
        const double radius = vertex % 2 == 0 ? 1.3 * r : 0.55 * r;
        const double angle = -pi / 2 + vertex * pi / 5;
        d += (vertex == 0 ? "M" : "L") + p(x + radius * std::cos(angle), y + radius * std::sin(angle));
      }
      d += "Z";
      break;
  }
  return "<path" + std::string(attributes) + " d=\"" + d + "\"" + paint + ">" + std::string(inside) +
         "</path>\n";
}

double radius(const Point& point) { return point.emphasis ? 5.5 : 4; }

std::string swatch(const Look& look, double x, double y) {
  std::string out;
  if (look.dash != "none")
    out += "<line x1=\"" + px(x) + "\" y1=\"" + px(y) + "\" x2=\"" + px(x + 22) + "\" y2=\"" + px(y) +
           "\" stroke=\"" + look.color + "\" stroke-width=\"2\"" + dash_attribute(look.dash) + "/>\n";
  if (look.shape != Shape::none)
    out += shape_element(look.shape, x + 11, y, 4, look.color, " class=\"swatch\"", "");
  return out;
}

}  // namespace detail

std::string_view shape_name(Shape shape) {
  constexpr std::array<std::string_view, 9> names = {
      "circle", "square", "triangle", "diamond", "cross", "plus", "triangle-down", "star", "none"};
  return names[static_cast<std::size_t>(shape)];  // in the enum's order
}

Look look(std::size_t slot) {
  const std::size_t colour = slot % palette.size(), round = slot / palette.size();
  return {std::string(palette[colour]), shape_order[(colour + round) % shape_order.size()],
          std::string(dashes[(round + round / shape_order.size()) % dashes.size()])};
}

}  // namespace ladder::svg
