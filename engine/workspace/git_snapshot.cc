// SPDX-License-Identifier: Apache-2.0
// GitSnapshot (git_snapshot.h): `git archive` of one path at one revision,
// unpacked with `tar` into a temporary directory.
#include "engine/workspace/git_snapshot.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>

extern char** environ;

namespace capops::workspace {

namespace fs = std::filesystem;

namespace {

// Runs `argv` (its program looked up on the PATH) with standard input from
// /dev/null and its output and errors in files. Returns the exit status, or
// -1 when the program could not be started (`*spawn_error` says why) or did
// not exit normally.
int RunChild(const std::vector<std::string>& argv, const fs::path& out, const fs::path& err,
             int* spawn_error) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int started = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  *spawn_error = started;
  if (started != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string Slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The first line of a child's output, without git's `fatal: ` prefix.
std::string FirstLine(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  for (const char* prefix : {"fatal: ", "error: "}) {
    if (line.rfind(prefix, 0) == 0) line = line.substr(std::string(prefix).size());
  }
  return line;
}

}  // namespace

GitSnapshot::~GitSnapshot() {
  std::error_code ec;
  if (!temp_dir_.empty()) fs::remove_all(temp_dir_, ec);
}

bool GitSnapshot::Run(const std::vector<std::string>& argv, std::string* output,
                      std::string* error) const {
  fs::path out = temp_dir_ / "child.out", err = temp_dir_ / "child.err";
  int spawn_error = 0;
  int status = RunChild(argv, out, err, &spawn_error);
  if (status < 0) {
    *error =
        "cannot run `" + argv[0] + "`" + (spawn_error == ENOENT ? ": it is not on the PATH" : "");
    return false;
  }
  if (output != nullptr) *output = Slurp(out);
  if (status == 0) return true;
  *error = FirstLine(Slurp(err));
  return false;
}

bool GitSnapshot::Extract(const std::string& revision, const std::string& path,
                          std::string* error) {
  std::error_code ec;
  fs::path target = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec || !fs::exists(target, ec)) {
    *error = "cannot find `" + path + "`";
    return false;
  }
  std::string pattern = (fs::temp_directory_path() / "capops-diff-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    *error = "cannot create a temporary directory";
    return false;
  }
  temp_dir_ = pattern;
  std::string top, why;
  fs::path dir = fs::is_directory(target) ? target : target.parent_path();
  if (!Run({"git", "-C", dir.string(), "rev-parse", "--show-toplevel"}, &top, &why)) {
    *error = "`" + path + "` is not in a git work tree (" + why + ")";
    return false;
  }
  top = top.substr(0, top.find('\n'));
  fs::path rel = target.lexically_relative(fs::weakly_canonical(top, ec));
  std::string in_repo = rel.generic_string();
  if (!Run({"git", "-C", top, "rev-parse", "--verify", "--quiet", revision + "^{commit}"}, nullptr,
           &why)) {
    *error = "unknown git revision `" + revision + "`";
    return false;
  }
  fs::path archive = temp_dir_ / "snapshot.tar", tree = temp_dir_ / "tree";
  fs::create_directories(tree, ec);
  if (!Run({"git", "-C", top, "archive", "--format=tar", "-o", archive.string(), revision, "--",
            in_repo},
           nullptr, &why)) {
    *error = "`" + in_repo + "` does not exist at git revision `" + revision + "` (" + why + ")";
    return false;
  }
  if (!Run({"tar", "-xf", archive.string(), "-C", tree.string()}, nullptr, &why)) {
    *error = "cannot unpack the snapshot of `" + in_repo + "` (" + why + ")";
    return false;
  }
  tree_ = tree;
  top_ = fs::weakly_canonical(top, ec);
  root_ = in_repo == "." ? tree : tree / rel;
  label_ = revision + ":" + (in_repo == "." ? "" : in_repo);
  return true;
}

fs::path GitSnapshot::InWorkTree(const fs::path& file) const {
  fs::path rel = file.lexically_normal().lexically_relative(tree_);
  if (tree_.empty() || rel.empty() || *rel.begin() == "..") return file;
  return (top_ / rel).lexically_normal();
}

}  // namespace capops::workspace
