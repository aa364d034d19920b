// ComponentTransposePass: the gathers (and scatters) of a wide vector type's
// components, once the loop vectorizer has packed work-items into lanes,
// become whole-vector loads (and stores) and a transposition in registers.
//
// A kernel computing on a float16 per work-item is split into its 16
// components before the loop vectorizer ("VectorTypeScalarizerPass" in
// docs/compiler.md), which then packs 16 work-items into the lanes of each
// component. Work-item w's component c is element w * 16 + c of memory, so
// component c of the 16 work-items is a stride-16 access: LLVM's cost model
// finds the interleaved group of 16 dearer than gathers, and a float16
// kernel loads with 16 gathers and stores with 16 scatters of 16 lanes,
// 64 bytes apart. The same bytes are 16 contiguous 512-bit vectors, and
// the components are their transpose: 16 log2(16) = 64 two-register
// shuffles each way, against a gather or scatter unit that takes a lane
// at a time.
#pragma once

#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class ComponentTransposePass : public llvm::PassInfoMixin<ComponentTransposePass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

} // namespace weft::compiler
