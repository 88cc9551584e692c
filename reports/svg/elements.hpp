// The SVG elements every chart is made of, the numbers written in them, and the boxes of their texts, by
// which the layout keeps texts apart (it estimates a text's size, see text_width in svg.hpp).
#pragma once
#include <charconv>
#include <numbers>
#include <string>
#include <string_view>
#include <vector>

#include "svg.hpp"

namespace ladder::svg::detail {

inline constexpr std::string_view font_stack =
    "system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif";
// Text is laid out without measuring it: each character's width at 12px is estimated from its kind, a
// little over DejaVu Sans' (the widest of the usual sans-serif fonts a headless browser falls back to).
inline constexpr double font_size = 12;
inline constexpr double pi = std::numbers::pi;

// No precision: the shortest text that reads back as the same double.
std::string chars(double value, std::chars_format format, int precision = -1);
// Pixel coordinates: a tenth of a pixel is finer than any screen or printer shows.
std::string px(double value);
// The tick-label format described in svg.hpp.
std::string compact(double value, int significant = 3);

std::string attribute(std::string_view name, std::string_view value);
std::string text(double x, double y, std::string_view content, std::string_view attributes = "");
std::string line(double x1, double y1, double x2, double y2, std::string_view stroke);

// A text's box, for telling whether two overlap, by the estimate above: the font's ascent and descent
// around the baseline y, the width to the right of, around or to the left of x by the anchor.
struct Box {
  double left, top, right, bottom;
};
enum class Anchor { start, middle, end };
Box text_box(double x, double y, std::string_view content, Anchor anchor = Anchor::start,
             double size = font_size, bool bold = false);
bool overlap(const Box& a, const Box& b, double gap = 1);
bool overlaps_any(const Box& box, const std::vector<Box>& others, double gap = 1);

struct Frame {  // the plot area, in pixels
  double left, top, right, bottom;
};

// The <svg> element opened, on a white ground, with its title (<title> and the heading text).
std::string open_svg(std::string_view id, std::string_view title, double width, double height);
// The notes under a chart, one a row from `top` down.
std::string notes_below(const std::vector<std::string>& notes, double left, double top);
// "no data", in the middle of an empty plot.
std::string no_data(const Frame& frame);

}  // namespace ladder::svg::detail
