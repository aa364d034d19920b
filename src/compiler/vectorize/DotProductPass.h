// DotProductPass: 8-bit dot products as the CPU's dot-product instructions.
//
// cl_khr_integer_dot_product's built-ins (IntegerDotProduct.cl) sum the
// four products of two dwords' bytes in 32-bit lanes: once the loop
// vectorizer has widened a work-item loop, each dot product is a tree of
// vector shifts, masks, multiplies and adds. x86's VNNI instructions do
// the whole of it in one: vpdpbusd adds to each dword of an accumulator
// the four products of an unsigned byte of one operand's dword and the
// signed byte of the other's, and vpdpbusds saturates that addition. This
// pass, run after the vectorizers on a CPU with VNNI, finds the trees and
// rewrites them into those instructions (see the .cpp for the matching
// and for the signed-by-signed and unsigned-by-unsigned forms, which take
// two). Where it finds nothing, the vectorized code stays as it is.
#pragma once

#include <llvm/IR/PassManager.h>

namespace llvm {
class MCSubtargetInfo;
}

namespace weft::compiler {

class DotProductPass : public llvm::PassInfoMixin<DotProductPass> {
public:
  /// For code of STI's CPU (the pass does nothing unless appliesTo(STI)).
  explicit DotProductPass(const llvm::MCSubtargetInfo &STI);

  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

  /// Whether code for STI's CPU gets the instructions: VNNI on 128- and
  /// 256-bit vectors (AVX-VNNI, or AVX512-VNNI with AVX512VL), unless
  /// WEFT_NO_DOT_PRODUCT=1 turns the pass off (to measure it). A dot
  /// product of any width is then one of them (512-bit vectors also with
  /// AVX512-VNNI, else in halves), a scalar one in a 128-bit register.
  static bool appliesTo(const llvm::MCSubtargetInfo &STI);

private:
  bool Vnni128 = false, Vnni256 = false, Vnni512 = false; ///< the widths it has
};

} // namespace weft::compiler
