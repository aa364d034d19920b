// The accessor for the embedded builtin bitcode: BuiltinBitcode.S places the
// bytes between two symbols; this file turns them into a string_view.
#include "builtins/BuiltinBitcode.h"

extern "C" const char weft_builtins_bc_begin[];
extern "C" const char weft_builtins_bc_end[];

namespace weft::builtins {

std::string_view bitcode() {
  return std::string_view(weft_builtins_bc_begin,
                          static_cast<size_t>(weft_builtins_bc_end - weft_builtins_bc_begin));
}

} // namespace weft::builtins
