// SPDX-License-Identifier: Apache-2.0
// Sha256 against the FIPS 180-4 test vectors, fed whole and in pieces, and
// the length prefix of Add that keeps sequences of parts apart.
#include "engine/common/sha256.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <string_view>

namespace capops {
namespace {

std::string Of(std::string_view bytes) {
  return Sha256().Update(bytes).Hex();
}

TEST_CASE("Sha256 gives the standard digests", "[common]") {
  CHECK(Of("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(Of("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(Of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("Sha256 fed a million 'a's in pieces gives the standard digest", "[common]") {
  const std::string a(1000, 'a');
  Sha256 h;
  size_t fed = 0;
  // Pieces of 1 to 1000 bytes, so that they straddle the 64-byte blocks.
  for (size_t piece = 1; fed < 1'000'000; piece = piece % 1000 + 1) {
    size_t n = std::min(piece, 1'000'000 - fed);
    h.Update(std::string_view(a).substr(0, n));
    fed += n;
  }
  CHECK(h.Hex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("Sha256::Add prefixes each part with its length", "[common]") {
  CHECK(Sha256().Add("abc").Hex() == Of("3:abc"));
  CHECK(Sha256().Add(size_t{42}).Hex() == Of("2:42"));
  CHECK(Sha256().Add("ab").Add("c").Hex() != Sha256().Add("a").Add("bc").Hex());
  CHECK(Sha256().Add("").Hex() == Of("0:"));
}

}  // namespace
}  // namespace capops
