// WorkGroupLoopPass: work-item function -> work-group function.
//
// Algorithm: for every work-item function __weft_wi_K emit
//   void __weft_wg_K(ptr Args, ptr Ctx)      ; runtime/program/KernelAbi.h WorkGroupFn
// which loads each kernel argument from Args[i] (a pointer argument: the
// pointer stored there; a by-value argument: the bytes there; a former
// byval struct: Args[i] itself, copied by the work-item function), then
//   without barriers (frame size 0):
//     for z < LS2: for y < LS1: for x < LS0: __weft_wi_K(args, Ctx, x, y, z, 0, null)
//   with barriers (n of them):
//     State = 0
//     do { Next = -1
//          switch State: for each k in 0..n, a nest of its own:
//            for z, y, x: Next = max(Next, __weft_wi_K(args, Ctx, x, y, z, k, Frames))
//          State = Next } while (State != -1)
//   Frames is Ctx->PrivateMem (the frame layout is BarrierStatePass's). With
//   k a constant, the inlined body of each nest keeps only the code between
//   barrier k and the next ones: the dispatch switch folds away, and the
//   loop vectorizer (which LLVM 15 does not run on a loop with a switch)
//   vectorizes the work-items of each region. All work-items return the
//   same state; max makes it a reduction the vectorizer accepts. Kernels
//   with more than MaxRegionNests states keep one nest passing State itself.
// The work-item function is then marked alwaysinline (the always-inliner
// runs after this pass), so the x loop holds the kernel body and the loop
// vectorizer sees an ordinary counted loop over work-items.
//
// Before: define internal i32 @__weft_wi_k(ptr addrspace(1) %p, ptr %ctx, i64 %lx, ...)
// After:  define void @__weft_wg_k(ptr %args, ptr %ctx) {
//           %a0 = load ptr, ptr %args ; %p = load ptr addrspace(1), ptr %a0
//           z/y/x loops: call i32 @__weft_wi_k(%p, %ctx, %x, %y, %z, 0, null) }
// Limits: the state of the whole group is the largest any work-item
// returned (they all return the same one; see BarrierStatePass).
#include "compiler/workgroup/WorkGroupLoopPass.h"
#include "compiler/workgroup/DeviceEnqueuePass.h"

#include "compiler/workgroup/WorkGroupContextLayout.h"
#include "compiler/workgroup/WorkItemBuiltinPass.h"
#include "compiler/workgroup/WorkItemFunction.h"
#include "runtime/platform/Capabilities.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace weft::compiler {

namespace {

/// Kernels with more states than this (barriers + 1) keep one nest that
/// dispatches on the state inside the x loop (a switch: LLVM 15 does not
/// vectorize that loop), which bounds how many copies of the body the
/// inliner makes.
constexpr uint64_t MaxRegionNests = 32;

/// Emits `IV = 0; do { Body(IV); } while (++IV < Count)` at B's position and
/// leaves B at the loop exit. Count is at least 1 (a local size). The loop
/// is marked with the attribute Marker (wi::WorkItemLoopMD on the x axis,
/// wi::WorkItemRowsMD on the others).
void emitCountedLoop(IRBuilder<> &B, Value *Count, const Twine &Name,
                     function_ref<void(Value *)> Body, const char *Marker) {
  Function *F = B.GetInsertBlock()->getParent();
  LLVMContext &C = F->getContext();
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Head = BasicBlock::Create(C, Name + ".loop", F);
  BasicBlock *Exit = BasicBlock::Create(C, Name + ".exit", F);
  B.CreateBr(Head);
  B.SetInsertPoint(Head);
  PHINode *IV = B.CreatePHI(B.getInt64Ty(), 2, Name);
  IV->addIncoming(B.getInt64(0), Pre);
  Body(IV);
  Value *Next = B.CreateAdd(IV, B.getInt64(1), Name + ".next", /*HasNUW=*/true, /*HasNSW=*/true);
  IV->addIncoming(Next, B.GetInsertBlock());
  BranchInst *Latch = B.CreateCondBr(B.CreateICmpULT(Next, Count), Head, Exit);
  SmallVector<Metadata *, 3> Ops = {nullptr, MDNode::get(C, MDString::get(C, Marker))};
  // A row loop whose rows are one vector each once the x loop is vectorized
  // is RowInterleavePass's, at the end of O3: LLVM's unroller, before it,
  // would lay the rows one after another, as many as the CPU's unrolling
  // preferences say (four on Zen 3 tuning, none on Sapphire Rapids), and
  // leave the pass nothing of its form to take.
  if (StringRef(Marker) == wi::WorkItemRowsMD)
    Ops.push_back(MDNode::get(C, MDString::get(C, "llvm.loop.unroll.disable")));
  TempMDTuple Self = MDNode::getTemporary(C, None);
  Ops[0] = Self.get();
  MDNode *Id = MDNode::get(C, Ops);
  Id->replaceOperandWith(0, Id);
  Latch->setMetadata(LLVMContext::MD_loop, Id);
  B.SetInsertPoint(Exit);
}

/// The sub-groups' areas of a group's collective scratch
/// (runtime/program/CollectiveScratch.h), where the work-group function
/// tells the sub-group built-ins which work-items run a region.
class SubGroupAreas {
public:
  SubGroupAreas(IRBuilder<> &B, Value *Ctx, Value *Items, uint64_t Width)
      : Items(Items), Width(Width) {
    Scratch = B.CreateLoad(
        B.getPtrTy(), B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ctx, ctx::CollectiveScratch),
        "scratch");
  }
  /// Sub-group Sg's work-items that run: the bits of Active.
  void publish(IRBuilder<> &B, Value *Sg, Value *Active) const {
    Value *Area = WorkItemBuiltinPass::subGroupArea(B, Scratch, Items, Sg, Width);
    B.CreateAlignedStore(
        Active, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Area, WEFT_SUB_GROUP_ACTIVE), Align(8));
  }
  /// The bits of all Count (1 to 64) work-items of a sub-group.
  static Value *all(IRBuilder<> &B, Value *Count) {
    return B.CreateLShr(B.getInt64(~uint64_t(0)), B.CreateSub(B.getInt64(64), Count));
  }
  /// Every sub-group of the group runs whole.
  void publishWhole(IRBuilder<> &B) const {
    Value *N = B.getInt64(Width);
    Value *Count = B.CreateUDiv(B.CreateAdd(Items, B.getInt64(Width - 1)), N, "sub.groups");
    emitCountedLoop(
        B, Count, "sg.whole",
        [&](Value *Sg) {
          Value *Begin = B.CreateMul(Sg, N);
          publish(B, Sg, all(B, B.CreateBinaryIntrinsic(Intrinsic::umin, N, B.CreateSub(Items, Begin))));
        },
        wi::SubGroupLoopMD);
  }

private:
  Value *Scratch;
  Value *Items;
  uint64_t Width;
};

/// The work-group function's body for a work-item function with sub-group
/// syncs (wi::SubGroupStatesAttr). A group's sub-groups are its work-items
/// in linear-id order, N at a time (N = wi::SubGroupSizeAttr; the last one
/// perhaps smaller). Each work-item keeps the state it stopped at
/// (LaneStates), and the sub-groups take turns, a region each:
///
///   State = 0
///   do { for sg: run region State for sg's work-items      ; first pass
///        do { Any = false                                  ; rounds
///             for sg: T = the smallest sub-group-sync state of sg's
///                         work-items; none: sg waits at a work-group
///                         barrier or is done
///                     Any = true
///                     publish which of sg's work-items are in state T
///                     run region T for sg's work-items in state T
///                     (all of them, without checking, when they all are)
///        } while (Any)
///        State = the largest state of any work-item
///   } while (State != -1)
///
/// Running region K for a range of work-items is a nest of its own for
/// each K: row segments of the range (one segment of N work-items when
/// LS0 is a multiple of N), each an x loop calling the work-item function
/// with K, whose result goes to the work-item's LaneStates entry. Taking
/// turns region by region keeps every sub-group going while another spins
/// on an atomic (BarrierStatePass gives such loops a sub-group sync); the
/// smallest state first lets work-items that branched apart meet again
/// (BarrierStatePass numbers states so: a loop's before those after it).
/// The work-items of a turn are the active ones of the sub-group functions
/// (sub_group_elect, the non_uniform and clustered ones): the turn writes
/// them as a bit mask into the sub-group's area of the collective scratch
/// (runtime/program/CollectiveScratch.h), where src/builtins/SubGroups.cl
/// reads it right after a sync.
void emitSubGroupStateLoops(Function &WI, IRBuilder<> &B, ArrayRef<Value *> CallArgs, Value *Ctx,
                            Value *const (&LS)[3], Value *Uniform) {
  Function *WG = B.GetInsertBlock()->getParent();
  Module &M = *WG->getParent();
  LLVMContext &C = WG->getContext();
  Type *Ptr = PointerType::get(C, 0);
  Type *I32 = B.getInt32Ty();
  const uint64_t Width = wi::subGroupSize(WI);
  const StringRef States = WI.getFnAttribute(wi::SubGroupStatesAttr).getValueAsString();
  const uint64_t NumStates = States.size();
  // Which states resume after a sub-group sync, as a table of bytes.
  SmallVector<uint8_t, 32> Flags;
  for (char F : States)
    Flags.push_back(F == '1');
  auto *Table = new GlobalVariable(M, ArrayType::get(B.getInt8Ty(), NumStates), true,
                                   GlobalValue::PrivateLinkage, ConstantDataArray::get(C, Flags),
                                   WG->getName() + ".sub.states");
  Table->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);

  Value *FrameBase = B.CreateLoad(
      Ptr, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ctx, ctx::PrivateMem), "frames");
  Value *N = B.getInt64(Width);
  Value *Items = B.CreateMul(B.CreateMul(LS[0], LS[1], "", true, true), LS[2], "items", true, true);
  Value *NumSubGroups = B.CreateUDiv(B.CreateAdd(Items, B.getInt64(Width - 1)), N, "sub.groups");
  Value *WholeRows = B.CreateICmpEQ(B.CreateURem(LS[0], N), B.getInt64(0), "whole.rows");
  const SubGroupAreas Areas(B, Ctx, Items, Width);
  const bool WholeAtBarriers = WI.hasFnAttribute(wi::SubGroupBarriersAttr);
  AllocaInst *LaneStates = B.CreateAlloca(I32, Items, "lane.states");
  LaneStates->setAlignment(Align(64));
  AllocaInst *AnySlot = B.CreateAlloca(B.getInt1Ty(), nullptr, "any.turn");

  auto laneState = [&](Value *Lin) { return B.CreateInBoundsGEP(I32, LaneStates, Lin); };
  // Whether state S (-1 to NumStates - 1) resumes after a sub-group sync.
  auto isSubGroupState = [&](Value *S) {
    Value *Index =
        B.CreateZExt(B.CreateBinaryIntrinsic(Intrinsic::smax, S, B.getInt32(0)), B.getInt64Ty());
    Value *Flag = B.CreateLoad(
        B.getInt8Ty(), B.CreateInBoundsGEP(Table->getValueType(), Table, {B.getInt64(0), Index}));
    return B.CreateAnd(B.CreateICmpSGE(S, B.getInt32(0)), B.CreateICmpNE(Flag, B.getInt8(0)));
  };
  // A counted loop over [Begin, End) that is not a loop over work-items.
  auto forRange = [&](Value *Begin, Value *End, const Twine &Name,
                      function_ref<void(Value *)> Body) {
    emitCountedLoop(
        B, B.CreateSub(End, Begin), Name, [&](Value *I) { Body(B.CreateAdd(Begin, I)); },
        wi::SubGroupLoopMD);
  };

  // Region K for the work-items [Begin, End) (only those in state K if
  // Checked), each storing the state it stops at.
  auto emitLanes = [&](Value *K, Value *Begin, Value *End, bool Checked) {
    BasicBlock *Pre = B.GetInsertBlock();
    BasicBlock *Head = BasicBlock::Create(C, "segment", WG);
    BasicBlock *Exit = BasicBlock::Create(C, "segment.exit", WG);
    B.CreateBr(Head);
    B.SetInsertPoint(Head);
    PHINode *Lin = B.CreatePHI(B.getInt64Ty(), 2, "lin");
    Lin->addIncoming(Begin, Pre);
    Value *X0 = B.CreateURem(Lin, LS[0], "x0");
    Value *Row = B.CreateUDiv(Lin, LS[0], "row");
    Value *Y = B.CreateURem(Row, LS[1], "y");
    Value *Z = B.CreateUDiv(Row, LS[1], "z");
    Value *Rest = B.CreateSub(End, Lin, "rest", true, true);
    Value *InRow = B.CreateBinaryIntrinsic(Intrinsic::umin, B.CreateSub(LS[0], X0), Rest);
    Value *Count = B.CreateSelect(WholeRows, Rest, InRow, "count");
    emitCountedLoop(
        B, Count, "x",
        [&](Value *I) {
          Value *Slot = laneState(B.CreateAdd(Lin, I, "", true, true));
          BasicBlock *Cont = nullptr;
          if (Checked) {
            BasicBlock *Run = BasicBlock::Create(C, "lane.run", WG);
            Cont = BasicBlock::Create(C, "lane.next", WG);
            B.CreateCondBr(B.CreateICmpEQ(B.CreateLoad(I32, Slot), K), Run, Cont);
            B.SetInsertPoint(Run);
          }
          SmallVector<Value *, 16> A(CallArgs.begin(), CallArgs.end());
          A.append({Ctx, B.CreateAdd(X0, I, "lx", true, true), Y, Z, K, FrameBase, Uniform});
          B.CreateStore(B.CreateCall(&WI, A), Slot);
          if (Cont) {
            B.CreateBr(Cont);
            B.SetInsertPoint(Cont);
          }
        },
        wi::WorkItemLoopMD);
    Value *Next = B.CreateAdd(Lin, Count, "lin.next", true, true);
    Lin->addIncoming(Next, B.GetInsertBlock());
    B.CreateCondBr(B.CreateICmpULT(Next, End), Head, Exit);
    B.SetInsertPoint(Exit);
  };
  // Region T (one of the states Which selects) for [Begin, End): a nest
  // per state with the state a constant, or one nest passing T.
  auto emitRegions = [&](Value *T, Value *Begin, Value *End, bool Checked, char Which,
                         const Twine &Name) {
    if (NumStates > MaxRegionNests) {
      emitLanes(T, Begin, End, Checked);
      return;
    }
    BasicBlock *Done = BasicBlock::Create(C, Name + ".done", WG);
    SwitchInst *Dispatch = B.CreateSwitch(T, Done);
    for (uint64_t K = 0; K < NumStates; ++K) {
      if (States[K] != Which)
        continue;
      BasicBlock *Region = BasicBlock::Create(C, Name + Twine(K), WG, Done);
      Dispatch->addCase(B.getInt32(K), Region);
      B.SetInsertPoint(Region);
      emitLanes(B.getInt32(K), Begin, End, Checked);
      B.CreateBr(Done);
    }
    B.SetInsertPoint(Done);
  };
  auto subGroupRange = [&](Value *Sg) {
    Value *Begin = B.CreateMul(Sg, N, "sg.begin", true, true);
    return std::make_pair(Begin,
                          B.CreateBinaryIntrinsic(Intrinsic::umin, B.CreateAdd(Begin, N), Items));
  };

  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Head = BasicBlock::Create(C, "state.loop", WG);
  BasicBlock *Exit = BasicBlock::Create(C, "done", WG);
  B.CreateBr(Head);
  B.SetInsertPoint(Head);
  PHINode *State = B.CreatePHI(I32, 2, "state");
  State->addIncoming(B.getInt32(0), Pre);
  // The first pass: every sub-group from the group's state.
  emitCountedLoop(
      B, NumSubGroups, "sg.first",
      [&](Value *Sg) {
        auto [Begin, End] = subGroupRange(Sg);
        // After a sync made a barrier (or the start), all of the
        // sub-group's work-items.
        if (WholeAtBarriers)
          Areas.publish(B, Sg, SubGroupAreas::all(B, B.CreateSub(End, Begin)));
        emitRegions(State, Begin, End, /*Checked=*/false, '0', "region");
      },
      wi::SubGroupLoopMD);
  // The rounds: a turn for each sub-group with work-items after a sync.
  BasicBlock *Round = BasicBlock::Create(C, "round", WG);
  B.CreateBr(Round);
  B.SetInsertPoint(Round);
  B.CreateStore(B.getFalse(), AnySlot);
  emitCountedLoop(
      B, NumSubGroups, "sg",
      [&](Value *Sg) {
        auto [Begin, End] = subGroupRange(Sg);
        // The smallest sub-group-sync state, and whether every work-item
        // is in it.
        AllocaInst *MinSlot = B.CreateAlloca(I32, nullptr, "turn.min");
        MinSlot->moveBefore(AnySlot);
        B.CreateStore(B.getInt32(INT32_MAX), MinSlot);
        AllocaInst *AllSlot = B.CreateAlloca(B.getInt1Ty(), nullptr, "turn.same");
        AllSlot->moveBefore(AnySlot);
        B.CreateStore(B.getTrue(), AllSlot);
        Value *First = B.CreateLoad(I32, laneState(Begin), "first.state");
        forRange(Begin, End, "scan", [&](Value *Lin) {
          Value *S = B.CreateLoad(I32, laneState(Lin));
          Value *Min = B.CreateLoad(I32, MinSlot);
          B.CreateStore(B.CreateSelect(isSubGroupState(S),
                                       B.CreateBinaryIntrinsic(Intrinsic::smin, Min, S), Min),
                        MinSlot);
          B.CreateStore(B.CreateAnd(B.CreateLoad(B.getInt1Ty(), AllSlot), B.CreateICmpEQ(S, First)),
                        AllSlot);
        });
        Value *T = B.CreateLoad(I32, MinSlot, "turn");
        BasicBlock *Take = BasicBlock::Create(C, "turn.take", WG);
        BasicBlock *Whole = BasicBlock::Create(C, "turn.whole", WG);
        BasicBlock *Part = BasicBlock::Create(C, "turn.part", WG);
        BasicBlock *Skip = BasicBlock::Create(C, "turn.end", WG);
        B.CreateCondBr(B.CreateICmpEQ(T, B.getInt32(INT32_MAX)), Skip, Take);
        B.SetInsertPoint(Take);
        B.CreateStore(B.getTrue(), AnySlot);
        B.CreateCondBr(B.CreateLoad(B.getInt1Ty(), AllSlot), Whole, Part);
        B.SetInsertPoint(Whole);
        // All of the sub-group's n work-items: the low n bits.
        Areas.publish(B, Sg, SubGroupAreas::all(B, B.CreateSub(End, Begin)));
        emitRegions(T, Begin, End, /*Checked=*/false, '1', "turn");
        B.CreateBr(Skip);
        B.SetInsertPoint(Part);
        AllocaInst *ActiveSlot = B.CreateAlloca(B.getInt64Ty(), nullptr, "turn.active");
        ActiveSlot->moveBefore(AnySlot);
        B.CreateStore(B.getInt64(0), ActiveSlot);
        // (A structured binding cannot be captured before C++20.)
        Value *Lowest = Begin;
        forRange(Begin, End, "active", [&](Value *Lin) {
          Value *In = B.CreateZExt(B.CreateICmpEQ(B.CreateLoad(I32, laneState(Lin)), T),
                                   B.getInt64Ty());
          B.CreateStore(B.CreateOr(B.CreateLoad(B.getInt64Ty(), ActiveSlot),
                                   B.CreateShl(In, B.CreateSub(Lin, Lowest))),
                        ActiveSlot);
        });
        Areas.publish(B, Sg, B.CreateLoad(B.getInt64Ty(), ActiveSlot));
        emitRegions(T, Begin, End, /*Checked=*/true, '1', "turn.some");
        B.CreateBr(Skip);
        B.SetInsertPoint(Skip);
      },
      wi::SubGroupLoopMD);
  BasicBlock *RoundExit = BasicBlock::Create(C, "round.exit", WG);
  B.CreateCondBr(B.CreateLoad(B.getInt1Ty(), AnySlot), Round, RoundExit);
  B.SetInsertPoint(RoundExit);
  // On from the largest state any work-item stopped at (they all stop at
  // the same barrier, or return).
  AllocaInst *NextSlot = B.CreateAlloca(I32, nullptr, "next.state");
  NextSlot->moveBefore(AnySlot);
  B.CreateStore(B.getInt32(-1), NextSlot);
  forRange(B.getInt64(0), Items, "next", [&](Value *Lin) {
    B.CreateStore(B.CreateBinaryIntrinsic(Intrinsic::smax, B.CreateLoad(I32, NextSlot),
                                          B.CreateLoad(I32, laneState(Lin))),
                  NextSlot);
  });
  Value *Next = B.CreateLoad(I32, NextSlot, "next");
  State->addIncoming(Next, B.GetInsertBlock());
  B.CreateCondBr(B.CreateICmpEQ(Next, B.getInt32(-1)), Exit, Head);
  B.SetInsertPoint(Exit);
  B.CreateRetVoid();
}

void emitWorkGroupFunction(Function &WI) {
  Module &M = *WI.getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0);
  FunctionType *Ty = FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr}, false);
  StringRef Kernel = WI.getFnAttribute(wi::KernelAttr).getValueAsString();
  Function *WG = Function::Create(Ty, GlobalValue::ExternalLinkage, wi::WorkGroupPrefix + Kernel, M);
  WG->setVisibility(GlobalValue::DefaultVisibility);
  WG->addFnAttr(Attribute::NoUnwind);
  // Work-items' private variables must lie between the stack pointer and
  // the caller's frame, where to_private and get_fence look for them (see
  // WorkItemBuiltinPass); a red zone would put a leaf's locals below it.
  WG->addFnAttr(Attribute::NoRedZone);
  for (const char *A :
       {wi::KernelAttr, wi::FrameSizeAttr, wi::LocalSizeAttr, wi::PrivateSizeAttr, wi::PrintfAttr,
        wi::GroupShapeAttr, wi::ConditionArgsAttr, wi::BarrierCountAttr, wi::SubGroupSizeAttr,
        wi::SubGroupStatesAttr, wi::SubGroupBarriersAttr, DeviceEnqueuePass::UsesAttr})
    if (WI.hasFnAttribute(A))
      WG->addFnAttr(WI.getFnAttribute(A));
  for (const char *A : {"target-cpu", "target-features", "prefer-vector-width"})
    if (WI.hasFnAttribute(A))
      WG->addFnAttr(WI.getFnAttribute(A));
  Argument *Args = WG->getArg(0);
  Argument *Ctx = WG->getArg(1);
  Args->setName("args");
  Ctx->setName("ctx");
  // The argument array and the context are the runtime's, read-only here and
  // never reachable through a kernel pointer. Saying so lets LICM hoist the
  // context loads (group id, offsets, sizes) out of the work-item loops and
  // the loop vectorizer work on the x loop.
  // Both are dereferenceable whole, too: a context load on a path only some
  // work-items take (a query after `if (i < n)`) is hoisted out of the x
  // loop, instead of becoming a masked gather of one address in every lane
  // of the vectorized loop.
  unsigned NumArgs = wi::numKernelArgs(WI);
  for (Argument *A : {Args, Ctx}) {
    A->addAttr(Attribute::NoAlias);
    A->addAttr(Attribute::NoCapture);
    A->addAttr(Attribute::ReadOnly);
    A->addAttr(Attribute::getWithAlignment(C, Align(alignof(rt::WorkGroupContext))));
  }
  if (NumArgs > 0)
    Args->addAttr(Attribute::getWithDereferenceableBytes(C, uint64_t(NumArgs) * sizeof(void *)));
  Ctx->addAttr(Attribute::getWithDereferenceableBytes(C, sizeof(rt::WorkGroupContext)));

  IRBuilder<> B(BasicBlock::Create(C, "entry", WG));
  SmallVector<Value *, 16> CallArgs;
  for (unsigned I = 0; I < NumArgs; ++I) {
    Argument *P = WI.getArg(I);
    Value *Slot = B.CreateLoad(Ptr, B.CreateConstInBoundsGEP1_64(Ptr, Args, I), "arg" + Twine(I) + ".slot");
    if (WI.getAttributes().hasParamAttr(I, wi::ByValAttr)) {
      CallArgs.push_back(Slot);
      continue;
    }
    LoadInst *V = B.CreateLoad(P->getType(), Slot, P->getName());
    V->setAlignment(Align(1));
    CallArgs.push_back(V);
  }
  Value *LS[3];
  // A local size is 1 to rt::MaxWorkGroupSize (the runtime checks every
  // launch, from the host or the device): ScalarEvolution then bounds the
  // work-item loops' trip counts, and an `int` local id provably does not
  // wrap (ActiveRangePass).
  MDNode *LocalSizeRange =
      MDBuilder(C).createRange(APInt(64, 1), APInt(64, rt::MaxWorkGroupSize + 1));
  for (unsigned D = 0; D < 3; ++D) {
    LoadInst *L = B.CreateLoad(
        B.getInt64Ty(), B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ctx, ctx::LocalSize + 8 * D),
        "ls" + Twine(D));
    L->setMetadata(LLVMContext::MD_range, LocalSizeRange);
    LS[D] = L;
  }
  uint64_t FrameSize = wi::sizeAttr(WI, wi::FrameSizeAttr);

  // The two copies of the values every work-item holds alike (see
  // wi::UniformSizeAttr): on this function's stack, which no kernel pointer
  // reaches, so alias analysis keeps them apart from every other access.
  uint64_t UniformSize = wi::sizeAttr(WI, wi::UniformSizeAttr);
  Value *Uniform = Constant::getNullValue(Ptr);
  if (UniformSize > 0) {
    AllocaInst *Area = B.CreateAlloca(B.getInt8Ty(), B.getInt64(2 * UniformSize), "uniform");
    Area->setAlignment(Align(16));
    Uniform = Area;
  }
  auto nextRegion = [&] {
    if (UniformSize > 0)
      B.CreateMemCpy(Uniform, Align(16),
                     B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Uniform, UniformSize), Align(16),
                     UniformSize);
  };

  auto emitNest = [&](Value *State, Value *FrameBase, AllocaInst *NextSlot) {
    emitCountedLoop(
        B, LS[2], "z",
        [&](Value *Z) {
          emitCountedLoop(
              B, LS[1], "y",
              [&](Value *Y) {
                emitCountedLoop(
                    B, LS[0], "x",
                    [&](Value *X) {
                      SmallVector<Value *, 16> A = CallArgs;
                      Value *Frames = FrameBase ? FrameBase : Constant::getNullValue(Ptr);
                      A.append({Ctx, X, Y, Z, State, Frames, Uniform});
                      CallInst *R = B.CreateCall(&WI, A);
                      // Next = max(Next, R): a reduction the loop vectorizer handles
                      // (a value the last work-item left would be a live-out it cannot).
                      if (NextSlot)
                        B.CreateStore(
                            B.CreateBinaryIntrinsic(Intrinsic::smax,
                                                    B.CreateLoad(B.getInt32Ty(), NextSlot), R),
                            NextSlot);
                    },
                    wi::WorkItemLoopMD);
              },
              wi::WorkItemRowsMD);
        },
        wi::WorkItemRowsMD);
  };

  if (FrameSize == 0) {
    emitNest(B.getInt32(0), nullptr, nullptr);
    B.CreateRetVoid();
  } else if (WI.hasFnAttribute(wi::SubGroupStatesAttr)) {
    emitSubGroupStateLoops(WI, B, CallArgs, Ctx, LS, Uniform);
  } else {
    AllocaInst *NextSlot = B.CreateAlloca(B.getInt32Ty(), nullptr, "next.state");
    Value *FrameBase = B.CreateLoad(Ptr, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ctx, ctx::PrivateMem), "frames");
    // Sub-group syncs made barriers: every region runs whole sub-groups.
    if (WI.hasFnAttribute(wi::SubGroupBarriersAttr)) {
      Value *Items = B.CreateMul(B.CreateMul(LS[0], LS[1], "", true, true), LS[2], "items", true,
                                 true);
      SubGroupAreas(B, Ctx, Items, wi::subGroupSize(WI)).publishWhole(B);
    }
    BasicBlock *Pre = B.GetInsertBlock();
    BasicBlock *Head = BasicBlock::Create(C, "state.loop", WG);
    BasicBlock *Exit = BasicBlock::Create(C, "done", WG);
    B.CreateBr(Head);
    B.SetInsertPoint(Head);
    PHINode *State = B.CreatePHI(B.getInt32Ty(), 2, "state");
    State->addIncoming(B.getInt32(0), Pre);
    B.CreateStore(B.getInt32(-1), NextSlot);
    BasicBlock *Latch = BasicBlock::Create(C, "state.latch", WG);
    uint64_t NumStates = wi::sizeAttr(WI, wi::BarrierCountAttr) + 1;
    if (NumStates <= MaxRegionNests) {
      // One nest per state, each calling the work-item function with its
      // state as a constant: after inlining, each x loop holds only the
      // code from its barrier to the next ones, free of the dispatch switch.
      SwitchInst *Dispatch = B.CreateSwitch(State, Latch, NumStates);
      for (uint64_t K = 0; K < NumStates; ++K) {
        BasicBlock *Region = BasicBlock::Create(C, "region" + Twine(K), WG, Latch);
        Dispatch->addCase(B.getInt32(K), Region);
        B.SetInsertPoint(Region);
        emitNest(B.getInt32(K), FrameBase, NextSlot);
        nextRegion();
        B.CreateBr(Latch);
      }
    } else {
      emitNest(State, FrameBase, NextSlot);
      nextRegion();
      B.CreateBr(Latch);
    }
    B.SetInsertPoint(Latch);
    Value *Next = B.CreateLoad(B.getInt32Ty(), NextSlot, "next");
    State->addIncoming(Next, Latch);
    B.CreateCondBr(B.CreateICmpEQ(Next, B.getInt32(-1)), Exit, Head);
    B.SetInsertPoint(Exit);
    B.CreateRetVoid();
  }
  WI.setLinkage(GlobalValue::InternalLinkage);
  WI.removeFnAttr(Attribute::NoInline);
  WI.addFnAttr(Attribute::AlwaysInline);
}

} // namespace

PreservedAnalyses WorkGroupLoopPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<Function *, 8> WorkItemFns;
  for (Function &F : M)
    if (wi::isWorkItemFunction(F) && !F.isDeclaration())
      WorkItemFns.push_back(&F);
  for (Function *WI : WorkItemFns)
    emitWorkGroupFunction(*WI);
  return PreservedAnalyses::none();
}

LoadInst *WorkGroupLoopPass::argumentValue(Function &WG, unsigned Index) {
  if (WG.arg_empty())
    return nullptr;
  Argument *Args = WG.getArg(0);
  const DataLayout &DL = WG.getParent()->getDataLayout();
  for (Instruction &I : WG.getEntryBlock()) {
    auto *Slot = dyn_cast<LoadInst>(&I);
    if (!Slot || !Slot->getType()->isPointerTy())
      continue;
    APInt Offset(DL.getIndexTypeSizeInBits(Args->getType()), 0);
    const Value *Base =
        Slot->getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Offset, true);
    if (Base != Args || Offset != uint64_t(Index) * DL.getPointerSize())
      continue;
    for (User *U : Slot->users())
      if (auto *Value = dyn_cast<LoadInst>(U); Value && Value->getPointerOperand() == Slot)
        return Value;
  }
  return nullptr;
}

namespace {

/// Loop ID Id of an x loop with llvm.loop.unroll.disable added (Hold) or
/// taken out (its other options kept), or null if it is not an x loop or
/// already so.
MDNode *withUnrollHold(MDNode *Id, bool Hold) {
  constexpr const char *Disable = "llvm.loop.unroll.disable";
  if (!Id || !findOptionMDForLoopID(Id, wi::WorkItemLoopMD) ||
      (findOptionMDForLoopID(Id, Disable) != nullptr) == Hold)
    return nullptr;
  LLVMContext &C = Id->getContext();
  SmallVector<Metadata *, 4> Ops = {nullptr};
  for (const MDOperand &Op : drop_begin(Id->operands())) {
    const auto *Option = dyn_cast<MDNode>(Op.get());
    const auto *Name =
        Option && Option->getNumOperands() ? dyn_cast<MDString>(Option->getOperand(0)) : nullptr;
    if (!Name || Name->getString() != Disable)
      Ops.push_back(Op.get());
  }
  if (Hold)
    Ops.push_back(MDNode::get(C, MDString::get(C, Disable)));
  MDNode *New = MDNode::getDistinct(C, Ops);
  New->replaceOperandWith(0, New);
  return New;
}

} // namespace

void WorkGroupLoopPass::holdWorkItemLoops(Function &WG) {
  for (BasicBlock &BB : WG)
    if (Instruction *Latch = BB.getTerminator())
      if (MDNode *Held = withUnrollHold(Latch->getMetadata(LLVMContext::MD_loop), true))
        Latch->setMetadata(LLVMContext::MD_loop, Held);
}

PreservedAnalyses ReleaseWorkItemLoopsPass::run(Function &F, FunctionAnalysisManager &FAM) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  bool Changed = false;
  for (Loop *L : LI.getLoopsInPreorder())
    if (MDNode *Released = withUnrollHold(L->getLoopID(), false)) {
      L->setLoopID(Released);
      Changed = true;
    }
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA = PreservedAnalyses::none();
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace weft::compiler
