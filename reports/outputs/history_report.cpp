#include "history_report.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "errors.hpp"
#include "history_page.hpp"

namespace ladder::report {
namespace {

// The page's title, which its <title> begins with: how an earlier history page is known.
constexpr const char* page_title = "Ladder history";

}  // namespace

std::string write_history_report(const history::Store& store, const history::HistorySeriesFilter& filter,
                                 const history::DetectOptions& options, const std::string& out_dir) {
  namespace fs = std::filesystem;
  history::validate(options);
  std::error_code error;
  if (fs::exists(out_dir, error) && !fs::is_directory(out_dir, error))
    throw InputError("--out '" + out_dir + "' is a file, not a directory: give a directory for index.html");
  const fs::path page = fs::path(out_dir) / "index.html";
  if (fs::exists(page, error)) {
    std::ifstream existing(page);
    std::ostringstream text;
    text << existing.rdbuf();
    if (text.str().find(std::string("<title>") + page_title) == std::string::npos)
      throw InputError("'" + page.string() +
                       "' exists and is not a Ladder history page: not overwritten (give another --out "
                       "directory, or remove that file)");
  }
  HistoryPageInput input{page_title, history::history_series(store, filter), options};
  if (input.series.empty())
    throw InputError("history database '" + store.path() + "' holds no measured cell" +
                     (filter.tier.empty() ? "" : " of tier '" + filter.tier + "'") +
                     (filter.machine.empty() ? "" : " on machine '" + filter.machine + "'") +
                     (filter.since.empty() ? "" : " since " + filter.since) +
                     " (`ladder history list` shows its runs)");
  write_history_page(input, out_dir);
  return page.string();
}

}  // namespace ladder::report
