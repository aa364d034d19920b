// KernelDescBuilder: the runtime's description of a kernel (arguments,
// attributes) read from the metadata clang attaches to a kernel function.
#pragma once

#include "runtime/program/ProgramCompiler.h"

#include <llvm/IR/Function.h>

namespace weft::compiler {

class KernelDescBuilder {
public:
  /// Describes kernel K of a module already retargeted to the host (sizes
  /// come from its data layout). Names are kept only if WithNames.
  static rt::KernelDesc describe(const llvm::Function &K, bool WithNames);
};

} // namespace weft::compiler
