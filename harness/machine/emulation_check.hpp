// Whether this process runs on the machine's own processor or under user-mode emulation (qemu-user), told
// from inside the process, and how its workers must then be started. The record (common/emulation.hpp) goes
// into the run's context; an emulated run's times rank nothing.
//
// How it is told, most direct first:
// 1. The program the kernel runs for this thread, /proc/thread-self/exe. qemu-user rewrites what a process
//    reads of /proc/self (its exe, cmdline, maps) to show the emulated program, but not /proc/thread-self,
//    which still names the emulator (/usr/bin/qemu-aarch64-static). When it is another program than
//    /proc/self/exe, or its ELF architecture differs from the one this code was compiled for, an emulator
//    runs this code; when it is this program, the processor runs it itself.
// 2. Where that link cannot be read, the machine's own programs: its init (/proc/1/exe, often unreadable in
//    a container) or else /bin/sh. Of another architecture than this code: emulated. This is the weaker
//    check (qemu's -L prefix can stand in a guest /bin/sh), so it comes second.
// 3. Neither readable: "unknown", never "native".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulation.hpp"

namespace ladder {

// The files the check reads; an empty path is one that could not be read.
struct EmulationProbe {
  std::string runner;                         // /proc/thread-self/exe: the program the kernel runs
  std::string self;                           // /proc/self/exe: the program this process believes it is
  std::vector<std::string> machine_programs;  // /proc/1/exe, then /bin/sh: the first readable one counts
  std::string note;                           // said in the evidence (the test switch)
};

// The architecture of the ELF file at `path` ("x86_64", "aarch64"), or empty when it cannot be read or is
// not an ELF file.
std::string elf_architecture(const std::string& path);

// The architecture this code was compiled for.
std::string compiled_architecture();

// The check on the given files (its rules above).
Emulation detect_emulation(const EmulationProbe& probe);

// This process's own check. LADDER_TEST_EMULATION="runner=PATH,machine=PATH", a switch for tests only,
// puts other files in place of /proc/thread-self/exe and of the machine's programs ("none": unreadable),
// so that a test on one architecture can take the emulated path; the evidence says the switch was used.
// A malformed value is an InputError naming it and the accepted form.
Emulation detect_emulation();

// Throws Unavailable when this process runs under emulation: `command` ("ladder ab") gives a verdict from
// times, which the emulator's are not.
void refuse_under_emulation(const std::string& command);

// A resume continues a run on the machine it began on: InputError naming `dir` when this process is emulated
// and the run began natively (or before Ladder looked), or the other way round, since its cells would
// then mix the emulator's times with the machine's and the history would record them as one run's.
void check_resume_emulation(const std::optional<Emulation>& began, const std::string& dir);

// The words a worker's command line starts with so that this program runs under the same emulator with the
// same options (qemu's -L, -cpu): empty when this process is not emulated. Read from the emulator's own
// command line (/proc/thread-self/cmdline), whose tail is this program's (/proc/self/cmdline): without
// them, starting an aarch64 worker on an x86-64 machine needs qemu registered with binfmt_misc, which a
// container often cannot do. Empty too when the two cannot be matched; the worker is then started as it is.
std::vector<std::string> emulator_words();

// The dynamic loader and the C library this process runs with. glibc's loader (ld.so) and its libc.so.6
// share a private interface (the loader's _rtld_global, whose layout may change from one build to the
// next), so they must be one build: with two, the first thread a program starts never starts
// (pthread_create walks the loader's list of cached stacks at the wrong offset, forever). OpenMP and
// oneTBB on two threads hang that way, and so does a one-thread run, whose workers start a thread too.
// It happens under qemu-user with -L PREFIX (or QEMU_LD_PREFIX): the program starts with PREFIX's loader,
// which finds the libraries through this machine's /etc/ld.so.cache when PREFIX has none: a cross
// sysroot's loader (Debian GLIBC 2.36-8) with the :arm64 multiarch libc.so.6 (Debian GLIBC 2.36-9+deb12u14).
struct CLibraryPair {
  std::string loader, loader_build;    // its name as this process has it, and the build it names
  std::string library, library_build;  // libc.so.6, likewise; a build is empty where it cannot be told
};

// The glibc build named by the banner in a loaded object's bytes: "ld.so (Debian GLIBC 2.36-8) stable
// release version 2.36." -> "(Debian GLIBC 2.36-8) stable release version 2.36", the same words in libc's
// "GNU C Library (…) stable release version 2.36."; empty when the bytes hold no banner.
std::string glibc_build(std::string_view bytes);

// This process's pair, read from the objects in its memory (a static program or another C library: the
// builds are empty).
CLibraryPair loaded_c_library();

// Why `pair` cannot start a thread, and what to do (`emulator`: the words this process is run with,
// emulator_words()); empty when the two are one build or either build is unknown.
std::string c_library_mismatch(const CLibraryPair& pair, const std::vector<std::string>& emulator);

// Throws Unavailable with this process's c_library_mismatch(): before a command starts any thread.
void refuse_mismatched_c_library();

}  // namespace ladder
