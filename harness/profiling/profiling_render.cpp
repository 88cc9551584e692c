// The text `ladder profile` prints of a line profile (profiling.hpp): each file's lines with their share, the
// hottest marked.
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "profiling.hpp"
#include "text.hpp"

namespace ladder::profiling {

std::string render(const LineProfile& profile, int hot_lines) {
  std::string out;
  out += "tier " + profile.tier + ", integrand " + profile.integrand + ", n = " + format_count(profile.n) +
         ", 1 thread: " + format_number("%.0f", profile.total) + " instructions (" +
         format_number("%.2f", profile.total / static_cast<double>(profile.n)) + " a node)\n";
  out += "counted by " + profile.tool + " on the profiling build (-march=" + profile.target +
         "), each instruction charged to the innermost line of this project it was inlined from; a call into "
         "libm is charged to the line that made it\n";
  // The lines grouped by file, in line order; the files in order of their cost; the hottest lines marked.
  std::map<std::string, std::map<int, double>> by_file;
  for (const auto& line : profile.lines) by_file[line.file][line.line] = line.instructions;
  std::vector<std::pair<std::string, double>> files;
  for (const auto& [file, lines] : by_file) {
    double cost = 0;
    for (const auto& [number, instructions] : lines) cost += instructions;
    files.emplace_back(file, cost);
  }
  std::stable_sort(files.begin(), files.end(),
                   [](const auto& x, const auto& y) { return x.second > y.second; });
  std::map<std::pair<std::string, int>, int> hot;
  for (int rank = 0; rank < hot_lines && rank < static_cast<int>(profile.lines.size()); ++rank)
    hot[{profile.lines[static_cast<std::size_t>(rank)].file,
         profile.lines[static_cast<std::size_t>(rank)].line}] = rank + 1;
  auto share = [&](double instructions) { return 100 * instructions / profile.total; };
  const std::string project = source_directory();
  auto shown = [&](const std::string& file) {
    return !project.empty() && file.rfind(project, 0) == 0 ? file.substr(project.size()) : file;
  };
  std::vector<std::string> small;  // the call's checks and dispatch: listed, not printed line by line
  for (const auto& [file, cost] : files) {
    if (share(cost) < 0.1) {
      small.push_back(shown(file));
      continue;
    }
    out += "\n" + shown(file) + "   " + format_number("%.1f", share(cost)) + " %\n";
    out += "   line      Ir/node   share  source\n";
    std::vector<std::string> source;
    std::ifstream in(file);
    for (std::string text; std::getline(in, text);) source.push_back(text);
    for (const auto& [number, instructions] : by_file.at(file)) {
      const auto mark = hot.find({file, number});
      const std::string text = number <= static_cast<int>(source.size())
                                   ? source[static_cast<std::size_t>(number - 1)]
                                   : std::string("(source not found)");
      char row[96];
      std::snprintf(row, sizeof row, "%s %5d %12.2f %6.1f %%  ",
                    mark != hot.end() ? (">" + std::to_string(mark->second)).c_str() : "  ", number,
                    instructions / static_cast<double>(profile.n), share(instructions));
      out += row + text + "\n";
    }
  }
  if (!small.empty())
    out += "\nunder 0.1 % each (checks and dispatch around the kernel): " + join(small) + "\n";
  out += "\noutside the project's lines (other libraries' code the kernel ran: libgomp, libtbb, libc, …): " +
         format_number("%.1f", share(profile.outside)) + " %\n";
  out += ">1 marks the hottest line, >2 the next, …\n";
  return out;
}

}  // namespace ladder::profiling
