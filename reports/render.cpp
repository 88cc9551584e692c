// The report itself: one document model, written twice — report.md (tables, charts linked as SVG files
// beside it) and report.html (one self-contained page, charts inline, no script, no request).
//
// It is written as a whole: every file first into a staging directory beside its place (a full disk stops
// there, and nothing in place has changed), then moved into place, with .ladder-report.json, the list of its
// files, last. A directory that already exists takes it only when it holds nothing Ladder did not write
// (report_directory_problem); no file a user wrote is ever replaced.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "atomic_file.hpp"
#include "errors.hpp"
#include "json_reader.hpp"
#include "python_profile.hpp"
#include "quote.hpp"
#include "renderers.hpp"
#include "report.hpp"
#include "sections.hpp"

namespace ladder::report {
namespace {

namespace fs = std::filesystem;
using Files = std::vector<std::pair<std::string, std::string>>;

// A name a report writes: report.md, report.html, charts/NAME.svg; only these are ever replaced or removed.
bool report_file_name(const std::string& name) {
  if (name == "report.md" || name == "report.html") return true;
  const std::string chart = name.substr(0, std::min<std::size_t>(name.size(), 7));
  return chart == "charts/" && name.size() > 11 && name.find('/', 7) == std::string::npos &&
         name.compare(name.size() - 4, 4, ".svg") == 0 && name.find("..") == std::string::npos;
}

std::string refusal(const fs::path& dir, const std::string& entry) {
  return "the report's directory '" + quote_text(dir.string()) + "' holds '" + quote_text(entry) +
         "', which Ladder did not write: a report goes into a new or empty directory, a run's directory, or "
         "one holding an earlier report (listed in its " +
         report_marker + "); give another --out, or move the file away";
}

// The files an earlier report listed in DIR/.ladder-report.json (report names only); empty when there is
// none, or it is not one Ladder wrote. A directory (or a FIFO) by that name is refused: Ladder wrote none.
std::set<std::string> earlier_report(const fs::path& dir) {
  std::error_code error;
  if (!fs::exists(dir / report_marker, error)) return {};
  if (!fs::is_regular_file(dir / report_marker, error)) throw InputError(refusal(dir, report_marker));
  const std::string text = read_whole_file((dir / report_marker).string(), "report list");
  const auto marker = parse_json_document(text, "'" + quote_text((dir / report_marker).string()) + "'");
  std::set<std::string> files;
  if (!marker.is_object() || !marker.contains("files") || !marker["files"].is_array()) return files;
  for (const auto& name : marker["files"])
    if (name.is_string() && report_file_name(name.get<std::string>())) files.insert(name.get<std::string>());
  return files;
}

// Whether an existing DIR may take the report: each entry is the marker, a file an earlier report listed, a
// run's file (results.json, results.csv, journal.jsonl, a `ladder profile --peer --save` profile the report
// reads), or a staging directory a report left. A run's
// directory (it holds journal.jsonl) is Ladder's: report.md, report.html and charts/ there are taken for an
// earlier report's even without a marker, and other files there are left as they are. Throws InputError
// naming the first other file.
void admit_directory(const fs::path& dir, const std::set<std::string>& earlier) {
  std::error_code error;
  const bool run_directory = fs::exists(dir / "journal.jsonl", error);
  const std::set<std::string> run_files = {"results.json", "results.csv", "journal.jsonl", report_marker};
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (run_files.count(name) || name.rfind(".ladder-report-", 0) == 0) continue;
    if (name.rfind(python_profile_prefix, 0) == 0 && entry.path().extension() == ".json") continue;
    if (name == "charts" && !entry.is_directory(error)) throw InputError(refusal(dir, name));
    if (run_directory) continue;
    if (name == "charts") {
      for (const auto& chart : fs::directory_iterator(entry.path(), error)) {
        const std::string listed = "charts/" + chart.path().filename().string();
        if (!earlier.count(listed)) throw InputError(refusal(dir, listed));
      }
      continue;
    }
    if (!earlier.count(name)) throw InputError(refusal(dir, name));
  }
  if (error)
    throw InputError("cannot read the report's directory '" + quote_text(dir.string()) +
                     "': " + error.message());
}

// Writes every file (and the marker) under `stage`; WriteError, with `stage` removed, when one cannot be.
void stage_files(const fs::path& stage, const Files& files, const std::string& shown) {
  std::error_code error;
  try {
    fs::create_directories(stage / "charts", error);
    if (error)
      throw WriteError("cannot write the report in '" + shown + "': cannot create " + stage.string() + ": " +
                       error.message());
    for (const auto& [name, contents] : files) write_file_atomically((stage / name).string(), contents);
  } catch (const WriteError&) {
    fs::remove_all(stage, error);
    throw;
  }
}

std::string marker_text(const Files& files) {
  nlohmann::json names = nlohmann::json::array();
  for (const auto& file : files) names.push_back(file.first);
  return dump_json({{"written_by", "ladder report"}, {"files", names}}, 2) + "\n";
}

// Into a directory that does not exist yet: staged beside it, then renamed into place in one step.
void write_new_directory(const fs::path& dir, const Files& files, const std::string& shown) {
  std::error_code error;
  fs::path made;  // the topmost parent this made, removed again if the report is not written
  for (fs::path missing = dir.parent_path(); !missing.empty() && !fs::exists(missing, error);
       missing = missing.parent_path())
    made = missing;
  if (!dir.parent_path().empty()) fs::create_directories(dir.parent_path(), error);
  const fs::path stage =
      dir.parent_path() / (".ladder-report-" + dir.filename().string() + "-" + std::to_string(getpid()));
  try {
    if (error) throw WriteError("cannot write the report in '" + shown + "': " + error.message());
    stage_files(stage, files, shown);
    if (std::rename(stage.c_str(), dir.c_str()) != 0) {
      const int problem = errno;
      fs::remove_all(stage, error);
      throw WriteError("cannot write the report in '" + shown + "': " + std::strerror(problem));
    }
  } catch (const WriteError&) {
    if (!made.empty()) fs::remove_all(made, error);
    throw;
  }
}

// Into an existing directory: staged inside it (the same file system), then each file renamed into place,
// the charts first and the marker last; the earlier report's files this one does not write are removed.
void write_into_directory(const fs::path& dir, const Files& files, const std::string& shown,
                          const std::set<std::string>& earlier) {
  const fs::path stage = dir / (".ladder-report-" + std::to_string(getpid()));
  stage_files(stage, files, shown);
  std::error_code error;
  fs::create_directories(dir / "charts", error);
  for (const auto& [name, contents] : files) {
    if (std::rename((stage / name).c_str(), (dir / name).c_str()) != 0) {
      const int problem = errno;
      fs::remove_all(stage, error);
      throw WriteError("cannot write the report in '" + shown + "': cannot replace " + (dir / name).string() +
                       ": " + std::strerror(problem));
    }
  }
  fs::remove_all(stage, error);
  for (const auto& name : earlier)
    if (std::none_of(files.begin(), files.end(), [&](const auto& file) { return file.first == name; }))
      fs::remove(dir / name, error);
}

}  // namespace

std::vector<std::string> write_report(const std::vector<Run>& runs, const std::string& out_dir,
                                      const std::string& integrand, const std::string& current,
                                      const MoneyInputs& money) {
  const Document doc = build(runs, integrand, current, money);
  Files files;
  const std::string md = to_markdown(doc, files);
  files.push_back({"report.md", md});
  files.push_back({"report.html", to_html(doc)});
  files.push_back({report_marker, marker_text(files)});
  fs::path dir(out_dir);
  if (!dir.has_filename()) dir = dir.parent_path();  // "out/" is "out"
  const std::string shown = quote_text(out_dir);
  std::error_code error;
  if (fs::exists(dir, error) && !fs::is_directory(dir, error))
    throw InputError("the report's directory '" + shown + "' is a file, not a directory");
  if (fs::exists(dir, error)) {
    const std::set<std::string> earlier = earlier_report(dir);
    admit_directory(dir, earlier);
    write_into_directory(dir, files, shown, earlier);
  } else {
    write_new_directory(dir, files, shown);
  }
  std::vector<std::string> written;
  for (const auto& file : files)
    if (file.first != report_marker) written.push_back((fs::path(out_dir) / file.first).string());
  return written;
}

}  // namespace ladder::report
