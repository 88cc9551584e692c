#include "out_directory.hpp"

#include <fcntl.h>  // AT_FDCWD
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>  // renameat2, RENAME_EXCHANGE, RENAME_NOREPLACE (glibc, _GNU_SOURCE)
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

#include "errors.hpp"
#include "export.hpp"
#include "json_reader.hpp"
#include "quote.hpp"
#include "sha256.hpp"

namespace ladder::exporter {
namespace fs = std::filesystem;
namespace {

constexpr std::uintmax_t largest_manifest = 1 << 20;  // an export's manifest lists a few dozen files

// A path as the manifest holds it: as dump_json wrote it, with bytes that are not UTF-8 replaced.
std::string manifest_key(const std::string& path) {
  return nlohmann::json::parse(dump_json(nlohmann::json(path))).get<std::string>();
}

// The files an earlier export's manifest lists, or what is wrong with the manifest.
struct Manifest {
  std::set<std::string> files;
  std::string problem;  // empty: it is an export's manifest
};

Manifest read_manifest(const fs::path& directory) {
  Manifest manifest;
  const fs::path path = directory / marker_file;
  std::error_code error;
  if (!fs::is_regular_file(fs::symlink_status(path, error))) return {{}, "is not a file"};
  const auto size = fs::file_size(path, error);
  if (error || size > largest_manifest)
    return {{},
            "is not an export's manifest (" + std::to_string(size) + " bytes; one has at most " +
                std::to_string(largest_manifest) + ")"};
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) return {{}, "cannot be read"};
  nlohmann::json json;
  try {
    json = parse_json_document(text.str(), "it");
  } catch (const SchemaError&) {
    return {{}, "is nested more than " + std::to_string(max_json_depth) + " levels deep; no manifest is"};
  }
  if (json.is_discarded()) return {{}, "is not JSON"};
  if (!json.is_object() || !json.contains("files") || !json["files"].is_array())
    return {{}, "has no list of the files the export wrote (\"files\")"};
  for (const auto& file : json["files"]) {
    if (!file.is_string()) return {{}, "lists a file that is not a path: " + quote_value(file)};
    manifest.files.insert(file.get<std::string>());
  }
  return manifest;
}

// What DIRECTORY holds that the manifest does not list: files and links by their paths, and a directory that
// leads to no listed file by its path and '/', not walked. Sets `error` when the directory cannot be read.
std::vector<std::string> unlisted(const fs::path& directory, const std::set<std::string>& files,
                                  std::error_code& error) {
  std::set<std::string> leading;  // the directories of the listed files
  for (const auto& file : files)
    for (auto slash = file.find('/'); slash != file.npos; slash = file.find('/', slash + 1))
      leading.insert(file.substr(0, slash));
  std::vector<std::string> found;
  for (fs::recursive_directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    const std::string relative = manifest_key(it->path().lexically_relative(directory).generic_string());
    if (relative == marker_file) continue;
    if (fs::is_directory(it->symlink_status(error))) {
      if (leading.count(relative)) continue;
      found.push_back(relative + "/");
      it.disable_recursion_pending();
    } else if (!files.count(relative)) {
      found.push_back(relative);
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::string listed(const std::vector<std::string>& paths) {
  constexpr std::size_t shown = 5;
  std::string text;
  for (std::size_t i = 0; i < paths.size() && i < shown; ++i) text += (i ? ", " : "") + quote_text(paths[i]);
  return paths.size() > shown ? text + ", and " + std::to_string(paths.size() - shown) + " more" : text;
}

bool alive(const std::string& pid) {
  if (pid.empty() || pid.size() > 9) return false;
  const int id = std::stoi(pid);
  return id == getpid() || ::kill(id, 0) == 0 || errno == EPERM;
}

// Removes what earlier exports of NAME left beside it when they were stopped: its temporary siblings
// (.NAME.partial-PID-N, .NAME.old-PID-N) of a process that is gone, each only when it is a directory whose
// manifest parses and lists everything in it. Anything else is left alone.
void sweep(const fs::path& parent, const std::string& name) {
  std::error_code error;
  std::vector<fs::path> stale;
  for (fs::directory_iterator it(parent, error), end; !error && it != end; it.increment(error)) {
    const std::string entry = it->path().filename().string();
    for (const char* kind : {"partial", "old"}) {
      const std::string prefix = temporary_name(name, kind, "");
      if (!entry.starts_with(prefix)) continue;
      const std::string unique = entry.substr(prefix.size());
      const auto dash = unique.find('-');
      const bool ours = dash != unique.npos && dash > 0 && dash + 1 < unique.size() &&
                        unique.find_first_not_of("0123456789-") == unique.npos &&
                        unique.find('-', dash + 1) == unique.npos;
      if (ours && !alive(unique.substr(0, dash)) && fs::is_directory(it->symlink_status(error)))
        stale.push_back(it->path());
    }
  }
  for (const auto& path : stale) {
    const auto manifest = read_manifest(path);
    std::error_code unreadable;
    if (manifest.problem.empty() && unlisted(path, manifest.files, unreadable).empty() && !unreadable)
      fs::remove_all(path, unreadable);
  }
}

int rename_with(const fs::path& from, const fs::path& to, unsigned flags) {
  return ::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), flags);
}

[[noreturn]] void failed(const std::string& what, const fs::path& from, const fs::path& to) {
  throw fs::filesystem_error(what, from, to, std::error_code(errno, std::generic_category()));
}

// Puts FRESH in TARGET's place. Replacing, in one step: the kernel exchanges the two names, so TARGET is at
// every instant the old export or the new one, and FRESH's name then holds the old one.
void swap_in(const fs::path& fresh, const fs::path& target, bool replacing, const std::string& unique) {
  if (!replacing) {
    if (rename_with(fresh, target, RENAME_NOREPLACE) == 0) return;
    // A file system that cannot refuse to replace (EINVAL) or a kernel without renameat2 (ENOSYS).
    if (errno != EINVAL && errno != ENOSYS) failed("cannot rename", fresh, target);
    fs::rename(fresh, target);
    return;
  }
  if (rename_with(fresh, target, RENAME_EXCHANGE) == 0) return;
  if (errno != EINVAL && errno != ENOSYS) failed("cannot exchange", fresh, target);
  // Only where the file system or the kernel cannot exchange: two renames, between which TARGET is missing
  // (the old copy then waits as .NAME.old-…, which the next export of NAME sweeps).
  const fs::path old = target.parent_path() / temporary_name(target.filename().string(), "old", unique);
  fs::rename(target, old);
  std::error_code ignored;
  try {
    fs::rename(fresh, target);
  } catch (const fs::filesystem_error&) {
    fs::rename(old, target, ignored);
    throw;
  }
  fs::rename(old, fresh, ignored);  // where the caller removes the old copy
}

void write_files(const fs::path& fresh, const std::vector<ExportedFile>& files) {
  // The manifest first: a copy stopped half-way is then known as an export's, and the next one sweeps it.
  std::vector<const ExportedFile*> order;
  for (const auto& file : files) order.insert(file.path == marker_file ? order.begin() : order.end(), &file);
  fs::create_directories(fresh);
  for (const auto* file : order) {
    const fs::path path = fresh / file->path;
    fs::create_directories(path.parent_path());
    std::ofstream stream(path, std::ios::binary);
    stream << file->text;
    stream.close();
    if (!stream) throw WriteError("cannot write " + path.string());
  }
}

}  // namespace

fs::path export_directory(const std::string& out) {
  std::error_code error;
  fs::path path = fs::weakly_canonical(fs::absolute(out), error);
  if (error) path = fs::absolute(out).lexically_normal();
  if (!path.has_filename()) path = path.parent_path();  // "newdir/"
  if (path.filename().empty() || path.filename() == "." || path.filename() == "..")
    throw InputError("--out " + quote_text(out) +
                     " names no directory of its own; give a directory to write");
  return path;
}

std::string temporary_name(const std::string& name, const std::string& kind, const std::string& unique) {
  const std::string shortened =
      name.size() <= 180 ? name : name.substr(0, 160) + "~" + sha256_hex(name).substr(0, 16);
  return "." + shortened + "." + kind + "-" + unique;
}

void check_out(const std::string& out) {
  if (out.empty()) throw InputError("--out is required: the directory to write the project to");
  const fs::path target = export_directory(out);
  const std::string named = "--out " + quote_text(out);
  std::error_code error;
  const auto status = fs::symlink_status(target, error);
  if (!fs::exists(status)) return;
  if (!fs::is_directory(status))
    throw InputError(named + " exists and is not a directory; give a new directory or an earlier export");
  if (fs::is_empty(target, error) && !error) return;
  if (!fs::exists(fs::symlink_status(target / marker_file, error)))
    throw InputError(named + " exists and is not an earlier export (it has no " + marker_file +
                     "): nothing was written. Give a new directory, or remove this one yourself");
  const auto manifest = read_manifest(target);
  if (!manifest.problem.empty())
    throw InputError(named + ": its " + marker_file + " " + manifest.problem +
                     ", so it is no earlier export's manifest and nothing there is replaced: nothing was "
                     "written. Give a new directory, or remove this one yourself");
  const auto extra = unlisted(target, manifest.files, error);
  if (error)
    throw InputError(named + " cannot be read through (" + error.message() +
                     "), so whether it holds files of yours is not known: nothing was written");
  if (!extra.empty())
    throw InputError(named + " is an earlier export, but holds " + std::to_string(extra.size()) +
                     " file(s) or folder(s) it did not write (" + listed(extra) +
                     "), which replacing it would delete: nothing was written. Move them out, or remove "
                     "them yourself (a build directory: rm -r " +
                     quote_text((target / "build").string()) + ")");
}

bool write_project(const std::string& out, const std::vector<ExportedFile>& files) {
  const fs::path target = export_directory(out);
  const fs::path parent = target.parent_path();
  sweep(parent, target.filename().string());
  const std::string unique = std::to_string(getpid()) + "-" + std::to_string(std::random_device{}());
  const fs::path fresh = parent / temporary_name(target.filename().string(), "partial", unique);
  std::vector<fs::path> made;  // the directories above the export that it creates, deepest first
  std::error_code ignored;
  for (fs::path up = parent; !fs::exists(fs::symlink_status(up, ignored)) && up != up.parent_path();
       up = up.parent_path())
    made.push_back(up);
  auto undo = [&] {
    fs::remove_all(fresh, ignored);
    for (const auto& directory : made) fs::remove(directory, ignored);  // only while empty
  };
  try {
    fs::create_directories(parent);
    write_files(fresh, files);
    check_out(out);  // again, just before the swap: what is there now is what is replaced
    const bool replacing = fs::exists(fs::symlink_status(target, ignored));
    swap_in(fresh, target, replacing, unique);
    if (replacing) fs::remove_all(fresh, ignored);  // the old export, under the temporary name now
    return replacing;
  } catch (const fs::filesystem_error& error) {
    undo();
    throw WriteError("cannot write the export to " + quote_text(target.string()) + ": " +
                     quote_text(error.what(), 4 * quote_limit) + "; nothing was changed there");
  } catch (...) {
    undo();
    throw;
  }
}

}  // namespace ladder::exporter
