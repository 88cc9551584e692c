// Files that are either the old version or the new one, never half of each: write a temporary file
// beside the target, flush it to disk, rename it over the target. And the one reader of a file taken
// whole, which refuses what is not a regular file before reading it (a directory, a FIFO).
#pragma once

#include <string>

namespace ladder {

// Throws WriteError naming the path when the file cannot be written (the old file, if any, is untouched).
void write_file_atomically(const std::string& path, const std::string& contents);

// Appends `contents` to `path` (made when missing), as a summary file is appended to; WriteError with the
// system's reason.
void append_to_file(const std::string& path, const std::string& contents);

// The whole of the regular file at `path`. Throws InputError "WHAT 'PATH' does not exist", "… is a directory,
// not a file", "… is not a regular file" or "… cannot be read: REASON" (WHAT: "--baseline", "journal").
std::string read_whole_file(const std::string& path, const std::string& what);

}  // namespace ladder
