// SPDX-License-Identifier: Apache-2.0
// How reports name the files of the policies.
//
// A policy file below the working directory keeps its path from there
// (`policies/capops-ai/supply.cpl`). One outside it — an installed pack
// (`/usr/share/capops/policies/capops-ai`), a `--policy` elsewhere on the
// machine — is shown by its path in the pack it was read from, the pack's
// directory name first (`capops-ai/supply.cpl`, `stdlib/schema.cpl`), as
// `capops-lint doc` names them: a report never shows the machine's
// absolute path of a rule. Every format takes the name from
// SourceManager::ShownPath, which the lint Project sets.
//
//   std::string shown = lint::PackPath("/usr/share/capops/policies/capops-ai/supply.cpl",
//                                      {"/usr/share/capops/policies/capops-ai"}, "/repo");
//   // "capops-ai/supply.cpl"
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "engine/common/source.h"

namespace capops::lint {

/// `path`, a policy file's path as the engine has it (relative to
/// `working_dir`, which is absolute, or absolute), as reports show it:
/// unchanged below the working directory; else `<root>/<path below it>`
/// for the deepest of `roots` (absolute directories, or files, the policies
/// were read from) it is in; `<its directory's name>/<file>` for a root
/// that is the file itself, or under none.
std::string PackPath(std::string_view path, const std::vector<std::string>& roots,
                     const std::filesystem::path& working_dir);

/// The files of `policies` whose PackPath differs from their path, with it.
std::vector<std::pair<FileId, std::string>> PackPaths(const SourceManager& policies,
                                                      const std::vector<std::string>& roots,
                                                      const std::filesystem::path& working_dir);

}  // namespace capops::lint
