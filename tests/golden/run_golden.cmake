# SPDX-License-Identifier: Apache-2.0
# Runs one golden case: capops-lint with the case's `args` (one argument per
# line, run from the source tree; `stdin` feeds standard input if present)
# and compares stdout, stderr and the exit code with `expected.txt`. With CAPOPS_UPDATE_GOLDEN=1 in the environment
# the expectation is rewritten instead; review the diff before committing.
#
#   cmake -DLINT=<capops-lint> -DCASE=<dir> -DSOURCE_DIR=<root> -P run_golden.cmake
cmake_policy(SET CMP0053 NEW)  # `@CASE@` below is a literal marker, not a variable
file(STRINGS "${CASE}/args" args ENCODING UTF-8)
list(TRANSFORM args REPLACE "@CASE@" "${CASE}")
file(RELATIVE_PATH case_rel "${SOURCE_DIR}" "${CASE}")
list(TRANSFORM args REPLACE "@CASE_REL@" "${case_rel}")

# A case may feed standard input from its `stdin` file.
set(input /dev/null)
if(EXISTS "${CASE}/stdin")
  set(input "${CASE}/stdin")
endif()

execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env NO_COLOR=1 "${LINT}" ${args}
  WORKING_DIRECTORY "${SOURCE_DIR}"
  INPUT_FILE "${input}"
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
  RESULT_VARIABLE code)

set(actual "${out}--- stderr\n${err}--- exit ${code}\n")
set(expected_file "${CASE}/expected.txt")

if(DEFINED ENV{CAPOPS_UPDATE_GOLDEN})
  file(WRITE "${expected_file}" "${actual}")
  message(STATUS "updated ${expected_file}")
  return()
endif()

if(NOT EXISTS "${expected_file}")
  message(FATAL_ERROR "missing ${expected_file}; actual output:\n${actual}")
endif()
file(READ "${expected_file}" expected)
if(NOT actual STREQUAL expected)
  file(WRITE "${CASE}.actual" "${actual}")
  execute_process(COMMAND diff -u "${expected_file}" "${CASE}.actual" OUTPUT_VARIABLE diff)
  file(REMOVE "${CASE}.actual")
  message(FATAL_ERROR "golden mismatch for ${CASE}:\n${diff}")
endif()
