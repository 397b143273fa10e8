// SPDX-License-Identifier: Apache-2.0
// Force-included (clang only) into the targets that include the ANTLR 4.9
// runtime headers. Debian's antlr4-runtime 4.9 declares, in
// misc/InterpreterDataReader.h, `InterpreterData() {}` over a member whose
// default constructor clang 14 deletes (dfa::Vocabulary has a const vector
// member), a hard error with clang and libstdc++ 12 that g++ lets pass. The
// constructor is never used by capops; this turns its definition into a
// deleted declaration so that the header compiles. Layout and ABI unchanged.
#pragma once
// `InterpreterData()` gets `= delete; void unused()` appended; the
// two-argument constructor is left as it is (dispatch on argument count).
#define CAPOPS_ANTLR_CAT2(a, b) a##b
#define CAPOPS_ANTLR_CAT(a, b) CAPOPS_ANTLR_CAT2(a, b)
#define CAPOPS_ANTLR_THIRD(a, b, c, ...) c
#define CAPOPS_ANTLR_ARITY(...) CAPOPS_ANTLR_THIRD(__VA_ARGS__, TWO, NONE, )
#define CAPOPS_ANTLR_TAIL_NONE \
  = delete;                    \
  void capops_clang_workaround_unused()
#define CAPOPS_ANTLR_TAIL_TWO
#define InterpreterData(...) \
  InterpreterData(__VA_ARGS__) CAPOPS_ANTLR_CAT(CAPOPS_ANTLR_TAIL_, CAPOPS_ANTLR_ARITY(__VA_ARGS__))
