#include "timeline.hpp"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace ladder {
namespace {

double clock_seconds(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// Resident pages from /proc/self/statm ("size resident shared …"), without allocating.
std::int64_t resident_bytes() {
  const int descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (descriptor < 0) return -1;
  char text[128] = {};
  const auto count = read(descriptor, text, sizeof text - 1);
  close(descriptor);
  if (count <= 0) return -1;
  char* end = nullptr;
  std::strtoll(text, &end, 10);                            // size
  const long long pages = std::strtoll(end, nullptr, 10);  // resident
  return static_cast<std::int64_t>(pages) * sysconf(_SC_PAGESIZE);
}

}  // namespace

Timeline::Timeline(double interval_seconds, std::size_t capacity) : interval_(interval_seconds) {
  samples_.reserve(capacity);
  thread_ = std::thread([this] { loop(); });
}

Timeline::~Timeline() {
  state_ = 2;
  if (thread_.joinable()) thread_.join();
}

Timeline::Sample Timeline::sample() const {
  return {clock_seconds(CLOCK_MONOTONIC) - origin_, clock_seconds(CLOCK_PROCESS_CPUTIME_ID),
          resident_bytes()};
}

void Timeline::start() {
  origin_ = clock_seconds(CLOCK_MONOTONIC);
  samples_.push_back(sample());
  taken_ = 1;
  state_ = 1;
}

void Timeline::loop() {
  while (state_ == 0) usleep(100);
  double next = interval_;
  while (state_ == 1) {
    const double now = clock_seconds(CLOCK_MONOTONIC) - origin_;
    if (now < next) {
      usleep(static_cast<useconds_t>(std::max(1.0, (next - now) * 1e6)));
      continue;
    }
    if (samples_.size() == samples_.capacity()) {  // full: keep every other sample, sample half as often
      std::size_t kept = 1;
      for (std::size_t i = 2; i < samples_.size(); i += 2) samples_[kept++] = samples_[i];
      samples_.resize(kept);
      interval_ *= 2;
    }
    samples_.push_back(sample());
    ++taken_;
    next += interval_;
  }
}

nlohmann::json Timeline::stop(std::size_t points) {
  if (state_ == 1) {
    state_ = 2;
    thread_.join();
    samples_.push_back(sample());
    ++taken_;
  }
  std::vector<std::size_t> chosen;
  const std::size_t count = samples_.size();
  const std::size_t stride = std::max<std::size_t>(1, (count + points - 1) / points);
  for (std::size_t i = 0; i < count; i += stride) chosen.push_back(i);
  const auto peak = static_cast<std::size_t>(
      std::max_element(samples_.begin(), samples_.end(),
                       [](const Sample& x, const Sample& y) { return x.rss_bytes < y.rss_bytes; }) -
      samples_.begin());
  chosen.push_back(peak);
  if (count > 0) chosen.push_back(count - 1);
  std::sort(chosen.begin(), chosen.end());
  chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());

  nlohmann::json seconds = nlohmann::json::array(), rss = nlohmann::json::array(),
                 cpu = nlohmann::json::array();
  const double cpu_origin = count ? samples_.front().cpu_seconds : 0;
  for (const auto i : chosen) {
    seconds.push_back(samples_[i].seconds);
    rss.push_back(samples_[i].rss_bytes);
    cpu.push_back(samples_[i].cpu_seconds - cpu_origin);
  }
  return {{"interval_seconds", interval_},
          {"samples", count},
          {"seconds", seconds},
          {"rss_bytes", rss},
          {"cpu_seconds", cpu},
          {"method",
           "a sampling thread reads /proc/self/statm and the process CPU clock during one call after "
           "the warm-up, before the timed runs"}};
}

}  // namespace ladder
