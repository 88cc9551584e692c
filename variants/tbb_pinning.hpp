// Pins oneTBB's threads the way OMP_PROC_BIND=close pins OpenMP's: the thread in slot s of a task_arena
// runs on CPU cpus[s] only. oneTBB has no such setting; an observer does it. Shared by the tiers on
// oneTBB (tbb, tbb-tuned, stdpar), one line each:
//
//   tbb::task_arena arena(options.threads);
//   const ladder::PinThreads pin(arena, options.cpus);
//
// The observer is attached to the tier's own arena: a default-constructed one watches only the implicit
// arena of the thread that made it, never an explicit task_arena. A thread is pinned when it enters the
// arena (its slot is this_task_arena::current_thread_index()) and stays pinned when it leaves, as
// OpenMP's threads stay on their places: what the caller reads of the threads after the call shows where
// they ran. Whoever passes cpus (the harness, RunOptions::cpus) owns the calling thread's mask after it;
// an empty cpus pins nothing.
#pragma once

#include <sched.h>
#include <tbb/task_arena.h>
#include <tbb/task_scheduler_observer.h>

#include <vector>

namespace ladder {

class PinThreads : public tbb::task_scheduler_observer {
 public:
  PinThreads(tbb::task_arena& arena, const std::vector<int>& cpus)
      : tbb::task_scheduler_observer(arena), cpus_(cpus) {
    if (!cpus_.empty()) observe(true);
  }
  ~PinThreads() override { observe(false); }
  PinThreads(const PinThreads&) = delete;
  PinThreads& operator=(const PinThreads&) = delete;

  void on_scheduler_entry(bool) override {
    const int slot = tbb::this_task_arena::current_thread_index();
    if (slot < 0 || slot >= static_cast<int>(cpus_.size())) return;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpus_[static_cast<std::size_t>(slot)], &one);
    sched_setaffinity(0, sizeof one, &one);  // this thread only: 0 is the calling thread on Linux
  }

 private:
  std::vector<int> cpus_;
};

}  // namespace ladder
