#include "sections_python_profile.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "python_profile.hpp"
#include "text.hpp"

namespace ladder::report {
namespace {

namespace fs = std::filesystem;

// A line's code in a table cell, as code.
std::string code(const PythonLine& line) { return "`" + line.code() + "`"; }

// Every line that ran under either profiler, with its figures: the details of one profile.
Table line_table(const PythonProfile& profile) {
  const double n = static_cast<double>(profile.n), total = profile.seconds();
  Table rows{{"function", "line", "hits", "ns a node", "share of the time", "memory increment", "source"},
             {}};
  rows.fold = false;
  for (const auto& function : profile.functions)
    for (const auto& line : function.lines) {
      if (!line.seconds && !line.increment_bytes) continue;
      rows.rows.push_back({function.name, std::to_string(line.line),
                           line.hits ? format_number("%.0f", double(*line.hits)) : "–",
                           line.seconds ? format_number("%.1f", *line.seconds * 1e9 / n) : "–",
                           line.seconds && total > 0 ? percent(*line.seconds / total, 1) : "–",
                           line.increment_bytes ? format_bytes(*line.increment_bytes) : "–", code(line)});
    }
  return rows;
}

struct Found {
  std::string peer, file, problem;  // problem: why the file could not be read, else empty
  PythonProfile profile;
};

// The profiles saved beside the run's results, one for each of its peers that has one.
std::vector<Found> saved_profiles(const Run& run) {
  std::vector<Found> found;
  const fs::path directory = fs::path(run.path).parent_path();
  for (const auto& card : run.cards) {
    if (!card.peer) continue;
    const fs::path file = directory / python_profile_file_name(card.id);
    std::error_code error;
    if (!fs::is_regular_file(file, error)) continue;
    Found one{card.id, file.filename().string(), "", {}};
    try {
      std::ifstream in(file, std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      const auto document = parse_json_document(text.str(), one.file);
      if (document.is_discarded()) throw InputError("not JSON");
      one.profile = read_python_profile(JsonReader(document));
      if (one.profile.peer != card.id)
        throw InputError("it holds the profile of " + one.profile.peer + ", not of " + card.id);
    } catch (const InputError& problem) {
      one.problem = problem.what();
    }
    found.push_back(std::move(one));
  }
  return found;
}

}  // namespace

void python_profiles(Document& doc, const Run& run) {
  bool peers = false;
  for (const auto& card : run.cards) peers = peers || card.peer;
  if (!peers) return;
  const auto found = saved_profiles(run);
  if (found.empty()) {
    doc.push_back(paragraph(
        "The Python rungs line by line: none was profiled beside these results. A run does not profile its "
        "peers (line_profiler and memory_profiler slow them down several times); `ladder profile --peer "
        "py-list --save DIR`, DIR this run's output directory, keeps a pure-Python peer's profile where this "
        "report shows it."));
    return;
  }
  doc.push_back(paragraph(
      "The Python rungs line by line, from the profiles saved beside these results by `ladder profile --peer "
      "ID --save DIR` (not measured by the run itself): each line's share of the call's time under "
      "line_profiler, and how much memory_profiler saw the resident set grow over each line."));
  Table summary{{"peer", "n", "profiled by", "hottest line", "its share of the time",
                 "largest memory increment", "bytes a node", "that line"},
                {}};
  std::vector<std::string> problems;
  Document lines;
  for (const auto& one : found) {
    if (!one.problem.empty()) {
      problems.push_back(one.file + " cannot be read: " + one.problem);
      continue;
    }
    const PythonProfile& profile = one.profile;
    const auto hottest = profile.hottest(1);
    const PythonLine* largest = profile.largest_increment();
    const double total = profile.seconds(), n = static_cast<double>(profile.n);
    summary.rows.push_back(
        {one.peer, format_count(n),
         profile.python + ", line_profiler " + profile.line_profiler + ", memory_profiler " +
             profile.memory_profiler,
         hottest.empty() ? "–" : std::to_string(hottest[0]->line) + ": " + code(*hottest[0]),
         hottest.empty() || total <= 0 ? "–" : percent(*hottest[0]->seconds / total, 0),
         largest ? format_bytes(*largest->increment_bytes) : "none: no line grew the resident set",
         largest ? format_number("%.1f", *largest->increment_bytes / n) : "–",
         largest ? std::to_string(largest->line) + ": " + code(*largest) : "–"});
    lines.push_back(details(
        3, one.peer + " line by line (integrand " + profile.integrand + ", n = " + format_count(n) + ")",
        {table(line_table(profile))}));
  }
  if (!summary.rows.empty()) doc.push_back(table(summary));
  for (auto& block : lines) doc.push_back(std::move(block));
  if (!problems.empty()) doc.push_back(list(problems));
}

}  // namespace ladder::report
