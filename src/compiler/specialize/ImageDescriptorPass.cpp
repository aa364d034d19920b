// ImageDescriptorPass: descriptor loads of image arguments are invariant.
//
// Algorithm. An image argument is a pointer to the image's WeftImage, a
// 64-byte descriptor the runtime fills when the image is created and never
// writes again (runtime/memory/ImageLayout.h), and the image built-ins read their
// format, sizes, pitches and pixel pointer from it at every access. The
// work-group function (WorkGroupLoopPass) loads argument i as
//
//   %slot = load ptr, ptr (getelementptr ptr, ptr %args, i64 i)
//   %img  = load ptr addrspace(1), ptr %slot
//
// For each argument the kernel's description says is an image, the pass
// follows %img through constant-offset GEPs and pointer casts to the loads
// of the descriptor's bytes ([0, 64)) and marks them !invariant.load. Alias
// analysis cannot tell those loads from the kernel's stores to pixels
// (every pointer involved is a __global one), so without the mark LICM
// leaves them, and the table lookups and arithmetic built on them, in the
// work-item loop; with it they are computed once per work-group.
//
//   before (in x.loop):  %ord = load i32, ptr addrspace(1) %ord.addr
//   after:               %ord = load i32, ptr addrspace(1) %ord.addr, !invariant.load !0
//
// Specialization. For a launch whose images' formats are known (the
// executable compiles such a copy of a work-group function on demand,
// JitExecutable::specialize), the same walk finds the loads of the channel
// order, data type and element size and replaces them with the format's
// values; O3 then folds away every branch on the format in the image
// built-ins, leaving straight-line pixel code.
//
//   before: %order = load i32, ptr addrspace(1) %order.addr, !invariant.load !0
//           %is.bgra = icmp eq i32 %order, 4278      ; CL_BGRA
//   after:  %is.bgra = icmp eq i32 4277, 4278        ; folds to false
//
// Limits. Only loads reached from the argument's own load through constant
// offsets are marked: a descriptor pointer stored to memory, selected, or
// offset by a variable is left alone (correct, just not faster).
#include "compiler/specialize/ImageDescriptorPass.h"

#include "compiler/workgroup/WorkGroupLoopPass.h"

#include "runtime/memory/ImageLayout.h"

#include <cstddef>

#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>

using namespace llvm;

namespace weft::compiler {

namespace {

/// Calls Visit(load, byte offset) for each load of WG from the descriptor of
/// argument Index: the loads reached from the argument's value through
/// constant-offset GEPs and pointer casts, within the descriptor's bytes.
template <typename VisitFn> void forEachDescriptorLoad(Function &WG, unsigned Index, VisitFn Visit) {
  LoadInst *Image = WorkGroupLoopPass::argumentValue(WG, Index);
  if (!Image)
    return;
  const DataLayout &DL = WG.getParent()->getDataLayout();
  // (pointer, its byte offset from the descriptor's start) to visit.
  SmallVector<std::pair<Value *, int64_t>, 16> Work{{Image, 0}};
  SmallVector<std::pair<LoadInst *, int64_t>, 32> Loads;
  while (!Work.empty()) {
    auto [Ptr, Offset] = Work.pop_back_val();
    for (User *U : Ptr->users()) {
      if (auto *Load = dyn_cast<LoadInst>(U)) {
        const uint64_t Size = DL.getTypeStoreSize(Load->getType());
        if (Load->getPointerOperand() == Ptr && Offset >= 0 &&
            uint64_t(Offset) + Size <= sizeof(WeftImage))
          Loads.push_back({Load, Offset});
      } else if (auto *GEP = dyn_cast<GEPOperator>(U)) {
        APInt Delta(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
        if (GEP->getPointerOperand() == Ptr && GEP->accumulateConstantOffset(DL, Delta))
          Work.push_back({U, Offset + Delta.getSExtValue()});
      } else if (isa<BitCastOperator>(U) || isa<AddrSpaceCastOperator>(U)) {
        Work.push_back({U, Offset});
      }
    }
  }
  // Visited after the walk: a visitor may replace (and erase) a load.
  for (auto [Load, Offset] : Loads)
    Visit(Load, Offset);
}

} // namespace

unsigned ImageDescriptorPass::run(Function &WG, const rt::KernelDesc &Desc) {
  MDNode *Invariant = MDNode::get(WG.getContext(), {});
  unsigned Marked = 0;
  for (unsigned I = 0; I < Desc.Args.size(); ++I)
    if (Desc.Args[I].Kind == rt::ArgKind::Image)
      forEachDescriptorLoad(WG, I, [&](LoadInst *Load, int64_t) {
        if (!Load->hasMetadata(LLVMContext::MD_invariant_load)) {
          Load->setMetadata(LLVMContext::MD_invariant_load, Invariant);
          ++Marked;
        }
      });
  return Marked;
}

unsigned ImageDescriptorPass::specialize(Function &WG,
                                         const std::vector<rt::ImageArgFormat> &Formats) {
  unsigned Replaced = 0;
  for (const rt::ImageArgFormat &F : Formats)
    forEachDescriptorLoad(WG, F.Arg, [&](LoadInst *Load, int64_t Offset) {
      auto *Ty = dyn_cast<IntegerType>(Load->getType());
      if (!Ty || Ty->getBitWidth() != 32)
        return;
      uint32_t Value;
      if (Offset == offsetof(WeftImage, ChannelOrder))
        Value = F.Order;
      else if (Offset == offsetof(WeftImage, ChannelDataType))
        Value = F.Type;
      else if (Offset == offsetof(WeftImage, ElementSize))
        Value = F.ElementSize;
      else
        return;
      Load->replaceAllUsesWith(ConstantInt::get(Ty, Value));
      Load->eraseFromParent();
      ++Replaced;
    });
  return Replaced;
}

} // namespace weft::compiler
