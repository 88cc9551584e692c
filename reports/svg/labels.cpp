#include "labels.hpp"

#include <algorithm>
#include <cmath>

#include "looks.hpp"

namespace ladder::svg::detail {
namespace {

// The end labels' centres: each at its line's end where it can, else moved the least that keeps every two
// `spacing` apart, all within [lowest, highest] where they fit.
std::vector<double> spread(const std::vector<double>& wanted, double lowest, double highest, double spacing) {
  std::vector<std::size_t> order(wanted.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return wanted[a] < wanted[b]; });
  std::vector<double> at(wanted.size());
  double previous = lowest - spacing;
  for (const std::size_t i : order)
    previous = at[i] = std::max(std::clamp(wanted[i], lowest, highest), previous + spacing);
  double next = std::max(highest, lowest + spacing * static_cast<double>(order.size() - 1)) + spacing;
  for (auto it = order.rbegin(); it != order.rend(); ++it) next = at[*it] = std::min(at[*it], next - spacing);
  return at;
}

// Whether a segment (x1, y1, x2, y2) passes through a box, by points along it a pixel or two apart.
bool crosses(const std::array<double, 4>& segment, const Box& box) {
  const double length = std::hypot(segment[2] - segment[0], segment[3] - segment[1]);
  const int steps = static_cast<int>(std::ceil(length / 1.5)) + 1;
  for (int step = 0; step <= steps; ++step) {
    const double t = static_cast<double>(step) / steps;
    const double x = segment[0] + t * (segment[2] - segment[0]),
                 y = segment[1] + t * (segment[3] - segment[1]);
    if (x > box.left && x < box.right && y > box.top && y < box.bottom) return true;
  }
  return false;
}

// Whether two segments cross (touching ends do not count).
bool crosses(const std::array<double, 4>& a, const std::array<double, 4>& b) {
  const auto side = [](double x1, double y1, double x2, double y2, double x, double y) {
    const double cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1);
    return cross > 1e-9 ? 1 : cross < -1e-9 ? -1 : 0;
  };
  return side(a[0], a[1], a[2], a[3], b[0], b[1]) * side(a[0], a[1], a[2], a[3], b[2], b[3]) < 0 &&
         side(b[0], b[1], b[2], b[3], a[0], a[1]) * side(b[0], b[1], b[2], b[3], a[2], a[3]) < 0;
}

double distance(const Box& box, double x, double y) {
  return std::hypot(std::max({box.left - x, 0.0, x - box.right}),
                    std::max({box.top - y, 0.0, y - box.bottom}));
}

}  // namespace

std::string markers_group(const std::vector<Marker>& markers, const Scale& x, const Frame& frame,
                          int& left_out, std::vector<Box>& boxes) {
  std::string out = "<g class=\"markers\" fill=\"#555\" font-size=\"11\">\n";
  std::vector<Box> placed;
  for (const auto& marker : markers) {
    if (!plottable(marker.x, x.log) || !x.contains(marker.x)) {
      ++left_out;
      continue;
    }
    const double at = x.at(marker.x), length = text_width(marker.label, 11);
    // Turned a quarter left, a label's glyphs sit left of its baseline, and it reads upwards from its end.
    const auto box_at = [&](bool right, double top) {
      const double baseline = right ? at + 3 + 0.96 * 11 : at - 3;
      return Box{baseline - 0.96 * 11, top, baseline + 0.28 * 11, top + length};
    };
    std::vector<double> tops{frame.top + 4};
    for (const auto& box : placed) tops.push_back(box.bottom + 6);
    std::optional<Box> chosen;
    for (const double top : tops) {
      for (const bool right : {false, true})
        if (const Box box = box_at(right, top); !overlaps_any(box, placed, 2)) {
          chosen = box;
          break;
        }
      if (chosen) break;
    }
    const Box box = chosen.value_or(box_at(false, frame.top + 4));
    placed.push_back(box);
    const double baseline = box.right - 0.28 * 11;
    out += "<g class=\"marker\"" + attribute("data-marker", marker.label) +
           attribute("data-x", chars(marker.x, std::chars_format::general)) + ">\n";
    if (!marker.tooltip.empty()) out += "<title>" + escape(marker.tooltip) + "</title>\n";
    out += "<line x1=\"" + px(at) + "\" y1=\"" + px(frame.top) + "\" x2=\"" + px(at) + "\" y2=\"" +
           px(frame.bottom) + "\" stroke=\"#888\" stroke-dasharray=\"2 3\"/>\n";
    out += text(baseline, box.top, marker.label,
                " text-anchor=\"end\" transform=\"rotate(-90 " + px(baseline) + " " + px(box.top) +
                    ")\" stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\"");
    out += "</g>\n";
  }
  boxes.insert(boxes.end(), placed.begin(), placed.end());
  return out + "</g>\n";
}

std::vector<std::vector<Label>> end_labels(const std::vector<Series>& series, const std::vector<Look>& looks,
                                           const std::vector<std::vector<std::vector<Drawn>>>& runs,
                                           const Frame& frame, double x, bool beyond_an_axis) {
  std::vector<std::size_t> labelled;
  std::vector<double> wanted;
  for (std::size_t index = 0; index < series.size(); ++index)
    if (looks[index].dash != "none" && !runs[index].empty()) {
      labelled.push_back(index);
      wanted.push_back(runs[index].back().back().y);
    }
  constexpr double spacing = 16;
  const std::vector<double> at = spread(wanted, frame.top + 6, frame.bottom - 4, spacing);
  std::vector<std::vector<Label>> labels(series.size());
  for (std::size_t i = 0; i < labelled.size(); ++i) {
    const auto& end = runs[labelled[i]].back().back();
    Label label{text_box(x, at[i] + 4, series[labelled[i]].name), series[labelled[i]].name, {}};
    if (beyond_an_axis || std::fabs(at[i] - end.y) > 1 || end.x < frame.right - 12)
      // From the line's end, or for a line that ends short of the right edge, from the edge at its height,
      // so that no leader crosses the plot.
      label.leader = {end.x < frame.right - 12 ? frame.right + 1 : end.x + 5, end.y, x - 3, at[i]};
    labels[labelled[i]].push_back(std::move(label));
  }
  return labels;
}

std::vector<std::vector<Label>> point_labels(const std::vector<Series>& series,
                                             const std::vector<std::vector<std::vector<Drawn>>>& runs,
                                             const Frame& frame, std::vector<Box> obstacles, double margin,
                                             std::vector<std::string>& untagged) {
  constexpr double edge = 64;
  const std::vector<Box> texts = obstacles;  // the given boxes: leaders cross none of them
  std::vector<std::array<double, 2>> dots;
  for (const auto& series_runs : runs)
    for (const auto& run : series_runs)
      for (const auto& drawn : run) {
        const double r = radius(*drawn.point) * 1.35 + 1;  // the largest shape's reach
        obstacles.push_back({drawn.x - r, drawn.y - r, drawn.x + r, drawn.y + r});
        dots.push_back({drawn.x, drawn.y});
      }
  std::vector<std::vector<Label>> labels(series.size());
  std::vector<std::array<double, 4>> leaders;  // and the tags they lead to
  std::vector<Box> placed;
  for (const bool emphasised : {true, false})
    for (std::size_t index = 0; index < series.size(); ++index)
      for (const auto& run : runs[index])
        for (const auto& drawn : run) {
          const Point& point = *drawn.point;
          if (point.tag.empty() || point.emphasis != emphasised) continue;
          const double width = text_width(point.tag, font_size, point.emphasis), height = 1.24 * font_size;
          const double reach = radius(point) * 1.35 + 3;  // clear of its own dot's box by more than the gap
          const double right = drawn.x >= frame.right - edge ? frame.right + margin : frame.right - 2;
          // A box whose side (or corner) facing the point sits at distance d along direction angle.
          const auto box_at = [&](double angle, double d) {
            const double ax = drawn.x + d * std::cos(angle), ay = drawn.y + d * std::sin(angle);
            const double c = std::cos(angle), s = std::sin(angle);
            const double left = c > 0.3 ? ax : c < -0.3 ? ax - width : ax - width / 2;
            const double top = s > 0.3 ? ay : s < -0.3 ? ay - height : ay - height / 2;
            return Box{left, top, left + width, top + height};
          };
          bool near = true;  // first only places nearer this point than any other point
          const auto fits = [&](const Box& box) {
            const double own = distance(box, drawn.x, drawn.y);
            return box.left >= frame.left + 2 && box.right <= right && box.top >= frame.top + 2 &&
                   box.bottom <= frame.bottom - 2 && !overlaps_any(box, obstacles, 1.5) &&
                   std::none_of(leaders.begin(), leaders.end(),
                                [&](const auto& leader) { return crosses(leader, box); }) &&
                   (!near || std::none_of(dots.begin(), dots.end(), [&](const auto& dot) {
                     return (dot[0] != drawn.x || dot[1] != drawn.y) && distance(box, dot[0], dot[1]) < own;
                   }));
          };
          const auto clear = [&](const std::array<double, 4>& leader) {
            const auto through = [&](const Box& other) { return crosses(leader, other); };
            return std::none_of(placed.begin(), placed.end(), through) &&
                   std::none_of(texts.begin(), texts.end(), through) &&
                   std::none_of(leaders.begin(), leaders.end(),
                                [&](const auto& other) { return crosses(leader, other); });
          };
          std::optional<Label> chosen;
          for (; !chosen; near = false) {
            for (const double angle : {0.0, pi, -pi / 2, pi / 2, -pi / 4, pi / 4, -3 * pi / 4, 3 * pi / 4})
              if (const Box box = box_at(angle, reach); !chosen && fits(box))
                chosen = Label{box, point.tag, {}};
            for (const double d : {18.0, 28.0, 40.0, 54.0, 70.0, 90.0, 115.0, 145.0, 180.0, 220.0})
              for (int step = 0; step < 32 && !chosen; ++step) {
                const double angle = -pi / 2 + step * pi / 16;
                const std::array<double, 4> leader{
                    drawn.x + reach * std::cos(angle), drawn.y + reach * std::sin(angle),
                    drawn.x + (d + reach - 2) * std::cos(angle), drawn.y + (d + reach - 2) * std::sin(angle)};
                if (const Box box = box_at(angle, d + reach); clear(leader) && fits(box))
                  chosen = Label{box, point.tag, leader};
              }
            if (!near) break;
          }
          if (!chosen) {  // nowhere clear (a plot too crowded): the tag is left out, and said so
            untagged.push_back(point.tag);
            continue;
          }
          chosen->bold = point.emphasis;
          obstacles.push_back(chosen->box);
          placed.push_back(chosen->box);
          if (chosen->leader) leaders.push_back(*chosen->leader);
          labels[index].push_back(std::move(*chosen));
        }
  return labels;
}

std::string labels_text(const std::vector<Label>& labels, std::string_view cls) {
  std::string out;
  for (const auto& label : labels) {
    const std::string_view colour = label.bold ? "#111" : "#555";
    if (label.leader)
      out += "<line class=\"leader\" x1=\"" + px((*label.leader)[0]) + "\" y1=\"" + px((*label.leader)[1]) +
             "\" x2=\"" + px((*label.leader)[2]) + "\" y2=\"" + px((*label.leader)[3]) + "\" stroke=\"" +
             std::string(colour) + "\" stroke-width=\"0.8\"/>\n";
    out += text(label.box.left, label.box.top + 0.96 * font_size, label.text,
                " class=\"" + std::string(cls) + "\" fill=\"" + std::string(colour) + "\"" +
                    (label.bold ? " font-weight=\"bold\"" : ""));
  }
  return out;
}

}  // namespace ladder::svg::detail
