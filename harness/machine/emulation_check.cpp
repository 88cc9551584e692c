#include "emulation_check.hpp"

#include <elf.h>
#include <link.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
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

// The glibc build a loaded object names, from its read-only segments (where its banner is).
std::string build_in(const dl_phdr_info& object) {
  for (int i = 0; i < object.dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = object.dlpi_phdr[i];
    if (segment.p_type != PT_LOAD || !(segment.p_flags & PF_R) || (segment.p_flags & PF_W)) continue;
    const auto* start = reinterpret_cast<const char*>(object.dlpi_addr + segment.p_vaddr);
    if (std::string build = glibc_build({start, segment.p_filesz}); !build.empty()) return build;
  }
  return {};
}

struct LoadedObjects {
  std::uintptr_t loader_base;  // where the kernel loaded the program's interpreter (AT_BASE)
  CLibraryPair pair;
};

int look_at(dl_phdr_info* object, std::size_t, void* data) {
  auto& loaded = *static_cast<LoadedObjects*>(data);
  const std::string name = object->dlpi_name ? object->dlpi_name : "";
  if (loaded.loader_base != 0 && object->dlpi_addr == loaded.loader_base) {
    loaded.pair.loader = name;
    loaded.pair.loader_build = build_in(*object);
  } else if (loaded.pair.library.empty() &&
             std::filesystem::path(name).filename().string().starts_with("libc.so")) {
    loaded.pair.library = name;
    loaded.pair.library_build = build_in(*object);
  }
  return 0;
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

std::string glibc_build(std::string_view bytes) {
  const std::string_view mark = " release version ";
  const auto at = bytes.find(mark);
  if (at == std::string_view::npos) return {};
  const auto end_before = bytes.find_last_of(std::string_view("\0\n", 2), at);  // of the string before
  const std::size_t begins = end_before == std::string_view::npos ? 0 : end_before + 1;
  const std::string_view before = bytes.substr(begins, at - begins);
  // "(PKGVERSION) RELEASE", or RELEASE alone where the build names no package version.
  const auto open = before.find('(');
  const auto from = open != std::string_view::npos ? open : before.find_last_of(' ') + 1;
  std::string_view line = bytes.substr(at + mark.size());
  line = line.substr(0, line.find_first_of(std::string_view("\0\n", 2)));
  while (!line.empty() && (line.back() == '.' || line.back() == ' ')) line.remove_suffix(1);
  if (line.empty() || from >= before.size()) return {};
  return std::string(before.substr(from)) + std::string(mark) + std::string(line);
}

CLibraryPair loaded_c_library() {
  LoadedObjects loaded{getauxval(AT_BASE), {}};
  dl_iterate_phdr(look_at, &loaded);
  return loaded.pair;
}

std::string c_library_mismatch(const CLibraryPair& pair, const std::vector<std::string>& emulator) {
  if (pair.loader_build.empty() || pair.library_build.empty() || pair.loader_build == pair.library_build)
    return {};
  std::string reason =
      "this process's dynamic loader and C library are two builds of glibc: " + quote_text(pair.loader) +
      " is " + quote_text(pair.loader_build) + ", " + quote_text(pair.library) + " is " +
      quote_text(pair.library_build) +
      " (as this process names them); the two share a private interface, so its first thread "
      "would never start (OpenMP, oneTBB and Ladder's own threads hang in pthread_create)";
  if (!emulator.empty())
    return reason + ". It runs under `" + quote_text(join(emulator, " ")) +
           "`: qemu's -L PREFIX (or QEMU_LD_PREFIX) starts PREFIX's loader, which finds the libraries "
           "through "
           "this machine's /etc/ld.so.cache where PREFIX has none; run it without -L (the loader of the "
           "multiarch glibc the libraries come from), or with a PREFIX whose loader and libc.so.6 are one "
           "build";
  return reason +
         "; start it with the loader of the libc.so.6 it loads (LD_LIBRARY_PATH and LD_PRELOAD choose "
         "the libraries, the program's interpreter or the command line the loader)";
}

void refuse_mismatched_c_library() {
  const CLibraryPair pair = loaded_c_library();
  if (c_library_mismatch(pair, {}).empty()) return;
  std::vector<std::string> emulator = emulator_words();
  if (const Emulation emulation = detect_emulation(); emulator.empty() && emulation.is_emulated())
    emulator = {emulation.emulator};  // its prefix from QEMU_LD_PREFIX, not from its command line
  throw Unavailable(c_library_mismatch(pair, emulator));
}

}  // namespace ladder
