// Where the verdicts' files go (verdict_outputs.hpp): each path checked before a command measures or reads
// anything, the summary appended to, and a BMF file replaced only when Ladder wrote it.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "quote.hpp"
#include "verdict_outputs.hpp"

namespace ladder::report {
namespace {

namespace fs = std::filesystem;

std::string named(const std::string& option, const std::string& path) {
  return option + " '" + quote_text(path, 200) + "'";
}

// The first bytes of a file, enough to tell text from a database or a binary.
std::string head_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes(4096, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  bytes.resize(static_cast<std::size_t>(in.gcount()));
  return bytes;
}

// A document --bmf wrote: a JSON object of cells, each an object of Bencher measures Ladder writes.
bool written_by_ladder_as_bmf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const nlohmann::json document = nlohmann::json::parse(in, nullptr, false);
  if (!document.is_object()) return false;
  for (const auto& [cell, measures] : document.items()) {
    if (!measures.is_object() || measures.empty()) return false;
    for (const auto& [measure, value] : measures.items())
      if ((measure != "latency" && measure != "ratio") || !value.is_object()) return false;
  }
  return true;
}

// A path that does not exist yet: its folder must be there and writable.
void check_new_file(const std::string& option, const std::string& path) {
  const fs::path parent = fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  std::error_code error;
  if (!fs::is_directory(parent, error))
    throw InputError(named(option, path) + " cannot be written: its folder '" +
                     quote_text(parent.string(), 200) + "' does not exist");
  if (::access(parent.c_str(), W_OK) != 0)
    throw InputError(named(option, path) + " cannot be written: its folder '" +
                     quote_text(parent.string(), 200) + "' is not writable (" + std::strerror(errno) + ")");
}

void check_summary(const std::string& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (!fs::exists(status)) return check_new_file("--summary", path);
  if (fs::is_directory(status)) throw InputError(named("--summary", path) + " is a directory, not a file");
  if (::access(path.c_str(), W_OK) != 0)
    throw InputError(named("--summary", path) + " cannot be written (" + std::strerror(errno) + ")");
  // Appended to, as GitHub appends each step's summary: a text file only, never a database or a binary.
  if (fs::is_regular_file(status) && head_of(path).find('\0') != std::string::npos)
    throw InputError(named("--summary", path) +
                     " is not a text file (a database or a binary?): the summary is appended to a Markdown "
                     "file, so give one, or a new path");
}

void check_bmf(const std::string& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (!fs::exists(status)) return check_new_file("--bmf", path);
  if (fs::is_directory(status)) throw InputError(named("--bmf", path) + " is a directory, not a file");
  if (!fs::is_regular_file(status))
    throw InputError(named("--bmf", path) + " is not a regular file; --bmf writes a JSON file whole");
  if (::access(path.c_str(), W_OK) != 0)
    throw InputError(named("--bmf", path) + " cannot be written (" + std::strerror(errno) + ")");
  if (fs::file_size(path, error) != 0 && !written_by_ladder_as_bmf(path))
    throw InputError(
        named("--bmf", path) +
        " holds a file that is not Bencher metric format Ladder wrote; --bmf replaces only its own "
        "(or an empty file): give a new path, or move that file away");
}

}  // namespace

void check_verdict_outputs(const VerdictOutputs& outputs) {
  if (!outputs.summary.empty()) check_summary(outputs.summary);
  if (!outputs.bmf.empty()) check_bmf(outputs.bmf);
  std::error_code error;
  if (!outputs.summary.empty() && !outputs.bmf.empty() &&
      (outputs.summary == outputs.bmf || fs::equivalent(outputs.summary, outputs.bmf, error)))
    throw InputError("--summary and --bmf name one file, '" + quote_text(outputs.bmf, 200) +
                     "'; give each its own");
}

}  // namespace ladder::report
