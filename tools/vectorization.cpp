// Build-time tool: disassembles each tier's object file and writes, as the C++ table behind
// ladder::tier_vectorization(), whether the hot loop of its kernel for the default integrand was
// vectorized and at what width (see vectorization_classify.hpp for how it decides), and the FLOPs and FP
// instructions a node of that loop (flop_count.hpp).
//
//   vectorization OUTPUT.cpp --objdump OBJDUMP --tiers naive.cpp xsimd.cpp …
//                 --build native OBJECT.o … [--build x86-64-v3 OBJECT.o …]
//
// The first build is the one linked into the binary. An object's tier is its file name less ".o"
// (CMake names them variants/xsimd.cpp.o); objects of files that are not tiers are skipped. A tier whose
// own object holds no loop of its kernel, while files named after it (dispatch_avx512.cpp, … for
// dispatch.cpp) do, runs one of those at run time: its entry is its widest path's (dispatched()).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "process.hpp"
#include "vectorization_classify.hpp"

namespace {

struct Build {
  std::string label;
  std::map<std::string, std::string> objects;  // tier file name → object path
};

struct Arguments {
  std::string output, objdump = "objdump";
  std::vector<std::string> tiers;
  std::vector<Build> builds;
};

std::string base_name(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

Arguments parse(int argc, char** argv) {
  if (argc < 2)
    throw std::runtime_error(
        "usage: vectorization OUTPUT.cpp --objdump PATH --tiers FILE … --build LABEL OBJECT …");
  Arguments arguments;
  arguments.output = argv[1];
  std::string option;
  for (int arg = 2; arg < argc; ++arg) {
    const std::string word = argv[arg];
    if (word == "--objdump" && arg + 1 < argc) {
      arguments.objdump = argv[++arg];
    } else if (word == "--tiers" || word == "--build") {
      option = word;
      if (word == "--build") {
        if (arg + 1 >= argc) throw std::runtime_error("--build needs a label, e.g. --build native");
        arguments.builds.push_back({argv[++arg], {}});
      }
    } else if (option == "--tiers") {
      arguments.tiers.push_back(base_name(word));
    } else if (option == "--build") {
      const auto name = base_name(word);
      if (name.size() < 3 || name.substr(name.size() - 2) != ".o")
        throw std::runtime_error("expected an object file (NAME.o) after --build, got " + word);
      arguments.builds.back().objects[name.substr(0, name.size() - 2)] = word;
    } else {
      throw std::runtime_error("unexpected argument " + word + " (before --tiers or --build)");
    }
  }
  if (arguments.builds.empty()) throw std::runtime_error("no --build given: nothing to analyse");
  return arguments;
}

// objdump started as every program of Ladder's is (common/process.hpp): an argv, no shell between.
std::string disassembly(const std::string& objdump, const std::string& object) {
  const std::vector<std::string> argv{objdump, "-dr", "--no-show-raw-insn", "-C", object};
  ladder::Program program{argv};
  program.stderr_to = ladder::Stream::inherit;  // objdump's own complaint, as the build log shows it
  const ladder::Finished done = ladder::run_program(program);
  if (!done.ok()) throw std::runtime_error(ladder::command_text(argv) + " " + done.how());
  return done.out;
}

std::string literal(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

// A count as C++: the number, exactly, or std::nullopt.
std::string optional_literal(const std::optional<double>& value) {
  if (!value) return "std::nullopt";
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", *value);
  return text;
}

using ladder::vectorization::Verdict;

// The paths of a tier that dispatches at run time: the other tiers named STEM_….cpp, when the tier's own
// object has no loop of the kernel (a tier such as openmp, beside openmp_tuned.cpp, has its own).
std::vector<std::string> paths_of(const std::string& tier, const std::map<std::string, Verdict>& verdicts) {
  std::vector<std::string> paths;
  const std::string stem = tier.substr(0, tier.find_last_of('.')) + "_";
  if (verdicts.at(tier).status != "unknown") return paths;
  for (const auto& [file, verdict] : verdicts)
    if (file.rfind(stem, 0) == 0 && file.ends_with(".cpp") && verdict.status != "unknown")
      paths.push_back(file);
  return paths;
}

// Its widest path's verdict, which the CPU runs when it has it, with every path's width in the evidence.
Verdict dispatched(std::vector<std::string> paths, const std::map<std::string, Verdict>& verdicts) {
  std::stable_sort(paths.begin(), paths.end(), [&](const std::string& x, const std::string& y) {
    return verdicts.at(x).register_bits > verdicts.at(y).register_bits;
  });
  std::string widths;
  for (const auto& path : paths)
    widths += (widths.empty() ? "" : ", ") + path + " " + std::to_string(verdicts.at(path).lanes) + " lanes";
  Verdict verdict = verdicts.at(paths.front());
  verdict.evidence = "dispatched at run time to one of its paths (" + widths + "); the widest, " +
                     paths.front() + ": " + verdict.evidence;
  return verdict;
}

std::map<std::string, Verdict> verdicts_of(const Arguments& arguments, const Build& build) {
  std::map<std::string, Verdict> verdicts;
  for (const auto& tier : arguments.tiers) {
    const auto object = build.objects.find(tier);
    verdicts[tier] = object == build.objects.end()
                         ? Verdict{"unknown", 0, 0, "no object file in this build"}
                         : ladder::vectorization::classify(disassembly(arguments.objdump, object->second));
  }
  const auto own = verdicts;  // each object's own verdict, before a dispatching tier takes its paths'
  for (auto& [tier, verdict] : verdicts)
    if (const auto paths = paths_of(tier, own); !paths.empty()) verdict = dispatched(paths, own);
  return verdicts;
}

}  // namespace

int main(int argc, char** argv) try {
  const auto arguments = parse(argc, argv);
  std::ostringstream table;
  table << "// Generated by tools/vectorization.cpp at build time. Do not edit.\n"
        << "#include \"vectorization.hpp\"\n\n"
        << "const std::vector<ladder::Vectorization>& ladder::tier_vectorization() {\n"
        << "  static const std::vector<Vectorization> entries = {\n";
  for (const auto& build : arguments.builds) {
    const auto verdicts = verdicts_of(arguments, build);
    for (const auto& tier : arguments.tiers) {
      auto verdict = verdicts.at(tier);
      if (verdict.flops_evidence.empty()) verdict.flops_evidence = "not counted: " + verdict.evidence;
      table << "      {" << literal(tier) << ", " << literal(build.label) << ", " << literal(verdict.status)
            << ", " << verdict.register_bits << ", " << verdict.lanes << ", " << literal(verdict.evidence)
            << ", " << optional_literal(verdict.flops_per_node) << ", "
            << optional_literal(verdict.fp_instructions_per_node) << ", " << literal(verdict.flops_evidence)
            << "},\n";
    }
  }
  table << "  };\n  return entries;\n}\n\n"
        << "const std::string& ladder::linked_tiers_build() {\n"
        << "  static const std::string build = " << literal(arguments.builds.front().label) << ";\n"
        << "  return build;\n}\n";
  std::ofstream(arguments.output) << table.str();
  return 0;
} catch (const std::exception& error) {
  std::cerr << "vectorization: " << error.what() << "\n";
  return 1;
}
