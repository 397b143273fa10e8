// SPDX-License-Identifier: Apache-2.0
// PlanSet: expands plan arguments (files, directories, globs) into sorted
// plan files, groups them by inventory (InventoriesOf) and hands each file
// to the lint as it was read.
#include "engine/workspace/plan_set.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <tuple>

#include "engine/facts/document_head.h"
#include "engine/facts/loader.h"
#include "engine/lint/glob_match.h"
#include "engine/workspace/config_file.h"
#include "engine/workspace/policy_loader.h"
#include "engine/workspace/same_file.h"

namespace capops::workspace {

namespace fs = std::filesystem;

namespace {

bool IsGlob(std::string_view s) {
  return s.find_first_of("*?[") != std::string_view::npos;
}

// The names a plan may have under a directory: what capops-lint reads when
// named outright, so discovery and naming agree — `.yaml`, `.yml` and
// `.json` (JSON is YAML), in any case.
bool IsYaml(const std::string& p) {
  std::string ext = fs::path(p).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

// YAML files under `root` (hidden directories skipped), in order. Not only
// regular files: a FIFO or device named `*.yaml` is refused, not passed over.
// Links are followed while they stay inside the repository that holds `root`
// (outside any, `root` itself); what cannot be walked is in `*refused`: links
// that leave it (to a plan or to a directory that may hold plans) and
// directories that cannot be read.
std::vector<std::string> YamlFilesUnder(const FileSystem& files, const std::string& root,
                                        std::vector<lint::SkippedFile>* refused) {
  std::string start = files.Absolute(root);
  std::optional<fs::path> repository = RepositoryRoot(files, start);
  std::string boundary = repository.value_or(start).string();
  std::vector<Refused> passed;
  std::vector<std::string> found;
  for (std::string& p : files.FilesUnder(root, boundary, &passed)) {
    if (IsYaml(p)) found.push_back(std::move(p));
  }
  // What cannot be walked is not read (a link's target is never quoted) and
  // is an error, so the run cannot pass without it.
  for (const Refused& r : passed) {
    bool unreadable = r.kind == Refused::Kind::kUnreadable;
    if (!unreadable && !IsYaml(r.path) && files.Kind(r.path) != FileKind::kDirectory) continue;
    Diagnostic d;
    d.severity = Severity::kError;
    d.code = "discovery";
    if (unreadable) {
      d.message = "the directory `" + r.path + "` cannot be read (" + r.error + ")";
      d.help = "plans below it would be passed over; make it readable or move them";
    } else {
      d.message = "`" + r.path + "` is a link that leads outside " +
                  (repository ? std::string("the repository") : "`" + root + "`") +
                  "; it is not read";
      d.help =
          "keep plans and links to them inside the repository, or name a file on the command "
          "line to lint it deliberately";
    }
    refused->push_back({r.path, "", std::move(d)});
  }
  return found;
}

// The directory a glob's walk starts from: its segments before the first wildcard.
fs::path GlobRoot(const std::string& pattern) {
  fs::path root;
  for (const fs::path& segment : fs::path(pattern)) {
    if (IsGlob(segment.string())) break;
    root /= segment;
  }
  return root.empty() ? fs::path(".") : root;
}

// Top-level keys of capops's own YAML files: the config, waivers, a baseline.
bool IsCapopsFile(const std::string& path, const facts::DocumentHead& head) {
  std::string name = fs::path(path).filename().string();
  if (name == ".capops.yaml" || name == ".capops.yml") return true;
  return head.is_map && !head.kind && !head.watched.empty();
}

// `capops.dev/v1`, and any other version of capops's API group (in any
// case, as DNS names go): a document meant for capops, whose version the
// lint reports.
bool IsCapopsApi(const std::optional<facts::HeadField>& api) {
  if (!api || !api->scalar) return false;
  std::string_view version = facts::kApiVersion;
  std::string_view group = version.substr(0, version.find('/'));
  std::string_view text = api->text;
  if (text.size() < group.size() || (text.size() > group.size() && text[group.size()] != '/'))
    return false;
  return std::equal(group.begin(), group.end(), text.begin(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  });
}

Diagnostic NotLinted(SourceLoc at, std::string why) {
  Diagnostic d;
  d.severity = Severity::kInfo;
  d.loc = at.valid() ? at : SourceLoc{0, 1, 1};
  d.code = "discovery";
  d.message = "not linted: " + std::move(why);
  d.help = "only `CapacityPlan` documents are linted; name the file outright to lint it anyway";
  return d;
}

}  // namespace

FileRole ClassifyFile(const std::string& path, const std::string& text,
                      const facts::LoadOptions& limits, Diagnostic* note) {
  const std::vector<std::string> kinds = {
      facts::DocumentKindName(facts::DocumentKind::kCapacityPlan),
      facts::DocumentKindName(facts::DocumentKind::kInventory)};
  FileRole role = FileRole::kOther;
  std::optional<Diagnostic> first;
  std::optional<bool> first_foreign;  // the first document says it is somebody else's
  // Only the heads are read (document_head.h), and only until a document
  // shows the file is a plan. A file that is not one is read to its end:
  // a plan anywhere in it makes it a plan file.
  auto on_head = [&](const facts::DocumentHead& head) {
    const facts::HeadField* kind = head.kind && head.kind->scalar ? &*head.kind : nullptr;
    bool ours = IsCapopsApi(head.api_version);
    bool close = kind != nullptr && !ClosestName(kind->text, kinds).empty();
    if (!first_foreign) first_foreign = kind != nullptr && !head.unsure && !ours && !close;
    bool inventory = kind != nullptr && kind->text == kinds[1];
    if (head.unsure || (kind != nullptr && kind->text == kinds[0]) ||
        (!inventory && (ours || close))) {
      // A plan, or meant for capops (the lint reports the kind or version),
      // or only a full load can tell.
      role = FileRole::kPlan;
      return false;
    }
    if (inventory) {
      role = FileRole::kInventory;
    } else if (IsCapopsFile(path, head)) {
      if (role == FileRole::kOther) role = FileRole::kCapopsFile;
    } else if (!first) {
      first = kind != nullptr ? NotLinted(kind->loc, "kind `" + kind->text + "`")
              : head.kind     ? NotLinted(head.kind->loc, "a `kind` that is not a string")
                              : NotLinted(head.loc, "a YAML document without `kind`");
    }
    return true;
  };
  std::optional<Diagnostic> problem =
      facts::ScanHeads(text, 0, limits, {"waivers", "findings"}, on_head);
  if (role == FileRole::kPlan) return role;
  // Broken YAML may be a broken plan: the lint says what is wrong with it —
  // unless its first document says it is somebody else's (a Kubernetes
  // file with a syntax error further down is one error, not a page).
  if (problem && !first_foreign.value_or(false)) return FileRole::kPlan;
  if (role != FileRole::kOther) return role;
  *note = first ? *first : NotLinted(SourceLoc{}, "no YAML documents");
  if (problem) {
    // Not read to its end: a plan further in would be missed, so this is
    // not a file to pass over quietly.
    note->severity = Severity::kError;
    note->message += "; the file could not be read to its end (" + problem->message +
                     "), so a plan further in would be missed";
  }
  return FileRole::kOther;
}

bool PlanSet::Add(const std::string& arg, std::string* error) {
  std::vector<std::string> found;
  FileKind kind = files_.Kind(arg);
  if (kind == FileKind::kRegular) {
    std::string path = fs::path(arg).lexically_normal().string();
    if (IsInventoryFile(path)) {
      named_inventories_.push_back(path);
      return true;
    }
    found.push_back(path);
  } else if (kind == FileKind::kDirectory) {
    std::vector<lint::SkippedFile> outside;
    for (const std::string& p : YamlFilesUnder(files_, arg, &outside)) Consider(p, &found);
    Refuse(outside);
    if (found.empty() && !outside.empty()) return true;  // the run reports them
    if (found.empty()) *error = "no plan files (with `kind: CapacityPlan`) under `" + arg + "`";
  } else if (IsGlob(arg) && !files_.Exists(arg)) {
    fs::path root = GlobRoot(arg);
    std::vector<lint::SkippedFile> outside;
    if (files_.Kind(root.string()) == FileKind::kDirectory) {
      for (const std::string& p : YamlFilesUnder(files_, root.string(), &outside)) {
        if (lint::GlobMatch(arg, p)) Consider(p, &found);
      }
    }
    std::erase_if(outside, [&](const lint::SkippedFile& r) {
      return !lint::GlobMatch(arg, r.path) && files_.Kind(r.path) != FileKind::kDirectory;
    });
    Refuse(outside);
    if (found.empty() && !outside.empty()) return true;  // the run reports them
    if (found.empty()) *error = "no plan files match `" + arg + "`";
  } else {
    // Not a regular file nor a directory: say what it is (a FIFO, a device…).
    std::string text;
    files_.Read(arg, 0, &text, error);
  }
  if (found.empty()) return false;
  for (const std::string& p : found) spdlog::debug("plan {}", p);
  plans_.insert(plans_.end(), found.begin(), found.end());
  std::sort(plans_.begin(), plans_.end());
  plans_.erase(std::unique(plans_.begin(), plans_.end()), plans_.end());
  plans_ = FilesOnce(files_, plans_, "plan");  // a link to a plan named with it is one plan
  return true;
}

void PlanSet::Refuse(std::vector<lint::SkippedFile> paths) {
  for (lint::SkippedFile& r : paths) {
    if (std::none_of(skipped_.begin(), skipped_.end(),
                     [&](const lint::SkippedFile& f) { return f.path == r.path; }))
      skipped_.push_back(std::move(r));
  }
}

bool PlanSet::ReadOnce(const std::string& path, TextFile* file, std::string* error) {
  if (auto it = read_.find(path); it != read_.end()) {
    *file = std::move(it->second);
    read_.erase(it);
    return true;
  }
  file->path = path;
  return files_.Read(path, limits_.max_file_bytes, &file->text, error, &file->stamp);
}

// A file a directory or glob yielded: a plan, or not linted (and said so).
void PlanSet::Consider(const std::string& p, std::vector<std::string>* plans) {
  TextFile file{p, {}};
  std::string error;
  if (!files_.Read(p, limits_.max_file_bytes, &file.text, &error, &file.stamp)) {
    plans->push_back(p);  // the lint stops on it with `error`
    return;
  }
  Diagnostic note;
  FileRole role = ClassifyFile(p, file.text, limits_, &note);
  if (role == FileRole::kPlan) {
    plans->push_back(p);
    read_.insert_or_assign(p, std::move(file));  // read once: the lint takes it from here
  }
  if (role != FileRole::kOther) return;
  if (std::any_of(skipped_.begin(), skipped_.end(),
                  [&](const lint::SkippedFile& f) { return f.path == p; }))
    return;
  spdlog::debug("not linted: {}: {}", p, note.message);
  skipped_.push_back({p, std::move(file.text), std::move(note)});
}

// A file named on the command line is linted as a plan unless it is an
// inventory: `capops-lint plan.yaml inventory.yaml` must not lint the
// inventory as a plan file and leave the plan without it. Most plans do
// not spell the kind, so most need no parse here.
bool PlanSet::IsInventoryFile(const std::string& path) {
  TextFile file{path, {}};
  std::string error;
  if (!files_.Read(path, limits_.max_file_bytes, &file.text, &error, &file.stamp))
    return false;  // the lint says why
  bool maybe =
      file.text.find("Inventory") != std::string::npos || file.text.find('\\') != std::string::npos;
  Diagnostic note;
  bool inventory = maybe && ClassifyFile(path, file.text, limits_, &note) == FileRole::kInventory;
  read_.insert_or_assign(path, std::move(file));
  return inventory;
}

std::vector<std::string> InventoriesOf(const FileSystem& files, const std::string& plan,
                                       const std::vector<std::string>& given,
                                       const std::vector<std::string>& plans) {
  if (!given.empty()) return given;
  std::string sibling =
      (fs::path(plan).parent_path() / "inventory.yaml").lexically_normal().string();
  // Anything there is read, so that a FIFO or a directory by that name is
  // refused with a reason, not taken for no inventory.
  if (!files.Exists(sibling)) return {};
  std::optional<std::string> id = files.Identity(sibling);
  bool is_plan = std::any_of(plans.begin(), plans.end(), [&](const std::string& p) {
    return p == sibling || (id && files.Identity(p) == id);
  });
  if (is_plan) return {};
  return {sibling};
}

std::vector<std::string> InventoriesOfAll(const FileSystem& files,
                                          const std::vector<std::string>& plans,
                                          const std::vector<std::string>& given) {
  if (!given.empty() || plans.empty()) return FilesOnce(files, given, "inventory");
  std::vector<std::string> beside;
  for (const std::string& plan : plans) {
    for (std::string& inventory : InventoriesOf(files, plan, given, plans))
      beside.push_back(std::move(inventory));
  }
  return DedupByIdentity(files, beside, nullptr);
}

void PlanSet::Group(const std::vector<std::string>& given) {
  std::vector<std::string> inventories = given;
  for (const std::string& named : named_inventories_) {
    if (std::find(inventories.begin(), inventories.end(), named) == inventories.end())
      inventories.push_back(named);
  }
  groups_.clear();
  std::map<std::vector<std::string>, size_t> index;  // inventories → group
  for (const std::string& plan : plans_) {
    std::vector<std::string> own = InventoriesOf(files_, plan, inventories, plans_);
    auto [it, inserted] = index.emplace(own, groups_.size());
    if (inserted) groups_.push_back({{}, own});
    groups_[it->second].plans.push_back(plan);
  }
}

lint::GroupFiles PlanSet::Reader() {
  lint::GroupFiles out;
  out.count = groups_.size();
  out.read = [this](size_t g, std::vector<TextFile>* plans, std::vector<TextFile>* inventories,
                    std::string* error) {
    for (const auto& [paths, into] :
         {std::pair{&groups_[g].plans, plans}, std::pair{&groups_[g].inventories, inventories}}) {
      for (const std::string& p : *paths) {
        TextFile f;
        if (!ReadOnce(p, &f, error)) return false;
        into->push_back(std::move(f));
      }
    }
    return true;
  };
  return out;
}

}  // namespace capops::workspace
