// SPDX-License-Identifier: Apache-2.0
// capops-lsp: the capops language server, over stdin and stdout.
//
//   capops-lsp [--stdio] [--policy PATH]… [--rules-url URL]
//
// Exit codes: 0 after `shutdown` then `exit`; 1 when the stream ended or
// broke otherwise; 2 for a bad command line.
#include <poll.h>
#include <unistd.h>

#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "engine/lsp/server.h"

#ifndef CAPOPS_VERSION
#define CAPOPS_VERSION "0.0.0"
#endif

namespace {

constexpr const char* kUsage =
    "usage: capops-lsp [--stdio] [--policy PATH]... [--rules-url URL]\n"
    "The capops language server: speaks the Language Server Protocol on stdin and stdout.\n"
    "  --stdio          talk over stdin and stdout (the default, and the only transport)\n"
    "  --policy PATH    a policy file or directory to lint with (default: the shipped pack)\n"
    "  --rules-url URL  where the rule catalogue is published: findings link to URL#RULE-ID\n"
    "  --version, -V    print the version\n";

}  // namespace

int main(int argc, char** argv) {
  capops::lsp::ServerOptions options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char* flag) -> const char* {
      if (i + 1 >= argc) {
        std::cerr << "capops-lsp: " << flag << " needs a value\n" << kUsage;
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--stdio") continue;
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (arg == "--version" || arg == "-V") {
      std::cout << "capops-lsp " << CAPOPS_VERSION << "\n";
      return 0;
    }
    if (arg == "--policy") {
      options.policies.emplace_back(value("--policy"));
    } else if (arg == "--rules-url") {
      options.rules_url = value("--rules-url");
    } else {
      std::cerr << "capops-lsp: unknown argument `" << arg << "`\n" << kUsage;
      return 2;
    }
  }
  std::ios::sync_with_stdio(false);
  capops::lsp::Server server(options, std::cout);
  // A message is waiting when its bytes are read into cin's buffer or
  // stand in the pipe: changes queued behind one supersede it.
  auto input_waiting = [] {
    if (std::cin.rdbuf()->in_avail() > 0) return true;
    pollfd fd{STDIN_FILENO, POLLIN, 0};
    return ::poll(&fd, 1, 0) > 0 && (fd.revents & POLLIN) != 0;
  };
  return capops::lsp::Serve(std::cin, &server, options.max_message_bytes, input_waiting);
}
