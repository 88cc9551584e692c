// Where the texts of a line chart go: the change markers' labels along their lines, each line's name at its
// end, and the points' tags, each clear of the other texts, points and leader lines, with a leader line
// back to what it names where it had to move away.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "axis.hpp"
#include "elements.hpp"
#include "svg.hpp"

namespace ladder::svg::detail {

// A point as drawn: the point and its centre, in pixels.
struct Drawn {
  const Point* point;
  double x, y;
};

struct Label {  // a text placed by the layout, with its leader line when it is away from what it names
  Box box;
  std::string text;
  std::optional<std::array<double, 4>> leader;
  bool bold = false;
};

// Vertical lines at the markers within the x axis' range, each labelled along it from the top, on its
// left, else on its right, else lower down, so that no two labels overlap; `left_out` counts the others
// and `boxes` gets the labels' boxes.
std::string markers_group(const std::vector<Marker>& markers, const Scale& x, const Frame& frame,
                          int& left_out, std::vector<Box>& boxes);
// Each line's name right of the plot at its last point's height, moved apart.
// x: where they start; with a right axis between them and the plot, each gets a leader.
std::vector<std::vector<Label>> end_labels(const std::vector<Series>& series, const std::vector<Look>& looks,
                                           const std::vector<std::vector<std::vector<Drawn>>>& runs,
                                           const Frame& frame, double x, bool beyond_an_axis);
// Each tagged point's tag, clear of the other tags, every leader, every point, the given boxes (texts) and
// the plot's edges — a point within `edge` px of the plot's right edge may put its tag in the margin right of
// the plot, up to `margin` px: beside the point where it can, else further out along one of 16 directions
// with a leader line that crosses no text and no other leader (it may pass a point). Placements whose tag is
// nearer its own point than any other point come first. The emphasised points' tags are placed first.
// A tag with no such place anywhere is not drawn: its name goes to `untagged` (the chart says so below).
std::vector<std::vector<Label>> point_labels(const std::vector<Series>& series,
                                             const std::vector<std::vector<std::vector<Drawn>>>& runs,
                                             const Frame& frame, std::vector<Box> obstacles, double margin,
                                             std::vector<std::string>& untagged);
// The labels, bold ones darker, each after its leader line (class "leader": not the series' drawing).
std::string labels_text(const std::vector<Label>& labels, std::string_view cls);

}  // namespace ladder::svg::detail
