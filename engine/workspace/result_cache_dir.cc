// SPDX-License-Identifier: Apache-2.0
// ResultCache: entry files under the cache directory. Entry point:
// ResultCache::Open.
#include "engine/workspace/result_cache_dir.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>

namespace capops::workspace {

namespace {

constexpr const char* kTagName = "CACHEDIR.TAG";
constexpr const char* kTagText =
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by capops-lint (--cache).\n"
    "# The directory holds lint results and may be deleted at any time.\n";

}  // namespace

std::unique_ptr<ResultCache> ResultCache::Open(FileSystem* files, const std::string& dir,
                                               std::string* warning) {
  const std::string shown = "`" + dir + "`";
  const std::string tag = dir + "/" + kTagName;
  FileKind kind = files->Kind(dir);
  if (kind != FileKind::kMissing) {
    if (kind != FileKind::kDirectory) {
      *warning = "the cache directory " + shown + " is not a directory; running without the cache";
      return nullptr;
    }
    // Empty but for a tag another run is writing right now (its temporary
    // file), or tagged by the time it was looked at: ours.
    auto empty = [&] {
      std::vector<std::string> entries = files->FilesUnder(dir);
      return std::all_of(entries.begin(), entries.end(), [](const std::string& e) {
        return std::filesystem::path(e).filename().string().rfind(
                   std::string(".") + kTagName + ".tmp-", 0) == 0;
      });
    };
    if (!files->Exists(tag) && !empty() && !files->Exists(tag)) {
      *warning = shown + " is not a capops-lint cache directory (no " + kTagName +
                 "), so it is left alone; running without the cache";
      return nullptr;
    }
  }
  // Made with its tag at once: a run starting beside this one never sees
  // the directory without it (and so never takes it for somebody else's).
  std::string problem;
  if (kind == FileKind::kMissing) {
    files->MakeDirectoryWith(dir, kTagName, kTagText, &problem);
  } else if (!files->Exists(tag)) {
    files->Write(tag, kTagText, &problem);  // an empty directory made for the cache
  }
  if (!problem.empty()) {
    *warning = "the cache directory " + shown + " is unusable (" + problem +
               "); running without the cache";
    return nullptr;
  }
  return std::unique_ptr<ResultCache>(new ResultCache(files, dir));
}

std::optional<std::string> ResultCache::Lookup(const std::string& key) {
  // Read like any input: an entry that is not a regular file (a directory,
  // a FIFO someone left there) is a miss, never a hang or a crash.
  std::string text, error;
  if (files_->Read(Entry(key), SIZE_MAX, &text, &error)) {
    if (std::optional<std::string_view> body = lint::UnsealEntry(key, text)) {
      ++hits_;
      return std::string(*body);
    }
    spdlog::debug("cache entry {} is corrupt; ignored", key);
  }
  ++misses_;
  return std::nullopt;
}

void ResultCache::Reject() {
  --hits_;
  ++misses_;
}

void ResultCache::Store(const std::string& key, std::string_view body) {
  if (!writable_) return;
  std::string problem;
  if (files_->Write(Entry(key), lint::SealEntry(key, body), &problem)) {
    ++stored_;
    return;
  }
  writable_ = false;
  spdlog::warn("the cache directory `{}` is not writable ({}); no more results are stored this run",
               dir_, problem);
}

}  // namespace capops::workspace
