// Where `ladder export` writes: the --out directory, checked before anything is written, and the project
// swapped into place in one step. An earlier export is known by its manifest (.ladder-export.json, with the
// list of the files it wrote); a directory that holds anything the manifest does not list is never replaced.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "export.hpp"

namespace ladder::exporter {

// --out as the directory it names: absolute, with '.', '..' and symbolic links resolved and no trailing
// separator ("newdir/" is newdir, "." the current directory's own name). Throws InputError for a path that
// names no directory of its own (the root).
std::filesystem::path export_directory(const std::string& out);

// Throws InputError, naming the problem, unless --out is new, empty, or an earlier export whose manifest
// parses and lists every file in it (a few unlisted ones are named, with their count), each of them as that
// export wrote it (its SHA-256 in the manifest) or as FILES, this export, writes it: a file the user edited,
// or one a manifest made by hand lists, is never replaced.
void check_out(const std::string& out, const std::vector<ExportedFile>& files);

// The hidden name of a temporary sibling of the export NAME: ".NAME.KIND-UNIQUE", with NAME shortened (a
// cut and a hash) so that the whole fits in 255 bytes whatever NAME's length. KIND: "partial" or "old".
std::string temporary_name(const std::string& name, const std::string& kind, const std::string& unique);

// Whether PATH (relative, '/'-separated; a directory when `directory`) is one an export writes, whatever its
// tier, integrand and namespace (project.cpp, beside the code that writes them): what a stopped export's
// copy may hold for the next export to remove it.
bool exported_path(const std::string& path, bool directory);

}  // namespace ladder::exporter
