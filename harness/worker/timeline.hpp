// Memory and CPU time over the course of one call (the mprof view): a sampling thread reads the process's
// resident set (/proc/self/statm) and CPU time every few milliseconds. It allocates nothing while it
// samples, so the heap counter running beside it sees only the kernel.
#pragma once

#include <atomic>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

namespace ladder {

class Timeline {
 public:
  explicit Timeline(double interval_seconds = 0.002, std::size_t capacity = 1 << 15);
  ~Timeline();
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;

  void start();  // the first sample is taken before start() returns
  // Stops, joins the thread (it is gone before the caller looks at the process's threads) and returns
  // {"interval_seconds", "samples", "seconds": [...], "rss_bytes": [...], "cpu_seconds": [...]}, at most
  // `points` of them, evenly spread, with the first, the last and the highest resident set kept.
  nlohmann::json stop(std::size_t points = 200);
  // Samples taken so far, the first included; safe to read while sampling (a test waits on it instead of
  // a clock).
  std::size_t samples_taken() const { return taken_; }

 private:
  struct Sample {
    double seconds, cpu_seconds;
    std::int64_t rss_bytes;
  };
  Sample sample() const;
  void loop();

  double interval_;
  std::vector<Sample> samples_;
  std::atomic<int> state_{0};  // 0 waiting, 1 sampling, 2 stopping
  std::atomic<std::size_t> taken_{0};
  std::thread thread_;
  double origin_ = 0;
};

}  // namespace ladder
