#include "run_context.hpp"

#include "optional_json.hpp"
#include "quote.hpp"

namespace ladder {

using nlohmann::json;

namespace {

std::map<std::string, std::string> string_map(const JsonReader& in) {
  std::map<std::string, std::string> all;
  for (const auto& [key, value] : in.members()) all[key] = value.string();
  return all;
}

std::vector<int> small_integers(const JsonReader& in) {
  std::vector<int> all;
  for (const auto& each : in.elements()) all.push_back(each.small_integer());
  return all;
}

}  // namespace

json MatrixRecord::to_json() const {
  json out = {{"tiers", tiers},
              {"integrands", integrands},
              {"a", a},
              {"b", b},
              {"sizes", sizes},
              {"threads", threads},
              {"ranks", ranks},
              {"ranks_given", ranks_given},
              {"cpus", cpus},
              {"reproducible", reproducible},
              {"repetitions", repetitions},
              {"rounds", rounds},
              {"min_time", min_time},
              {"min_warmup_time", min_warmup_time},
              {"seed", seed},
              {"peers", peers},
              {"python_limit", python_limit}};
  if (!builds.empty()) out["builds"] = builds;
  return out;
}

MatrixRecord MatrixRecord::from_json(const JsonReader& in) {
  MatrixRecord matrix;
  matrix.tiers = in.at("tiers").strings();
  if (const auto several = in.find("integrands")) {
    matrix.integrands = several->strings();
    if (matrix.integrands.empty()) several->fail("expected at least one integrand, found none");
  } else {
    matrix.integrands = {in.at("integrand").string()};  // a run from before integrands were a dimension
  }
  matrix.a = in.at("a").number();
  matrix.b = in.at("b").number();
  for (const auto& size : in.at("sizes").elements()) matrix.sizes.push_back(size.integer());
  matrix.threads = small_integers(in.at("threads"));
  matrix.ranks = small_integers(in.at("ranks"));
  matrix.ranks_given = in.at("ranks_given").boolean();
  matrix.cpus = in.at("cpus").small_integer();
  matrix.reproducible = in.at("reproducible").boolean();
  matrix.repetitions = in.at("repetitions").small_integer();
  matrix.rounds = in.at("rounds").small_integer();
  if (matrix.rounds < 1 || matrix.rounds > max_rounds)
    in.at("rounds").fail("expected a whole number from 1 to " + std::to_string(max_rounds));
  matrix.min_time = in.at("min_time").number();
  matrix.min_warmup_time = in.at("min_warmup_time").number();
  const auto seed = in.at("seed");
  if (!seed.raw().is_number_unsigned() && !(seed.raw().is_number_integer() && seed.integer() >= 0))
    seed.fail("expected a whole number from 0 to 2^64 - 1, found " + quote_value(seed.raw()));
  matrix.seed = seed.raw().get<std::uint64_t>();
  matrix.peers = in.at("peers").string();
  matrix.python_limit = in.at("python_limit").integer();
  if (const auto builds = in.find("builds")) matrix.builds = builds->strings();
  return matrix;
}

std::string MatrixRecord::difference(const MatrixRecord& x, const MatrixRecord& y) {
  const auto left = x.to_json(), right = y.to_json();
  for (const auto& [key, value] : left.items())
    if (!right.contains(key) || right.at(key) != value)
      return key + ": " + quote_value(value) + " against " +
             (right.contains(key) ? quote_value(right.at(key)) : "none");
  for (const auto& [key, value] : right.items())  // a setting only one of them has (builds)
    if (!left.contains(key)) return key + ": none against " + quote_value(value);
  return {};
}

void to_json(json& out, const IntegrandRecord& integrand) {
  out = {{"name", integrand.name},
         {"formula", integrand.formula},
         {"source", integrand.source},
         {"antiderivative", integrand.antiderivative},
         {"unsupported", integrand.unsupported}};
}

IntegrandRecord read_integrand_record(const JsonReader& in) {
  IntegrandRecord integrand;
  integrand.name = in.at("name").string();
  integrand.formula = in.at("formula").string();
  integrand.source = in.at("source").string();
  integrand.antiderivative = in.at("antiderivative").boolean();
  integrand.unsupported = string_map(in.at("unsupported"));
  return integrand;
}

void to_json(json& out, const BudgetRecord& budget) {
  out = {{"budget", budget.text},
         {"budget_seconds", budget.seconds},
         {"estimated_seconds_before", budget.estimated_seconds_before},
         {"estimated_seconds", budget.estimated_seconds},
         {"dropped", budget.dropped},
         {"floor",
          {{"repetitions", budget.floor.repetitions},
           {"min_time", budget.floor.min_time},
           {"min_warmup_time", budget.floor.min_warmup_time}}}};
}

BudgetRecord read_budget_record(const JsonReader& in) {
  BudgetRecord budget;
  budget.text = in.at("budget").string();
  budget.seconds = in.at("budget_seconds").number();
  budget.estimated_seconds_before = in.at("estimated_seconds_before").number();
  budget.estimated_seconds = in.at("estimated_seconds").number();
  budget.dropped = in.at("dropped").strings();
  const JsonReader floor = in.at("floor");
  budget.floor.repetitions = floor.at("repetitions").small_integer();
  budget.floor.min_time = floor.at("min_time").number();
  budget.floor.min_warmup_time = floor.at("min_warmup_time").number();
  return budget;
}

void to_json(json& out, const WarningRecord& warning) {
  out = {{"kind", warning.kind}, {"message", warning.message}, {"cells", warning.cells}};
}

WarningRecord read_warning_record(const JsonReader& in) {
  return {in.at("kind").string(), in.at("message").string(), in.at("cells").strings()};
}

void to_json(json& out, const MachineContext& machine) {
  json caches = json::array();
  for (const auto& cache : machine.caches)
    caches.push_back({{"level", cache.level},
                      {"type", cache.type},
                      {"size", cache.size},
                      {"shared_cpu_list", cache.shared_cpu_list}});
  json hypervisor = {{"present", machine.hypervisor.present}};
  if (machine.hypervisor.vendor) hypervisor["vendor"] = *machine.hypervisor.vendor;
  if (machine.hypervisor.product) hypervisor["product"] = *machine.hypervisor.product;
  const auto& source = machine.source;
  out = {{"host_name", machine.host_name},
         {"cpu_model", machine.cpu_model},
         {"logical_cpus", machine.logical_cpus},
         {"physical_cores", machine.physical_cores},
         {"topology", machine.topology ? machine.topology->to_json() : json(nullptr)},
         {"caches", caches},
         {"simd",
          {{"kernels_use", machine.simd.kernels_use},
           {"doubles_per_batch", machine.simd.doubles_per_batch},
           {"best_on_this_cpu", machine.simd.best_on_this_cpu},
           {"cpu_flags", machine.simd.cpu_flags}}},
         {"memory_total_bytes", optional_json(machine.memory_total_bytes)},
         {"memory_available_bytes", optional_json(machine.memory_available_bytes)},
         {"kernel", machine.kernel},
         {"glibc", machine.glibc},
         {"hypervisor", hypervisor},
         {"frequency_scaling",
          {{"governor", machine.frequency_scaling.governor},
           {"driver", machine.frequency_scaling.driver},
           {"boost", machine.frequency_scaling.boost}}},
         {"clocksource", machine.clocksource},
         {"transparent_hugepages", machine.transparent_hugepages},
         {"hardware_counters", machine.hardware_counters},
         {"compiler", machine.compiler},
         {"build_type", machine.build_type},
         {"common_flags", machine.common_flags},
         {"flags_per_tier", machine.flags_per_tier},
         {"libraries", machine.libraries},
         {"parallel_environment", machine.parallel_environment},
         {"ladder_version", machine.ladder_version},
         {"source",
          {{"git_commit", source.git_commit},
           {"git_branch", source.git_branch},
           {"git_dirty", source.git_dirty},
           {"tier_sources", source.tier_sources}}},
         {"integrands", machine.integrands}};
  if (machine.emulation) out["emulation"] = *machine.emulation;
}

MachineContext read_machine_context(const JsonReader& in) {
  MachineContext machine;
  machine.host_name = in.at("host_name").string();
  machine.cpu_model = in.at("cpu_model").string();
  machine.logical_cpus = in.at("logical_cpus").small_integer();
  machine.physical_cores = in.at("physical_cores").small_integer();
  if (const auto topology = in.at("topology"); !topology.is_null())
    machine.topology = Topology::from_json(topology);
  for (const auto& cache : in.at("caches").elements())
    machine.caches.push_back({cache.at("level").string(), cache.at("type").string(),
                              cache.at("size").string(), cache.at("shared_cpu_list").string()});
  const JsonReader simd = in.at("simd");
  machine.simd = {simd.at("kernels_use").string(), simd.at("doubles_per_batch").small_integer(),
                  simd.at("best_on_this_cpu").string(), simd.at("cpu_flags").strings()};
  machine.memory_total_bytes = in.optional_number("memory_total_bytes");
  machine.memory_available_bytes = in.optional_number("memory_available_bytes");
  machine.kernel = in.at("kernel").string();
  machine.glibc = in.at("glibc").string();
  if (const auto emulation = in.find("emulation"); emulation && !emulation->is_null())
    machine.emulation = read_emulation(*emulation);
  const JsonReader hypervisor = in.at("hypervisor");
  machine.hypervisor = {hypervisor.at("present").boolean(), hypervisor.optional_string("vendor"),
                        hypervisor.optional_string("product")};
  const JsonReader frequency = in.at("frequency_scaling");
  machine.frequency_scaling = {frequency.at("governor").string(), frequency.at("driver").string(),
                               frequency.at("boost").string()};
  machine.clocksource = in.at("clocksource").string();
  machine.transparent_hugepages = in.at("transparent_hugepages").string();
  machine.hardware_counters = in.at("hardware_counters").string();
  machine.compiler = in.at("compiler").string();
  machine.build_type = in.at("build_type").string();
  machine.common_flags = in.at("common_flags").string();
  machine.flags_per_tier = string_map(in.at("flags_per_tier"));
  machine.libraries = string_map(in.at("libraries"));
  machine.parallel_environment = string_map(in.at("parallel_environment"));
  machine.ladder_version = in.at("ladder_version").string();
  const JsonReader source = in.at("source");
  machine.source = {source.at("git_commit").string(), source.at("git_branch").string(),
                    source.at("git_dirty").string(), string_map(source.at("tier_sources"))};
  for (const auto& integrand : in.at("integrands").elements())
    machine.integrands.push_back(read_integrand_record(integrand));
  return machine;
}

void to_json(json& out, const RunRecord& run) {
  out = {{"label", run.label},
         {"preset", run.preset},
         {"started", run.started},
         {"status", run.status},
         {"cells_total", run.cells_total},
         {"cells_done", run.cells_done},
         {"estimated_seconds", run.estimated_seconds},
         {"cell_timeout_seconds", run.cell_timeout_seconds},
         {"worker_cpus", run.worker_cpus},
         {"hostfile", optional_json(run.hostfile)},
         {"thread_binding", run.thread_binding},
         {"interleaving", run.interleaving},
         {"updated", run.updated},
         {"finished", optional_json(run.finished)},
         {"load_average_after", optional_json(run.load_average_after)}};
  if (run.budget) out["budget"] = *run.budget;
  if (run.this_session)
    out["this_session"] = {{"wall_seconds", run.this_session->wall_seconds},
                           {"measured_seconds", run.this_session->measured_seconds},
                           {"harness_seconds", run.this_session->harness_seconds},
                           {"note", run.this_session->note}};
  for (const auto& build : run.builds) {
    json entry = {{"id", build.id},
                  {"state", build.state},
                  {"configure_seconds", build.configure_seconds},
                  {"compile_seconds", build.compile_seconds}};
    write_build(entry, build);
    out["builds"].push_back(entry);
  }
}

RunRecord read_run_record(const JsonReader& in) {
  RunRecord run;
  run.label = in.at("label").string();
  run.preset = in.at("preset").string();
  run.started = in.at("started").string();
  run.status = in.at("status").string();
  if (run.status != "running" && run.status != "complete" && run.status != "interrupted")
    in.at("status").fail("expected \"running\", \"complete\" or \"interrupted\", found \"" + run.status +
                         "\"");
  run.cells_total = in.at("cells_total").integer();
  run.cells_done = in.at("cells_done").integer();
  run.estimated_seconds = in.at("estimated_seconds").number();
  run.cell_timeout_seconds = in.at("cell_timeout_seconds").number();
  run.worker_cpus = small_integers(in.at("worker_cpus"));
  run.hostfile = in.optional_string("hostfile");
  run.thread_binding = in.at("thread_binding").string();
  run.interleaving = in.at("interleaving").string();
  if (const auto budget = in.find("budget")) run.budget = read_budget_record(*budget);
  run.updated = in.at("updated").string();
  run.finished = in.optional_string("finished");
  if (const auto loads = in.at("load_average_after"); !loads.is_null())
    run.load_average_after = loads.numbers();
  if (const auto session = in.find("this_session"))
    run.this_session =
        RunRecord::Session{session->at("wall_seconds").number(), session->at("measured_seconds").number(),
                           session->at("harness_seconds").number(), session->at("note").string()};
  if (const auto builds = in.find("builds"))
    for (const auto& build : builds->elements())
      run.builds.push_back({read_build(build), build.at("id").string(), build.at("state").string(),
                            build.at("configure_seconds").number(), build.at("compile_seconds").number()});
  return run;
}

void to_json(json& out, const ContextRecord& context) {
  to_json(out, static_cast<const MachineContext&>(context));
  out["date"] = context.date;
  out["run"] = context.run;
  out["matrix"] = context.matrix.to_json();
  out["warnings"] = context.warnings;
  out["limits"] = context.limits;
}

ContextRecord read_context_record(const JsonReader& in) {
  ContextRecord context;
  static_cast<MachineContext&>(context) = read_machine_context(in);
  context.date = in.at("date").string();
  context.run = read_run_record(in.at("run"));
  context.matrix = MatrixRecord::from_json(in.at("matrix"));
  for (const auto& warning : in.at("warnings").elements())
    context.warnings.push_back(read_warning_record(warning));
  if (const auto limits = in.find("limits")) context.limits = read_machine_limits(*limits);
  return context;
}

}  // namespace ladder
