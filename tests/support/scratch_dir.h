// A fresh temporary directory holding a copy of the example plan and
// inventory, removed at the end; for CLI tests that need files on disk.
#pragma once

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace capops::testing {

class ScratchDir {
 public:
  ScratchDir() {
    namespace fs = std::filesystem;
    std::random_device rd;
    dir_ = fs::temp_directory_path() / ("capops-scratch-" + std::to_string(rd()));
    fs::create_directories(dir_);
    fs::path example = fs::path(CAPOPS_SOURCE_DIR) / "examples/visual-inspection";
    fs::copy_file(example / "plan.yaml", dir_ / "plan.yaml");
    fs::copy_file(example / "inventory.yaml", dir_ / "inventory.yaml");
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  /// Writes `text` to `name` (directories created); returns its path.
  std::string Write(const std::string& name, const std::string& text) const {
    std::filesystem::create_directories((dir_ / name).parent_path());
    std::ofstream(dir_ / name, std::ios::binary | std::ios::trunc) << text;
    return (dir_ / name).string();
  }
  std::string Read(const std::string& name) const {
    std::ifstream in(dir_ / name, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

}  // namespace capops::testing
