// SPDX-License-Identifier: Apache-2.0
// SHA-256 (FIPS 180-4), through OpenSSL's EVP: the one hash the engine names
// content with (the rule set's digest, result cache keys and checksums,
// finding fingerprints). Fed incrementally, as raw bytes (Update) or as
// parts prefixed by their length (Add), so that no two sequences of parts
// hash alike.
//
//   Sha256().Update("abc").Hex()               // "ba7816bf…15ad"
//   Sha256().Add("plan").Add(path).Add(text).Hex()
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace capops {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  /// Feeds `bytes` as they are.
  Sha256& Update(std::string_view bytes);
  /// Feeds `part` after its length in decimal and a `:`.
  Sha256& Add(std::string_view part);
  Sha256& Add(size_t number) { return Add(std::to_string(number)); }
  /// The digest as 64 lowercase hex digits; the object must not be used afterwards.
  std::string Hex();

 private:
  void* ctx_;  // EVP_MD_CTX
};

}  // namespace capops
