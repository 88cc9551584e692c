#include "progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "matrix.hpp"
#include "text.hpp"

namespace ladder {

Progress::Progress(std::size_t total, std::size_t done, double estimated_seconds)
    : total_(total),
      done_(done),
      estimated_left_(estimated_seconds),
      start_(std::chrono::steady_clock::now()),
      terminal_(isatty(STDOUT_FILENO)) {}

void Progress::starting(const CellKey& cell) {
  if (!terminal_) return;
  const int width = 24;
  const int filled = total_ ? static_cast<int>(width * done_ / total_) : width;
  std::printf("\r\033[K[%s%s] %zu/%zu  %s  %s elapsed%s", std::string(filled, '#').c_str(),
              std::string(width - filled, '.').c_str(), done_, total_, cell_name(cell).c_str(),
              format_seconds(elapsed()).c_str(), remaining().c_str());
  std::fflush(stdout);
}

void Progress::finished(const CellResult& record, double estimated_seconds) {
  ++done_;
  estimated_left_ = std::max(0.0, estimated_left_ - estimated_seconds);
  estimated_done_ += estimated_seconds;
  std::string line = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] " + record.name + ": " +
                     std::string(to_string(record.status));
  if (record.measurement) {
    const double median = record.measurement->aggregates.median.real_time * 1e-9;
    const double n = static_cast<double>(record.n);
    char figures[160];
    std::snprintf(
        figures, sizeof figures, ", median %s (%.3g ns a node), heap %s", format_seconds(median).c_str(),
        median * 1e9 / n,
        (record.counted_peak_heap() ? format_bytes(*record.counted_peak_heap()) : std::string("not counted"))
            .c_str());
    line += figures;
  } else {
    line += " — " + record.reason;
  }
  if (terminal_) std::printf("\r\033[K");
  std::printf("%s  (%s elapsed%s)\n", line.c_str(), format_seconds(elapsed()).c_str(), remaining().c_str());
  std::fflush(stdout);
}

void Progress::clear() {
  if (terminal_) std::printf("\r\033[K"), std::fflush(stdout);
}

double Progress::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::string Progress::remaining() const {
  if (done_ >= total_) return "";
  // The estimate's error so far, once the finished cells have an estimate worth comparing with.
  const double scale = estimated_done_ > 1 ? elapsed() / estimated_done_ : 1.0;
  return ", about " + format_seconds(estimated_left_ * scale, Rounding::up) + " left";
}

}  // namespace ladder
