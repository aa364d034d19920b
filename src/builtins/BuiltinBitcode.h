// Access to the OpenCL C builtin library, which is compiled to LLVM bitcode
// at build time (see CMakeLists.txt here) and embedded in weft_builtins: one
// part per source file, each with the list of external symbols it defines.
// A build links only the parts that define what the program calls, and the
// parts those call in turn (KernelPipeline::linkBuiltins), so it does not
// read the declarations of the whole library (some 11,000 functions, half
// of them conversions).
// Plain C++ so that it can be used without LLVM headers.
#pragma once

#include <string_view>
#include <vector>

namespace weft::builtins {

struct Part {
  std::string_view Name;    ///< the source file, e.g. "Convert" or "PointerBuiltins.named"
  std::string_view Bitcode; ///< spir64-unknown-unknown bitcode
  std::string_view Symbols; ///< the external symbols it defines, one per line
};

/// The parts of the builtin library.
const std::vector<Part> &parts();

} // namespace weft::builtins
