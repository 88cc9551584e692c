// The report itself: one document model, written twice — report.md (tables, charts linked as SVG files
// beside it) and report.html (one self-contained page, charts inline, no script, no request).
#include <filesystem>

#include "atomic_file.hpp"
#include "errors.hpp"
#include "renderers.hpp"
#include "report.hpp"
#include "sections.hpp"

namespace ladder::report {

std::vector<std::string> write_report(const std::vector<Run>& runs, const std::string& out_dir,
                                      const std::string& integrand, const std::string& current,
                                      const MoneyInputs& money) {
  namespace fs = std::filesystem;
  const Document doc = build(runs, integrand, current, money);
  std::vector<std::pair<std::string, std::string>> files;
  const std::string md = to_markdown(doc, files);
  files.push_back({"report.md", md});
  files.push_back({"report.html", to_html(doc)});
  std::error_code error;
  fs::create_directories(fs::path(out_dir) / "charts", error);
  if (error)
    throw WriteError("cannot write the report in '" + out_dir + "': cannot create " +
                     (fs::path(out_dir) / "charts").string() + ": " + error.message());
  std::vector<std::string> written;
  for (const auto& [name, contents] : files) {
    const std::string path = (fs::path(out_dir) / name).string();
    write_file_atomically(path, contents);
    written.push_back(path);
  }
  return written;
}

}  // namespace ladder::report
