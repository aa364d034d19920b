#include "compiler/VectorTypeScalarizerPass.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>

#include <algorithm>

using namespace llvm;

namespace weft::compiler {

namespace {

// Whether I computes on vectors: 0 if not, else the widest vector's bits.
uint64_t vectorBits(const Instruction &I, const DataLayout &DL) {
  uint64_t Bits = 0;
  auto note = [&](Type *T) {
    if (T->isVectorTy())
      Bits = std::max<uint64_t>(Bits, DL.getTypeSizeInBits(T).getFixedSize());
  };
  note(I.getType());
  for (const Value *Op : I.operands())
    note(Op->getType());
  return Bits;
}

// Whether F computes on vectors in loops, only in innermost single-block
// ones and on vectors of at most MaxVectorBits: the functions run() splits.
bool worthScalarizing(Function &F, FunctionAnalysisManager &FAM) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  const DataLayout &DL = F.getParent()->getDataLayout();
  bool InLoop = false;
  for (Instruction &I : instructions(F)) {
    uint64_t Bits = vectorBits(I, DL);
    if (!Bits)
      continue;
    const Loop *L = LI.getLoopFor(I.getParent());
    if (!L)
      continue;
    if (Bits > VectorTypeScalarizerPass::MaxVectorBits || !L->isInnermost() ||
        L->getNumBlocks() != 1)
      return false;
    InLoop = true;
  }
  return InLoop;
}

} // namespace

PreservedAnalyses VectorTypeScalarizerPass::run(Function &F, FunctionAnalysisManager &FAM) {
  if (!worthScalarizing(F, FAM))
    return PreservedAnalyses::all();
  ScalarizerPass Scalarizer;
  Scalarizer.setScalarizeLoadStore(true);
  return Scalarizer.run(F, FAM);
}

} // namespace weft::compiler
