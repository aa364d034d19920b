// AtomicLanePass (see the header).
//
// Taken: an innermost work-item loop L (wi::WorkItemLoopMD) not yet
// vectorized, whose atomic instructions are all `atomicrmw` add, sub, and,
// or, xor, max, min, umax or umin on an i32 or i64, not volatile, aligned to
// their size, each either
//   - in a block every iteration runs (it dominates the latch), or
//   - at the start of the work behind an if: in a block B whose only
//     predecessor P runs on every iteration and branches to B or to a block
//     M of L.
// Any other atomic (an exchange, a compare-exchange, an atomic load or
// store, a fence) leaves L as it is.
//
// 1. An atomic behind an if moves to a new block J that both sides of the
//    if reach; J runs the rest of B after it only where B ran. Values of B
//    used after the atomic cross J as phis (poison from P's side):
//
//      P: br %c, %B, %M                    P: br %c, %B, %J
//      B: %p = gep %bins, %v               B: %p = gep %bins, %v
//         %o = atomicrmw add %p, 1            br %J
//         store %o, %out                   J: %p.j = phi [%p, %B], [poison, %P]
//         br %M                               %on = phi [true, %B], [false, %P]
//                                             %o = call @__weft_lane_atomic.i32.p1(
//                                                    %p.j, 1, %on, add, order, scope)
//                                             br %on, %T, %M
//                                          T: store %o, %out
//                                             br %M
//
//    (M's phis take P's value from J.) An atomic every iteration runs
//    becomes the call in place, with `true` for %on. The call is declared
//    to only read memory, which is what lets the vectorizer take it (its
//    memory checks see loads and stores only); the lie lives from here to
//    step 3, and no other pass runs in between.
// 2. The loop vectorizer runs on the function (after InjectTLIMappings, as
//    in O3, so that math calls keep their vector forms). The call's
//    declared vector forms (vector-function-abi-variant, 2 to 64 lanes)
//    take every operand as a vector; the vectorizer makes J's phis selects
//    and masks T's stores.
// 3. Every call becomes atomics again. A scalar one (the loop's remainder,
//    or a loop the vectorizer left) is `if (on) atomicrmw`. A vector one is
//    a loop over the groups of active lanes that share an address:
//
//      active = bits(on)
//      while (active) {
//        p = ptrs[cttz(active)]
//        group = bits(ptrs == p) & active
//        old = atomicrmw op p, reduce.op(group ? vals : identity)
//        if the result is used:          (lanes of group, in order)
//          run = old; for l in group: r[l] = run; run = run op vals[l]
//        active ^= group
//      }
//
// Limits: an atomic under two nested ifs, or after other work behind its
// if, keeps its loop scalar, as does a loop with any other kind of atomic;
// a floating-point atomic add is not combined (the sum's rounding would
// depend on the grouping). The combining loop costs a few instructions per
// distinct address, so a vector whose lanes all name different addresses
// still does one locked instruction per lane.
#include "compiler/vectorize/AtomicLanePass.h"

#include "compiler/workgroup/WorkItemFunction.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/InjectTLIMappings.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/LowerAtomic.h>
#include <llvm/Transforms/Vectorize/LoopVectorize.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace llvm;

namespace weft::compiler {

namespace {

constexpr StringLiteral CallPrefix = "__weft_lane_atomic.";
/// The widest vector form: its lowering compares each lane with each other.
constexpr unsigned MaxLanes = 16;

/// The call's operands: pointer, value, active, then these as i32.
enum LaneCallArg { PointerOp, ValueOp, ActiveOp, OperationOp, OrderOp, ScopeOp };

bool combinable(const AtomicRMWInst &A, const DataLayout &DL) {
  switch (A.getOperation()) {
  case AtomicRMWInst::Add:
  case AtomicRMWInst::Sub:
  case AtomicRMWInst::And:
  case AtomicRMWInst::Or:
  case AtomicRMWInst::Xor:
  case AtomicRMWInst::Max:
  case AtomicRMWInst::Min:
  case AtomicRMWInst::UMax:
  case AtomicRMWInst::UMin:
    break;
  default:
    return false;
  }
  Type *T = A.getType();
  return !A.isVolatile() && T->isIntegerTy() &&
         (T->getIntegerBitWidth() == 32 || T->getIntegerBitWidth() == 64) &&
         A.getAlign().value() >= DL.getTypeStoreSize(T);
}

/// Where an atomic of L stands: in a block every iteration runs, or first
/// behind an if (the predecessor that decides; see the .cpp's head).
struct Place {
  bool Always = false;
  BasicBlock *Decider = nullptr;
};

std::optional<Place> placeOf(AtomicRMWInst &A, Loop &L, LoopInfo &LI, DominatorTree &DT) {
  BasicBlock *B = A.getParent();
  BasicBlock *Latch = L.getLoopLatch();
  if (LI.getLoopFor(B) != &L)
    return std::nullopt;
  if (DT.dominates(B, Latch))
    return Place{true, nullptr};
  BasicBlock *P = B->getSinglePredecessor();
  auto *Br = P ? dyn_cast<BranchInst>(P->getTerminator()) : nullptr;
  if (!Br || !Br->isConditional() || LI.getLoopFor(P) != &L || !DT.dominates(P, Latch))
    return std::nullopt;
  BasicBlock *Other = Br->getSuccessor(Br->getSuccessor(0) == B ? 1 : 0);
  if (Other == B || !L.contains(Other))
    return std::nullopt;
  // A later atomic of B is first in the rest of B once the first has moved,
  // whose only predecessor is then the new join.
  return Place{false, P};
}

/// Whether L has atomics, and every one can become a lane call.
bool allTaken(Loop &L, LoopInfo &LI, DominatorTree &DT, const DataLayout &DL) {
  bool Any = false;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (auto *A = dyn_cast<AtomicRMWInst>(&I)) {
        if (!combinable(*A, DL) || !placeOf(*A, L, LI, DT))
          return false;
        Any = true;
      } else if (I.isAtomic() || isa<FenceInst>(I)) {
        return false;
      }
    }
  return Any;
}

/// The lane call's declaration for atomics of type T on pointers of type
/// Ptr, with its vector forms of 2 to MaxLanes lanes.
Function *laneFunction(Module &M, Type *T, PointerType *Ptr) {
  LLVMContext &C = M.getContext();
  const std::string Name =
      (CallPrefix + "i" + Twine(T->getIntegerBitWidth()) + ".p" + Twine(Ptr->getAddressSpace()))
          .str();
  if (Function *F = M.getFunction(Name))
    return F;
  Type *I1 = Type::getInt1Ty(C), *I32 = Type::getInt32Ty(C);
  auto *Ty = FunctionType::get(T, {Ptr, T, I1, I32, I32, I32}, false);
  Function *F = Function::Create(Ty, GlobalValue::ExternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  F->setOnlyReadsMemory();
  std::string Variants;
  for (unsigned Lanes = 2; Lanes <= MaxLanes; Lanes *= 2) {
    auto Vec = [&](Type *E) { return FixedVectorType::get(E, Lanes); };
    const std::string VecName = (Name + ".v" + Twine(Lanes)).str();
    auto *VecTy =
        FunctionType::get(Vec(T), {Vec(Ptr), Vec(T), Vec(I1), Vec(I32), Vec(I32), Vec(I32)}, false);
    Function *V = Function::Create(VecTy, GlobalValue::ExternalLinkage, VecName, M);
    V->addFnAttr(Attribute::NoUnwind);
    V->setOnlyReadsMemory();
    if (!Variants.empty())
      Variants += ",";
    Variants += ("_ZGV_LLVM_N" + Twine(Lanes) + "vvvvvv_" + Name + "(" + VecName + ")").str();
  }
  F->addFnAttr("vector-function-abi-variant", Variants);
  return F;
}

/// Replaces A by its lane call, before Where, with Active.
void replaceWithLaneCall(AtomicRMWInst &A, Value *Active, Instruction *Where) {
  Value *Ptr = A.getPointerOperand();
  Function *F = laneFunction(*A.getModule(), A.getType(), cast<PointerType>(Ptr->getType()));
  IRBuilder<> B(Where);
  CallInst *Call = B.CreateCall(F, {Ptr, A.getValOperand(), Active, B.getInt32(A.getOperation()),
                                    B.getInt32(static_cast<unsigned>(A.getOrdering())),
                                    B.getInt32(A.getSyncScopeID())});
  Call->addFnAttr(F->getFnAttribute("vector-function-abi-variant"));
  Call->takeName(&A);
  A.replaceAllUsesWith(Call);
  A.eraseFromParent();
}

/// Step 1 for an atomic behind an if, decided in P (see the head).
void moveToJoin(AtomicRMWInst &A, BasicBlock *P) {
  BasicBlock *B = A.getParent();
  LLVMContext &C = B->getContext();
  auto *Br = cast<BranchInst>(P->getTerminator());
  const unsigned ToOther = Br->getSuccessor(0) == B ? 1 : 0;
  BasicBlock *M = Br->getSuccessor(ToOther);
  BasicBlock *T = B->splitBasicBlock(&A, B->getName() + ".rest");
  BasicBlock *J = BasicBlock::Create(C, B->getName() + ".join", B->getParent(), T);
  // Values of B used past it reach them through J.
  IRBuilder<> JB(J);
  for (Instruction &I : *B) {
    if (I.isTerminator())
      continue;
    SmallVector<Use *, 8> Outside;
    for (Use &U : I.uses())
      if (cast<Instruction>(U.getUser())->getParent() != B)
        Outside.push_back(&U);
    if (Outside.empty())
      continue;
    PHINode *Phi = JB.CreatePHI(I.getType(), 2, I.getName() + ".j");
    Phi->addIncoming(&I, B);
    Phi->addIncoming(PoisonValue::get(I.getType()), P);
    for (Use *U : Outside)
      U->set(Phi);
  }
  PHINode *On = JB.CreatePHI(Type::getInt1Ty(C), 2, "lane.on");
  On->addIncoming(JB.getTrue(), B);
  On->addIncoming(JB.getFalse(), P);
  BranchInst *ToJoin = BranchInst::Create(J);
  ReplaceInstWithInst(B->getTerminator(), ToJoin);
  Br->setSuccessor(ToOther, J);
  for (PHINode &Phi : M->phis())
    Phi.replaceIncomingBlockWith(P, J);
  replaceWithLaneCall(A, On, JB.CreateCondBr(On, T, M));
}

/// Steps 1 for every taken loop of F; whether any atomic became a call.
bool makeLaneCalls(Function &F, FunctionAnalysisManager &FAM) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  std::vector<BasicBlock *> Headers;
  {
    auto &LI = FAM.getResult<LoopAnalysis>(F);
    auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    for (Loop *L : LI.getLoopsInPreorder())
      if (L->isInnermost() && L->getLoopLatch() && findOptionMDForLoop(L, wi::WorkItemLoopMD) &&
          !getBooleanLoopAttribute(L, "llvm.loop.isvectorized") && allTaken(*L, LI, DT, DL))
        Headers.push_back(L->getHeader());
  }
  if (Headers.empty())
    return false;
  for (BasicBlock *Header : Headers) {
    // One atomic at a time, on fresh analyses: moving one adds blocks.
    while (true) {
      DominatorTree DT(F);
      LoopInfo LI(DT);
      Loop *L = LI.getLoopFor(Header);
      AtomicRMWInst *Next = nullptr;
      for (BasicBlock *BB : L->blocks())
        for (Instruction &I : *BB)
          if (auto *A = dyn_cast<AtomicRMWInst>(&I); A && !Next)
            Next = A;
      if (!Next)
        break;
      std::optional<Place> Where = placeOf(*Next, *L, LI, DT);
      if (!Where)
        break; // Not reached (allTaken); step 3 restores those moved.
      if (Where->Always)
        replaceWithLaneCall(*Next, ConstantInt::getTrue(F.getContext()), Next);
      else
        moveToJoin(*Next, Where->Decider);
    }
  }
  return true;
}

Value *identity(AtomicRMWInst::BinOp Op, IntegerType *T) {
  const unsigned W = T->getBitWidth();
  switch (Op) {
  case AtomicRMWInst::And:
  case AtomicRMWInst::UMin:
    return ConstantInt::get(T, APInt::getAllOnes(W));
  case AtomicRMWInst::Max:
    return ConstantInt::get(T, APInt::getSignedMinValue(W));
  case AtomicRMWInst::Min:
    return ConstantInt::get(T, APInt::getSignedMaxValue(W));
  default: // add, sub, or, xor, umax
    return ConstantInt::get(T, 0);
  }
}

/// The active lanes' operands combined into one.
Value *reduce(IRBuilder<> &B, AtomicRMWInst::BinOp Combine, Value *Lanes) {
  switch (Combine) {
  case AtomicRMWInst::And:
    return B.CreateAndReduce(Lanes);
  case AtomicRMWInst::Or:
    return B.CreateOrReduce(Lanes);
  case AtomicRMWInst::Xor:
    return B.CreateXorReduce(Lanes);
  case AtomicRMWInst::Max:
    return B.CreateIntMaxReduce(Lanes, true);
  case AtomicRMWInst::Min:
    return B.CreateIntMinReduce(Lanes, true);
  case AtomicRMWInst::UMax:
    return B.CreateIntMaxReduce(Lanes, false);
  case AtomicRMWInst::UMin:
    return B.CreateIntMinReduce(Lanes, false);
  default:
    return B.CreateAddReduce(Lanes);
  }
}

struct Kind {
  AtomicRMWInst::BinOp Op;
  AtomicOrdering Order;
  SyncScope::ID Scope;
};

Kind kindOf(CallInst &Call) {
  auto Const = [&](unsigned I) {
    Value *V = Call.getArgOperand(I);
    if (auto *Vec = dyn_cast<Constant>(V); Vec && V->getType()->isVectorTy())
      V = Vec->getSplatValue();
    return static_cast<unsigned>(cast<ConstantInt>(V)->getZExtValue());
  };
  return {static_cast<AtomicRMWInst::BinOp>(Const(OperationOp)),
          static_cast<AtomicOrdering>(Const(OrderOp)), static_cast<SyncScope::ID>(Const(ScopeOp))};
}

/// Step 3 for a scalar call: `if (on) atomicrmw`.
void lowerScalar(CallInst &Call) {
  const Kind K = kindOf(Call);
  Value *Ptr = Call.getArgOperand(PointerOp), *Val = Call.getArgOperand(ValueOp);
  const Align A(Call.getModule()->getDataLayout().getTypeStoreSize(Val->getType()));
  Value *On = Call.getArgOperand(ActiveOp);
  Value *Result;
  if (auto *C = dyn_cast<ConstantInt>(On); C && C->isOne()) {
    IRBuilder<> B(&Call);
    Result = B.CreateAtomicRMW(K.Op, Ptr, Val, A, K.Order, K.Scope);
  } else {
    Instruction *Then = SplitBlockAndInsertIfThen(On, &Call, false);
    IRBuilder<> B(Then);
    Value *Old = B.CreateAtomicRMW(K.Op, Ptr, Val, A, K.Order, K.Scope);
    B.SetInsertPoint(&Call);
    PHINode *Phi = B.CreatePHI(Call.getType(), 2);
    Phi->addIncoming(Old, Then->getParent());
    Phi->addIncoming(PoisonValue::get(Call.getType()), Then->getParent()->getSinglePredecessor());
    Result = Phi;
  }
  Result->takeName(&Call);
  Call.replaceAllUsesWith(Result);
  Call.eraseFromParent();
}

/// Step 3 for a vector call: one atomic per address of its active lanes;
/// PtrSlots and TotalSlots hold a vector of its pointers and operands.
void lowerVector(CallInst &Call, AllocaInst &PtrSlots, AllocaInst &TotalSlots) {
  const Kind K = kindOf(Call);
  auto *VT = cast<FixedVectorType>(Call.getType());
  auto *Elt = cast<IntegerType>(VT->getElementType());
  const unsigned N = VT->getNumElements();
  const Align A(Call.getModule()->getDataLayout().getTypeStoreSize(Elt));
  const bool Used = !Call.use_empty();
  Value *Ptrs = Call.getArgOperand(PointerOp), *Vals = Call.getArgOperand(ValueOp);
  Value *On = Call.getArgOperand(ActiveOp);
  LLVMContext &C = Call.getContext();
  // The operands combine with the operation itself, a sub's by adding.
  const AtomicRMWInst::BinOp Combine = K.Op == AtomicRMWInst::Sub ? AtomicRMWInst::Add : K.Op;

  IRBuilder<> B(&Call);
  // One address for every lane (a counter) and no result used: one atomic
  // with the active lanes' operands reduced.
  if (Value *Ptr = getSplatValue(Ptrs); Ptr && !Used) {
    Value *Lanes = B.CreateSelect(On, Vals, B.CreateVectorSplat(N, identity(Combine, Elt)));
    Value *Operand = reduce(B, Combine, Lanes);
    Value *Any = B.CreateICmpNE(B.CreateBitCast(On, IntegerType::get(C, N)),
                                ConstantInt::get(IntegerType::get(C, N), 0));
    IRBuilder<> T(SplitBlockAndInsertIfThen(Any, &Call, false));
    T.CreateAtomicRMW(K.Op, Ptr, Operand, A, K.Order, K.Scope);
    Call.eraseFromParent();
    return;
  }

  // Each lane against each other, by rotations: lane l meets lane l - r
  // (mod N). Totals: every active lane of the address; Before: those of
  // lower lanes only (no wrap), which also tell who leads its address.
  Value *Total = Vals;
  Value *Before = B.CreateVectorSplat(N, identity(Combine, Elt));
  Value *Follows = Constant::getNullValue(On->getType());
  for (unsigned R = 1; R < N; ++R) {
    SmallVector<int, 16> From(N);
    SmallVector<Constant *, 16> NoWrap(N);
    for (unsigned L = 0; L < N; ++L) {
      From[L] = static_cast<int>((L + N - R) % N);
      NoWrap[L] = B.getInt1(L >= R);
    }
    Value *Other = B.CreateShuffleVector(Vals, From);
    // A select, not an and: an inactive lane's pointer may be poison (the
    // join's phi), which an and would pass on.
    Value *Same = B.CreateSelect(B.CreateShuffleVector(On, From),
                                 B.CreateICmpEQ(Ptrs, B.CreateShuffleVector(Ptrs, From)),
                                 Constant::getNullValue(On->getType()));
    Total = B.CreateSelect(Same, buildAtomicRMWValue(Combine, B, Total, Other), Total);
    Value *Earlier = B.CreateAnd(Same, ConstantVector::get(NoWrap));
    Follows = B.CreateOr(Follows, Earlier);
    if (Used)
      Before = B.CreateSelect(Earlier, buildAtomicRMWValue(Combine, B, Before, Other), Before);
  }
  Value *Leads =
      B.CreateBitCast(B.CreateAnd(On, B.CreateNot(Follows)), IntegerType::get(C, N), "lane.leads");

  // Each leading lane does its address's atomic, lowest first; a used
  // result is the old value combined with the lower lanes' operands. A loop
  // over the leaders rather than a test per lane: which lanes lead depends
  // on the data, and a mispredicted test costs more than a locked add.
  BasicBlock *Head = Call.getParent();
  BasicBlock *Done = Head->splitBasicBlock(&Call, "lane.atomic.done");
  BasicBlock *Loop = BasicBlock::Create(C, "lane.atomic", Head->getParent(), Done);
  Head->getTerminator()->eraseFromParent();
  // The leaders' addresses and operands are read from memory (an extract
  // of a variable lane would store the whole vector each time, and each
  // locked instruction wait for those stores), the next leader's before
  // this one's atomic, which later loads could not pass. The slots have
  // one more element, which the lowest set bit of no lanes (N) reads.
  B.SetInsertPoint(Head);
  B.CreateAlignedStore(Ptrs, &PtrSlots, PtrSlots.getAlign());
  B.CreateAlignedStore(Total, &TotalSlots, TotalSlots.getAlign());
  auto leader = [&](Value *Bits) {
    Value *Lane = B.CreateBinaryIntrinsic(Intrinsic::cttz, Bits, B.getFalse());
    Value *Ptr = B.CreateLoad(
        Ptrs->getType()->getScalarType(),
        B.CreateInBoundsGEP(PtrSlots.getAllocatedType(), &PtrSlots, {B.getInt32(0), Lane}));
    Value *Operand = B.CreateLoad(Elt, B.CreateInBoundsGEP(TotalSlots.getAllocatedType(),
                                                           &TotalSlots, {B.getInt32(0), Lane}));
    return std::make_pair(Ptr, Operand);
  };
  auto [FirstPtr, FirstOperand] = leader(Leads);
  Value *Zero = ConstantInt::get(Leads->getType(), 0);
  B.CreateCondBr(B.CreateICmpNE(Leads, Zero), Loop, Done);
  B.SetInsertPoint(Loop);
  PHINode *Left = B.CreatePHI(Leads->getType(), 2, "lane.left");
  PHINode *Ptr = B.CreatePHI(FirstPtr->getType(), 2, "lane.address");
  PHINode *Operand = B.CreatePHI(Elt, 2, "lane.operand");
  Left->addIncoming(Leads, Head);
  Ptr->addIncoming(FirstPtr, Head);
  Operand->addIncoming(FirstOperand, Head);
  PHINode *Acc = nullptr;
  if (Used) {
    Acc = B.CreatePHI(VT, 2, "lane.acc");
    Acc->addIncoming(PoisonValue::get(VT), Head);
  }
  Value *LeftNext = B.CreateAnd(Left, B.CreateSub(Left, ConstantInt::get(Leads->getType(), 1)));
  auto [NextPtr, NextOperand] = leader(LeftNext);
  Value *Old = B.CreateAtomicRMW(K.Op, Ptr, Operand, A, K.Order, K.Scope);
  Left->addIncoming(LeftNext, Loop);
  Ptr->addIncoming(NextPtr, Loop);
  Operand->addIncoming(NextOperand, Loop);
  Value *Results = nullptr;
  if (Used) {
    Value *Group = B.CreateSelect(On, B.CreateICmpEQ(Ptrs, B.CreateVectorSplat(N, Ptr)),
                                  Constant::getNullValue(On->getType()));
    Value *Splat = B.CreateVectorSplat(N, Old);
    Value *AccNext = B.CreateSelect(Group, buildAtomicRMWValue(K.Op, B, Splat, Before), Acc);
    Acc->addIncoming(AccNext, Loop);
    B.SetInsertPoint(&Call);
    PHINode *Phi = B.CreatePHI(VT, 2, "lane.results");
    Phi->addIncoming(PoisonValue::get(VT), Head);
    Phi->addIncoming(AccNext, Loop);
    Results = Phi;
    B.SetInsertPoint(Loop);
  }
  B.CreateCondBr(B.CreateICmpNE(LeftNext, Zero), Loop, Done);
  if (Used)
    Call.replaceAllUsesWith(Results);
  Call.eraseFromParent();
}

/// Step 3 for every lane call of F.
void lowerLaneCalls(Function &F) {
  std::vector<CallInst *> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I))
      if (Function *Callee = Call->getCalledFunction();
          Callee && Callee->getName().startswith(CallPrefix))
        Calls.push_back(Call);
  // One pair of slots per vector and pointer type, in the entry block.
  std::map<std::pair<Type *, Type *>, std::pair<AllocaInst *, AllocaInst *>> Slots;
  IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
  for (CallInst *Call : Calls) {
    auto *VT = dyn_cast<FixedVectorType>(Call->getType());
    if (!VT) {
      lowerScalar(*Call);
      continue;
    }
    auto *PtrTy = cast<FixedVectorType>(Call->getArgOperand(PointerOp)->getType());
    auto &[PtrSlots, TotalSlots] = Slots[{VT, PtrTy}];
    if (!PtrSlots) {
      const unsigned Count = VT->getNumElements() + 1;
      PtrSlots = Entry.CreateAlloca(ArrayType::get(PtrTy->getElementType(), Count), nullptr,
                                    "lane.addresses");
      TotalSlots =
          Entry.CreateAlloca(ArrayType::get(VT->getElementType(), Count), nullptr, "lane.operands");
    }
    lowerVector(*Call, *PtrSlots, *TotalSlots);
  }
}

} // namespace

PreservedAnalyses AtomicLanePass::run(Function &F, FunctionAnalysisManager &FAM) {
  if (!makeLaneCalls(F, FAM))
    return PreservedAnalyses::all();
  FAM.invalidate(F, PreservedAnalyses::none());
  FunctionPassManager Vectorize;
  Vectorize.addPass(InjectTLIMappings());
  Vectorize.addPass(LoopVectorizePass());
  Vectorize.run(F, FAM);
  lowerLaneCalls(F);
  return PreservedAnalyses::none();
}

} // namespace weft::compiler
