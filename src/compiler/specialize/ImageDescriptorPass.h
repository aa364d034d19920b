// ImageDescriptorPass: an image's descriptor (runtime/memory/ImageLayout.h) does
// not change while a kernel runs, so every load from it is marked
// !invariant.load, and LICM takes the image's format, sizes, pitches and
// pixel pointer out of the work-item loop; and, for a launch whose image
// formats are known, the format fields become constants. See
// ImageDescriptorPass.cpp.
#pragma once

#include "runtime/program/ProgramCompiler.h"

#include <llvm/IR/Function.h>

namespace weft::compiler {

class ImageDescriptorPass {
public:
  /// Marks the descriptor loads of the image arguments of Desc in WG, its
  /// work-group function; returns how many it marked.
  static unsigned run(llvm::Function &WG, const rt::KernelDesc &Desc);
  /// Replaces WG's loads of the channel order, data type and element size
  /// of each image argument in Formats with the format's values; returns
  /// how many it replaced.
  static unsigned specialize(llvm::Function &WG, const std::vector<rt::ImageArgFormat> &Formats);
};

} // namespace weft::compiler
