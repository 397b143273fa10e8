// SPDX-License-Identifier: Apache-2.0
// Failure lines, compile errors and fact problems as the commands print them.
#include "engine/cli/command_support.h"

#include "engine/cli/driver.h"
#include "engine/common/escape.h"
#include "engine/lint/pack_paths.h"
#include "engine/report/report.h"
#include "engine/workspace/plan_set.h"
#include "engine/workspace/policy_loader.h"

namespace capops::cli {

int Fail(std::ostream& err, const std::string& reason) {
  // Reasons quote paths and names the user gave: one line, no control byte.
  err << "capops-lint: error: " << Visible(reason) << '\n';
  return kExitUsage;
}

int FailWith(const lint::Report& report, bool color, std::ostream& err) {
  if (!report.problems.empty())
    report::WriteDiagnostics(*report.problem_sources, report.problems, {false, color}, err);
  if (!report.error.empty()) Fail(err, report.error);
  return kExitUsage;
}

bool LoadPack(const std::vector<std::string>& policies, bool color, Engine* engine,
              std::ostream& err) {
  std::string error;
  if (!workspace::LoadPolicies(policies, engine, &error)) {
    Fail(err, error);
    return false;
  }
  // Named as a lint's report names them: an installed pack's files by their
  // path in the pack, never the machine's.
  workspace::DiskFileSystem disk;
  if (std::optional<std::vector<std::filesystem::path>> roots =
          workspace::PolicyRoots(policies, &error)) {
    std::vector<std::string> absolute;
    for (const std::filesystem::path& root : *roots)
      absolute.push_back(disk.Absolute(root.string()));
    for (auto& [file, shown] :
         lint::PackPaths(engine->sources(), absolute, disk.WorkingDirectory()))
      engine->ShowPolicyPath(file, std::move(shown));
  }
  Diagnostics problems;
  if (engine->Compile(&problems)) return true;
  report::WriteDiagnostics(engine->sources(), problems, {false, color}, err);
  Fail(err, "the policies do not compile (" + std::to_string(problems.size()) + " problem" +
                (problems.size() == 1 ? ")" : "s)"));
  return false;
}

int PrepareEngine(const workspace::FileSystem& files, const std::vector<std::string>& policies,
                  const std::vector<std::string>& plans,
                  const std::vector<std::string>& inventories, bool color, Engine* engine,
                  eval::Facts* facts, std::ostream& err) {
  if (!LoadPack(policies, color, engine, err)) return kExitUsage;
  std::string error;
  std::vector<TextFile> plan_files, inventory_files;
  size_t limit = engine->options().facts.max_file_bytes;
  if (!workspace::ReadAll(files, plans, limit, &plan_files, &error) ||
      !workspace::ReadAll(files, workspace::InventoriesOfAll(files, plans, inventories), limit,
                          &inventory_files, &error)) {
    return Fail(err, error);
  }
  if (plan_files.empty() && inventory_files.empty()) return -1;
  Diagnostics problems;
  if (!engine->LoadFacts(plan_files, inventory_files, facts, &problems)) {
    report::WriteDiagnostics(engine->sources(), problems, {false, color}, err);
    return kExitFindings;
  }
  return -1;
}

}  // namespace capops::cli
