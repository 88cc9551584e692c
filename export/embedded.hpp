// The files `ladder export` hands over, as this binary was built from them (cmake/embed_files.cmake):
// the kernel headers, the shared kernel headers, the integrand headers and the project templates.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace ladder::exporter {

struct EmbeddedFile {
  std::string_view path;  // relative to the checkout ("variants/kernels/xsimd.hpp"), or absolute
  std::string_view text;
};

std::span<const EmbeddedFile> embedded_files();

// The text of the file at `path`, or nothing when the build did not embed it.
inline std::optional<std::string_view> embedded(std::string_view path) {
  for (const auto& file : embedded_files())
    if (file.path == path) return file.text;
  return std::nullopt;
}

}  // namespace ladder::exporter
