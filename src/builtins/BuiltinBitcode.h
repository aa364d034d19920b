// Access to the OpenCL C builtin library, which is compiled to LLVM bitcode
// at build time (see CMakeLists.txt here) and embedded in weft_builtins. The
// compiler parses it once per build and links the functions a program needs.
// Plain C++ so that it can be used without LLVM headers.
#pragma once

#include <string_view>

namespace weft::builtins {

/// The bitcode bytes of the builtin library (spir64-unknown-unknown).
std::string_view bitcode();

} // namespace weft::builtins
