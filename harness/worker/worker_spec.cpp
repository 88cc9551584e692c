// A worker's spec to JSON and back (worker_spec.hpp).
#include "worker_spec.hpp"

#include <limits>

namespace ladder {

nlohmann::json to_json(const WorkerSpec& spec) {
  nlohmann::json out = {{"cell", spec.cell},
                        {"matrix", spec.matrix.to_json()},
                        {"rounding_bound", spec.rounding_bound},
                        {"cpus", spec.cpus}};
  if (spec.reference) out["reference"] = to_text(*spec.reference);
  if (spec.iterations) out["iterations"] = *spec.iterations;
  return out;
}

WorkerSpec read_worker_spec(const JsonReader& in) {
  WorkerSpec spec;
  spec.cell = read_cell_key(in.at("cell"));
  spec.matrix = Matrix::from_json(in.at("matrix"));
  if (const auto reference = in.find("reference")) spec.reference = reference_from_text(reference->string());
  // A bound that is not finite (a user integrand the reference cannot bound) is written as null.
  if (const auto bound = in.find("rounding_bound"))
    spec.rounding_bound = bound->is_null() ? std::numeric_limits<double>::quiet_NaN() : bound->number();
  if (const auto placed = in.find("cpus"))  // absent or empty: not pinned
    for (const auto& cpu : placed->elements()) spec.cpus.push_back(cpu.small_integer());
  if (const auto iterations = in.find("iterations")) {
    spec.iterations = iterations->integer();
    if (*spec.iterations < 1) iterations->fail("a round's iterations are a whole number from 1");
  }
  return spec;
}

}  // namespace ladder
