// BarrierStatePass: barriers -> a resumable work-item function.
//
// Algorithm (per work-item function F, after everything is inlined into it
// and SROA has made its private scalars SSA values):
//  0. Find which values are the same in every work-item of the group
//     (UniformValues: LLVM's divergence analysis) and which blocks all
//     work-items run alike; give every innermost loop whose header all run
//     and whose exits are uniform, of a trip count known only at run time,
//     a barrier at the top of its header (addLoopBarriers), so that its
//     iterations run across the work-items: every such loop if F has
//     barriers, only one whose accesses read columns (one element apart
//     across the work-items, a row apart along the loop:
//     acrossWorkItemsIsConsecutive) if it has none. A function without
//     barriers whose such loop sits behind bounds checks first gets a copy
//     for the groups whose checks pass in every work-item, and the loop
//     there its barrier (GroupCheckVersioner). A function left without
//     barriers is done.
//  1. Split the block of every barrier call k (k = 1..n) after the call; the
//     head now ends in `ret i32 k` instead of the barrier, the tail is the
//     resume point R_k.
//  2. A new entry block `dispatch` switches on the State argument:
//     0 -> the old entry, k -> R_k. Allocas of the old entry move up to it.
//  3. Delete blocks that became unreachable, then, using the dominator tree
//     of the new CFG, make every SSA value (and PHI) with a use its
//     definition no longer dominates available there; repeat until none is
//     left. Such a value crosses a barrier, so it must survive the return:
//     a pure function of work-item queries, arguments and constants (the
//     local id, an index computed from it) is computed again before the use;
//     anything else is demoted to memory.
//  4. Every alloca becomes a place in Frames (Ctx->PrivateMem, all the
//     group's frames). One that is only loaded and stored whole (a demoted
//     value, a scalar) gets a column: N consecutive elements, one per
//     work-item in linear-id order, N the group's size, so work-items side
//     by side in the x loop touch it side by side. The rest (arrays, a
//     variable whose address is taken) lie after the columns in one block
//     per work-item. Lifetime markers on them are dropped. A demoted value
//     found uniform, stored only in uniform blocks, is the exception: it
//     stays a private variable, copied in from the group's copy at every
//     region's start and out to the next one at the single return
//     (shareUniformSlots; WorkGroupLoopPass copies next over current).
//  The work-group loop (WorkGroupLoopPass) calls F for every work-item with
//  State = 0, then again with the k they returned, until they return -1.
//  Work-items reach the same barrier in the same order (OpenCL C 6.15.8), so
//  one State serves the whole group.
//
// Before:                          After:
//   entry:                           dispatch: switch %state [0 -> entry, 1 -> after1]
//     %a = alloca [4 x i32]          entry:  %x = load ...; store %x, %x.col  ; column of %x
//     %x = load ...                          ret i32 1
//     call @_Z7barrierj(i32 1)       after1: %x.r = load %x.col  ; %a -> its block
//     use %x, %a, get_local_id(0)            %l = get_local_id(0) ; use %x.r ... ret i32 -1
//     ret void
// Limits: the CFG of F is irreducible when a barrier sits in a loop, which
// does not matter once WorkGroupLoopPass gives State constants. Work-items
// that return early while others still reach a barrier (undefined in
// OpenCL) are resumed with the others' state.
#include "compiler/workgroup/BarrierStatePass.h"

#include "compiler/OpenClNames.h"
#include "compiler/workgroup/WorkItemBuiltinPass.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/ADT/Triple.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/CFG.h>
#include <llvm/Analysis/DivergenceAnalysis.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/SyncDependenceAnalysis.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>

#include <functional>
#include <optional>

using namespace llvm;

namespace weft::compiler {

namespace {

/// A work-group barrier or a sub-group sync (OpenClNames.h): both split
/// the function; WorkGroupLoopPass tells them apart by the states
/// wi::SubGroupStatesAttr names.
bool isBarrierCall(const Instruction &I) {
  const auto *Call = dyn_cast<CallInst>(&I);
  if (!Call || !Call->getCalledFunction())
    return false;
  StringRef Name = Call->getCalledFunction()->getName();
  return isBarrierName(Name) || isSubGroupSyncName(Name);
}

bool isSubGroupSync(const CallInst &Call) {
  return isSubGroupSyncName(Call.getCalledFunction()->getName());
}

/// Whether I reads what another work-item may change while this one runs:
/// an atomic load or read-modify-write (an instruction, or a call of
/// Clang's atomic library before AtomicPass), or a volatile load.
bool readsOthersWrites(const Instruction &I) {
  if (const auto *Load = dyn_cast<LoadInst>(&I))
    return Load->isAtomic() || Load->isVolatile();
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
    return true;
  if (const auto *Call = dyn_cast<CallInst>(&I))
    if (const Function *Callee = Call->getCalledFunction(); Callee && Callee->isDeclaration()) {
      StringRef Base = demangledBaseName(Callee->getName());
      return !Call->getType()->isVoidTy() &&
             (Base.startswith("atomic_") || Base.startswith("atom_") ||
              Callee->getName().startswith("__opencl_atomic"));
    }
  return false;
}

/// Whether L may wait for another work-item: whether it leaves on a
/// condition computed in it from such a read (a spin on a flag, a retry
/// of a compare-and-swap).
bool maySpin(const Loop &L) {
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  SmallVector<const Value *, 16> Work;
  for (BasicBlock *E : Exiting)
    if (const auto *Br = dyn_cast<BranchInst>(E->getTerminator()); Br && Br->isConditional())
      Work.push_back(Br->getCondition());
    else if (const auto *Sw = dyn_cast<SwitchInst>(E->getTerminator()))
      Work.push_back(Sw->getCondition());
  SmallPtrSet<const Value *, 32> Seen;
  while (!Work.empty()) {
    const auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !L.contains(I) || !Seen.insert(I).second)
      continue;
    if (readsOthersWrites(*I))
      return true;
    for (const Value *Op : I->operands())
      Work.push_back(Op);
  }
  return false;
}

/// Independent forward progress of sub-groups: every loop that may wait
/// for another work-item (maySpin) gives the other sub-groups of the group
/// a turn each time it goes round again, through a sub-group sync on each
/// of its back edges, where WorkGroupLoopPass moves on to the next
/// sub-group (and a function with one runs its sub-groups in turns). A
/// loop that leaves at once (a compare-and-swap that succeeds the first
/// time) never yields. Returns how many syncs it added.
unsigned addYields(Function &F) {
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> BackEdges;
  {
    DominatorTree DT(F);
    LoopInfo LI(DT);
    for (Loop *L : LI.getLoopsInPreorder())
      if (maySpin(*L))
        for (BasicBlock *Pred : predecessors(L->getHeader()))
          if (L->contains(Pred))
            BackEdges.push_back({Pred, L->getHeader()});
  }
  if (BackEdges.empty())
    return 0;
  FunctionCallee Sync = F.getParent()->getOrInsertFunction(
      "__weft_sub_group_sync", FunctionType::get(Type::getVoidTy(F.getContext()), false));
  for (auto [From, To] : BackEdges) {
    BasicBlock *Yield = SplitEdge(From, To);
    Yield->setName("yield");
    CallInst::Create(Sync)->insertBefore(&*Yield->getFirstInsertionPt());
  }
  return static_cast<unsigned>(BackEdges.size());
}

/// The blocks of F in an order that keeps every loop together: a
/// topological order of the blocks without their loops' back edges in
/// which each loop's blocks come one after the other, before any block its
/// exits lead to (a reverse post-order of the graph with each loop taken as
/// one node, each loop ordered the same way inside).
DenseMap<const BasicBlock *, unsigned> structuredOrder(Function &F) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  DenseMap<const BasicBlock *, unsigned> Order;
  // The node standing for BB among the blocks of loop Outer (null: F):
  // the header of its outermost loop inside Outer, or BB.
  auto nodeOf = [&](BasicBlock *BB, const Loop *Outer) {
    Loop *L = LI.getLoopFor(BB);
    if (!L || L == Outer)
      return BB;
    while (L->getParentLoop() != Outer)
      L = L->getParentLoop();
    return L->getHeader();
  };
  std::function<void(BasicBlock *, const Loop *)> orderRegion = [&](BasicBlock *Entry,
                                                                    const Loop *Outer) {
    auto successorsOf = [&](BasicBlock *Node) {
      SmallVector<BasicBlock *, 8> Succs;
      Loop *Sub = LI.getLoopFor(Node);
      auto add = [&](BasicBlock *S) {
        if ((Outer && !Outer->contains(S)) || (Outer && S == Outer->getHeader()))
          return;
        Succs.push_back(nodeOf(S, Outer));
      };
      if (Sub && Sub != Outer && Sub->getHeader() == Node) {
        SmallVector<BasicBlock *, 4> Exits;
        Sub->getExitBlocks(Exits);
        for (BasicBlock *E : Exits)
          add(E);
      } else {
        for (BasicBlock *S : successors(Node))
          add(S);
      }
      return Succs;
    };
    SmallVector<BasicBlock *, 32> PostOrder;
    SmallPtrSet<BasicBlock *, 32> Seen{Entry};
    SmallVector<std::pair<BasicBlock *, SmallVector<BasicBlock *, 8>>, 16> Stack;
    Stack.push_back({Entry, successorsOf(Entry)});
    while (!Stack.empty()) {
      auto &[Node, Succs] = Stack.back();
      if (Succs.empty()) {
        PostOrder.push_back(Node);
        Stack.pop_back();
        continue;
      }
      BasicBlock *Next = Succs.pop_back_val();
      if (Seen.insert(Next).second)
        Stack.push_back({Next, successorsOf(Next)});
    }
    for (BasicBlock *Node : llvm::reverse(PostOrder)) {
      Order.try_emplace(Node, Order.size());
      // A loop's own blocks, from its header on.
      if (Loop *Sub = LI.getLoopFor(Node); Sub && Sub != Outer && Sub->getHeader() == Node)
        orderRegion(Node, Sub);
    }
  };
  orderRegion(&F.getEntryBlock(), nullptr);
  for (BasicBlock &BB : F)
    Order.try_emplace(&BB, Order.size());
  return Order;
}

/// The barriers of a function with sub-group syncs in structuredOrder of
/// their blocks (and in order within a block), so that a state's number is
/// smaller than those of the states after it on every path but back
/// edges, and those inside a loop smaller than those after it:
/// WorkGroupLoopPass resumes a sub-group's work-items at the smallest
/// state any of them stopped at, which lets those that branched away from
/// the others, or still go round a loop the others left, meet them again
/// where the paths join.
void sortInStructuredOrder(Function &F, SmallVectorImpl<CallInst *> &Barriers) {
  DenseMap<const BasicBlock *, unsigned> Order = structuredOrder(F);
  llvm::stable_sort(Barriers, [&](const CallInst *L, const CallInst *R) {
    if (L->getParent() != R->getParent())
      return Order.lookup(L->getParent()) < Order.lookup(R->getParent());
    return L->comesBefore(R);
  });
}

SmallVector<CallInst *, 8> findBarriers(Function &F) {
  SmallVector<CallInst *, 8> Barriers;
  for (Instruction &I : instructions(F))
    if (isBarrierCall(I))
      Barriers.push_back(cast<CallInst>(&I));
  return Barriers;
}

uint64_t allocaBytes(const AllocaInst &A, const DataLayout &DL) {
  auto *N = cast<ConstantInt>(A.getArraySize());
  return DL.getTypeAllocSize(A.getAllocatedType()) * N->getZExtValue();
}

/// Metadata kind marking an instruction whose value is the same in every
/// work-item of the group (UniformValues); removed when the pass ends.
constexpr const char *UniformMD = "weft.uniform";

/// Which values of F are the same in every work-item of a group, and which
/// blocks only some work-items may run (or run a different number of
/// times). Computed on F before it is split at its barriers, with LLVM's
/// divergence analysis seeded by what differs between work-items: the
/// local and global ids, private addresses (allocas), and every load,
/// atomic and call that touches memory (another work-item may have written
/// it). Loads of `__constant` memory and calls that touch no memory follow
/// their operands; the sizes, group ids, offsets and the kernel's
/// arguments are uniform.
class UniformValues {
public:
  explicit UniformValues(Function &F);
  /// Whether V is uniform: a constant, an argument other than the local
  /// ids, an instruction the analysis found uniform (or a copy of one), or
  /// a load of a uniform slot.
  bool isUniform(const Value *V) const;
  /// Whether every work-item that runs any of F runs BB, as often (never
  /// said of an F the analysis could not take).
  bool isUniformBlock(const BasicBlock *BB) const { return Analyzed && !Divergent.contains(BB); }
  /// Records that Tail was split off Head (it is run as Head is).
  void split(const BasicBlock *Head, const BasicBlock *Tail) {
    if (Divergent.contains(Head))
      Divergent.insert(Tail);
  }
  /// Whether a value demoted to memory stays uniform there: the value and
  /// every store of it are uniform (see demoteNonDominating).
  bool demotesUniformly(Instruction &I) const;
  void addSlot(AllocaInst *A) { Slots.insert(A); }
  bool isSlot(const AllocaInst *A) const { return Slots.contains(A); }

private:
  static bool isDivergenceSource(const Instruction &I);
  Function &F;
  bool Analyzed = false;
  // Blocks are only deleted (removeUnreachableBlocks) and split after this
  // is built, so no stale pointer here can name a new block.
  SmallPtrSet<const BasicBlock *, 16> Divergent;
  SmallPtrSet<const AllocaInst *, 8> Slots;
};

bool UniformValues::isDivergenceSource(const Instruction &I) {
  if (isa<AllocaInst>(I) || isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I) || isa<VAArgInst>(I))
    return true;
  if (const auto *L = dyn_cast<LoadInst>(&I))
    return L->isVolatile() || L->getPointerAddressSpace() != 2; // __constant
  const auto *Call = dyn_cast<CallBase>(&I);
  if (!Call)
    return false;
  const Function *Callee = Call->getCalledFunction();
  if (!Callee || isSubGroupAreaName(Callee->getName()))
    return true;
  switch (classifyWorkItemFn(Callee->getName())) {
  case WorkItemFn::GlobalId:
  case WorkItemFn::LocalId:
  case WorkItemFn::GlobalLinearId:
  case WorkItemFn::LocalLinearId:
    return true;
  case WorkItemFn::None:
    return !Call->doesNotAccessMemory() || isSubGroupName(Callee->getName());
  default:
    return false;
  }
}

UniformValues::UniformValues(Function &F) : F(F) {
  DominatorTree DT(F);
  PostDominatorTree PDT(F);
  LoopInfo LI(DT);
  ReversePostOrderTraversal<const Function *> RPOT(&F);
  if (containsIrreducibleCFG<const BasicBlock *>(RPOT, LI))
    return; // the analysis needs a reducible CFG: nothing is uniform
  SyncDependenceAnalysis SDA(DT, PDT, LI);
  DivergenceAnalysisImpl DA(F, nullptr, DT, LI, SDA, /*IsLCSSAForm=*/false);
  for (wi::ExtraArg A : {wi::Lx, wi::Ly, wi::Lz})
    DA.markDivergent(*wi::extraArg(F, A));
  for (Instruction &I : instructions(F))
    if (isDivergenceSource(I))
      DA.markDivergent(I);
  DA.compute();
  MDNode *Mark = MDNode::get(F.getContext(), {});
  for (BasicBlock &BB : F) {
    for (Instruction &I : BB)
      if (!I.getType()->isVoidTy() && !DA.isDivergent(I))
        I.setMetadata(UniformMD, Mark);
    // A divergent branch: only some work-items run the blocks between it
    // and its post-dominator (a divergent loop exit: the loop's blocks, a
    // different number of times).
    const Instruction *Term = BB.getTerminator();
    if (!Term || Term->getNumSuccessors() < 2 || !DA.isDivergent(*Term))
      continue;
    const DomTreeNode *Node = PDT.getNode(&BB);
    const BasicBlock *Join = Node && Node->getIDom() ? Node->getIDom()->getBlock() : nullptr;
    SmallVector<const BasicBlock *, 16> Work(succ_begin(&BB), succ_end(&BB));
    while (!Work.empty()) {
      const BasicBlock *S = Work.pop_back_val();
      if (S == Join || !Divergent.insert(S).second)
        continue;
      Work.append(succ_begin(S), succ_end(S));
    }
  }
  Analyzed = true;
}

bool UniformValues::isUniform(const Value *V) const {
  if (!Analyzed)
    return false;
  if (isa<Constant>(V))
    return true;
  if (const auto *A = dyn_cast<Argument>(V))
    return A != wi::extraArg(F, wi::Lx) && A != wi::extraArg(F, wi::Ly) &&
           A != wi::extraArg(F, wi::Lz);
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return false;
  if (I->getMetadata(UniformMD))
    return true;
  const auto *L = dyn_cast<LoadInst>(I);
  const auto *Slot = L ? dyn_cast<AllocaInst>(L->getPointerOperand()) : nullptr;
  return Slot && Slots.contains(Slot);
}

bool UniformValues::demotesUniformly(Instruction &I) const {
  if (!isUniform(&I))
    return false;
  auto *Phi = dyn_cast<PHINode>(&I);
  if (!Phi)
    return isUniformBlock(I.getParent()); // stored where it is computed
  for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K) {
    const Value *In = Phi->getIncomingValue(K);
    const auto *InI = dyn_cast<Instruction>(In);
    if (!isUniform(In) || !isUniformBlock(Phi->getIncomingBlock(K)) ||
        (InI && !isUniformBlock(InI->getParent())))
      return false;
  }
  return true;
}

/// How far V moves when one value steps by one, from Leaf's answers for the
/// values it knows (the stepping value, and what stands still): a linear
/// function of them through casts, adds, subtracts, multiplies and shifts
/// by constants, and address computations (in bytes). None where V is not
/// such a function, or is deeper than Depth operations.
using StrideLeaf = function_ref<std::optional<int64_t>(const Value *)>;
std::optional<int64_t> strideOf(const Value *V, StrideLeaf Leaf, const DataLayout &DL,
                                unsigned Depth = 8) {
  if (std::optional<int64_t> Known = Leaf(V))
    return Known;
  if (isa<Constant>(V))
    return 0;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth == 0)
    return std::nullopt;
  auto Of = [&](unsigned K) { return strideOf(I->getOperand(K), Leaf, DL, Depth - 1); };
  if (isa<CastInst>(I))
    return Of(0);
  if (const auto *Gep = dyn_cast<GEPOperator>(I)) {
    std::optional<int64_t> Sum = Of(0);
    for (gep_type_iterator T = gep_type_begin(Gep); Sum && T != gep_type_end(Gep); ++T) {
      if (T.isStruct())
        continue; // a field: a constant offset
      std::optional<int64_t> Index = strideOf(T.getOperand(), Leaf, DL, Depth - 1);
      if (!Index)
        return std::nullopt;
      *Sum += *Index * static_cast<int64_t>(DL.getTypeAllocSize(T.getIndexedType()));
    }
    return Sum;
  }
  const auto *Op = dyn_cast<BinaryOperator>(I);
  if (!Op)
    return std::nullopt;
  std::optional<int64_t> A = Of(0), B = Of(1);
  if (!A || !B)
    return std::nullopt;
  const auto *CA = dyn_cast<ConstantInt>(I->getOperand(0));
  const auto *CB = dyn_cast<ConstantInt>(I->getOperand(1));
  switch (Op->getOpcode()) {
  case Instruction::Add:
    return *A + *B;
  case Instruction::Sub:
    return *A - *B;
  case Instruction::Mul:
    if (*A == 0 && *B == 0)
      return 0;
    if (CB)
      return *A * CB->getSExtValue();
    if (CA)
      return *B * CA->getSExtValue();
    return std::nullopt;
  case Instruction::Shl:
    if (CB && CB->getZExtValue() < 32)
      return *A * (int64_t(1) << CB->getZExtValue());
    return *A == 0 && *B == 0 ? std::optional<int64_t>(0) : std::nullopt;
  default:
    return *A == 0 && *B == 0 ? std::optional<int64_t>(0) : std::nullopt;
  }
}

/// Whether running the iterations of L across the work-items (a barrier at
/// the top of its header) makes its memory accesses consecutive where they
/// were not: some access steps by a whole row from one iteration to the
/// next but by one element from one work-item to the next (a naive matrix
/// product's `B[k * n + col]`, a column sum's `In[gid + i * size]`), and
/// none is the other way round (`A[gid * n + k]`, each work-item's own
/// row, which the loop vectorizer takes along the iterations as it is).
/// Accesses that stand still in one direction count for neither. The
/// steps are those of the loop's induction (a header phi stepping by a
/// constant) and of get_global_id(0) and get_local_id(0); values the same
/// in every work-item stand still across them.
bool acrossWorkItemsIsConsecutive(const Loop &L, const UniformValues &UV) {
  const DataLayout &DL = L.getHeader()->getModule()->getDataLayout();
  auto AlongIterations = [&](const Value *V) -> std::optional<int64_t> {
    const auto *I = dyn_cast<Instruction>(V);
    if (!I || !L.contains(I))
      return 0;
    const auto *Phi = dyn_cast<PHINode>(I);
    if (!Phi || Phi->getParent() != L.getHeader() || !L.getLoopLatch())
      return std::nullopt;
    const auto *Next = dyn_cast<BinaryOperator>(Phi->getIncomingValueForBlock(L.getLoopLatch()));
    const auto *Step = Next ? dyn_cast<ConstantInt>(Next->getOperand(1)) : nullptr;
    if (!Step || Next->getOperand(0) != Phi)
      return std::nullopt;
    if (Next->getOpcode() == Instruction::Add)
      return Step->getSExtValue();
    if (Next->getOpcode() == Instruction::Sub)
      return -Step->getSExtValue();
    return std::nullopt;
  };
  auto AlongWorkItems = [&](const Value *V) -> std::optional<int64_t> {
    if (const auto *Call = dyn_cast<CallInst>(V)) {
      const Function *Callee = Call->getCalledFunction();
      const WorkItemFn Kind = Callee ? classifyWorkItemFn(Callee->getName()) : WorkItemFn::None;
      if (Kind == WorkItemFn::GlobalId || Kind == WorkItemFn::LocalId) {
        const auto *Dim = dyn_cast<ConstantInt>(Call->getArgOperand(0));
        if (!Dim)
          return std::nullopt;
        return Dim->isZero() ? 1 : 0;
      }
    }
    if (V == wi::extraArg(*L.getHeader()->getParent(), wi::Lx))
      return 1;
    if (UV.isUniform(V))
      return 0;
    return std::nullopt;
  };
  unsigned For = 0;
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB) {
      const Value *Ptr = getLoadStorePointerOperand(&I);
      if (!Ptr)
        continue;
      const int64_t Size = static_cast<int64_t>(
          DL.getTypeStoreSize(getLoadStoreType(const_cast<Instruction *>(&I))));
      const std::optional<int64_t> Iter = strideOf(Ptr, AlongIterations, DL);
      const std::optional<int64_t> Item = strideOf(Ptr, AlongWorkItems, DL);
      const bool IterNext = Iter && (*Iter == Size || *Iter == -Size);
      const bool ItemNext = Item && *Item == Size;
      const bool ItemStill = Item && *Item == 0;
      if (IterNext && !ItemNext && !ItemStill)
        return false;
      if (ItemNext && !IterNext && !(Iter && *Iter == 0))
        ++For;
    }
  return For > 0;
}

/// The most instructions a loop of constant trip count may have, times its
/// trip count, to count as one O3 unrolls whole (its full unroller's
/// threshold at O3 is 300, and up to four times that where the copies
/// fold): a FIR filter's 17 taps are, a naive matrix product's 512 steps
/// with the size a macro are not, and their x loop stayed scalar.
constexpr uint64_t MaxWholeUnrollInstructions = 600;

/// Whether L has a constant trip count and few enough instructions that
/// O3's full unroller lays its iterations out in the x loop, which then
/// vectorizes across the work-items with the iterations inside.
bool willUnrollWhole(const Loop &L, ScalarEvolution &SE) {
  const uint64_t Trips = SE.getSmallConstantTripCount(&L);
  if (Trips == 0)
    return false;
  uint64_t Size = 0;
  for (const BasicBlock *BB : L.blocks())
    Size += BB->sizeWithoutDebug();
  return Trips * Size <= MaxWholeUnrollInstructions;
}

/// Whether L is a loop addLoopBarriers runs across the work-items, where
/// every work-item runs its header and the blocks it exits from (which the
/// callers ask): innermost; of a count known only at run time, or of a
/// constant one too long to unroll whole where its accesses read columns
/// (even in a function with barriers); left only on conditions the same in
/// every work-item; without a barrier of its own; and one Wanted picks.
bool columnShaped(const Loop &L, ScalarEvolution &SE, const UniformValues &UV,
                  function_ref<bool(const Loop &)> Wanted) {
  const bool Constant = SE.getSmallConstantTripCount(&L) != 0;
  if (!L.isInnermost() ||
      (Constant && (willUnrollWhole(L, SE) || !acrossWorkItemsIsConsecutive(L, UV))))
    return false;
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  const bool UniformExits = all_of(Exiting, [&](BasicBlock *E) {
    const auto *Br = dyn_cast<BranchInst>(E->getTerminator());
    return Br && Br->isConditional() && UV.isUniform(Br->getCondition());
  });
  const bool HasBarrier = any_of(L.blocks(), [](const BasicBlock *BB) {
    return any_of(*BB, [](const Instruction &I) { return isBarrierCall(I); });
  });
  return !Exiting.empty() && UniformExits && !HasBarrier && Wanted(L);
}

/// Puts a barrier at the top of the header of every innermost loop that all
/// the work-items of a group run the same number of times, a number known
/// only at run time (`for (i = 0; i < n; ++i)`, n an argument): its header
/// runs in every work-item and its exits are taken on values the same in
/// every work-item. Each iteration is then a region of its own, run for
/// all the work-items before the next, and its x loop is over work-items:
/// what the iteration does to each work-item's values is vectorized across
/// them, where before each work-item ran the whole loop alone and the x
/// loop, not innermost, stayed scalar. All work-items reach such a barrier
/// equally often, as OpenCL asks of every barrier. In a function that has
/// barriers already (whose group is split into regions anyway) every such
/// loop; in one without, only a loop that Wanted picks
/// (acrossWorkItemsIsConsecutive). A loop of constant trip count that O3
/// unrolls whole is left to the unroller (willUnrollWhole); one too long
/// for that is taken where its accesses read columns, in either kind of
/// function. MakeBarrier makes the barrier call to insert. Returns how
/// many.
unsigned addLoopBarriers(Function &F, const UniformValues &UV,
                         function_ref<bool(const Loop &)> Wanted,
                         function_ref<Instruction *()> MakeBarrier) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  TargetLibraryInfoImpl TLII(Triple(F.getParent()->getTargetTriple()));
  TargetLibraryInfo TLI(TLII, &F);
  AssumptionCache AC(F);
  ScalarEvolution SE(F, TLI, AC, DT, LI);
  SmallVector<BasicBlock *, 4> Headers;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!UV.isUniformBlock(L->getHeader()) || !columnShaped(*L, SE, UV, Wanted))
      continue;
    SmallVector<BasicBlock *, 4> Exiting;
    L->getExitingBlocks(Exiting);
    if (all_of(Exiting, [&](BasicBlock *E) { return UV.isUniformBlock(E); }))
      Headers.push_back(L->getHeader());
  }
  for (BasicBlock *Header : Headers)
    MakeBarrier()->insertBefore(&*Header->getFirstInsertionPt());
  return static_cast<unsigned>(Headers.size());
}

/// The most instructions a function may have to be copied for its groups
/// whose bounds checks all pass (GroupCheckVersioner): the copy doubles its
/// compile time.
constexpr unsigned MaxVersionedInstructions = 4000;

/// A copy of a barrier-free function for the work-groups whose bounds
/// checks pass in every work-item, where a loop that reads columns but
/// sits behind a check (`if (row < m && col < n) for (k < n) ...`, the
/// shape of most GPU code) runs across the work-items as addLoopBarriers
/// would run it without the check. Such a check is a branch on an and/or/not
/// tree whose leaves are either the same in every work-item or compare a
/// work-item id, through operations that keep its order, with a value the
/// same in every work-item: such a comparison holds for the whole group
/// when it holds for the group's first and last id, which the copy's
/// condition computes from the group id and sizes before anything else.
/// Three steps: find the guards (findGuards), compute at a new entry
/// whether they hold for the group (groupCondition), copy the function
/// with them folded (copyForGroup).
class GroupCheckVersioner {
public:
  GroupCheckVersioner(Function &F, const UniformValues &UV) : F(F), UV(UV), DT(F), PDT(F), LI(DT) {}

  /// Versions F if a loop would run across the work-items but for its
  /// checks; whether it did.
  bool run() {
    if (F.getInstructionCount() > MaxVersionedInstructions)
      return false;
    for (Instruction &I : instructions(F))
      if (isa<AllocaInst>(I) && I.getParent() != &F.getEntryBlock())
        return false;
    findGuards();
    if (Guards.empty())
      return false;
    return version();
  }

private:
  /// A comparison whose value the fast copy's condition asks for.
  struct Leaf {
    Value *Cond;
    bool Want;
  };
  /// A branch that only some work-items of a group may take one way,
  /// between the entry and a loop, the way toward the loop, and the
  /// leaves of its condition that give that way.
  struct Guard {
    BranchInst *Branch;
    bool Want;
    SmallVector<Leaf, 4> Leaves;
  };

  /// Step 1: into Guards, the bounds checks in front of every loop that
  /// would read columns across the work-items if it ran in all of them.
  void findGuards() {
    TargetLibraryInfoImpl TLII(Triple(F.getParent()->getTargetTriple()));
    TargetLibraryInfo TLI(TLII, &F);
    AssumptionCache AC(F);
    ScalarEvolution SE(F, TLI, AC, DT, LI);
    auto ReadsColumns = [&](const Loop &L) { return acrossWorkItemsIsConsecutive(L, UV); };
    for (Loop *L : LI.getLoopsInPreorder()) {
      if (UV.isUniformBlock(L->getHeader()) || !columnShaped(*L, SE, UV, ReadsColumns))
        continue;
      SmallVector<Guard, 4> Found;
      if (guardsOf(L->getHeader(), Found))
        for (const Guard &G : Found)
          if (none_of(Guards, [&](const Guard &Old) { return Old.Branch == G.Branch; }))
            Guards.push_back(G);
    }
  }

  /// Whether To is reached from From before Join.
  static bool reaches(BasicBlock *From, const BasicBlock *To, const BasicBlock *Join) {
    SmallVector<BasicBlock *, 16> Work{From};
    SmallPtrSet<BasicBlock *, 16> Seen{From};
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (BB == Join)
        continue;
      if (BB == To)
        return true;
      for (BasicBlock *S : successors(BB))
        if (Seen.insert(S).second)
          Work.push_back(S);
    }
    return false;
  }

  /// Appends the branches that make Header run in only some work-items (as
  /// UniformValues finds them: a divergent terminator's blocks up to its
  /// post-dominator), each a bounds check toward Header; false if one is
  /// something else.
  bool guardsOf(const BasicBlock *Header, SmallVectorImpl<Guard> &Found) {
    for (BasicBlock &BB : F) {
      Instruction *Term = BB.getTerminator();
      if (Term->getNumSuccessors() < 2)
        continue;
      auto *Br = dyn_cast<BranchInst>(Term);
      const auto *Switch = dyn_cast<SwitchInst>(Term);
      if ((Br && UV.isUniform(Br->getCondition())) ||
          (Switch && UV.isUniform(Switch->getCondition())))
        continue;
      const DomTreeNode *Node = PDT.getNode(&BB);
      const BasicBlock *Join = Node && Node->getIDom() ? Node->getIDom()->getBlock() : nullptr;
      SmallVector<unsigned, 2> Toward;
      for (unsigned S = 0; S < Term->getNumSuccessors(); ++S)
        if (reaches(Term->getSuccessor(S), Header, Join))
          Toward.push_back(S);
      if (Toward.empty())
        continue;
      SmallVector<Leaf, 4> Leaves;
      if (!Br || Toward.size() != 1 || !addLeaves(Br->getCondition(), Toward[0] == 0, Leaves))
        return false;
      Found.push_back({Br, Toward[0] == 0, std::move(Leaves)});
    }
    return true;
  }

  /// Appends C's leaves, each with the value that gives C the value Want;
  /// false if C is not a tree of uniform values and id comparisons.
  bool addLeaves(Value *C, bool Want, SmallVectorImpl<Leaf> &Leaves) const {
    Value *A, *B;
    if (UV.isUniform(C)) {
      Leaves.push_back({C, Want});
      return true;
    }
    if (PatternMatch::match(C, PatternMatch::m_Not(PatternMatch::m_Value(A))))
      return addLeaves(A, !Want, Leaves);
    if (Want && PatternMatch::match(C, PatternMatch::m_LogicalAnd(PatternMatch::m_Value(A),
                                                                  PatternMatch::m_Value(B))))
      return addLeaves(A, true, Leaves) && addLeaves(B, true, Leaves);
    if (!Want && PatternMatch::match(C, PatternMatch::m_LogicalOr(PatternMatch::m_Value(A),
                                                                  PatternMatch::m_Value(B))))
      return addLeaves(A, false, Leaves) && addLeaves(B, false, Leaves);
    auto *Cmp = dyn_cast<ICmpInst>(C);
    if (!Cmp || Cmp->isEquality())
      return false;
    const bool Signed = Cmp->isSigned();
    const bool Left = !UV.isUniform(Cmp->getOperand(0));
    if (!UV.isUniform(Cmp->getOperand(Left ? 1 : 0)) ||
        !idInOrder(Cmp->getOperand(Left ? 0 : 1), Signed))
      return false;
    Leaves.push_back({Cmp, Want});
    return true;
  }

  /// The work-item id call (get_global_id or get_local_id of a constant
  /// dimension) V is, through operations that keep its order in the
  /// comparison's signedness: adding or subtracting a uniform value, or
  /// multiplying or shifting by a constant, without wrapping (nsw for a
  /// signed comparison, nuw for an unsigned one); extending it; truncating
  /// it (the copy's condition asks the truncated value to be non-negative
  /// at both ends). Null if V is not that.
  CallInst *idInOrder(Value *V, bool Signed, unsigned Depth = 8) const {
    if (Depth == 0)
      return nullptr;
    if (auto *Call = dyn_cast<CallInst>(V)) {
      const Function *Callee = Call->getCalledFunction();
      const WorkItemFn Kind = Callee ? classifyWorkItemFn(Callee->getName()) : WorkItemFn::None;
      const bool Id = (Kind == WorkItemFn::GlobalId || Kind == WorkItemFn::LocalId) &&
                      isa<ConstantInt>(Call->getArgOperand(0));
      return Id ? Call : nullptr;
    }
    auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return nullptr;
    switch (I->getOpcode()) {
    case Instruction::Trunc:
      return idInOrder(I->getOperand(0), Signed, Depth - 1);
    case Instruction::SExt:
    case Instruction::ZExt: {
      // Past a truncation or straight from the id the value is not
      // negative, and both extensions keep it; else only the one of the
      // comparison's signedness keeps the order.
      Value *Op = I->getOperand(0);
      const bool Same = Signed == (I->getOpcode() == Instruction::SExt);
      if (!Same && !isa<TruncInst>(Op) && !isa<CallInst>(Op))
        return nullptr;
      return idInOrder(Op, Signed, Depth - 1);
    }
    case Instruction::Add:
    case Instruction::Sub:
    case Instruction::Mul:
    case Instruction::Shl: {
      auto *Op = cast<OverflowingBinaryOperator>(I);
      if (!(Signed ? Op->hasNoSignedWrap() : Op->hasNoUnsignedWrap()))
        return nullptr;
      Value *A = I->getOperand(0), *B = I->getOperand(1);
      if (I->getOpcode() == Instruction::Mul || I->getOpcode() == Instruction::Shl) {
        const auto *K = dyn_cast<ConstantInt>(B);
        if (!K || K->isZero() || (I->getOpcode() == Instruction::Mul && K->isNegative()))
          return nullptr;
        return idInOrder(A, Signed, Depth - 1);
      }
      if (UV.isUniform(B))
        return idInOrder(A, Signed, Depth - 1);
      return UV.isUniform(A) ? idInOrder(B, Signed, Depth - 1) : nullptr;
    }
    default:
      return nullptr;
    }
  }

  /// V, uniform, computed again in the new entry (B), or null where it is
  /// not a pure function of the arguments and the group's queries.
  Value *uniformAtEntry(Value *V, IRBuilder<> &B, unsigned Depth = 8) {
    if (isa<Constant>(V) || isa<Argument>(V))
      return V;
    auto It = AtEntry.find(V);
    if (It != AtEntry.end())
      return It->second;
    auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth == 0 || !UV.isUniform(I))
      return nullptr;
    if (auto *Call = dyn_cast<CallInst>(I)) {
      const Function *Callee = Call->getCalledFunction();
      const WorkItemFn Kind = Callee ? classifyWorkItemFn(Callee->getName()) : WorkItemFn::None;
      if (Kind == WorkItemFn::None ||
          (Call->arg_size() != 0 && !isa<ConstantInt>(Call->getArgOperand(0))))
        return nullptr;
    } else if (!isa<CastInst>(I) && !isa<CmpInst>(I) && !isa<SelectInst>(I) &&
               !(isa<BinaryOperator>(I) && !I->isIntDivRem())) {
      return nullptr;
    }
    Instruction *Copy = I->clone();
    for (Use &Op : Copy->operands()) {
      if (isa<Function>(Op.get()))
        continue;
      Value *At = uniformAtEntry(Op.get(), B, Depth - 1);
      if (!At) {
        Copy->deleteValue();
        return nullptr;
      }
      Op.set(At);
    }
    B.Insert(Copy, I->getName() + ".group");
    AtEntry[V] = Copy;
    return Copy;
  }

  /// V, a chain of idInOrder's from the id call IdCall, computed in the new
  /// entry (B) with IdCall's value replaced by End, one end of the group's
  /// ids; each truncation's operand there is asked into InRange to be
  /// non-negative and to fit. Null if a uniform operand cannot be computed
  /// there.
  Value *atEnd(Value *V, CallInst *IdCall, Value *End, IRBuilder<> &B, Value *&InRange) {
    if (V == IdCall)
      return End;
    auto *I = cast<Instruction>(V);
    Instruction *Copy = I->clone();
    for (Use &Op : Copy->operands()) {
      Value *At = UV.isUniform(Op.get()) ? uniformAtEntry(Op.get(), B)
                                         : atEnd(Op.get(), IdCall, End, B, InRange);
      if (!At) {
        Copy->deleteValue();
        return nullptr;
      }
      Op.set(At);
    }
    B.Insert(Copy, I->getName() + ".end");
    if (isa<TruncInst>(I)) {
      Value *Wide = Copy->getOperand(0);
      const unsigned Bits = Copy->getType()->getIntegerBitWidth();
      const APInt Limit = APInt::getOneBitSet(Wide->getType()->getIntegerBitWidth(), Bits - 1);
      InRange = B.CreateLogicalAnd(InRange,
                                   B.CreateICmpULT(Wide, ConstantInt::get(Wide->getType(), Limit)));
    }
    return Copy;
  }

  /// The group's first and last id of the kind and dimension Call asks.
  std::pair<Value *, Value *> idEnds(CallInst &Call, IRBuilder<> &B) {
    const WorkItemFn Kind = classifyWorkItemFn(Call.getCalledFunction()->getName());
    Value *Dim = Call.getArgOperand(0);
    Type *Ty = Call.getType();
    Module &M = *F.getParent();
    auto query = [&](const char *Name) {
      FunctionCallee Fn =
          M.getOrInsertFunction(Name, FunctionType::get(Ty, {Dim->getType()}, false));
      return B.CreateCall(Fn, {Dim});
    };
    Value *Size = query("_Z14get_local_sizej");
    Value *First = ConstantInt::get(Ty, 0);
    if (Kind == WorkItemFn::GlobalId)
      First = B.CreateAdd(
          B.CreateMul(query("_Z12get_group_idj"), query("_Z23get_enqueued_local_sizej")),
          query("_Z17get_global_offsetj"));
    return {First, B.CreateSub(B.CreateAdd(First, Size), ConstantInt::get(Ty, 1))};
  }

  /// Leaf L (a uniform value or an id comparison) as it must be, at both
  /// ends of the group's ids.
  Value *holdsForGroup(const Leaf &L, IRBuilder<> &B) {
    if (UV.isUniform(L.Cond)) {
      Value *C = uniformAtEntry(L.Cond, B);
      if (!C)
        return nullptr;
      C = B.CreateFreeze(C);
      return L.Want ? C : B.CreateNot(C);
    }
    auto *Cmp = cast<ICmpInst>(L.Cond);
    const bool Left = !UV.isUniform(Cmp->getOperand(0));
    Value *Moving = Cmp->getOperand(Left ? 0 : 1);
    Value *Bound = uniformAtEntry(Cmp->getOperand(Left ? 1 : 0), B);
    if (!Bound)
      return nullptr;
    Bound = B.CreateFreeze(Bound);
    CallInst *Id = idInOrder(Moving, Cmp->isSigned());
    auto [First, Last] = idEnds(*Id, B);
    Value *Holds = B.getTrue();
    for (Value *End : {First, Last}) {
      Value *InRange = B.getTrue();
      Value *At = atEnd(Moving, Id, End, B, InRange);
      if (!At)
        return nullptr;
      Value *Cond = B.CreateICmp(Cmp->getPredicate(), Left ? At : Bound, Left ? Bound : At);
      Holds =
          B.CreateLogicalAnd(Holds, B.CreateLogicalAnd(InRange, L.Want ? Cond : B.CreateNot(Cond)));
    }
    return Holds;
  }

  /// Steps 2 and 3: a new entry that computes whether every guard's leaves
  /// hold for the whole group, and branches to a copy of the function with
  /// the guards folded or to the function as it was; false (F unchanged)
  /// if a leaf cannot be computed at the entry.
  bool version() {
    BasicBlock *OldEntry = &F.getEntryBlock();
    BasicBlock *Entry = BasicBlock::Create(F.getContext(), "group.checks", &F, OldEntry);
    IRBuilder<> B(Entry);
    Value *Holds = groupCondition(B);
    if (!Holds) {
      // Only the new entry's own values use its values, each after it.
      while (!Entry->empty())
        Entry->back().eraseFromParent();
      Entry->eraseFromParent();
      return false;
    }
    copyForGroup(Entry, OldEntry, Holds, B);
    return true;
  }

  /// Step 2: in the new entry (B), the conjunction of every guard's leaves
  /// as they must be at both ends of the group's ids; null if one cannot
  /// be computed there.
  Value *groupCondition(IRBuilder<> &B) {
    Value *Holds = B.getTrue();
    for (const Guard &G : Guards)
      for (const Leaf &L : G.Leaves) {
        Value *H = holdsForGroup(L, B);
        if (!H)
          return nullptr;
        Holds = B.CreateLogicalAnd(Holds, H);
      }
    return Holds;
  }

  /// Step 3: the allocas moved to the new entry (one set for both copies),
  /// every other block copied, the entry branching on Holds to the copy,
  /// whose guards are folded the way toward their loops.
  void copyForGroup(BasicBlock *Entry, BasicBlock *OldEntry, Value *Holds, IRBuilder<> &B) {
    for (Instruction &I : make_early_inc_range(*OldEntry))
      if (isa<AllocaInst>(I))
        I.moveBefore(*Entry, Entry->getFirstInsertionPt());
    ValueToValueMapTy VMap;
    SmallVector<BasicBlock *, 32> Blocks;
    for (BasicBlock &BB : F)
      if (&BB != Entry)
        Blocks.push_back(&BB);
    SmallVector<BasicBlock *, 32> Copies;
    for (BasicBlock *BB : Blocks) {
      BasicBlock *Copy = CloneBasicBlock(BB, VMap, ".group", &F);
      VMap[BB] = Copy;
      Copies.push_back(Copy);
    }
    remapInstructionsInBlocks(Copies, VMap);
    B.CreateCondBr(Holds, cast<BasicBlock>(VMap[OldEntry]), OldEntry);
    for (const Guard &G : Guards) {
      auto *Copy = cast<BranchInst>(VMap[G.Branch]);
      Copy->setCondition(ConstantInt::getBool(F.getContext(), G.Want));
      ConstantFoldTerminator(Copy->getParent(), /*DeleteDeadConditions=*/true);
    }
    removeUnreachableBlocks(F);
  }

  Function &F;
  const UniformValues &UV;
  DominatorTree DT;
  PostDominatorTree PDT;
  LoopInfo LI;
  SmallVector<Guard, 4> Guards;
  DenseMap<Value *, Value *> AtEntry;
};

/// How many operations deep a value crossing a barrier may be to be
/// recomputed after it rather than kept in the frame.
constexpr unsigned MaxRecomputeDepth = 6;

/// Whether Call asks for a constant of the work-item or its sub-group: a
/// work-item function, or the builtin library's collective scratch and
/// sub-group size and area.
bool isQuery(const CallInst &Call) {
  const Function *Callee = Call.getCalledFunction();
  return Callee && (classifyWorkItemFn(Callee->getName()) != WorkItemFn::None ||
                    isSubGroupWidthName(Callee->getName()) ||
                    isSubGroupAreaName(Callee->getName()) ||
                    classifyAddressSpaceFn(Callee->getName()) == AddressSpaceFn::CollectiveScratch);
}

/// Whether V is a pure function of the work-item's ids and sizes, the
/// kernel's arguments and constants (get_local_id(0), a global index, a
/// pointer into a buffer at that index), within Depth operations. A
/// division is, by a divisor that cannot be 0 (a constant, the sub-group
/// size).
bool recomputable(const Value *V, unsigned Depth) {
  if (isa<Argument>(V) || isa<Constant>(V))
    return true;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth == 0)
    return false;
  if (const auto *Call = dyn_cast<CallInst>(I)) {
    if (!isQuery(*Call))
      return false;
  } else if (I->getOpcode() == Instruction::UDiv || I->getOpcode() == Instruction::URem) {
    const Value *Divisor = I->getOperand(1);
    const auto *C = dyn_cast<ConstantInt>(Divisor);
    const auto *Call = dyn_cast<CallInst>(Divisor);
    if (!(C && !C->isZero()) &&
        !(Call && Call->getCalledFunction() &&
          isSubGroupWidthName(Call->getCalledFunction()->getName())))
      return false;
  } else if (!isa<CastInst>(I) && !isa<CmpInst>(I) && !isa<GetElementPtrInst>(I) &&
             !isa<SelectInst>(I) && !(isa<BinaryOperator>(I) && !I->isIntDivRem())) {
    return false;
  }
  return llvm::all_of(I->operands(),
                      [&](const Use &Op) { return recomputable(Op.get(), Depth - 1); });
}

/// A copy of V's computation that is available at Before (V itself where
/// it already dominates Before).
Value *recomputeAt(Value *V, Instruction *Before, const DominatorTree &DT) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || DT.dominates(I, Before))
    return V;
  Instruction *Copy = I->clone();
  Copy->setName(I->getName() + ".again");
  Copy->insertBefore(Before);
  for (Use &Op : Copy->operands())
    Op.set(recomputeAt(Op.get(), Copy, DT));
  return Copy;
}

/// Whether A is only loaded and stored whole: a value, not memory whose
/// address the kernel computes with.
bool onlyWholeLoadsAndStores(const AllocaInst &A) {
  if (A.isArrayAllocation())
    return false;
  for (const User *U : A.users()) {
    if (const auto *L = dyn_cast<LoadInst>(U)) {
      if (L->isVolatile() || L->getType() != A.getAllocatedType())
        return false;
    } else if (const auto *S = dyn_cast<StoreInst>(U)) {
      if (S->isVolatile() || S->getPointerOperand() != &A ||
          S->getValueOperand()->getType() != A.getAllocatedType())
        return false;
    } else {
      return false;
    }
  }
  return true;
}

/// Whether the far uses of L, a load of a private variable, may load the
/// variable again instead of L being demoted to a slot of its own. That
/// holds when every store to the variable is followed, in its block, by a
/// plain branch to L's block, with L above any store there: then no path
/// from a store reaches a use without running L again. The slot of a PHI
/// demoted earlier is such a variable (its stores end the PHI's incoming
/// blocks, the load heads its block) whenever the incoming blocks branch
/// only to it, as the latches of OpenCL C's loops do before loop rotation.
/// This spares a second column and a copy per iteration for every loop
/// variable that crosses a barrier. A PHI use is left out: it would load at
/// the end of an incoming block, after the store.
bool reloadable(const LoadInst &L, ArrayRef<Use *> FarUses) {
  const auto *A = dyn_cast<AllocaInst>(L.getPointerOperand());
  if (!A || L.isVolatile() || !onlyWholeLoadsAndStores(*A))
    return false;
  if (llvm::any_of(FarUses, [](const Use *U) { return isa<PHINode>(U->getUser()); }))
    return false;
  const BasicBlock *Home = L.getParent();
  for (const User *U : A->users()) {
    const auto *S = dyn_cast<StoreInst>(U);
    if (!S)
      continue;
    const auto *Br = dyn_cast<BranchInst>(S->getParent()->getTerminator());
    if (!Br || Br->isConditional() || Br->getSuccessor(0) != Home)
      return false;
    if (S->getParent() == Home && !L.comesBefore(S))
      return false;
  }
  return true;
}

/// Makes every value available where it is used again after a barrier:
/// recomputes it there (recomputable), loads its variable again there
/// (reloadable), or demotes it to memory (the rest). Returns the number of
/// values changed.
unsigned demoteNonDominating(Function &F, Instruction *AllocaPoint, UniformValues &UV) {
  DominatorTree DT(F);
  SmallVector<Instruction *, 32> ToDemote;
  SmallVector<Use *, 32> ToRecompute, ToReload;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (isa<AllocaInst>(I))
        continue;
      SmallVector<Use *, 4> Far;
      for (Use &U : I.uses())
        if (!DT.dominates(&I, U))
          Far.push_back(&U);
      if (Far.empty())
        continue;
      if (recomputable(&I, MaxRecomputeDepth))
        ToRecompute.append(Far.begin(), Far.end());
      else if (auto *L = dyn_cast<LoadInst>(&I); L && reloadable(*L, Far))
        ToReload.append(Far.begin(), Far.end());
      else
        ToDemote.push_back(&I);
    }
  for (Use *U : ToReload) {
    auto *L = cast<LoadInst>(U->get());
    auto *Again = new LoadInst(L->getType(), L->getPointerOperand(), L->getName() + ".again", false,
                               L->getAlign(), cast<Instruction>(U->getUser()));
    U->set(Again);
  }
  for (Use *U : ToRecompute) {
    auto *User = cast<Instruction>(U->getUser());
    Instruction *At = User;
    if (auto *Phi = dyn_cast<PHINode>(User))
      At = Phi->getIncomingBlock(*U)->getTerminator();
    U->set(recomputeAt(U->get(), At, DT));
  }
  // One at a time: a PHI whose incoming value was demoted before it sees
  // the load of that value's slot, uniform only if the slot is.
  for (Instruction *I : ToDemote) {
    bool Uniform = UV.demotesUniformly(*I);
    AllocaInst *Slot = isa<PHINode>(I) ? DemotePHIToStack(cast<PHINode>(I), AllocaPoint)
                                       : DemoteRegToStack(*I, false, AllocaPoint);
    if (Uniform)
      UV.addSlot(Slot);
  }
  return static_cast<unsigned>(ToDemote.size() + ToRecompute.size() + ToReload.size());
}

void eraseLifetimeMarkers(AllocaInst *A) {
  SmallVector<Instruction *, 4> Dead;
  SmallVector<Value *, 4> Work = {A};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (User *U : V->users()) {
      if (auto *II = dyn_cast<IntrinsicInst>(U)) {
        if (II->isLifetimeStartOrEnd())
          Dead.push_back(II);
      } else if (isa<BitCastInst>(U) || isa<AddrSpaceCastInst>(U)) {
        Work.push_back(U);
      }
    }
  }
  for (Instruction *I : Dead)
    I->eraseFromParent();
}

/// Gives each uniform slot (a private variable of every work-item, holding
/// the same value in all) its place in the group's two copies at Uniform:
/// each region begins by loading the variable from the first copy, and
/// every work-item that leaves the region stores it to the second, which
/// the work-group function copies over the first before the next region
/// (wi::UniformSizeAttr). Work-items run one after the other, so one that
/// updated the variable must not change what a later one of the same
/// region starts from, and a region's work-items all leave the same value.
/// In the x loop the load is then the same address for every work-item and
/// the stored value the same, so both leave the loop; the variable is a
/// register in each region instead of a column of the frames.
void shareUniformSlots(Function &F, ArrayRef<AllocaInst *> Slots) {
  uint64_t Bytes = 0;
  if (!Slots.empty()) {
    const DataLayout &DL = F.getParent()->getDataLayout();
    SmallVector<AllocaInst *, 8> Sorted(Slots.begin(), Slots.end());
    llvm::stable_sort(Sorted,
                      [](AllocaInst *L, AllocaInst *R) { return L->getAlign() > R->getAlign(); });
    SmallVector<uint64_t, 8> Offsets;
    for (AllocaInst *A : Sorted) {
      Bytes = alignTo(Bytes, A->getAlign().value());
      Offsets.push_back(Bytes);
      Bytes += allocaBytes(*A, DL);
    }
    Bytes = alignTo(Bytes, 16);
    Value *Area = wi::extraArg(F, wi::Uniform);
    // Every region starts at a successor of the dispatch switch.
    SmallPtrSet<BasicBlock *, 8> Entries(succ_begin(&F.getEntryBlock()),
                                         succ_end(&F.getEntryBlock()));
    for (BasicBlock *Entry : Entries) {
      IRBuilder<> B(Entry, Entry->getFirstInsertionPt());
      for (size_t K = 0; K < Sorted.size(); ++K) {
        Type *Ty = Sorted[K]->getAllocatedType();
        Value *Cur = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Area, Offsets[K]);
        B.CreateStore(B.CreateLoad(Ty, Cur, Sorted[K]->getName() + ".group"), Sorted[K]);
      }
    }
    // One return, where every work-item stores what it leaves.
    SmallVector<ReturnInst *, 8> Returns;
    for (BasicBlock &BB : F)
      if (auto *R = dyn_cast<ReturnInst>(BB.getTerminator()))
        Returns.push_back(R);
    ReturnInst *Ret = Returns.front();
    if (Returns.size() > 1) {
      LLVMContext &C = F.getContext();
      BasicBlock *Exit = BasicBlock::Create(C, "leave", &F);
      PHINode *State = PHINode::Create(Type::getInt32Ty(C), Returns.size(), "state.next", Exit);
      for (ReturnInst *R : Returns) {
        State->addIncoming(R->getReturnValue(), R->getParent());
        BranchInst::Create(Exit, R);
        R->eraseFromParent();
      }
      Ret = ReturnInst::Create(C, State, Exit);
    }
    IRBuilder<> B(Ret);
    for (size_t K = 0; K < Sorted.size(); ++K) {
      Type *Ty = Sorted[K]->getAllocatedType();
      Value *Next = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Area, Bytes + Offsets[K]);
      B.CreateStore(B.CreateLoad(Ty, Sorted[K], Sorted[K]->getName() + ".left"), Next);
    }
  }
  wi::setSizeAttr(F, wi::UniformSizeAttr, Bytes);
}

/// Sub-group syncs that are work-group barriers: in a function where no
/// work-item waits for another (no loop that may spin: Yields), a sync in
/// a block every work-item of the group runs alike is reached by all of
/// them together, so a barrier there synchronises what the sync would and
/// no more than the work-items can give; the group's work-items then run
/// the regions side by side as at any barrier, instead of a sub-group at a
/// time. Replaces them in Barriers; returns whether there were any.
bool wholeGroupSyncsToBarriers(Function &F, const UniformValues &UV,
                               SmallVectorImpl<CallInst *> &Barriers) {
  bool Changed = false;
  for (CallInst *&Call : Barriers) {
    if (!isSubGroupSync(*Call) || !UV.isUniformBlock(Call->getParent()))
      continue;
    LLVMContext &C = F.getContext();
    FunctionCallee Barrier = F.getParent()->getOrInsertFunction(
        "_Z7barrierj", FunctionType::get(Type::getVoidTy(C), {Type::getInt32Ty(C)}, false));
    CallInst *New = CallInst::Create(Barrier, {ConstantInt::get(Type::getInt32Ty(C), 0)});
    ReplaceInstWithInst(Call, New);
    Call = New;
    Changed = true;
  }
  return Changed;
}

} // namespace

bool BarrierStatePass::transform(Function &F) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  LLVMContext &C = F.getContext();
  uint64_t PrivateBytes = 0;
  for (Instruction &I : instructions(F))
    if (auto *A = dyn_cast<AllocaInst>(&I)) {
      if (!isa<ConstantInt>(A->getArraySize()))
        return false;
      PrivateBytes += allocaBytes(*A, DL);
    }
  wi::setSizeAttr(F, wi::PrivateSizeAttr, PrivateBytes);

  const unsigned Yields = addYields(F);
  SmallVector<CallInst *, 8> Barriers = findBarriers(F);
  if (Barriers.empty()) {
    // Without barriers or loops there is nothing to split and no loop to
    // run across the work-items: no divergence analysis for it.
    SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 4> BackEdges;
    FindFunctionBackedges(F, BackEdges);
    if (BackEdges.empty()) {
      wi::setSizeAttr(F, wi::BarrierCountAttr, 0);
      wi::setSizeAttr(F, wi::FrameSizeAttr, 0);
      return true;
    }
  }
  // A barrier-free function whose column loop sits behind bounds checks
  // gets a copy for the groups where they pass (GroupCheckVersioner), and
  // is analyzed again.
  UniformValues Unversioned(F);
  std::optional<UniformValues> Versioned;
  if (Barriers.empty() && GroupCheckVersioner(F, Unversioned).run()) {
    for (Instruction &I : instructions(F))
      I.setMetadata(UniformMD, nullptr);
    Versioned.emplace(F);
  }
  UniformValues &UV = Versioned ? *Versioned : Unversioned;
  if (Yields == 0 && wholeGroupSyncsToBarriers(F, UV, Barriers))
    F.addFnAttr(wi::SubGroupBarriersAttr);
  if (Barriers.empty()) {
    // A loop whose iterations are better run across the work-items gets a
    // barrier of its own, and the function becomes one with barriers.
    addLoopBarriers(
        F, UV, [&](const Loop &L) { return acrossWorkItemsIsConsecutive(L, UV); },
        [&] {
          FunctionCallee Barrier = F.getParent()->getOrInsertFunction(
              "_Z7barrierj", FunctionType::get(Type::getVoidTy(C), {Type::getInt32Ty(C)}, false));
          return CallInst::Create(Barrier, {ConstantInt::get(Type::getInt32Ty(C), 0)});
        });
  } else {
    addLoopBarriers(
        F, UV, [](const Loop &) { return true; }, [&] { return Barriers.front()->clone(); });
  }
  Barriers = findBarriers(F);
  if (any_of(Barriers, [](CallInst *B) { return isSubGroupSync(*B); }))
    sortInStructuredOrder(F, Barriers);
  wi::setSizeAttr(F, wi::BarrierCountAttr, Barriers.size());
  // State k + 1 resumes after Barriers[k]: which of them are sub-group
  // syncs.
  std::string SubGroupStates(Barriers.size() + 1, '0');
  for (size_t K = 0; K < Barriers.size(); ++K)
    if (isSubGroupSync(*Barriers[K]))
      SubGroupStates[K + 1] = '1';
  const bool SubGroupSyncs = SubGroupStates.find('1') != std::string::npos;
  if (SubGroupSyncs)
    F.addFnAttr(wi::SubGroupStatesAttr, SubGroupStates);
  if (Barriers.empty()) {
    for (Instruction &I : instructions(F))
      I.setMetadata(UniformMD, nullptr);
    wi::setSizeAttr(F, wi::FrameSizeAttr, 0);
    return true;
  }

  // 1. Split at barriers.
  Type *I32 = Type::getInt32Ty(C);
  SmallVector<BasicBlock *, 8> Resume;
  for (CallInst *Barrier : Barriers) {
    BasicBlock *BB = Barrier->getParent();
    BasicBlock *After = BB->splitBasicBlock(Barrier->getNextNode(), BB->getName() + ".resume");
    UV.split(BB, After);
    BB->getTerminator()->eraseFromParent();
    ReturnInst::Create(C, ConstantInt::get(I32, Resume.size() + 1), BB);
    Barrier->eraseFromParent();
    Resume.push_back(After);
  }

  // 2. Dispatch block.
  BasicBlock *OldEntry = &F.getEntryBlock();
  BasicBlock *Dispatch = BasicBlock::Create(C, "dispatch", &F, OldEntry);
  SwitchInst *Switch =
      SwitchInst::Create(wi::extraArg(F, wi::State), OldEntry, Resume.size(), Dispatch);
  for (size_t K = 0; K < Resume.size(); ++K)
    Switch->addCase(ConstantInt::get(cast<IntegerType>(I32), K + 1), Resume[K]);
  for (Instruction &I : make_early_inc_range(*OldEntry))
    if (isa<AllocaInst>(I))
      I.moveBefore(Switch);

  // 3. Demote what crosses a barrier.
  // (removeUnreachableBlocks may rewrite the switch; re-read the terminator.)
  removeUnreachableBlocks(F);
  while (demoteNonDominating(F, F.getEntryBlock().getTerminator(), UV) != 0) {
  }

  // 4. Uniform slots stay private variables, copied from and to the group's
  // two copies; the other allocas -> frame columns and blocks. (Not with
  // sub-group syncs: the sub-groups of a group run a region one after the
  // other, each from its own state, so no two copies serve them all.)
  SmallVector<AllocaInst *, 32> Columns, Blocks, Uniform;
  for (Instruction &I : instructions(F))
    if (auto *A = dyn_cast<AllocaInst>(&I))
      (UV.isSlot(A) && !SubGroupSyncs ? Uniform
       : onlyWholeLoadsAndStores(*A)  ? Columns
                                      : Blocks)
          .push_back(A);
  shareUniformSlots(F, Uniform);
  for (Instruction &I : instructions(F))
    I.setMetadata(UniformMD, nullptr);
  // Columns of the strictest alignment first: every column then starts at a
  // multiple of its alignment without padding between them.
  llvm::stable_sort(Columns,
                    [](AllocaInst *L, AllocaInst *R) { return L->getAlign() > R->getAlign(); });
  IRBuilder<> B(F.getEntryBlock().getTerminator());
  Value *Frames = wi::extraArg(F, wi::Frame);
  auto localSize = [&](unsigned D) {
    return WorkItemBuiltinPass::query(F, B, WorkItemFn::LocalSize, B.getInt32(D));
  };
  Value *Items = B.CreateMul(B.CreateMul(localSize(0), localSize(1)), localSize(2), "frame.items");
  Value *Linear = WorkItemBuiltinPass::query(F, B, WorkItemFn::LocalLinearId);
  auto place = [&](AllocaInst *A, Value *Slot) {
    eraseLifetimeMarkers(A);
    if (Slot->getType() != A->getType())
      Slot = B.CreateAddrSpaceCast(Slot, A->getType());
    A->replaceAllUsesWith(Slot);
    A->eraseFromParent();
  };
  uint64_t MaxAlign = 16;
  uint64_t ColumnBytes = 0; // per work-item
  for (AllocaInst *A : Columns) {
    uint64_t Al = A->getAlign().value();
    uint64_t Stride = alignTo(allocaBytes(*A, DL), Al);
    MaxAlign = std::max(MaxAlign, Al);
    Value *Column =
        B.CreateInBoundsGEP(B.getInt8Ty(), Frames, B.CreateMul(Items, B.getInt64(ColumnBytes)));
    place(A, B.CreateInBoundsGEP(B.getInt8Ty(), Column, B.CreateMul(Linear, B.getInt64(Stride)),
                                 A->getName() + ".frame"));
    ColumnBytes += Stride;
  }
  uint64_t BlockBytes = 0;
  SmallVector<std::pair<AllocaInst *, uint64_t>, 8> BlockOffsets;
  for (AllocaInst *A : Blocks) {
    uint64_t Al = A->getAlign().value();
    MaxAlign = std::max(MaxAlign, Al);
    BlockBytes = alignTo(BlockBytes, Al);
    BlockOffsets.push_back({A, BlockBytes});
    BlockBytes += allocaBytes(*A, DL);
  }
  ColumnBytes = alignTo(ColumnBytes, MaxAlign);
  BlockBytes = alignTo(BlockBytes, MaxAlign);
  if (!BlockOffsets.empty()) {
    Value *Block = B.CreateInBoundsGEP(B.getInt8Ty(), Frames,
                                       B.CreateAdd(B.CreateMul(Items, B.getInt64(ColumnBytes)),
                                                   B.CreateMul(Linear, B.getInt64(BlockBytes))),
                                       "frame.block");
    for (auto [A, Offset] : BlockOffsets)
      place(A, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Block, Offset, A->getName() + ".frame"));
  }
  wi::setSizeAttr(F, wi::FrameSizeAttr, std::max<uint64_t>(ColumnBytes + BlockBytes, MaxAlign));
  return true;
}

PreservedAnalyses BarrierStatePass::run(Module &M, ModuleAnalysisManager &) {
  for (Function &F : M)
    if (wi::isWorkItemFunction(F) && !F.isDeclaration())
      if (!transform(F))
        F.addFnAttr("weft-error", "a private array of dynamic size is not supported");
  return PreservedAnalyses::none();
}

} // namespace weft::compiler
