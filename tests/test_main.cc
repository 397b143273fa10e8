// SPDX-License-Identifier: Apache-2.0
// The one Catch2 main of the test binary; the tests live beside the code.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
