// WorkItemJamPass (see the header).
//
// For each work-item loop X of the shape the header names, with K copies:
//   1. Split X's blocks: L's (the inner loop), post (reachable from L's
//      exit block without the back edge of X) and pre (the rest, from X's
//      header to L's preheader). Check that nothing in X can tell the order
//      of the work-items' operations (see the header).
//   2. Before X, a guard runs a new loop XJ over x = 0, K, 2K, ... while
//      x + K <= n, then X itself from where XJ stopped (X is its own
//      remainder; a group narrower than K goes straight to it).
//   3. XJ's body: pre copied K times, copy k for work-item x + k. Each copy
//      ends in a block M_k where its exits meet (into L, or past it):
//      `entered_k` says which, and a phi carries each value pre defines and
//      L or post uses (poison on the path that does not define it).
//   4. Then the jammed loop J. Its header holds, for each copy, the values
//      L's header phis carry, the copy's `active` flag and the last values
//      L's exit phis would take. A round visits the copies in turn: guard
//      on `active_k`, a copy of L's blocks in which the back edges go to a
//      block that collects the values for the next iteration and the exit
//      edges to one that collects the exit values, then a block S_k that
//      merges the three ways (inactive, continued, finished). J runs while
//      any copy is active.
//   5. After J, post copied K times: copy k starts at L's exit block, its
//      exit phis replaced by the copy's last values, or at the block pre's
//      bypass reaches where the copy never entered L. Each copy's latch goes
//      on to the next; the last one steps x by K.
#include "compiler/vectorize/WorkItemJamPass.h"

#include "compiler/vectorize/LoopVersion.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <llvm/ADT/SetVector.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

using namespace llvm;

namespace weft::compiler {

namespace {

/// What step 1 finds of a work-item loop.
struct Shape {
  Loop *X = nullptr, *L = nullptr;
  BasicBlock *XPreheader = nullptr, *XHeader = nullptr, *XLatch = nullptr, *XExit = nullptr;
  PHINode *IV = nullptr;
  BasicBlock *LPreheader = nullptr, *LHeader = nullptr, *LExit = nullptr;
  SmallSetVector<BasicBlock *, 8> Pre, Post;
  /// The block of post that pre's edges past L reach (null: none do).
  BasicBlock *Join = nullptr;
  SmallVector<PHINode *, 4> Carried; ///< L's header phis
  SmallVector<PHINode *, 4> Outs;    ///< L's exit block's phis
  /// Instructions of pre (but the induction) that L or post uses, each
  /// with the blocks that leave pre (into L or past it) it dominates.
  SmallVector<std::pair<Instruction *, SmallPtrSet<BasicBlock *, 4>>, 8> Escaping;
  unsigned K = 0;
};

unsigned sizeOf(ArrayRef<BasicBlock *> Blocks) {
  unsigned N = 0;
  for (BasicBlock *BB : Blocks)
    N += BB->size();
  return N;
}

/// Whether I leaves nothing another work-item could see the order of.
bool reorderable(const Instruction &I) {
  if (I.isAtomic() || isa<FenceInst>(I) || isa<AllocaInst>(I))
    return false;
  if (const auto *Load = dyn_cast<LoadInst>(&I))
    return !Load->isVolatile();
  if (const auto *Store = dyn_cast<StoreInst>(&I))
    return !Store->isVolatile() &&
           !isa<AllocaInst>(getUnderlyingObject(Store->getPointerOperand()));
  if (const auto *Call = dyn_cast<CallBase>(&I)) {
    // A private variable's lifetime would end in one copy while another
    // still uses it.
    if (const auto *II = dyn_cast<IntrinsicInst>(Call); II && II->isAssumeLikeIntrinsic())
      return !II->isLifetimeStartOrEnd();
    return Call->onlyReadsMemory() && Call->willReturn() && Call->doesNotThrow();
  }
  return !I.mayHaveSideEffects();
}

bool analyze(Loop &X, ScalarEvolution &SE, const DominatorTree &DT, Shape &S) {
  if (!findOptionMDForLoop(&X, wi::WorkItemLoopMD) || X.getSubLoops().size() != 1)
    return false;
  S.X = &X;
  S.L = X.getSubLoops()[0];
  Loop &L = *S.L;
  S.XPreheader = X.getLoopPreheader();
  S.XHeader = X.getHeader();
  S.XLatch = X.getLoopLatch();
  S.XExit = X.getExitBlock();
  S.LPreheader = L.getLoopPreheader();
  S.LHeader = L.getHeader();
  S.LExit = L.getExitBlock();
  if (!L.isInnermost() || !S.XPreheader || !S.XLatch || !S.XExit ||
      X.getExitingBlock() != S.XLatch || !S.XExit->phis().empty() || !S.LPreheader || !S.LExit)
    return false;
  S.IV = X.getCanonicalInductionVariable();
  if (!S.IV || std::distance(S.XHeader->phis().begin(), S.XHeader->phis().end()) != 1)
    return false;
  // A data-dependent exit; the work-item loop's own trip count known.
  if (!isa<SCEVCouldNotCompute>(SE.getBackedgeTakenCount(&L)) ||
      isa<SCEVCouldNotCompute>(SE.getExitCount(&X, S.XLatch)))
    return false;
  for (BasicBlock *Pred : predecessors(S.LExit))
    if (!L.contains(Pred))
      return false;

  // Post: what L's exit reaches before the back edge; pre: the rest.
  SmallVector<BasicBlock *, 8> Work{S.LExit};
  S.Post.insert(S.LExit);
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    for (BasicBlock *Succ : successors(BB))
      if (X.contains(Succ) && Succ != S.XHeader && !L.contains(Succ) && S.Post.insert(Succ))
        Work.push_back(Succ);
  }
  for (BasicBlock *BB : X.blocks())
    if (!L.contains(BB) && !S.Post.contains(BB))
      S.Pre.insert(BB);
  if (!S.Post.contains(S.XLatch) || !S.Pre.contains(S.LPreheader) || !S.Pre.contains(S.XHeader))
    return false;
  for (BasicBlock *BB : S.Pre)
    for (BasicBlock *Succ : successors(BB)) {
      if (S.Pre.contains(Succ) || (Succ == S.LHeader && BB == S.LPreheader))
        continue;
      if (!S.Post.contains(Succ) || (S.Join && S.Join != Succ) || Succ == S.LExit)
        return false;
      S.Join = Succ;
    }
  for (BasicBlock *BB : S.Post) {
    for (BasicBlock *Succ : successors(BB))
      if (!S.Post.contains(Succ) && BB != S.XLatch)
        return false;
    for (BasicBlock *Pred : predecessors(BB))
      if (!S.Post.contains(Pred) && !(BB == S.LExit && L.contains(Pred)) &&
          !(BB == S.Join && S.Pre.contains(Pred)))
        return false;
  }

  for (PHINode &Phi : S.LHeader->phis())
    S.Carried.push_back(&Phi);
  for (PHINode &Phi : S.LExit->phis())
    S.Outs.push_back(&Phi);
  for (BasicBlock *BB : X.blocks())
    for (Instruction &I : *BB) {
      if (!reorderable(I))
        return false;
      for (User *U : I.users()) {
        auto *UI = cast<Instruction>(U);
        // Only through the exit block's phis out of L (LCSSA), and nothing
        // out of X.
        if (!X.contains(UI->getParent()) ||
            (L.contains(BB) && !L.contains(UI->getParent()) && UI->getParent() != S.LExit))
          return false;
      }
      if (S.Pre.contains(BB) && &I != S.IV && llvm::any_of(I.users(), [&](User *U) {
            return !S.Pre.contains(cast<Instruction>(U)->getParent());
          })) {
        SmallPtrSet<BasicBlock *, 4> Dominated;
        for (BasicBlock *Pre : S.Pre)
          if ((Pre == S.LPreheader || is_contained(successors(Pre), S.Join)) &&
              DT.dominates(BB, Pre))
            Dominated.insert(Pre);
        S.Escaping.push_back({&I, std::move(Dominated)});
      }
    }

  const unsigned LoopSize = sizeOf(L.getBlocks());
  const unsigned Size = sizeOf(X.getBlocks());
  if (LoopSize > WorkItemJamPass::MaxBody)
    return false;
  S.K = LoopSize <= WorkItemJamPass::SmallBody ? 8 : 4;
  return Size * S.K <= WorkItemJamPass::MaxCopied;
}

/// Copies Blocks into F before Before, adding the copies to Map (entries
/// for the copied values replace what Map held for them).
SmallVector<BasicBlock *, 8> copyBlocks(ArrayRef<BasicBlock *> Blocks, ValueToValueMapTy &Map,
                                        const Twine &Suffix, BasicBlock *Before) {
  SmallVector<BasicBlock *, 8> Copies;
  Function &F = *Before->getParent();
  for (BasicBlock *BB : Blocks) {
    BasicBlock *Copy = CloneBasicBlock(BB, Map, Suffix, &F);
    Copy->moveBefore(Before);
    Map[BB] = Copy;
    Copies.push_back(Copy);
  }
  return Copies;
}

void remap(ArrayRef<BasicBlock *> Copies, ValueToValueMapTy &Map) {
  for (BasicBlock *BB : Copies)
    for (Instruction &I : *BB)
      RemapInstruction(&I, Map, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
}

/// The value V takes in copy Map (V itself where the copy does not redefine it).
Value *mapped(Value *V, ValueToValueMapTy &Map) {
  auto It = Map.find(V);
  return It == Map.end() ? V : static_cast<Value *>(It->second);
}

/// Steps 2 to 5 on a loop analyze() took, one method a step, run in order;
/// the members are what a step leaves for the next.
class Jammer {
public:
  Jammer(Shape &S, ScalarEvolution &SE)
      : S(S), SE(SE), F(*S.XHeader->getParent()), C(F.getContext()), IdxTy(S.IV->getType()), K(S.K),
        B(C), Maps(K), JoinIns(K), PreBlocks(S.Pre.begin(), S.Pre.end()), States(K) {}

  void run() {
    addJamLoop();
    BasicBlock *Into = XJHeader;
    for (unsigned Copy = 0; Copy < K; ++Copy)
      Into = copyPre(Copy, Into);
    jamInnerLoop(Into);
    copyPost();
  }

private:
  /// Per copy, the phis of the jammed loop's header (the values L's header
  /// phis carry, `active`, the last exit values) and of its S_k.
  struct CopyState {
    SmallVector<PHINode *, 4> Carried, Last;
    PHINode *Active;
    SmallVector<PHINode *, 4> CarriedNext, LastNext;
    PHINode *ActiveNext;
  };

  /// Step 2: the guard, XJ's header and latch (the copies' ids made in the
  /// header), and the way into X for the rest.
  void addJamLoop() {
    const DataLayout &DL = F.getParent()->getDataLayout();
    SCEVExpander Expander(SE, DL, "wi.jam");
    const SCEV *Trip =
        SE.getTripCountFromExitCount(SE.getExitCount(S.X, S.XLatch), /*Extend=*/false);
    Value *N = Expander.expandCodeFor(Trip, IdxTy, S.XPreheader->getTerminator());
    BasicBlock *Guard = BasicBlock::Create(C, "wi.jam.guard", &F, S.XHeader);
    XJHeader = BasicBlock::Create(C, "wi.jam.x", &F, S.XHeader);
    XJLatch = BasicBlock::Create(C, "wi.jam.x.next", &F, S.XHeader);
    BasicBlock *Rest = BasicBlock::Create(C, "wi.jam.rest", &F, S.XHeader);
    BasicBlock *RestPreheader = BasicBlock::Create(C, "wi.jam.rest.ph", &F, S.XHeader);
    S.XPreheader->getTerminator()->replaceSuccessorWith(S.XHeader, Guard);
    B.SetInsertPoint(Guard);
    B.CreateCondBr(B.CreateICmpUGE(N, ConstantInt::get(IdxTy, K), "wi.jam.wide"), XJHeader, Rest);
    B.SetInsertPoint(XJHeader);
    PHINode *XJ = B.CreatePHI(IdxTy, 2, "wi.jam.xj");
    XJ->addIncoming(ConstantInt::get(IdxTy, 0), Guard);
    for (unsigned Copy = 0; Copy < K; ++Copy)
      Ids.push_back(Copy == 0 ? static_cast<Value *>(XJ)
                              : B.CreateAdd(XJ, ConstantInt::get(IdxTy, Copy),
                                            "wi.jam.x" + Twine(Copy), true, true));
    B.SetInsertPoint(XJLatch);
    Value *Next = B.CreateAdd(XJ, ConstantInt::get(IdxTy, K), "wi.jam.xj.next", true, true);
    Value *Room = B.CreateICmpULE(B.CreateAdd(Next, ConstantInt::get(IdxTy, K), "", true, true), N,
                                  "wi.jam.room");
    B.CreateCondBr(Room, XJHeader, Rest);
    XJ->addIncoming(Next, XJLatch);
    B.SetInsertPoint(Rest);
    PHINode *Start = B.CreatePHI(IdxTy, 2, "wi.jam.start");
    Start->addIncoming(ConstantInt::get(IdxTy, 0), Guard);
    Start->addIncoming(Next, XJLatch);
    B.CreateCondBr(B.CreateICmpULT(Start, N, "wi.jam.more"), RestPreheader, S.XExit);
    B.SetInsertPoint(RestPreheader);
    B.CreateBr(S.XHeader);
    S.IV->setIncomingBlock(S.IV->getBasicBlockIndex(S.XPreheader), RestPreheader);
    S.IV->setIncomingValue(S.IV->getBasicBlockIndex(RestPreheader), Start);
  }

  /// Step 3, for one copy: pre copied after Into for work-item x + Copy,
  /// ending in its M_k, which it returns; `entered_k`, the values the
  /// join's phis take past L, and the values pre defines for L and post
  /// (poison on the paths that do not define them).
  BasicBlock *copyPre(unsigned Copy, BasicBlock *Into) {
    ValueToValueMapTy &Map = Maps[Copy];
    const std::string Suffix = ".wi" + std::to_string(Copy);
    SmallVector<BasicBlock *, 8> Copies = copyBlocks(PreBlocks, Map, Suffix, XJLatch);
    Map[S.IV] = Ids[Copy];
    remap(Copies, Map);
    cast<BasicBlock>(Map[S.XHeader])->front().eraseFromParent(); // the induction's copy
    B.SetInsertPoint(Into);
    B.CreateBr(cast<BasicBlock>(Map[S.XHeader]));
    BasicBlock *Merge = BasicBlock::Create(C, "wi.jam.pre" + Twine(Copy), &F, XJLatch);
    auto *IntoL = cast<BasicBlock>(Map[S.LPreheader]);
    IntoL->getTerminator()->replaceSuccessorWith(S.LHeader, Merge);
    if (S.Join)
      for (BasicBlock *Pre : PreBlocks)
        cast<BasicBlock>(Map[Pre])->getTerminator()->replaceSuccessorWith(S.Join, Merge);
    B.SetInsertPoint(Merge);
    const SmallVector<BasicBlock *, 4> Preds(predecessors(Merge));
    auto phiOf = [&](Type *Ty, const Twine &Name, function_ref<Value *(BasicBlock * Pred)> On) {
      PHINode *Phi = B.CreatePHI(Ty, Preds.size(), Name);
      for (BasicBlock *Pred : Preds)
        Phi->addIncoming(On(Pred), Pred);
      return Phi;
    };
    // The original block a copy of pre is.
    DenseMap<BasicBlock *, BasicBlock *> Original;
    for (BasicBlock *Pre : PreBlocks)
      Original[cast<BasicBlock>(Map[Pre])] = Pre;
    Entered.push_back(S.Join ? static_cast<Value *>(phiOf(
                                   B.getInt1Ty(), "wi.jam.entered" + Twine(Copy),
                                   [&](BasicBlock *Pred) { return B.getInt1(Pred == IntoL); }))
                             : B.getTrue());
    // The value each phi of the join takes past L, where the copy went so.
    if (S.Join)
      for (PHINode &Phi : S.Join->phis())
        JoinIns[Copy].push_back(phiOf(Phi.getType(), Phi.getName() + ".bypass" + Twine(Copy),
                                      [&](BasicBlock *Pred) -> Value * {
                                        if (Pred == IntoL)
                                          return PoisonValue::get(Phi.getType());
                                        return mapped(Phi.getIncomingValueForBlock(Original[Pred]),
                                                      Map);
                                      }));
    // What L and post use of pre: defined on the way each edge came, or
    // poison (L and post use it only where it was).
    for (auto &Escaping : S.Escaping) {
      Instruction *I = Escaping.first;
      const SmallPtrSet<BasicBlock *, 4> &Dominated = Escaping.second;
      Value *Def = Map[I];
      Map[I] = phiOf(I->getType(), I->getName() + Suffix + ".m", [&](BasicBlock *Pred) -> Value * {
        return Dominated.contains(Original[Pred]) ? Def : PoisonValue::get(I->getType());
      });
    }
    return Merge;
  }

  /// Step 4: the jammed loop J, entered from Into (the last M_k): its
  /// header's phis for every copy, then each copy's round in turn, then the
  /// latch, which goes round while any copy is active.
  void jamInnerLoop(BasicBlock *Into) {
    BasicBlock *JHeader = BasicBlock::Create(C, "wi.jam.loop", &F, XJLatch);
    BasicBlock *JLatch = BasicBlock::Create(C, "wi.jam.loop.next", &F, XJLatch);
    B.SetInsertPoint(Into);
    B.CreateBr(JHeader);
    B.SetInsertPoint(JHeader);
    for (unsigned Copy = 0; Copy < K; ++Copy) {
      CopyState &St = States[Copy];
      for (PHINode *Phi : S.Carried) {
        PHINode *P = B.CreatePHI(Phi->getType(), 2, Phi->getName() + ".wi" + Twine(Copy));
        P->addIncoming(mapped(Phi->getIncomingValueForBlock(S.LPreheader), Maps[Copy]), Into);
        St.Carried.push_back(P);
      }
      St.Active = B.CreatePHI(B.getInt1Ty(), 2, "wi.jam.active" + Twine(Copy));
      St.Active->addIncoming(Entered[Copy], Into);
      for (PHINode *Phi : S.Outs) {
        PHINode *P = B.CreatePHI(Phi->getType(), 2, Phi->getName() + ".wi" + Twine(Copy) + ".last");
        P->addIncoming(PoisonValue::get(Phi->getType()), Into);
        St.Last.push_back(P);
      }
    }
    BasicBlock *From = JHeader;
    for (unsigned Copy = 0; Copy < K; ++Copy)
      From = jamRound(Copy, From, JLatch);
    B.SetInsertPoint(From);
    B.CreateBr(JLatch);
    B.SetInsertPoint(JLatch);
    Value *Any = States[0].ActiveNext;
    for (unsigned Copy = 1; Copy < K; ++Copy)
      Any = B.CreateOr(Any, States[Copy].ActiveNext);
    JExit = BasicBlock::Create(C, "wi.jam.loop.exit", &F, XJLatch);
    B.CreateCondBr(Any, JHeader, JExit);
  }

  /// Step 4, one copy's part of a round of J, after From: the guard on
  /// `active_k`, L's blocks copied with their back edges to a block that
  /// collects the next iteration's values and their exits to one that
  /// collects the exit values, and S_k, where the three ways meet; returns
  /// S_k.
  BasicBlock *jamRound(unsigned Copy, BasicBlock *From, BasicBlock *JLatch) {
    CopyState &St = States[Copy];
    ValueToValueMapTy Map;
    for (auto Entry : Maps[Copy])
      Map[Entry.first] = Entry.second;
    const std::string Suffix = ".wi" + std::to_string(Copy);
    BasicBlock *GuardK = BasicBlock::Create(C, "wi.jam.if" + Twine(Copy), &F, JLatch);
    const SmallVector<BasicBlock *, 8> LoopBlocks(S.L->getBlocks().begin(), S.L->getBlocks().end());
    SmallVector<BasicBlock *, 8> Copies = copyBlocks(LoopBlocks, Map, Suffix, JLatch);
    for (unsigned I = 0; I < S.Carried.size(); ++I)
      Map[S.Carried[I]] = St.Carried[I];
    remap(Copies, Map);
    auto *Header = cast<BasicBlock>(Map[S.LHeader]);
    while (isa<PHINode>(Header->front()))
      Header->front().eraseFromParent();
    BasicBlock *Continue = BasicBlock::Create(C, "wi.jam.cont" + Twine(Copy), &F, JLatch);
    BasicBlock *Done = BasicBlock::Create(C, "wi.jam.done" + Twine(Copy), &F, JLatch);
    BasicBlock *Merge = BasicBlock::Create(C, "wi.jam.step" + Twine(Copy), &F, JLatch);
    SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> Latches, Exits; // (original, copy)
    for (BasicBlock *BB : LoopBlocks) {
      auto *Copied = cast<BasicBlock>(Map[BB]);
      Instruction *Term = Copied->getTerminator();
      for (unsigned I = 0; I < Term->getNumSuccessors(); ++I) {
        BasicBlock *Succ = BB->getTerminator()->getSuccessor(I);
        if (Succ == S.LHeader) {
          Term->setSuccessor(I, Continue);
          Latches.push_back({BB, Copied});
        } else if (Succ == S.LExit) {
          Term->setSuccessor(I, Done);
          Exits.push_back({BB, Copied});
        }
      }
    }
    B.SetInsertPoint(From);
    B.CreateBr(GuardK);
    B.SetInsertPoint(GuardK);
    B.CreateCondBr(St.Active, Header, Merge);
    // In At, for each of Phis, the values the copied edges bring it; then on
    // to the merge.
    auto collect = [&](BasicBlock *At, ArrayRef<PHINode *> Phis,
                       ArrayRef<std::pair<BasicBlock *, BasicBlock *>> Edges) {
      B.SetInsertPoint(At);
      SmallVector<PHINode *, 4> Values;
      for (PHINode *Phi : Phis) {
        PHINode *P = B.CreatePHI(Phi->getType(), Edges.size());
        for (auto &[Orig, Copied] : Edges)
          P->addIncoming(mapped(Phi->getIncomingValueForBlock(Orig), Map), Copied);
        Values.push_back(P);
      }
      B.CreateBr(Merge);
      return Values;
    };
    const SmallVector<PHINode *, 4> NextValues = collect(Continue, S.Carried, Latches);
    const SmallVector<PHINode *, 4> ExitValues = collect(Done, S.Outs, Exits);
    B.SetInsertPoint(Merge);
    for (unsigned I = 0; I < S.Carried.size(); ++I) {
      PHINode *P =
          B.CreatePHI(S.Carried[I]->getType(), 3, S.Carried[I]->getName() + Suffix + ".next");
      P->addIncoming(St.Carried[I], GuardK);
      P->addIncoming(NextValues[I], Continue);
      P->addIncoming(St.Carried[I], Done);
      St.CarriedNext.push_back(P);
      St.Carried[I]->addIncoming(P, JLatch);
    }
    St.ActiveNext = B.CreatePHI(B.getInt1Ty(), 3, "wi.jam.active" + Twine(Copy) + ".next");
    St.ActiveNext->addIncoming(B.getFalse(), GuardK);
    St.ActiveNext->addIncoming(B.getTrue(), Continue);
    St.ActiveNext->addIncoming(B.getFalse(), Done);
    St.Active->addIncoming(St.ActiveNext, JLatch);
    for (unsigned I = 0; I < S.Outs.size(); ++I) {
      PHINode *P = B.CreatePHI(S.Outs[I]->getType(), 3, S.Outs[I]->getName() + Suffix + ".next");
      P->addIncoming(St.Last[I], GuardK);
      P->addIncoming(St.Last[I], Continue);
      P->addIncoming(ExitValues[I], Done);
      St.LastNext.push_back(P);
      St.Last[I]->addIncoming(P, JLatch);
    }
    return Merge;
  }

  /// Step 5: after J, post copied K times, each from L's exit block (its
  /// exit phis replaced by the copy's last values) or, where the copy never
  /// entered L, from the join; each copy's latch goes on to the next, the
  /// last to XJ's latch. (The copies' inductions are the ids; the copied
  /// increments are dead.)
  void copyPost() {
    const SmallVector<BasicBlock *, 8> PostBlocks(S.Post.begin(), S.Post.end());
    BasicBlock *From = JExit;
    for (unsigned Copy = 0; Copy < K; ++Copy) {
      ValueToValueMapTy &Map = Maps[Copy];
      const std::string Suffix = ".wi" + std::to_string(Copy);
      SmallVector<BasicBlock *, 8> Copies = copyBlocks(PostBlocks, Map, Suffix, XJLatch);
      for (unsigned I = 0; I < S.Outs.size(); ++I)
        Map[S.Outs[I]] = States[Copy].LastNext[I];
      remap(Copies, Map);
      auto *Exit = cast<BasicBlock>(Map[S.LExit]);
      while (isa<PHINode>(Exit->front()))
        Exit->front().eraseFromParent();
      B.SetInsertPoint(From);
      if (S.Join) {
        auto *Join = cast<BasicBlock>(Map[S.Join]);
        B.CreateCondBr(Entered[Copy], Exit, Join);
        unsigned I = 0;
        for (PHINode &Phi : Join->phis()) {
          for (BasicBlock *Pre : PreBlocks)
            for (int At; (At = Phi.getBasicBlockIndex(cast<BasicBlock>(Map[Pre]))) >= 0;)
              Phi.removeIncomingValue(At, /*DeletePHIIfEmpty=*/false);
          Phi.addIncoming(JoinIns[Copy][I++], From);
        }
      } else {
        B.CreateBr(Exit);
      }
      auto *Latch = cast<BasicBlock>(Map[S.XLatch]);
      Latch->getTerminator()->eraseFromParent();
      From = Latch;
    }
    B.SetInsertPoint(From);
    B.CreateBr(XJLatch);
  }

  Shape &S;
  ScalarEvolution &SE;
  Function &F;
  LLVMContext &C;
  Type *IdxTy;
  const unsigned K;
  IRBuilder<> B;
  BasicBlock *XJHeader = nullptr, *XJLatch = nullptr; ///< step 2's
  SmallVector<Value *, 8> Ids;                        ///< x + k, made in XJ's header
  std::vector<ValueToValueMapTy> Maps;                ///< per copy: pre's (then post's) values
  SmallVector<Value *, 8> Entered;                    ///< per copy: `entered_k`
  SmallVector<SmallVector<PHINode *, 4>, 8> JoinIns;  ///< per copy, per join phi: its value past L
  const SmallVector<BasicBlock *, 8> PreBlocks;
  std::vector<CopyState> States;
  BasicBlock *JExit = nullptr; ///< step 4's
};

} // namespace

PreservedAnalyses WorkItemJamPass::run(Function &F, FunctionAnalysisManager &FAM) {
  // Each work-item loop once (a kernel with barriers has one a region), on
  // fresh analyses after every change.
  bool Formed = false;
  const bool Jammed = tryEachLoopOnce(F, FAM, [&](Loop &X) {
    if (!findOptionMDForLoop(&X, wi::WorkItemLoopMD) || X.getSubLoops().size() != 1)
      return false;
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
    ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    // (LCSSA keeps every analysis.)
    Formed |= formLCSSARecursively(X, DT, &LI, &SE);
    Shape S;
    if (!analyze(X, SE, DT, S))
      return false;
    Jammer(S, SE).run();
    return true;
  });
  return Jammed || Formed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft::compiler
