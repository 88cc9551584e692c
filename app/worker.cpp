// `ladder worker`: hidden; one cell, started by `ladder run` in its own process (harness/worker/worker.hpp).
#include "worker.hpp"

#include <memory>

#include "commands.hpp"

namespace ladder::app {

Command add_worker(CLI::App& app) {
  struct Options {
    std::string spec, result;
  };
  auto options = std::make_shared<Options>();
  auto* worker = app.add_subcommand("worker", "");
  worker->group("");  // not listed in --help
  worker->add_option("--spec", options->spec)->required();
  worker->add_option("--result", options->result)->required();
  return {worker, [options] { return run_worker(options->spec, options->result); }};
}

}  // namespace ladder::app
