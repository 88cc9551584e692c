#include "profile_python.hpp"

#include <cstdio>
#include <cstdlib>
#include <set>

#include "errors.hpp"
#include "json_reader.hpp"
#include "peers.hpp"
#include "process.hpp"
#include "quote.hpp"
#include "text.hpp"

namespace ladder::profiling {
namespace {

std::string listed(const JsonReader& answer) { return join(answer.at("accepted").strings()); }

// profile.py's refusal (exit 2) in Ladder's words: the bad value and what is accepted.
[[noreturn]] void refuse(const JsonReader& answer, const std::string& peer, const std::string& integrand,
                         std::int64_t n) {
  const std::string why = answer.at("refused").string();
  if (why == "unknown peer")
    throw InputError("unknown peer '" + quote_text(peer) +
                     "'; `ladder profile --peer` takes the pure-Python " + "peers: " + listed(answer));
  if (why == "not pure Python")
    throw InputError("peer '" + quote_text(peer) + "' is not pure Python (it needs " +
                     join(answer.at("needs").strings()) +
                     "): line_profiler and memory_profiler see only its Python lines, not the code it "
                     "calls; `ladder profile --peer` takes the pure-Python peers: " +
                     listed(answer));
  if (why == "integrand")
    throw InputError("integrand '" + quote_text(integrand) +
                     "' is not one the Python peers have; they have " + listed(answer));
  if (why == "too many nodes")
    throw InputError("--n " + std::to_string(n) + " is more than `ladder profile --peer " + peer +
                     "` takes: at most " + format_count(answer.at("max_nodes").number()) +
                     " nodes (under memory_profiler a million nodes already take a minute)");
  throw ToolFailed("scripts/peers/profile.py refused the profile for a reason Ladder does not know: " +
                   quote_text(why));
}

// How long profile.py may take: a generous bound for both profilers over n nodes (about 0.1 ms a node
// on a busy 2-core VM, the memory pass and the timed one together), ten times that and half a minute more.
double profile_seconds(std::int64_t n) { return 30 + 1e-3 * static_cast<double>(n); }

}  // namespace

PythonProfile profile_python(const std::string& peer, const std::string& integrand, double a, double b,
                             std::int64_t n) {
  const std::string python = python_interpreter();
  Program program{{python, peers_directory() + "/profile.py", peer, integrand, format_number("%.17g", a),
                   format_number("%.17g", b), std::to_string(n)}};
  program.timeout_seconds = profile_seconds(n);
  program.own_group = true;  // a wrapper's children die with it on the timeout
  const Finished finished = run_program(program);
  if (!finished.started())
    throw Unavailable("cannot profile: the peers' Python (" + quote_text(python) +
                      ") cannot be started: " + finished.not_started);
  if (finished.timed_out)
    throw ToolFailed(
        "profiling " + quote_text(peer) + " at n = " + std::to_string(n) + ": the peers' Python " +
        quote_text(python) + (std::getenv("LADDER_PYTHON") ? " (LADDER_PYTHON)" : "") + " ran past " +
        format_number("%.0f", profile_seconds(n)) + " s (`" + quote_text(command_text(program.argv), 240) +
        "`) and was stopped, with what it had started");
  const auto document = parse_json_document(finished.out, "scripts/peers/profile.py's answer");
  if (document.is_discarded() || !document.is_object() ||
      (finished.exit_code != 0 && finished.exit_code != 2 && finished.exit_code != 3))
    throw ToolFailed("profiling " + quote_text(peer) + " with `" +
                     quote_text(command_text(program.argv), 240) + "` failed (it " + finished.how() +
                     "): " + output_end(finished.err + finished.out, 12));
  const JsonReader answer(document, "profile.py");
  if (finished.exit_code == 2) refuse(answer, peer, integrand, n);
  if (finished.exit_code == 3)
    throw Unavailable("cannot profile: " + answer.at("missing").string() + " cannot be imported by " +
                      quote_text(python) + " (Debian package " + answer.at("package").string() +
                      "; scripts/install-deps.sh installs it): " + answer.at("error").string());
  return read_python_profile(answer);
}

namespace {

std::string shown_path(const std::string& file) {
  const std::string project = LADDER_SOURCE_DIR "/";
  return file.rfind(project, 0) == 0 ? file.substr(project.size()) : file;
}

// One function's lines: hits, ns a node, share of the call's time, memory increment, the source.
std::string function_lines(const PythonProfile& profile, const PythonFunction& function,
                           const std::vector<const PythonLine*>& hot) {
  const double n = static_cast<double>(profile.n), total = profile.seconds();
  double seconds = 0;
  for (const auto& line : function.lines) seconds += line.seconds.value_or(0);
  std::string out = "\n" + shown_path(function.file) + ": " + function.name + "   " +
                    (total > 0 ? format_number("%.1f %%", 100 * seconds / total) : std::string("–")) + "\n";
  char header[96];
  std::snprintf(header, sizeof header, "%-2s %5s %10s %12s %8s %12s  %s\n", "", "line", "hits", "ns/node",
                "share", "increment", "source");
  out += header;
  for (const auto& line : function.lines) {
    std::string mark = "  ";
    for (std::size_t rank = 0; rank < hot.size(); ++rank)
      if (hot[rank] == &line) mark = ">" + std::to_string(rank + 1);
    char row[160];
    if (line.seconds)
      std::snprintf(row, sizeof row, "%-2s %5d %10lld %12.2f %6.1f %% %12s  ", mark.c_str(), line.line,
                    static_cast<long long>(line.hits.value_or(0)), *line.seconds * 1e9 / n,
                    total > 0 ? 100 * *line.seconds / total : 0.0,
                    line.increment_bytes ? format_bytes(*line.increment_bytes).c_str() : "");
    else
      std::snprintf(row, sizeof row, "%-2s %5d %10s %12s %8s %12s  ", mark.c_str(), line.line, "", "", "",
                    line.increment_bytes ? format_bytes(*line.increment_bytes).c_str() : "");
    out += row + line.source + "\n";
  }
  return out;
}

}  // namespace

std::string render(const PythonProfile& profile, int hot_lines) {
  const double n = static_cast<double>(profile.n), seconds = profile.seconds();
  std::string out = "peer " + profile.peer + ", integrand " + profile.integrand + ", n = " + format_count(n) +
                    ", 1 thread, " + profile.python + ": " + format_seconds(seconds) +
                    " under line_profiler (" + format_number("%.0f", seconds * 1e9 / n) + " ns a node)\n";
  out += "timed by line_profiler " + profile.line_profiler +
         " (each line's time, the calls it makes included); memory by memory_profiler " +
         profile.memory_profiler +
         " (how much the resident set grew over each line, every time it ran, in a call of its own before "
         "the timed one). Both slow the code down several times: read the shares, not the seconds\n";
  const auto hot = profile.hottest(hot_lines);
  for (const auto& function : profile.functions) out += function_lines(profile, function, hot);
  if (const PythonLine* largest = profile.largest_increment())
    out += "\nlargest memory increment: line " + std::to_string(largest->line) + ", " +
           format_number("%.0f", *largest->increment_bytes) + " bytes (" +
           format_bytes(*largest->increment_bytes) + ", " +
           format_number("%.1f", *largest->increment_bytes / n) + " bytes a node): " + largest->code() + "\n";
  else
    out += "\nlargest memory increment: 0 bytes: no line grew the resident set\n";
  for (const auto& function : profile.functions)
    if (function.resident_at_call_bytes)
      out += "resident set when " + function.name +
             " was called: " + format_bytes(*function.resident_at_call_bytes) +
             " (memory_profiler charges it to the def line; not an increment)\n";
  out += ">1 marks the line that takes the most time, >2 the next, …\n";
  return out;
}

}  // namespace ladder::profiling
