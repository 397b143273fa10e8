# SPDX-License-Identifier: Apache-2.0
# Runs capops-lint on one hostile or broken input and checks its outcome
# against the sidecar `<name>.expect`:
#
#   exit: N                    the expected exit code
#   message: <fragment>        text that stdout or stderr must contain
#                              (several `message:` lines: all must appear)
#   forbid-escapes: yes        the output must hold no raw ESC or BEL byte
#                              (fact text must not drive the terminal)
#
# A `.yaml` file is linted as a plan against the example inventory; a `.cpl`
# file is added as a policy and the clean example plan is linted with it.
# Run from the source tree, so messages carry repository-relative paths. The
# plan comes first: a repeatable option must not swallow it.
# A run that takes more than TIMEOUT seconds (default 10) fails: a hang is a finding.
#
#   cmake -DLINT=<capops-lint> -DINPUT=<file> -DSOURCE_DIR=<root> [-DTIMEOUT=s] -P run_bad_input.cmake
if(NOT DEFINED TIMEOUT)
  set(TIMEOUT 10)
endif()
get_filename_component(dir "${INPUT}" DIRECTORY)
get_filename_component(name "${INPUT}" NAME_WE)
get_filename_component(ext "${INPUT}" LAST_EXT)
set(expect_file "${dir}/${name}.expect")
if(NOT EXISTS "${expect_file}")
  message(FATAL_ERROR "missing ${expect_file}")
endif()
file(RELATIVE_PATH input_rel "${SOURCE_DIR}" "${INPUT}")

if(ext STREQUAL ".yaml")
  set(args "${input_rel}" --inventory examples/visual-inspection/inventory.yaml)
elseif(ext STREQUAL ".cpl")
  set(args examples/visual-inspection/clean/plan.yaml --policy "${input_rel}")
else()
  message(FATAL_ERROR "${INPUT}: a bad input is a .yaml plan or a .cpl policy")
endif()

file(STRINGS "${expect_file}" expect_lines ENCODING UTF-8)
set(expected_exit "")
set(fragments "")
set(forbid_escapes OFF)
foreach(line IN LISTS expect_lines)
  if(line MATCHES "^exit: *([0-9]+)$")
    set(expected_exit "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^message: (.+)$")
    list(APPEND fragments "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^forbid-escapes: *yes$")
    set(forbid_escapes ON)
  endif()
endforeach()
if(expected_exit STREQUAL "" OR fragments STREQUAL "")
  message(FATAL_ERROR "${expect_file}: needs an `exit: N` and a `message: …` line")
endif()

# Run the tool directly (not through `cmake -E env`), so that a crash shows
# as a signal name in RESULT_VARIABLE instead of passing for exit code 1.
set(ENV{NO_COLOR} 1)
execute_process(
  COMMAND "${LINT}" ${args}
  WORKING_DIRECTORY "${SOURCE_DIR}"
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err
  RESULT_VARIABLE code
  TIMEOUT ${TIMEOUT})

set(all "${out}${err}")
set(problems "")
if(NOT code STREQUAL expected_exit)
  string(APPEND problems "  exit ${code}, expected ${expected_exit}\n")
endif()
foreach(fragment IN LISTS fragments)
  string(FIND "${all}" "${fragment}" at)
  if(at EQUAL -1)
    string(APPEND problems "  output lacks `${fragment}`\n")
  endif()
endforeach()
if(forbid_escapes)
  string(ASCII 27 esc)
  string(ASCII 7 bel)
  foreach(byte IN ITEMS "${esc}" "${bel}")
    string(FIND "${all}" "${byte}" at)
    if(NOT at EQUAL -1)
      string(APPEND problems "  output holds a raw control byte at offset ${at}\n")
    endif()
  endforeach()
endif()
if(problems)
  message(FATAL_ERROR "bad input ${input_rel}:\n${problems}--- stdout\n${out}--- stderr\n${err}")
endif()
