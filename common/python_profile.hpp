// The line-by-line profile of a pure-Python peer (`ladder profile --peer ID`): each source line's time under
// line_profiler and its memory increment under memory_profiler, as scripts/peers/profile.py writes it. The
// same type is what `--save DIR` leaves beside a run's results and what the report reads back, so the
// command's text and the report's "Where the time goes" show the same figures.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "json_reader.hpp"

namespace ladder {

// One source line of a profiled function. A figure is missing where the line never ran under that
// profiler: a def line, a comment, a branch not taken.
struct PythonLine {
  int line = 0;
  std::string source;
  std::optional<double> seconds;     // line_profiler: the line's time, the calls it makes included
  std::optional<std::int64_t> hits;  // line_profiler: how often it ran
  // memory_profiler: how much the resident set grew over the line, summed over every time it ran; a
  // negative increment is memory handed back.
  std::optional<double> increment_bytes;

  std::string code() const;  // the source without its indent
};

struct PythonFunction {
  std::string name, file;  // file: the full path of its source
  // The resident set when the call began: memory_profiler charges it to the def line, as if the line had
  // allocated it; kept apart so that it is never read as an increment.
  std::optional<double> resident_at_call_bytes;
  std::vector<PythonLine> lines;  // every line of the function, in source order
};

struct PythonProfile {
  std::string peer, integrand;
  double a = 0, b = 1;
  std::int64_t n = 0;
  std::string python;                          // "CPython 3.11.2"
  std::string line_profiler, memory_profiler;  // their versions
  std::vector<PythonFunction> functions;

  // Every timed line's seconds together: the call's time under line_profiler.
  double seconds() const;
  // The lines with the most time, the most first (at most `count`), and the line whose memory grew most;
  // null when no line grew it (a generator's lines, which hold no more than a node at a time).
  std::vector<const PythonLine*> hottest(int count) const;
  const PythonLine* largest_increment() const;
};

// Reads the object profile.py prints, or a saved profile; SchemaError naming the field when it is not one.
PythonProfile read_python_profile(const JsonReader& in);
void to_json(nlohmann::json& out, const PythonProfile& profile);

// The file `ladder profile --peer ID --save DIR` writes into DIR, and where the report looks for it.
std::string python_profile_file_name(const std::string& peer);
inline constexpr const char* python_profile_prefix = "python-profile-";

}  // namespace ladder
