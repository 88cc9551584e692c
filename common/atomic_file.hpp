// Files that are either the old version or the new one, never half of each: write a temporary file
// beside the target, flush it to disk, rename it over the target.
#pragma once

#include <string>

namespace ladder {

// Throws WriteError naming the path when the file cannot be written (the old file, if any, is untouched).
void write_file_atomically(const std::string& path, const std::string& contents);

}  // namespace ladder
