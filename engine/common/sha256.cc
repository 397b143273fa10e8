// SPDX-License-Identifier: Apache-2.0
// Sha256 over OpenSSL's EVP digest interface (see sha256.h).
#include "engine/common/sha256.h"

#include <openssl/evp.h>

namespace capops {

namespace {

EVP_MD_CTX* Context(void* ctx) {
  return static_cast<EVP_MD_CTX*>(ctx);
}

}  // namespace

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
  EVP_DigestInit_ex(Context(ctx_), EVP_sha256(), nullptr);
}

Sha256::~Sha256() {
  EVP_MD_CTX_free(Context(ctx_));
}

Sha256& Sha256::Update(std::string_view bytes) {
  EVP_DigestUpdate(Context(ctx_), bytes.data(), bytes.size());
  return *this;
}

Sha256& Sha256::Add(std::string_view part) {
  return Update(std::to_string(part.size()) + ":").Update(part);
}

std::string Sha256::Hex() {
  static constexpr char kHex[] = "0123456789abcdef";
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_DigestFinal_ex(Context(ctx_), digest, &size);
  std::string hex;
  hex.reserve(2 * size);
  for (unsigned int i = 0; i < size; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 15];
  }
  return hex;
}

}  // namespace capops
