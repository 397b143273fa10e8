// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness for the language server: the fuzzed bytes are the
// stream an editor writes to capops-lsp (framed JSON-RPC messages), read and
// answered by a fresh lsp::Server until `exit`, the end of the input or
// broken framing. The seeds are whole sessions (fuzz/lsp-seeds/): the
// example plan and inventory opened, changed and closed, a policy file
// compiled, malformed messages.
//
// Compiling the pack is slow, so every server shares one compiled engine
// (ServerOptions::engine); a server keeps nothing in it.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include "engine/lsp/server.h"
#include "fuzz/fuzz_support.h"

namespace {

using namespace capops;

std::shared_ptr<const Engine>& SharedEngine() {
  static auto* engine = new std::shared_ptr<const Engine>(
      fuzz::CompiledEngine(fuzz::ReadCplFolder("policies/capops-ai")));
  return *engine;  // lives for the process: not a leak
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  SharedEngine();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lsp::ServerOptions options;
  options.engine = SharedEngine();
  options.max_message_bytes = 1 << 20;
  std::ostringstream out;
  lsp::Server server(options, out);
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  lsp::Serve(in, &server, options.max_message_bytes);
  return 0;
}
