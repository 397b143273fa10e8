# SPDX-License-Identifier: Apache-2.0
# Writes OUTPUT, the source that tells `capops-lint --version` which git
# commit it was built from: the commit of SOURCE_DIR, "-dirty" appended
# when tracked files differ from it, "" when SOURCE_DIR is not a git
# checkout. Run at every build; the file is rewritten only when it changes.
execute_process(COMMAND git -C "${SOURCE_DIR}" rev-parse HEAD
  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  set(commit "")
endif()
if(commit)
  execute_process(COMMAND git -C "${SOURCE_DIR}" diff --quiet HEAD --
    RESULT_VARIABLE dirty OUTPUT_QUIET ERROR_QUIET)
  if(dirty EQUAL 1)
    string(APPEND commit "-dirty")
  endif()
endif()
set(text "// Written at build time by engine/cli/build_commit.cmake.
#include \"engine/cli/build_commit.h\"

namespace capops::cli {
const char* const kBuildCommit = \"${commit}\";
}  // namespace capops::cli
")
set(old "")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUTPUT}" "${text}")
endif()
