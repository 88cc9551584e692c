#include "out_directory.hpp"

#include <fcntl.h>  // AT_FDCWD
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>  // renameat2, RENAME_EXCHANGE, RENAME_NOREPLACE (glibc, _GNU_SOURCE)
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <utility>

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

// The files an earlier export's manifest lists, with the SHA-256 of each as the export wrote it, or what is
// wrong with the manifest.
struct Manifest {
  std::set<std::string> files;
  std::map<std::string, std::string>
      sha256;           // path -> hex; empty in a manifest written before they were kept
  bool hashed = false;  // it has the "sha256" object
  std::string problem;  // empty: it is an export's manifest
};

bool is_sha256(const nlohmann::json& value) {
  if (!value.is_string()) return false;
  const auto& text = value.get_ref<const std::string&>();
  return text.size() == 64 && text.find_first_not_of("0123456789abcdef") == text.npos;
}

Manifest damaged(std::string problem) {
  Manifest manifest;
  manifest.problem = std::move(problem);
  return manifest;
}

Manifest read_manifest(const fs::path& directory) {
  Manifest manifest;
  const fs::path path = directory / marker_file;
  std::error_code error;
  if (!fs::is_regular_file(fs::symlink_status(path, error))) return damaged("is not a file");
  const auto size = fs::file_size(path, error);
  if (error || size > largest_manifest)
    return damaged("is not an export's manifest (" + std::to_string(size) + " bytes; one has at most " +
                   std::to_string(largest_manifest) + ")");
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) return damaged("cannot be read");
  nlohmann::json json;
  try {
    json = parse_json_document(text.str(), "it");
  } catch (const SchemaError&) {
    return damaged("is nested more than " + std::to_string(max_json_depth) + " levels deep; no manifest is");
  }
  if (json.is_discarded()) return damaged("is not JSON");
  if (!json.is_object() || !json.contains("files") || !json["files"].is_array())
    return damaged("has no list of the files the export wrote (\"files\")");
  for (const auto& file : json["files"]) {
    if (!file.is_string()) return damaged("lists a file that is not a path: " + quote_value(file));
    manifest.files.insert(file.get<std::string>());
  }
  if (json.contains("sha256")) {
    const auto& hashes = json["sha256"];
    if (!hashes.is_object()) return damaged("has a \"sha256\" that is no object of paths and hashes");
    for (const auto& [file, hash] : hashes.items()) {
      if (!is_sha256(hash))
        return damaged("holds " + quote_value(hash) + " as the SHA-256 of " + quote_text(file) +
                       ", which is no SHA-256 (64 hex digits)");
      manifest.sha256[file] = hash.get<std::string>();
    }
    manifest.hashed = true;
  }
  return manifest;
}

// The SHA-256 of a file as it is now; empty for a file larger than any an export writes (not read).
std::string sha256_of_file(const fs::path& path, std::error_code& error) {
  constexpr std::uintmax_t largest_written = 64 << 20;
  if (fs::file_size(path, error) > largest_written || error) return {};
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) error = std::make_error_code(std::errc::io_error);
  return error ? std::string() : sha256_hex(text.str());
}

// The files the manifest lists that replacing DIRECTORY would lose: each one that is not a plain file now
// or whose bytes are neither those the earlier export wrote (its SHA-256 in the manifest) nor those this
// export writes in its place. A manifest without hashes (an older Ladder's, or one made by hand) vouches for
// nothing, so there only the second holds. Sets `error` when the directory cannot be read.
std::vector<std::string> changed(const fs::path& directory, const Manifest& manifest,
                                 const std::vector<ExportedFile>& files, std::error_code& error) {
  std::map<std::string, std::string> writes;
  for (const auto& file : files) writes[file.path] = sha256_hex(file.text);
  std::vector<std::string> found;
  for (fs::recursive_directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    const std::string relative = manifest_key(it->path().lexically_relative(directory).generic_string());
    const auto status = it->symlink_status(error);
    if (error || relative == marker_file || fs::is_directory(status) || !manifest.files.count(relative))
      continue;
    const std::string now = fs::is_regular_file(status) ? sha256_of_file(it->path(), error) : "";
    const auto wrote = manifest.sha256.find(relative);
    const auto writes_now = writes.find(relative);
    const bool same = !now.empty() && ((wrote != manifest.sha256.end() && wrote->second == now) ||
                                       (writes_now != writes.end() && writes_now->second == now));
    if (!same) found.push_back(relative);
  }
  std::sort(found.begin(), found.end());
  return found;
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
  if (id == getpid()) return true;
  if (::kill(id, 0) != 0 && errno != EPERM) return false;
  // A zombie (a killed export not reaped yet) answers kill(0) but writes nothing: /proc/PID/stat's state.
  std::ifstream stat("/proc/" + pid + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const auto close = line.rfind(')');
  return close == std::string::npos || close + 2 >= line.size() || line[close + 2] != 'Z';
}

int rename_with(const fs::path& from, const fs::path& to, unsigned flags) {
  return ::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), flags);
}

// Renames FROM to TO, which must not exist; a file system that cannot refuse to replace (EINVAL) or a
// kernel without renameat2 (ENOSYS) gets a plain rename. False when it fails.
bool rename_new(const fs::path& from, const fs::path& to) {
  if (rename_with(from, to, RENAME_NOREPLACE) == 0) return true;
  return (errno == EINVAL || errno == ENOSYS) && !fs::exists(fs::symlink_status(to)) &&
         ::rename(from.c_str(), to.c_str()) == 0;
}

std::string unique_suffix() {
  return std::to_string(getpid()) + "-" + std::to_string(std::random_device{}());
}

// Whether everything DIRECTORY holds is a plain file or directory at a path an export writes (so removing it
// loses nothing of a user's). False when it cannot be read through.
bool holds_only_exported(const fs::path& directory) {
  std::error_code error;
  for (fs::recursive_directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    const auto status = it->symlink_status(error);
    const bool folder = fs::is_directory(status);
    if (error || !(folder || fs::is_regular_file(status)) ||
        !exported_path(it->path().lexically_relative(directory).generic_string(), folder))
      return false;
  }
  return !error;
}

// Removes what earlier exports of NAME left beside it when they were stopped: its temporary siblings
// (.NAME.partial-PID-N, .NAME.old-PID-N) of a process that is gone, each only when it is a directory that
// holds nothing but paths an export writes (whether its manifest was written yet or not). Each is first
// renamed to a name of this process, so that two exports never remove one copy together, and a copy this one
// leaves half-removed is found by the next as a gone process's. Anything else is left alone.
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
    if (!holds_only_exported(path)) continue;
    const fs::path mine = parent / temporary_name(name, "old", unique_suffix());
    if (!rename_new(path, mine)) continue;  // gone: another export took it
    std::error_code ignored;
    if (holds_only_exported(mine))  // again: what it holds now is what is removed
      fs::remove_all(mine, ignored);
    else
      rename_new(mine, path);
  }
}

[[noreturn]] void failed(const std::string& what, const fs::path& from, const fs::path& to) {
  throw fs::filesystem_error(what, from, to, std::error_code(errno ? errno : EIO, std::generic_category()));
}

// Why the export to OUT could not be written, in words: the reason the system gave, and where, when that is
// neither OUT nor its temporary copy FRESH (a parent directory).
std::string write_failure(const std::string& out, const fs::path& target, const fs::path& fresh,
                          const fs::filesystem_error& error) {
  const fs::path& at = error.path1();
  const auto below = at.lexically_relative(fresh);
  std::string where;
  if (!at.empty() && at != target && (below.empty() || *below.begin() == ".."))
    where = " (at " + quote_text(at.string()) + ")";
  else if (!at.empty() && at != target)
    where = " (writing its copy beside it, in " + quote_text(target.parent_path().string()) + ")";
  return "cannot write the export to --out " + quote_text(out) + ": " + error.code().message() + where +
         "; nothing was changed there";
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
    errno = 0;
    std::ofstream stream(path, std::ios::binary);
    stream << file->text;
    stream.close();
    if (!stream) failed("cannot write", path, {});  // errno: why (a full disk); EIO where none was set
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

void check_out(const std::string& out, const std::vector<ExportedFile>& files) {
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
  const auto edited = changed(target, manifest, files, error);
  if (error)
    throw InputError(named + " cannot be read through (" + error.message() +
                     "), so whether you changed the files there is not known: nothing was written");
  if (edited.empty()) return;
  const std::string what = std::to_string(edited.size()) + " file(s) (" + listed(edited) + ")";
  if (manifest.hashed)
    throw InputError(named + " is an earlier export, but " + what +
                     " differ from what it wrote: edits that replacing it would lose, so nothing was "
                     "written. Move them (or the whole directory) away, or give another --out");
  throw InputError(
      named + " is an earlier export, but its " + marker_file +
      " keeps no SHA-256 of the files (an older Ladder wrote it), so edits to them cannot be told "
      "from what it wrote, and " +
      what +
      " differ from what this export writes: replacing them could lose edits, so nothing was "
      "written. Move them (or the whole directory) away, or give another --out");
}

bool write_project(const std::string& out, const std::vector<ExportedFile>& files) {
  const fs::path target = export_directory(out);
  const fs::path parent = target.parent_path();
  sweep(parent, target.filename().string());
  const std::string unique = unique_suffix();
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
    check_out(out, files);  // again, just before the swap: what is there now is what is replaced
    const bool replacing = fs::exists(fs::symlink_status(target, ignored));
    swap_in(fresh, target, replacing, unique);
    if (replacing) fs::remove_all(fresh, ignored);  // the old export, under the temporary name now
    return replacing;
  } catch (const fs::filesystem_error& error) {
    undo();
    throw WriteError(write_failure(out, target, fresh, error));
  } catch (...) {
    undo();
    throw;
  }
}

}  // namespace ladder::exporter
