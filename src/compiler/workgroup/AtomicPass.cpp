// AtomicPass: Clang's OpenCL atomic library calls become LLVM atomic
// instructions with the order the program asked for.
//
// The SPIR target declares no lock-free atomic width, so Clang emits every
// __opencl_atomic_* builtin (which the C11 atomics of src/builtins/
// AtomicsC11.cl are written with) as a call of a fixed library interface:
// __opencl_atomic_<op>_<N>(generic pointer, [operands,] order..., scope),
// N the size in bytes, values as integers of N bytes. After inlining, the
// orders are the constants the kernel passed, and each call becomes the
// atomic instruction of that order:
//
// Before:                                        After:
//   %v = call i32 @__opencl_atomic_load_4(         %v = load atomic i32, ptr addrspace(4) %p
//            ptr addrspace(4) %p, i32 2, i32 1)          acquire, align 4
//   %o = call i32 @__opencl_atomic_fetch_add_4(    %o = atomicrmw add ptr addrspace(4) %p,
//            ptr addrspace(4) %p, i32 %x,                  i32 %x monotonic, align 4
//            i32 0, i32 2)
//   %ok = call i1 @__opencl_atomic_compare_       %e0 = load i32, ptr addrspace(4) %e
//          exchange_4(ptr addrspace(4) %p,         %r = cmpxchg ptr addrspace(4) %p, i32 %e0,
//          ptr addrspace(4) %e, i32 %d,                 i32 %d acq_rel acquire
//          i32 4, i32 2, i32 2)                    %ok = extractvalue %r, 1
//                                                  br %ok, done, fail
//                                                  fail: store (extractvalue %r, 0), %e
//
// The scope needs no mark: the instructions are synchronised across the
// whole process (LLVM's default system scope), which includes every
// OpenCL scope, and on the host every address space is one memory.
//
// Limits: an order that is not a constant after inlining, or one C11 does
// not allow for the operation (a release load, an acquire store, a release
// failure order), is taken as sequentially consistent, the strongest.
#include "compiler/workgroup/AtomicPass.h"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <optional>

using namespace llvm;

namespace weft::compiler {

namespace {

constexpr StringLiteral Prefix = "__opencl_atomic_";

/// OpenCL C's memory_order values (opencl-c-base.h) as LLVM orderings;
/// anything else as sequentially consistent.
AtomicOrdering ordering(Value *Order) {
  auto *C = dyn_cast<ConstantInt>(Order);
  switch (C ? C->getZExtValue() : ~uint64_t(0)) {
  case 0:
    return AtomicOrdering::Monotonic;
  case 2:
    return AtomicOrdering::Acquire;
  case 3:
    return AtomicOrdering::Release;
  case 4:
    return AtomicOrdering::AcquireRelease;
  default:
    return AtomicOrdering::SequentiallyConsistent;
  }
}

AtomicOrdering forLoad(AtomicOrdering O) {
  return O == AtomicOrdering::Release || O == AtomicOrdering::AcquireRelease
             ? AtomicOrdering::SequentiallyConsistent
             : O;
}

AtomicOrdering forStore(AtomicOrdering O) {
  return O == AtomicOrdering::Acquire || O == AtomicOrdering::AcquireRelease
             ? AtomicOrdering::SequentiallyConsistent
             : O;
}

/// Replaces one library call; false if Call is not one of them.
bool lower(CallInst &Call) {
  Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || !Callee->getName().startswith(Prefix))
    return false;
  StringRef Name = Callee->getName().drop_front(Prefix.size());
  auto [Op, Size] = Name.rsplit('_');
  unsigned Bytes = 0;
  if (Size.getAsInteger(10, Bytes) || (Bytes != 1 && Bytes != 2 && Bytes != 4 && Bytes != 8))
    return false;
  Align Alignment(Bytes);
  IRBuilder<> B(&Call);
  Value *Ptr = Call.getArgOperand(0);
  Value *Result = nullptr;
  if (Op == "load") {
    LoadInst *L = B.CreateAlignedLoad(Call.getType(), Ptr, Alignment);
    L->setAtomic(forLoad(ordering(Call.getArgOperand(1))));
    Result = L;
  } else if (Op == "store") {
    StoreInst *S = B.CreateAlignedStore(Call.getArgOperand(1), Ptr, Alignment);
    S->setAtomic(forStore(ordering(Call.getArgOperand(2))));
  } else if (Op == "compare_exchange") {
    Value *ExpectedPtr = Call.getArgOperand(1), *Desired = Call.getArgOperand(2);
    AtomicOrdering Success = ordering(Call.getArgOperand(3));
    AtomicOrdering Failure = forLoad(ordering(Call.getArgOperand(4)));
    Value *Expected = B.CreateAlignedLoad(Desired->getType(), ExpectedPtr, Alignment);
    AtomicCmpXchgInst *X =
        B.CreateAtomicCmpXchg(Ptr, Expected, Desired, MaybeAlign(Alignment), Success, Failure);
    Value *Ok = B.CreateExtractValue(X, 1);
    // C11: the expected object is written only when the exchange fails.
    Instruction *OnFailure = SplitBlockAndInsertIfThen(B.CreateNot(Ok), &Call, false);
    IRBuilder<> F(OnFailure);
    F.CreateAlignedStore(F.CreateExtractValue(X, 0), ExpectedPtr, Alignment);
    Result = B.CreateZExtOrTrunc(Ok, Call.getType());
  } else {
    std::optional<AtomicRMWInst::BinOp> RMW =
        StringSwitch<std::optional<AtomicRMWInst::BinOp>>(Op)
            .Case("exchange", AtomicRMWInst::Xchg)
            .Case("fetch_add", AtomicRMWInst::Add)
            .Case("fetch_sub", AtomicRMWInst::Sub)
            .Case("fetch_and", AtomicRMWInst::And)
            .Case("fetch_or", AtomicRMWInst::Or)
            .Case("fetch_xor", AtomicRMWInst::Xor)
            .Case("fetch_min", AtomicRMWInst::Min)
            .Case("fetch_max", AtomicRMWInst::Max)
            .Case("fetch_umin", AtomicRMWInst::UMin)
            .Case("fetch_umax", AtomicRMWInst::UMax)
            .Default(std::nullopt);
    if (!RMW)
      return false;
    Result = B.CreateAtomicRMW(*RMW, Ptr, Call.getArgOperand(1), MaybeAlign(Alignment),
                               ordering(Call.getArgOperand(2)));
  }
  if (Result)
    Call.replaceAllUsesWith(Result);
  Call.eraseFromParent();
  return true;
}

} // namespace

PreservedAnalyses AtomicPass::run(Function &F, FunctionAnalysisManager &) {
  SmallVector<CallInst *, 8> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I))
      if (Function *Callee = Call->getCalledFunction();
          Callee && Callee->getName().startswith(Prefix))
        Calls.push_back(Call);
  bool Changed = false;
  for (CallInst *Call : Calls)
    Changed |= lower(*Call);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft::compiler
