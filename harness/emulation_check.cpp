#include "emulation_check.hpp"

#include <elf.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "errors.hpp"
#include "quote.hpp"
#include "text.hpp"

namespace ladder {
namespace {

std::string link_target(const std::string& path) {
  std::error_code error;
  const auto target = std::filesystem::read_symlink(path, error);
  return error ? std::string() : target.string();
}

// A /proc command line: its words, which the kernel separates with NUL bytes.
std::vector<std::string> command_line(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<std::string> words;
  std::string word;
  while (std::getline(in, word, '\0')) words.push_back(word);
  return words;
}

// "runner=PATH,machine=PATH" → the probe it describes; "none" is a file that cannot be read.
EmulationProbe test_probe(const std::string& value) {
  const std::string form = "runner=PATH,machine=PATH (either may be \"none\")";
  EmulationProbe probe{
      "", link_target("/proc/self/exe"), {}, "files named by LADDER_TEST_EMULATION, a switch for tests"};
  bool runner = false, machine = false;
  std::stringstream items(value);
  std::string item;
  while (std::getline(items, item, ',')) {
    const auto equals = item.find('=');
    const std::string key = item.substr(0, equals);
    const std::string path = equals == std::string::npos ? "" : item.substr(equals + 1);
    if ((key != "runner" && key != "machine") || path.empty())
      throw InputError("LADDER_TEST_EMULATION: '" + quote_text(item) + "' in '" + quote_text(value) +
                       "' is not of the form " + form);
    (key == "runner" ? runner : machine) = true;
    const std::string file = path == "none" ? "" : path;
    if (key == "runner") probe.runner = file;
    if (key == "machine") probe.machine_programs = {file};
  }
  if (!runner || !machine)
    throw InputError("LADDER_TEST_EMULATION: '" + quote_text(value) + "' must name both files: " + form);
  return probe;
}

}  // namespace

std::string elf_architecture(const std::string& path) {
  if (path.empty()) return {};
  std::ifstream in(path, std::ios::binary);
  std::array<unsigned char, EI_NIDENT + 4> header{};  // e_ident, e_type, e_machine
  if (!in.read(reinterpret_cast<char*>(header.data()), header.size())) return {};
  if (header[EI_MAG0] != ELFMAG0 || header[EI_MAG1] != ELFMAG1 || header[EI_MAG2] != ELFMAG2 ||
      header[EI_MAG3] != ELFMAG3)
    return {};
  const unsigned low = header[EI_NIDENT + 2], high = header[EI_NIDENT + 3];
  return elf_machine_name(header[EI_DATA] == ELFDATA2MSB ? (low << 8) | high : (high << 8) | low);
}

std::string compiled_architecture() {
#if defined(__x86_64__)
  return elf_machine_name(EM_X86_64);
#elif defined(__aarch64__)
  return elf_machine_name(EM_AARCH64);
#else
  return "unknown";
#endif
}

Emulation detect_emulation(const EmulationProbe& probe) {
  Emulation found;
  found.guest = compiled_architecture();
  const std::string said = probe.note.empty() ? "" : "; read from " + probe.note;
  if (const std::string runner = elf_architecture(probe.runner); !runner.empty()) {
    found.host = runner;
    // Another program than this one (qemu-x86_64 runs x86-64 code too), or one of another architecture.
    if ((probe.self.empty() || probe.runner == probe.self) && runner == found.guest) {
      found.emulated = "no";
      found.evidence =
          "the kernel runs this " + found.guest + " program itself, as /proc/thread-self/exe shows" + said;
      return found;
    }
    found.emulator = probe.runner;
    const std::string name = std::filesystem::path(probe.runner).filename().string();
    found.emulated = name.starts_with("qemu-") ? "qemu-user" : "user-mode";
    found.evidence = "this " + found.guest + " program is run by " + probe.runner + ", an " + runner +
                     " program, as /proc/thread-self/exe shows" + said;
    return found;
  }
  for (const auto& program : probe.machine_programs) {
    const std::string machine = elf_architecture(program);
    if (machine.empty()) continue;
    found.host = machine;
    found.emulated = machine == found.guest ? "no" : "user-mode";
    if (found.emulated == "user-mode") found.emulator = "an emulator that hides itself";
    found.evidence = "the machine's " + program + " is an " + machine + " program, this one an " +
                     found.guest + " program; the program running this one could not be read" + said;
    return found;
  }
  found.evidence = "neither the program running this one nor the machine's own programs could be read" + said;
  return found;
}

Emulation detect_emulation() {
  if (const char* value = std::getenv("LADDER_TEST_EMULATION"); value && *value)
    return detect_emulation(test_probe(value));
  return detect_emulation(
      {link_target("/proc/thread-self/exe"), link_target("/proc/self/exe"), {"/proc/1/exe", "/bin/sh"}, ""});
}

void refuse_under_emulation(const std::string& command) {
  if (const Emulation emulation = detect_emulation(); emulation.is_emulated())
    throw Unavailable(command + " judges times, and this process runs under emulation (" +
                      emulation.evidence + "): " + emulation.text() + "; run it on a real " +
                      emulation.guest + " machine");
}

void check_resume_emulation(const std::optional<Emulation>& began, const std::string& dir) {
  const Emulation now = detect_emulation();
  const bool began_emulated = began && began->is_emulated();
  if (now.is_emulated() == began_emulated) return;
  const std::string then = !began ? "before Ladder recorded emulation (so natively)" : began->text();
  throw InputError("--resume '" + quote_text(dir) + "': its run began " + then + ", and this process runs " +
                   now.text() + " (" + now.evidence +
                   "): its cells would mix two machines' times; resume it as it began, or start a new run "
                   "in another --out");
}

std::vector<std::string> emulator_words() {
  // Read once: a process's emulator does not change while it runs, and every worker started asks.
  static const std::vector<std::string> words = [] {
    const std::string runner = link_target("/proc/thread-self/exe");
    if (runner.empty() || runner == link_target("/proc/self/exe")) return std::vector<std::string>{};
    std::vector<std::string> given = command_line("/proc/thread-self/cmdline");
    const std::vector<std::string> program = command_line("/proc/self/cmdline");
    if (program.empty() || given.size() <= program.size() ||
        !std::equal(program.begin(), program.end(),
                    given.end() - static_cast<std::ptrdiff_t>(program.size())))
      return std::vector<std::string>{};
    given.resize(given.size() - program.size());
    given.front() = runner;  // the emulator by its path: its argv[0] may be a bare name, or not on PATH
    return given;
  }();
  return words;
}

}  // namespace ladder
