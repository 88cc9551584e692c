#include "peers.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "registry.hpp"

namespace ladder {
namespace {

LearningTime learning_time(const std::string& text) {
  return text == "days" ? LearningTime::days : text == "hours" ? LearningTime::hours : LearningTime::minutes;
}

Reproducible reproducible(const std::string& text) {
  return text == "always"       ? Reproducible::always
         : text == "on request" ? Reproducible::on_request
                                : Reproducible::never;
}

}  // namespace

std::string python_interpreter() {
  if (const char* chosen = std::getenv("LADDER_PYTHON")) return chosen;
  if (access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";
  return "python3";
}

std::string peers_directory() {
  const char* chosen = std::getenv("LADDER_PEERS_DIR");
  return chosen ? chosen : LADDER_SOURCE_DIR "/scripts/peers";
}

void load_peers(const std::string& language) {
  if (language != "python") throw InputError("--peers '" + language + "' is unknown; peers: python");
  const std::string directory = peers_directory();
  const std::string command = "'" + python_interpreter() + "' '" + directory + "/peers.py' cards 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  std::array<char, 4096> buffer{};
  if (pipe)
    while (const std::size_t read = std::fread(buffer.data(), 1, buffer.size(), pipe))
      output.append(buffer.data(), read);
  const int status = pipe ? pclose(pipe) : -1;
  const auto cards = nlohmann::json::parse(output, nullptr, false);
  if (status != 0 || !cards.is_array())
    throw InputError("--peers python: cannot list the Python peers with `" + command +
                     "` (is python3 installed? "
                     "set LADDER_PEERS_DIR to scripts/peers): " +
                     output.substr(0, 400));
  for (const auto& in : cards) {
    TierCard card;
    card.id = in.at("id").get<std::string>();
    card.rung = in.at("rung").get<int>();
    card.summary = in.at("summary").get<std::string>();
    card.libraries = in.at("libraries").get<std::vector<std::string>>();
    card.concepts = in.at("concepts").get<std::vector<std::string>>();
    card.learning_time = learning_time(in.at("learning_time").get<std::string>());
    card.parallel = in.at("parallel").get<bool>();
    card.reproducible = reproducible(in.at("reproducible").get<std::string>());
    card.summation = in.at("summation").get<std::string>();
    card.heap_bytes_per_node = in.value("heap_bytes_per_node", 0.0);
    card.source_file = in.value("source_file", "peers.py");
    card.source_lines = in.value("source_lines", 0);
    card.peer = true;
    card.runner = directory + "/worker.py";
    card.language = in.value("language", "Python");
    card.unavailable_text = in.value("available", true) ? "" : in.value("unavailable_reason", "unavailable");
    if (in.contains("max_nodes") && in.at("max_nodes").is_number())
      card.size_limit = static_cast<std::int64_t>(in.at("max_nodes").get<double>());
    register_peer(std::move(card));
  }
}

}  // namespace ladder
