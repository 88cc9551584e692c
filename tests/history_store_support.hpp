// What the history's tests share: a crafted run with every field the store keeps, `ladder` itself, a
// query of the database, and starting a `ladder` that pauses mid-record.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "command.hpp"
#include "crafted_results.hpp"
#include "errors.hpp"
#include "history_store.hpp"
#include "sqlite_query.hpp"

namespace ladder::testing {

namespace fs = std::filesystem;
using nlohmann::json;

inline const std::string ladder_binary = LADDER_BINARY;

// A crafted run of `host` that started at `started`: two measured cells of naive, one of xsimd, and one
// cell that did not run, with every field the store keeps (the source, libraries, instructions, memory).
inline json crafted_run(const std::string& host, const std::string& started, double scale = 1.0,
                        const std::string& commit = "0123456789abcdef0123456789abcdef01234567") {
  json cards = json::array({crafted_card("naive", 1, {}, false, "hours", 20),
                            crafted_card("xsimd", 7, {"xsimd"}, false, "days", 40)});
  cards[0]["source_file"] = "naive.cpp";  // as cards name them; the sources go by path
  cards[1]["source_file"] = "xsimd.cpp";
  json benchmarks = json::array();
  add_cell(benchmarks, {"naive", 1, 1000000, 1, {0.010 * scale, 0.011 * scale, 0.013 * scale}});
  add_cell(benchmarks, {"naive", 1, 10000000, 1, {0.10 * scale, 0.12 * scale, 0.11 * scale}});
  add_cell(benchmarks, {"xsimd", 7, 1000000, 1, {0.002 * scale, 0.0021 * scale, 0.0022 * scale}});
  add_cell_not_run(benchmarks, {"cuda", 15, 1000000, 1, {}}, "unavailable", "no CUDA device here");
  json document = crafted_results(host, cards, benchmarks, 3, crafted_topology(1, 1, 1, 2, 1));
  json& context = document["context"];
  context["run"]["started"] = started;
  context["run"]["finished"] = started.substr(0, 11) + "23:59:59Z";
  context["compiler"] = "GNU 12.2.0";
  context["build_type"] = "Release";
  context["common_flags"] = "-O3 -DNDEBUG -march=native";
  context["physical_cores"] = 2;
  context["memory_total_bytes"] = 8.0 * 1024 * 1024 * 1024;
  context["libraries"] = {{"eigen", "3.4.0"}, {"xsimd", "8.1.0"}};
  context["source"] = {
      {"git_commit", commit},
      {"git_branch", "main"},
      {"git_dirty", "no"},
      {"tier_sources",
       {{"variants/naive.cpp", std::string(64, 'a')}, {"variants/xsimd.cpp", std::string(64, 'b')}}}};
  InstructionCounts counts;
  counts.available = true;
  counts.tool = "callgrind";
  counts.target = "x86-64-v3";
  counts.compiler = "GNU 12.2.0";
  counts.glibc = "2.36";
  counts.integrand = "gauss";
  counts.n = {10000, 30000};
  counts.tiers = {{"naive", 83.0, {830000, 2490000}, ""}, {"xsimd", 11.75, {117500, 352500}, ""}};
  counts.by_integrand = {counts};
  document["instructions"] = counts;
  return document;
}

// SQL run on the database by the test itself (through SQLite, not Ladder); SQLite's error, or "".
inline std::string execute(const fs::path& file, const std::string& sql) {
  sqlite3* db = nullptr;
  std::string error;
  if (sqlite3_open(file.c_str(), &db) != SQLITE_OK) error = "cannot open";
  char* message = nullptr;
  if (error.empty() && sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK)
    error = message ? message : "failed";
  sqlite3_free(message);
  sqlite3_close(db);
  return error;
}

inline Outcome ladder(const std::string& arguments) { return run_command(ladder_binary, arguments); }

inline std::string in_quotes(const fs::path& path) { return "'" + path.string() + "'"; }

// `ladder ARGUMENTS` started in the background with `environment` added, its stderr to `log`; its pid.
inline pid_t start_ladder(const std::string& arguments, const std::string& environment, const fs::path& log) {
  const pid_t pid = fork();
  if (pid == 0) {
    const std::string command =
        environment + " exec " + ladder_binary + " " + arguments + " >/dev/null 2>" + in_quotes(log);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

// Waits until `log` says the writer paused inside its transaction (false if it exited first, or never did).
inline bool wait_for_pause(pid_t pid, const fs::path& log) {
  for (int tries = 0; tries < 2400; ++tries) {  // up to two minutes on a loaded machine
    if (read_text(log).find("history: test pause") != std::string::npos) return true;
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

inline int exit_status(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace ladder::testing
