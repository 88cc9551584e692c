#include "revisions.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "build_info.hpp"
#include "build_steps.hpp"
#include "errors.hpp"
#include "process.hpp"
#include "quote.hpp"
#include "sha256.hpp"
#include "text.hpp"

namespace ladder {
namespace {

namespace fs = std::filesystem;

struct Output {
  int status = 0;    // its exit code; 127 when it cannot be started, 128 when a signal ended it
  std::string text;  // stdout, its last newline removed
};

using Words = std::vector<std::string>;
using Environment = std::vector<std::pair<std::string, std::string>>;

// Runs git in the checkout `top` with `arguments`, its output read (stderr too when `with_errors`).
Output git(const std::string& top, const Words& arguments, bool with_errors = false,
           const Environment& environment = {}) {
  Program program{{"git", "-C", top}};
  program.argv.insert(program.argv.end(), arguments.begin(), arguments.end());
  program.stderr_to = with_errors ? Stream::merge : Stream::discard;
  program.environment = environment;
  const Finished finished = run_program(program);
  Output out{finished.started() ? finished.signal != 0 ? 128 : finished.exit_code : 127, finished.out};
  if (!finished.started()) out.text = "git: " + finished.not_started;
  while (!out.text.empty() && out.text.back() == '\n') out.text.pop_back();
  return out;
}

std::string short_hash(const std::string& hash) { return hash.substr(0, 10); }

// The working tree's files as git would commit them (`git add -A`: tracked changes and untracked files that
// are not ignored), hashed with a copy of the index and a scratch object directory that borrows the
// checkout's objects: nothing is written into .git.
std::string working_tree_hash(const std::string& top) {
  const Output objects = git(top, {"rev-parse", "--path-format=absolute", "--git-path", "objects"});
  const Output index = git(top, {"rev-parse", "--path-format=absolute", "--git-path", "index"});
  if (objects.status != 0 || index.status != 0)
    throw InputError("cannot read the git checkout at " + top + ": `git rev-parse --git-path` failed");
  char pattern[] = "/tmp/ladder-ab-XXXXXX";
  if (!::mkdtemp(pattern)) throw Unavailable("cannot make a scratch directory in /tmp");
  const std::string scratch = pattern;
  std::error_code error;
  if (fs::exists(index.text)) fs::copy_file(index.text, scratch + "/index", error);
  fs::create_directories(scratch + "/objects", error);
  const Environment scratch_git = {{"GIT_INDEX_FILE", scratch + "/index"},
                                   {"GIT_OBJECT_DIRECTORY", scratch + "/objects"},
                                   {"GIT_ALTERNATE_OBJECT_DIRECTORIES", objects.text}};
  // `add -A` trusts a file whose size and times match its index entry: a same-size edit within the clock's
  // granule after the commit (a few milliseconds) kept the old blob, and a build of other code passed for
  // this tree's. --renormalize then reads every tracked file again: the tree is their content.
  Output added = git(top, {"add", "-A"}, true, scratch_git);
  if (added.status == 0) added = git(top, {"add", "--renormalize", "--", "."}, true, scratch_git);
  const Output tree = git(top, {"write-tree"}, true, scratch_git);
  fs::remove_all(scratch, error);
  if (added.status != 0 || tree.status != 0)
    throw InputError("cannot hash the working tree of " + top + ": " +
                     (added.status ? added.text : tree.text));
  return tree.text;
}

// The tree of the commit this binary was built from, when it had no uncommitted change; empty otherwise.
std::string tree_at_hand(const std::string& top) {
  const SourceState& source = source_state();
  if (source.git_dirty != "no" || source.git_commit.empty() || source.git_commit == "unknown") return {};
  const Output tree = git(top, {"rev-parse", "--verify", "--quiet", source.git_commit + "^{tree}"});
  return tree.status == 0 ? tree.text : std::string();
}

// The file every revision of Ladder has, that `ladder ab` builds its worker from: in the worker's room since
// harness/ was carved into rooms (issue 51), at the top of harness/ before.
constexpr const char* ladder_markers[] = {"harness/worker/worker_main.cpp", "harness/worker_main.cpp"};

// InputError, before anything is exported or built, when `revision` (a commit; empty: the working tree) of
// the checkout `top` is not Ladder's code.
void check_is_ladder(const std::string& top, const std::string& commit, const std::string& name) {
  std::error_code error;
  for (const std::string marker : ladder_markers)
    if (commit.empty() ? fs::is_regular_file(fs::path(top) / marker, error)
                       : git(top, {"cat-file", "-e", commit + ":" + marker}).status == 0)
      return;
  throw InputError(name + " of " + quote_text(top) + " is not Ladder: it has neither " + ladder_markers[0] +
                   " nor " + ladder_markers[1] + ", one of which every revision of Ladder has; `ladder ab` " +
                   "compares two revisions of a checkout of Ladder (--repo DIR names it)");
}

// InputError for a revision git does not resolve to one commit: ambiguous (a short hash of several
// objects) or unknown.
InputError unresolved(const std::string& top, const std::string& revision) {
  const Output said = git(top, {"rev-parse", "--verify", revision + "^{commit}"}, true);
  const std::string where = " in " + quote_text(top);
  if (said.text.find("ambiguous") != std::string::npos)
    return InputError("revision '" + quote_text(revision) + "' is ambiguous" + where +
                      ": several objects' hashes begin with it; give more of the hash, or a branch or tag");
  return InputError("unknown revision '" + quote_text(revision) + "'" + where +
                    ": give a commit, branch or tag there (`git -C " + quote_text(top) +
                    " log --oneline` lists commits), or leave --head out for the working tree");
}

}  // namespace

std::string revision_folder(const std::string& top, const Revision& revision) {
  if (revision.working_tree && revision.dirty)  // one folder a checkout: another's is other files
    return "rev-working-tree-" + sha256_hex(top).substr(0, 8);
  return "rev-" + short_hash(revision.tree);
}

std::string Revision::label() const {
  if (!working_tree) return name + " (" + short_hash(commit) + ")";
  if (dirty) return "the working tree (uncommitted changes included)";
  return "the working tree (clean, HEAD " + short_hash(commit) + ")";
}

std::string checkout_top(const std::string& repo) {
  if (git(".", {"--version"}).status != 0)
    throw InputError("`ladder ab` needs git, which is not installed: install Debian's git");
  std::error_code error;
  if (!fs::is_directory(repo, error))
    throw InputError("--repo '" + quote_text(repo) + "' is not a directory: give a git checkout of Ladder");
  const Output top = git(repo, {"rev-parse", "--show-toplevel"});
  if (top.status != 0 || top.text.empty())
    throw InputError(
        "'" + quote_text(fs::absolute(repo).string()) +
        "' is not in a git checkout: `ladder ab` compares revisions of one (--repo DIR names it)");
  return top.text;
}

Revision resolve_revision(const std::string& top, const std::string& revision, bool must_be_ladder) {
  Revision resolved;
  if (revision.empty() || revision == ".") {
    resolved.name = "the working tree";
    resolved.working_tree = true;
    const Output head = git(top, {"rev-parse", "--verify", "--quiet", "HEAD"});
    resolved.commit = head.status == 0 ? head.text : std::string();
    resolved.tree = working_tree_hash(top);
    const Output head_tree = git(top, {"rev-parse", "--verify", "--quiet", "HEAD^{tree}"});
    resolved.dirty = head_tree.status != 0 || head_tree.text != resolved.tree;
    if (must_be_ladder) check_is_ladder(top, "", "the working tree");
    return resolved;
  }
  if (revision[0] == '-')
    throw InputError("revision '" + quote_text(revision) + "' is not a revision (it reads as an option)");
  const Output commit = git(top, {"rev-parse", "--verify", "--quiet", revision + "^{commit}"});
  if (commit.status != 0 || commit.text.empty()) throw unresolved(top, revision);
  if (must_be_ladder) check_is_ladder(top, commit.text, "revision '" + quote_text(revision) + "'");
  resolved.name = revision;
  resolved.commit = commit.text;
  resolved.tree = git(top, {"rev-parse", commit.text + "^{tree}"}).text;
  return resolved;
}

std::string export_revision(const std::string& top, const Revision& revision, const std::string& directory) {
  // The commit's files, exported once for every build of it; a partial export (stopped midway) is never
  // taken for whole.
  const std::string source = directory + "/src";
  if (fs::exists(source + "/.exported")) return source;
  std::error_code error;
  fs::remove_all(source, error);
  fs::create_directories(source);
  // Through a file, not a pipe between two programs: git's archive, then tar's extraction of it.
  const std::string archive = directory + "/src.tar";
  Output exported = git(top, {"archive", "--format=tar", "--output=" + archive, revision.commit}, true);
  if (exported.status == 0) {
    Program untar{{"tar", "-x", "-f", archive, "-C", source}};
    untar.stderr_to = Stream::merge;
    const Finished finished = run_program(untar);
    exported = {finished.ok() ? 0 : 1, finished.started() ? finished.out : "tar: " + finished.not_started};
  }
  std::error_code ignored;
  fs::remove(archive, ignored);
  if (exported.status != 0) {
    fs::remove_all(source, error);
    throw InputError("cannot export revision " + revision.label() + " with git archive: " + exported.text);
  }
  std::FILE* mark = std::fopen((source + "/.exported").c_str(), "w");
  if (mark) std::fclose(mark);
  return source;
}

PreparedBuild prepare_revision(const std::string& top, const Revision& revision, bool at_hand_allowed,
                               const std::vector<std::string>& tiers) {
  if (at_hand_allowed && !revision.tree.empty() && revision.tree == tree_at_hand(top)) {
    PreparedBuild build{build_at_hand(), self_path(), describe_this_build(),
                        "the build at hand (this binary was built from this very tree)"};
    build.at_hand = true;
    return build;
  }
  // A clean working tree is its HEAD commit's tree, built as that commit. Uncommitted changes are built where
  // they are, in one directory that each later ab compiles incrementally: a build a tree would cost a build
  // from scratch for every edit.
  const bool in_place = revision.working_tree && revision.dirty;
  const std::string revision_directory = builds_directory() + "/" + revision_folder(top, revision);
  // A build of some tiers only has a directory of its own: another set of tiers never reconfigures it.
  const std::vector<std::string> sorted = sorted_once(tiers);
  const std::string directory =
      revision_directory + (sorted.empty() ? "" : "-" + sha256_hex(join(sorted, ",")).substr(0, 8));
  const std::string source = in_place ? top : export_revision(top, revision, revision_directory);
  return prepare_worker_from(source, directory, "of " + revision.label(), sorted);
}

}  // namespace ladder
