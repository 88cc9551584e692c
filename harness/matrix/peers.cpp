#include "peers.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <vector>

#include "errors.hpp"
#include "json_reader.hpp"
#include "process.hpp"
#include "quote.hpp"
#include "registry.hpp"
#include "text.hpp"

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

std::vector<PeerCard>& loaded() {
  static std::vector<PeerCard> peers;
  return peers;
}

// Where this build puts the compiled peers' modules, each family's in its own subfolder: the executable's
// folder; empty when this program's own path cannot be read.
std::string executable_folder() {
  try {
    const std::string executable = self_path();
    return executable.substr(0, executable.find_last_of('/'));
  } catch (const Unavailable&) {
    return "";
  }
}

// The interpreter as a message names it, with where it was chosen.
std::string interpreter_named(const std::string& python) {
  return quote_text(python) + (std::getenv("LADDER_PYTHON") ? " (LADDER_PYTHON)" : "");
}

}  // namespace

std::string output_end(std::string_view output, std::size_t lines) {
  const std::size_t last = output.find_last_not_of(" \t\r\n");
  if (last == std::string_view::npos) return "(it printed nothing)";
  output = output.substr(0, last + 1);
  std::vector<std::string_view> kept;  // the last lines, the first of them first
  for (std::size_t end = output.size(); kept.size() < lines;) {
    const std::size_t newline = end == 0 ? std::string_view::npos : output.rfind('\n', end - 1);
    const std::size_t start = newline == std::string_view::npos ? 0 : newline + 1;
    kept.insert(kept.begin(), output.substr(start, end - start));
    if (start == 0) break;
    end = start - 1;
  }
  std::string shown = kept.front().data() == output.data() ? "" : "… ";
  for (std::size_t i = 0; i < kept.size(); ++i) shown += (i > 0 ? "\n" : "") + quote_text(kept[i], 240);
  return shown;
}

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
  if (language != "python")
    throw InputError("--peers '" + quote_text(language) + "' is unknown; peers: python");
  const std::string directory = peers_directory();
  // Every family's modules (cmake/python_extension.cmake, cmake/pythran_peers.cmake,
  // cmake/cython_peers.cmake), found by scripts/peers/built_modules.py; a user's own setting stays.
  if (const std::string modules = executable_folder(); !modules.empty())
    setenv("LADDER_PEER_MODULES", modules.c_str(), 0);
  const std::string python = python_interpreter();
  Program listing{{python, directory + "/peers.py", "cards"}};
  listing.stderr_to = Stream::merge;
  listing.timeout_seconds = peers_listing_seconds;
  listing.own_group = true;  // a wrapper's children die with it on the timeout
  const std::string command = quote_text(command_text(listing.argv), 240);
  const Finished finished = run_program(listing);
  if (finished.timed_out)
    throw ToolFailed("--peers python: the peers' Python " + interpreter_named(python) +
                     " printed no cards within " + format_number("%.0f", peers_listing_seconds) + " s (`" +
                     command + "`); it was stopped, with what it had started");
  const std::string& output = finished.out;
  const auto cards = parse_json_document(output, "the Python peers' listing (`" + command + "`)");
  if (!finished.ok() || !cards.is_array())
    throw InputError("--peers python: cannot list the Python peers with `" + command + "`: it " +
                     finished.how() +
                     (finished.started() ? ", its output ending " + output_end(output, 1) : "") +
                     " (is python3 installed? set LADDER_PEERS_DIR to scripts/peers)");
  try {
    for (const auto& in : JsonReader(cards, "peers").elements()) {
      PeerCard peer;
      TierCard& card = peer.card;
      card.id = in.at("id").string();
      if (find_peer(card.id)) continue;  // loaded already
      card.rung = in.at("rung").small_integer();
      card.summary = in.at("summary").string();
      card.libraries = in.at("libraries").strings();
      card.concepts = in.at("concepts").strings();
      card.learning_time = learning_time(in.at("learning_time").string());
      card.parallel = in.at("parallel").boolean();
      card.reproducible = reproducible(in.at("reproducible").string());
      card.summation = in.at("summation").string();
      card.heap_bytes_per_node = in.number_or("heap_bytes_per_node", 0.0);
      card.source_file = in.string_or("source_file", "peers.py");
      card.source_lines = in.small_integer_or("source_lines", 0);
      if (const auto shares = in.find("shares")) card.shares = shares->strings();
      card.shared_lines = in.small_integer_or("shared_lines", 0);
      peer.runner = directory + "/worker.py";
      peer.language = in.string_or("language", "Python");
      peer.unavailable =
          in.boolean_or("available", true) ? "" : in.string_or("unavailable_reason", "unavailable");
      if (const auto limit = in.optional_number("max_nodes"))
        peer.size_limit = static_cast<std::int64_t>(*limit);
      if (const auto sizes = in.find("per_call_sizes"))
        for (const auto& size : sizes->elements()) peer.per_call_sizes.push_back(size.integer());
      peer.beside = in.string_or("beside", "");
      peer.staircase = in.string_or("staircase", "");
      peer.baseline = in.boolean_or("baseline", false);
      if (const auto flags = in.find("flags")) card.flags = flags->strings();  // a compiled peer's
      card.note = in.string_or("note", "");
      if (const auto yellow = in.find("yellow")) peer.yellow = read_yellow_lines(*yellow);
      loaded().push_back(std::move(peer));
    }
  } catch (const SchemaError& problem) {
    throw InputError("--peers python: the cards `" + command +
                     "` printed are not what Ladder reads: " + problem.what());
  }
  std::stable_sort(loaded().begin(), loaded().end(),
                   [](const PeerCard& x, const PeerCard& y) { return x.card.rung < y.card.rung; });
}

const std::vector<PeerCard>& loaded_peers() { return loaded(); }

const PeerCard* find_peer(std::string_view id) {
  for (const auto& peer : loaded())
    if (peer.card.id == id) return &peer;
  return nullptr;
}

const TierCard& find_card(std::string_view id) {
  if (const PeerCard* peer = find_peer(id)) return peer->card;
  for (const auto& tier : tiers())
    if (tier.card.id == id) return tier.card;
  std::vector<std::string> ids;
  for (const auto& peer : loaded()) ids.push_back(peer.card.id);
  throw InputError("unknown tier '" + quote_text(id) + "'; known tiers: " + tier_ids() +
                   (ids.empty() ? "" : "; peers: " + join(ids)));
}

std::string unavailable_reason(std::string_view id) {
  if (const PeerCard* peer = find_peer(id)) return peer->unavailable;
  return unavailable_reason(find_tier(id));
}

}  // namespace ladder
