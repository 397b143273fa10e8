// SPDX-License-Identifier: Apache-2.0
// Test helper: a workspace held in memory (workspace::MemoryFileSystem)
// with the shipped stdlib and pack where the engine looks for them, and a
// lint session run over it, rendered as capops-lint would print it.
//
//   MemoryWorkspace w;
//   w.files.Add("plans/plan.yaml", text);
//   SessionOptions o;  o.plans = {"plans/plan.yaml"};  o.no_config = true;
//   MemoryLint r = w.Lint(o);
//   CHECK(r.exit_code == cli::kExitFindings);
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/cli/driver.h"
#include "engine/report/lint_report.h"
#include "engine/workspace/file_system.h"
#include "engine/workspace/pack_locator.h"
#include "engine/workspace/session.h"

namespace capops::testing {

struct MemoryLint {
  int exit_code = 0;
  std::string out;  // the report, in the format asked for; the reason on a usage error
};

class MemoryWorkspace {
 public:
  /// The working directory is `cwd`; the shipped data directory is copied
  /// in at its own absolute path.
  explicit MemoryWorkspace(std::string cwd = "/repo") : files(std::move(cwd)) {
    std::string error;
    std::optional<std::filesystem::path> data = workspace::FindDataDir(&error);
    if (!data) throw std::runtime_error(error);
    for (const char* dir : {"stdlib", "policies"}) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(*data / dir)) {
        if (!entry.is_regular_file() || entry.path().extension() != ".cpl") continue;
        std::ifstream in(entry.path(), std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        files.Add(std::filesystem::absolute(entry.path()).lexically_normal().string(), text.str());
      }
    }
  }

  MemoryLint Lint(workspace::SessionOptions options,
                  report::Format format = report::Format::kShort) {
    workspace::LintSession session(std::move(options), &files);
    const lint::Report& r = session.Run();
    MemoryLint out;
    if (r.status == lint::Status::kUsage) {
      out.exit_code = cli::kExitUsage;
      out.out = r.error;
      for (const Diagnostic& d : r.problems.items()) out.out += "\n" + d.message;
      return out;
    }
    std::ostringstream text;
    report::WriteLintReport(r, format, {"0.0.0"}, text);
    out.exit_code = r.status == lint::Status::kFindings ? cli::kExitFindings : cli::kExitClean;
    out.out = text.str();
    return out;
  }

  std::string Read(const std::string& path) const {
    std::string text, error;
    if (!files.Read(path, SIZE_MAX, &text, &error)) throw std::runtime_error(error);
    return text;
  }

  workspace::MemoryFileSystem files;
};

}  // namespace capops::testing
