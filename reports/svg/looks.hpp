// How series are told apart: their colours, marker shapes and dash patterns (the looks of svg.hpp), and the
// markers and legend swatches drawn in them.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "svg.hpp"

namespace ladder::svg::detail {

// A caller's colour lands in an attribute: only a hex colour or a plain name gets there, so that a value
// such as url(http://…) cannot make the chart fetch anything.
bool valid_colour(std::string_view wanted);
// The wanted colour where it is one, else the palette's next.
std::string colour(std::string_view wanted, std::size_t& next_in_palette);

// Each series' look: the fixed ones first, in order, each its slot's unless taken; then the others, each
// the first of the sequence not yet taken.
std::vector<Look> looks_of(const std::vector<Series>& series);

// A stroke-dasharray attribute for the dash ("" for a solid line or none).
std::string dash_attribute(std::string_view dash);
// A marker of `shape` centred on (x, y), about 2r across; `attributes` go first (class, data-…).
std::string shape_element(Shape shape, double x, double y, double r, std::string_view colour,
                          std::string_view attributes, std::string_view inside);
// A point's marker radius: larger where the point is emphasised.
double radius(const Point& point);
// A legend's sample of a series: a short stroke in its dash with its marker in the middle (not of class
// "point": no data point).
std::string swatch(const Look& look, double x, double y);

}  // namespace ladder::svg::detail
