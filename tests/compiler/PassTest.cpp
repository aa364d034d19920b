// IR-in/IR-out tests of the work-group passes: small modules written as
// LLVM assembly, run through the passes, and checked for the properties the
// pass promises (see each pass file's header).
#include "compiler/KernelPipeline.h"
#include "compiler/specialize/ImageDescriptorPass.h"
#include "compiler/specialize/LocalSizeSpecialization.h"
#include "compiler/vectorize/ActiveRangePass.h"
#include "compiler/vectorize/BoundsCheckVersioningPass.h"
#include "compiler/vectorize/ChainInterleavePass.h"
#include "compiler/vectorize/ComponentTransposePass.h"
#include "compiler/vectorize/InnerChainUnrollPass.h"
#include "compiler/vectorize/LaneCallPackingPass.h"
#include "compiler/vectorize/VectorFremPass.h"
#include "compiler/vectorize/VectorTypeScalarizerPass.h"
#include "compiler/workgroup/AtomicPass.h"
#include "compiler/workgroup/BarrierStatePass.h"
#include "compiler/workgroup/DeviceEnqueuePass.h"
#include "compiler/workgroup/LaneLoopUnrollPass.h"
#include "compiler/workgroup/PrintfPass.h"
#include "compiler/workgroup/SafeDivisionPass.h"
#include "compiler/workgroup/WorkGroupContextLayout.h"
#include "compiler/workgroup/WorkGroupLoopPass.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <gtest/gtest.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <map>
#include <set>

using namespace llvm;

namespace weft::compiler::test {

namespace {

std::unique_ptr<Module> parse(LLVMContext &C, const char *Text) {
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(Text, Err, C);
  if (!M) {
    std::string S;
    raw_string_ostream OS(S);
    Err.print("test", OS);
    ADD_FAILURE() << OS.str();
  }
  return M;
}

/// Runs a function pass on F and checks that F stays valid IR.
template <typename PassT> void runOnFunction(PassT Pass, Function &F) {
  FunctionAnalysisManager FAM;
  PassBuilder PB;
  PB.registerFunctionAnalyses(FAM);
  Pass.run(F, FAM);
  EXPECT_FALSE(verifyFunction(F, &errs()));
}

/// runOnFunction with TLII as the target library: the vector forms of its
/// functions that a test registered.
template <typename PassT>
void runWithLibrary(PassT Pass, Function &F, TargetLibraryInfoImpl &TLII) {
  FunctionAnalysisManager FAM;
  PassBuilder PB;
  FAM.registerPass([&] { return TargetLibraryAnalysis(TLII); });
  PB.registerFunctionAnalyses(FAM);
  Pass.run(F, FAM);
  EXPECT_FALSE(verifyFunction(F, &errs()));
}

unsigned numMatching(Function &F, function_ref<bool(Instruction &)> Pred) {
  unsigned N = 0;
  for (Instruction &I : instructions(F))
    N += Pred(I);
  return N;
}

// A kernel with a barrier in a loop and a private array and a value live
// across the barrier; the x86-64 data layout stands in for "retargeted".
const char *BarrierKernel = R"(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
declare i64 @_Z12get_local_idj(i32)
declare void @_Z7barrierj(i32)
define void @k(ptr addrspace(1) %out, i32 %n) !kernel_arg_addr_space !0 {
entry:
  %arr = alloca [4 x i32], align 4
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %v = trunc i64 %lid to i32
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ %v, %entry ], [ %acc.next, %loop ]
  %slot = and i32 %i, 3
  %elt = getelementptr [4 x i32], ptr %arr, i32 0, i32 %slot
  store i32 %acc, ptr %elt, align 4
  call void @_Z7barrierj(i32 1)
  %ld = load i32, ptr %elt, align 4
  %acc.next = add i32 %ld, 1
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %p = getelementptr i32, ptr addrspace(1) %out, i64 %lid
  store i32 %acc.next, ptr addrspace(1) %p, align 4
  ret void
}
!0 = !{i32 1, i32 0}
)";

} // namespace

TEST(PassTest, WorkGroupPassesProduceWorkGroupFunction) {
  LLVMContext C;
  auto M = parse(C, BarrierKernel);
  ASSERT_TRUE(M);
  std::string Log;
  ASSERT_TRUE(KernelPipeline::runWorkGroupPasses(*M, Log)) << Log;
  Function *WG = M->getFunction("__weft_wg_k");
  ASSERT_NE(WG, nullptr);
  EXPECT_FALSE(WG->hasLocalLinkage());
  EXPECT_EQ(WG->arg_size(), 2u);
  EXPECT_GT(wi::sizeAttr(*WG, wi::FrameSizeAttr), 16u); // array + demoted values
  EXPECT_EQ(wi::sizeAttr(*WG, wi::PrivateSizeAttr), 16u);
  // Everything is inlined: no calls to the barrier, the work-item functions
  // or the work-item function.
  EXPECT_EQ(numMatching(*WG, [](Instruction &I) { return isa<CallInst>(I) && !isa<IntrinsicInst>(I); }), 0u);
  EXPECT_EQ(M->getFunction("__weft_wi_k"), nullptr);
  EXPECT_FALSE(verifyModule(*M, &errs()));
}

TEST(PassTest, BarrierStateMachineShape) {
  LLVMContext C;
  auto M = parse(C, R"(
target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"
declare void @_Z7barrierj(i32)
define i32 @__weft_wi_k(ptr addrspace(1) %out, ptr %ctx, i64 %lx, i64 %ly, i64 %lz, i32 %state, ptr %frame, ptr %uniform) "weft-kernel"="k" {
entry:
  %a = alloca [8 x float], align 16
  %x = add i64 %lx, 7
  %v = load i64, ptr addrspace(1) %out
  call void @_Z7barrierj(i32 1)
  %y = mul i64 %x, 3
  %z = add i64 %y, %v
  call void @_Z7barrierj(i32 1)
  %p = getelementptr i64, ptr addrspace(1) %out, i64 %lx
  store i64 %z, ptr addrspace(1) %p
  store float 1.0, ptr %a
  ret i32 -1
}
)");
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("__weft_wi_k");
  ASSERT_TRUE(BarrierStatePass::transform(F));
  EXPECT_FALSE(verifyModule(*M, &errs()));
  // dispatch: switch with the resume points of both barriers.
  auto *Switch = dyn_cast<SwitchInst>(F.getEntryBlock().getTerminator());
  ASSERT_NE(Switch, nullptr);
  EXPECT_EQ(Switch->getNumCases(), 2u);
  EXPECT_EQ(Switch->getCondition(), wi::extraArg(F, wi::State));
  // Barriers became returns of 1 and 2; no allocas and no barrier calls remain.
  std::set<int64_t> Returned;
  for (Instruction &I : instructions(F))
    if (auto *R = dyn_cast<ReturnInst>(&I))
      Returned.insert(cast<ConstantInt>(R->getReturnValue())->getSExtValue());
  EXPECT_EQ(Returned, (std::set<int64_t>{-1, 1, 2}));
  EXPECT_EQ(numMatching(F, [](Instruction &I) { return isa<AllocaInst>(I) || isa<CallInst>(I); }), 0u);
  // The frame: the loaded %v and %z, which crosses the second barrier (one
  // 8-byte column each, 16 bytes), then the array (32 bytes). %x, a function
  // of the local id, is computed again after the first barrier instead.
  EXPECT_EQ(wi::sizeAttr(F, wi::FrameSizeAttr), 48u);
  EXPECT_EQ(numMatching(F, [](Instruction &I) { return I.getName() == "x.again"; }), 1u);
}

// Sub-group syncs split a function like barriers, into states of their
// own (wi::SubGroupStatesAttr), numbered in the order of the paths: here the
// sync's block comes after the barrier's in the function but before it on
// every path. The work-group function then runs the sub-groups (8 wide)
// in turns from their work-items' states: a first pass over the states
// that start or follow a barrier (0 and 2), then rounds over the sync's
// (1), twice: for sub-groups whose work-items all stopped there, and for
// those where only some did.
/// The stores of a work-group function that tell the sub-group built-ins
/// which work-items run (into the collective scratch): those of all of a
/// sub-group's (~0 >> (64 - n)), and those of the bits gathered in a
/// checked turn (turn.active).
std::pair<unsigned, unsigned> activeBitsStores(Function &WG) {
  std::pair<unsigned, unsigned> Stores{0, 0};
  for (Instruction &I : instructions(WG)) {
    auto *Store = dyn_cast<StoreInst>(&I);
    if (!Store || getUnderlyingObject(Store->getPointerOperand())->getName() != "scratch")
      continue;
    Value *Bits = Store->getValueOperand();
    Stores.first += PatternMatch::match(
        Bits, PatternMatch::m_LShr(PatternMatch::m_AllOnes(), PatternMatch::m_Value()));
    auto *Load = dyn_cast<LoadInst>(Bits);
    Stores.second += Load && Load->getPointerOperand()->getName() == "turn.active";
  }
  return Stores;
}

// A sync only some work-items reach (those with %lx < 3).
TEST(PassTest, SubGroupSyncsAreStatesRunPerSubGroup) {
  LLVMContext C;
  auto M = parse(C, R"(
target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"
declare void @_Z7barrierj(i32)
declare void @__weft_sub_group_sync()
define i32 @__weft_wi_k(ptr addrspace(1) %out, ptr %ctx, i64 %lx, i64 %ly, i64 %lz, i32 %state, ptr %frame, ptr %uniform) "weft-kernel"="k" "weft-sub-group-size"="8" {
entry:
  %v = load i64, ptr addrspace(1) %out
  %some = icmp ult i64 %lx, 3
  br i1 %some, label %first, label %join
join:
  call void @_Z7barrierj(i32 1)
  %p = getelementptr i64, ptr addrspace(1) %out, i64 %lx
  store i64 %v, ptr addrspace(1) %p
  ret i32 -1
first:
  %w = add i64 %v, %lx
  call void @__weft_sub_group_sync()
  store i64 %w, ptr addrspace(1) %out
  br label %join
}
)");
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("__weft_wi_k");
  ASSERT_TRUE(BarrierStatePass::transform(F));
  EXPECT_FALSE(verifyModule(*M, &errs()));
  EXPECT_EQ(wi::sizeAttr(F, wi::BarrierCountAttr), 2u);
  EXPECT_EQ(F.getFnAttribute(wi::SubGroupStatesAttr).getValueAsString(), "010");
  // No values shared once per group: sub-groups run a region one after
  // another.
  EXPECT_EQ(wi::sizeAttr(F, wi::UniformSizeAttr), 0u);

  ModuleAnalysisManager MAM;
  WorkGroupLoopPass().run(*M, MAM);
  EXPECT_FALSE(verifyModule(*M, &errs()));
  Function *WG = M->getFunction("__weft_wg_k");
  ASSERT_NE(WG, nullptr);
  EXPECT_EQ(wi::sizeAttr(*WG, wi::SubGroupSizeAttr), 8u);
  unsigned Calls = 0, LaneStates = 0;
  std::set<int64_t> States;
  for (Instruction &I : instructions(*WG)) {
    if (auto *Call = dyn_cast<CallInst>(&I); Call && Call->getCalledFunction() == &F) {
      ++Calls;
      if (auto *K = dyn_cast<ConstantInt>(Call->getArgOperand(wi::numKernelArgs(F) + wi::State)))
        States.insert(K->getSExtValue());
    }
    LaneStates += isa<AllocaInst>(I) && I.getName() == "lane.states";
  }
  EXPECT_EQ(Calls, 4u);
  EXPECT_EQ(States, (std::set<int64_t>{0, 1, 2}));
  EXPECT_EQ(LaneStates, 1u);
  // The table of sync states the rounds look up.
  GlobalVariable *Table = M->getGlobalVariable("__weft_wg_k.sub.states", true);
  ASSERT_NE(Table, nullptr);
  auto *Flags = cast<ConstantDataArray>(Table->getInitializer());
  EXPECT_EQ(Flags->getNumElements(), 3u);
  EXPECT_EQ(Flags->getElementAsInteger(1), 1u);
  EXPECT_EQ(Flags->getElementAsInteger(2), 0u);
  // Each turn tells the built-ins which work-items take it, in the
  // sub-group's area of the collective scratch (CollectiveScratch.h): all
  // n of them (~0 >> (64 - n)) when they are all in the turn's state, else
  // the bits gathered in turn.active.
  EXPECT_EQ(activeBitsStores(*WG), (std::pair<unsigned, unsigned>{1, 1}));
}

// A sync every work-item of the group reaches alike, in a function where
// none waits for another: a work-group barrier, whose regions run whole
// sub-groups, which the work-group function publishes once.
TEST(PassTest, SubGroupSyncsEveryWorkItemReachesAreBarriers) {
  LLVMContext C;
  auto M = parse(C, R"(
target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"
declare void @__weft_sub_group_sync()
define i32 @__weft_wi_k(ptr addrspace(1) %out, ptr %ctx, i64 %lx, i64 %ly, i64 %lz, i32 %state, ptr %frame, ptr %uniform) "weft-kernel"="k" "weft-sub-group-size"="8" {
entry:
  %v = load i64, ptr addrspace(1) %out
  %w = add i64 %v, %lx
  call void @__weft_sub_group_sync()
  %p = getelementptr i64, ptr addrspace(1) %out, i64 %lx
  store i64 %w, ptr addrspace(1) %p
  ret i32 -1
}
)");
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("__weft_wi_k");
  ASSERT_TRUE(BarrierStatePass::transform(F));
  EXPECT_FALSE(verifyModule(*M, &errs()));
  EXPECT_EQ(wi::sizeAttr(F, wi::BarrierCountAttr), 1u);
  EXPECT_FALSE(F.hasFnAttribute(wi::SubGroupStatesAttr));
  EXPECT_TRUE(F.hasFnAttribute(wi::SubGroupBarriersAttr));

  ModuleAnalysisManager MAM;
  WorkGroupLoopPass().run(*M, MAM);
  EXPECT_FALSE(verifyModule(*M, &errs()));
  Function *WG = M->getFunction("__weft_wg_k");
  ASSERT_NE(WG, nullptr);
  EXPECT_EQ(numMatching(*WG,
                        [](Instruction &I) {
                          return isa<AllocaInst>(I) && I.getName() == "lane.states";
                        }),
            0u);
  EXPECT_EQ(activeBitsStores(*WG), (std::pair<unsigned, unsigned>{1, 0}));
}

// A loop that leaves on what an atomic read returned (a spin on a flag)
// gives the other sub-groups a turn each time it goes round again: its back
// edge gets a sub-group sync, and the function sub-group states; its other
// syncs stay syncs. A loop that only updates atomics (a histogram) does not.
TEST(PassTest, SpinLoopsYieldToOtherSubGroups) {
  LLVMContext C;
  auto M = parse(C, R"(
target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"
define i32 @__weft_wi_spin(ptr addrspace(1) %flag, ptr %ctx, i64 %lx, i64 %ly, i64 %lz, i32 %state, ptr %frame, ptr %uniform) "weft-kernel"="spin" {
entry:
  br label %wait
wait:
  %f = load atomic i32, ptr addrspace(1) %flag seq_cst, align 4
  %zero = icmp eq i32 %f, 0
  br i1 %zero, label %wait, label %done
done:
  call void @__weft_sub_group_sync()
  ret i32 -1
}
declare void @__weft_sub_group_sync()
define i32 @__weft_wi_histogram(ptr addrspace(1) %bins, i32 %n, ptr %ctx, i64 %lx, i64 %ly, i64 %lz, i32 %state, ptr %frame, ptr %uniform) "weft-kernel"="histogram" {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %b = and i32 %i, 15
  %p = getelementptr i32, ptr addrspace(1) %bins, i32 %b
  %old = atomicrmw add ptr addrspace(1) %p, i32 1 seq_cst
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  ret i32 -1
}
)");
  ASSERT_TRUE(M);
  Function &Spin = *M->getFunction("__weft_wi_spin");
  ASSERT_TRUE(BarrierStatePass::transform(Spin));
  // The sync after the loop, which every work-item reaches, stays one: a
  // barrier there would wait for work-items that wait for others.
  EXPECT_EQ(wi::sizeAttr(Spin, wi::BarrierCountAttr), 2u);
  EXPECT_EQ(Spin.getFnAttribute(wi::SubGroupStatesAttr).getValueAsString(), "011");
  EXPECT_FALSE(Spin.hasFnAttribute(wi::SubGroupBarriersAttr));
  // The first check runs without a turn for the others: the sync is on the
  // way back to the load, after it.
  BasicBlock *Wait = nullptr;
  for (BasicBlock &BB : Spin)
    if (BB.getName().startswith("wait") && !BB.getName().contains("resume"))
      Wait = &BB;
  ASSERT_NE(Wait, nullptr);
  EXPECT_EQ(
      numMatching(Spin,
                  [](Instruction &I) { return isa<LoadInst>(I) && cast<LoadInst>(I).isAtomic(); }),
      1u);
  Function &Histogram = *M->getFunction("__weft_wi_histogram");
  ASSERT_TRUE(BarrierStatePass::transform(Histogram));
  EXPECT_FALSE(Histogram.hasFnAttribute(wi::SubGroupStatesAttr));
  EXPECT_FALSE(verifyModule(*M, &errs()));
}

// (Both variables start from a load, so they differ between work-items; a
// uniform one takes no column: UniformValuesAcrossBarriersLiveOnceForTheGroup.)
// A loop variable that crosses a barrier in the loop is loaded again from
// its PHI's slot after the barrier: one column for each of %k and %acc.
// When the latch branches conditionally, a path from its store reaches a
// use without passing the load again, so the load gets a slot of its own.
TEST(PassTest, LoopVariablesAcrossBarriersTakeOneColumn) {
  const char *Kernel = R"(
target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"
declare void @_Z7barrierj(i32)
define i32 @__weft_wi_k(ptr addrspace(1) %out, i32 %n, ptr %ctx, i64 %lx, i64 %ly, i64 %lz, i32 %state, ptr %frame, ptr %uniform) "weft-kernel"="k" {
entry:
  %k0 = load i32, ptr addrspace(1) %out
  br label %head
head:
  %k = phi i32 [ %k0, %entry ], [ %k.next, %latch ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %latch ]
  %more = icmp slt i32 %k, %n
  br i1 %more, label %body, label %done
body:
  call void @_Z7barrierj(i32 1)
  %f = sitofp i32 %k to double
  %acc.next = fadd double %acc, %f
  %k.next = add i32 %k, 1
  br LATCH
latch:
  br label %head
done:
  store double %acc, ptr addrspace(1) %out
  ret i32 -1
}
)";
  auto frameOf = [](const std::string &Source) {
    LLVMContext C;
    auto M = parse(C, Source.c_str());
    EXPECT_TRUE(M);
    if (!M)
      return uint64_t(0);
    Function &F = *M->getFunction("__weft_wi_k");
    EXPECT_TRUE(BarrierStatePass::transform(F));
    EXPECT_FALSE(verifyModule(*M, &errs()));
    return wi::sizeAttr(F, wi::FrameSizeAttr);
  };
  std::string Plain = Kernel, Conditional = Kernel;
  Plain.replace(Plain.find("LATCH"), 5, "label %latch");
  Conditional.replace(Conditional.find("LATCH"), 5, "label %latch");
  // The latch may leave the loop: the store to %k's slot is no longer
  // followed by its load on every path.
  const std::string Latch = "latch:\n  br label %head";
  Conditional.replace(
      Conditional.find(Latch), Latch.size(),
      "latch:\n  %stop = icmp eq i32 %k.next, 100\n  br i1 %stop, label %done, label %head");
  // 8 + 4 bytes of columns, rounded up to the frame's 16-byte alignment;
  // then another 8 for the load of %acc's slot, used on the way out.
  EXPECT_EQ(frameOf(Plain), 16u);
  EXPECT_EQ(frameOf(Conditional), 32u);
}

// A value that crosses a barrier and is the same in every work-item (a
// loop counter from 0 to an argument) takes no column of the frames: each
// region loads it from the group's copy at Uniform, and every work-item
// leaves it at Uniform + 16 through one return, which the work-group
// function copies back between regions. A value the same in every work-item
// that computes it, but computed a different number of times (in a loop
// whose exit depends on the local id), still gets a column.
TEST(PassTest, UniformValuesAcrossBarriersLiveOnceForTheGroup) {
  LLVMContext C;
  auto M = parse(C, R"(
target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"
declare void @_Z7barrierj(i32)
define i32 @__weft_wi_k(ptr addrspace(1) %out, i32 %n, ptr %ctx, i64 %lx, i64 %ly, i64 %lz, i32 %state, ptr %frame, ptr %uniform) "weft-kernel"="k" {
entry:
  %v = load i32, ptr addrspace(1) %out
  br label %head
head:
  %k = phi i32 [ 0, %entry ], [ %k.next, %latch ]
  %acc = phi i32 [ %v, %entry ], [ %acc.next, %latch ]
  %more = icmp slt i32 %k, %n
  br i1 %more, label %body, label %done
body:
  call void @_Z7barrierj(i32 1)
  %acc.next = add i32 %acc, %k
  %k.next = add i32 %k, 1
  br label %latch
latch:
  br label %head
done:
  store i32 %acc, ptr addrspace(1) %out
  ret i32 -1
}
define i32 @__weft_wi_d(ptr addrspace(1) %out, i32 %n, ptr %ctx, i64 %lx, i64 %ly, i64 %lz, i32 %state, ptr %frame, ptr %uniform) "weft-kernel"="d" {
entry:
  %lx32 = trunc i64 %lx to i32
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i.next = add i32 %i, %n
  %go = icmp slt i32 %i.next, %lx32
  br i1 %go, label %loop, label %after
after:
  call void @_Z7barrierj(i32 1)
  store i32 %i.next, ptr addrspace(1) %out
  ret i32 -1
}
)");
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("__weft_wi_k");
  ASSERT_TRUE(BarrierStatePass::transform(F));
  EXPECT_FALSE(verifyModule(*M, &errs()));
  // %k (4 bytes) in the group's copies, rounded to 16; %acc alone in a
  // column (4 bytes, the frame's 16).
  EXPECT_EQ(wi::sizeAttr(F, wi::UniformSizeAttr), 16u);
  EXPECT_EQ(wi::sizeAttr(F, wi::FrameSizeAttr), 16u);
  Argument *Uniform = wi::extraArg(F, wi::Uniform);
  auto offsetFromUniform = [&](Value *P) -> int64_t {
    if (P == Uniform)
      return 0;
    auto *G = dyn_cast<GetElementPtrInst>(P);
    if (!G || G->getPointerOperand() != Uniform || !G->hasAllConstantIndices())
      return -1;
    return cast<ConstantInt>(G->getOperand(1))->getSExtValue();
  };
  unsigned Loads = 0, Stores = 0, Returns = 0;
  for (Instruction &I : instructions(F)) {
    if (auto *L = dyn_cast<LoadInst>(&I); L && offsetFromUniform(L->getPointerOperand()) == 0)
      ++Loads; // at the start of each region
    if (auto *S = dyn_cast<StoreInst>(&I); S && offsetFromUniform(S->getPointerOperand()) == 16) {
      ++Stores; // where the work-item leaves
      EXPECT_TRUE(isa<ReturnInst>(S->getNextNode()));
    }
    Returns += isa<ReturnInst>(I);
  }
  EXPECT_EQ(Loads, 2u);
  EXPECT_EQ(Stores, 1u);
  EXPECT_EQ(Returns, 1u);
  // The private copy of %k stays a variable of the work-item function.
  EXPECT_EQ(numMatching(F, [](Instruction &I) { return isa<AllocaInst>(I); }), 1u);

  Function &D = *M->getFunction("__weft_wi_d");
  ASSERT_TRUE(BarrierStatePass::transform(D));
  EXPECT_FALSE(verifyModule(*M, &errs()));
  EXPECT_EQ(wi::sizeAttr(D, wi::UniformSizeAttr), 0u);
  EXPECT_EQ(wi::sizeAttr(D, wi::FrameSizeAttr), 16u);
  EXPECT_EQ(numMatching(D, [](Instruction &I) { return isa<AllocaInst>(I); }), 0u);
}

// In a function with barriers, a loop whose trip count every work-item of
// the group shares, known only at run time (`for (i < n)`, n an argument),
// gets a barrier at the top of its header: each iteration becomes a region
// run for all work-items. Left alone: a loop of constant trip count (the
// unroller's), one whose trip count depends on the local id, one that only
// some work-items reach, and every loop of a function without barriers.
TEST(PassTest, LoopsEveryWorkItemRunsAlikeGetABarrierPerIteration) {
  auto kernel = [](const std::string &Name, const std::string &Bound, bool Divergent,
                   bool WithBarrier) {
    return "define i32 @" + Name +
           "(ptr addrspace(1) %out, i32 %n, ptr %ctx, i64 %lx, i64 %ly, i64 %lz, i32 %state, "
           "ptr %frame, ptr %uniform) \"weft-kernel\"=\"k\" {\nentry:\n"
           "  %v = load i32, ptr addrspace(1) %out\n  %lx32 = trunc i64 %lx to i32\n" +
           (Divergent ? "  %few = icmp ult i64 %lx, 3\n  br i1 %few, label %head, label %done\n"
                      : "  br label %head\n") +
           "head:\n  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]\n"
           "  %acc = phi i32 [ %v, %entry ], [ %acc.next, %body ]\n"
           "  %more = icmp slt i32 %i, " +
           Bound +
           "\n  br i1 %more, label %body, label %done\n"
           "body:\n  %acc.next = add i32 %acc, %i\n  %i.next = add i32 %i, 1\n  br label %head\n"
           "done:\n  %r = phi i32 [ %acc, %head ]" +
           (Divergent ? ", [ 0, %entry ]" : "") + "\n" +
           (WithBarrier ? "  call void @_Z7barrierj(i32 1)\n" : "") +
           "  store i32 %r, ptr addrspace(1) %out\n  ret i32 -1\n}\n";
  };
  LLVMContext C;
  std::string Text = "target datalayout = \"e-m:e-i64:64-n8:16:32:64-S128\"\n"
                     "declare void @_Z7barrierj(i32)\n";
  Text += kernel("__weft_wi_uniform", "%n", false, true);
  Text += kernel("__weft_wi_constant", "16", false, true);
  Text += kernel("__weft_wi_by_local_id", "%lx32", false, true);
  Text += kernel("__weft_wi_some_items", "%n", true, true);
  Text += kernel("__weft_wi_no_barriers", "%n", false, false);
  auto M = parse(C, Text.c_str());
  ASSERT_TRUE(M);
  const std::map<std::string, uint64_t> Barriers = {{"__weft_wi_uniform", 2},
                                                    {"__weft_wi_constant", 1},
                                                    {"__weft_wi_by_local_id", 1},
                                                    {"__weft_wi_some_items", 1},
                                                    {"__weft_wi_no_barriers", 0}};
  for (const auto &[Name, Count] : Barriers) {
    Function &F = *M->getFunction(Name);
    ASSERT_TRUE(BarrierStatePass::transform(F)) << Name;
    EXPECT_FALSE(verifyModule(*M, &errs())) << Name;
    EXPECT_EQ(wi::sizeAttr(F, wi::BarrierCountAttr), Count) << Name;
  }
  // The loop of `uniform`: its counter is the group's (Uniform), the sum a
  // column; the loop's header resumes after its barrier (state 1).
  Function &F = *M->getFunction("__weft_wi_uniform");
  EXPECT_EQ(wi::sizeAttr(F, wi::UniformSizeAttr), 16u);
  auto *Dispatch = cast<SwitchInst>(F.getEntryBlock().getTerminator());
  EXPECT_EQ(Dispatch->getNumCases(), 2u);
}

// A function without barriers gets a barrier in a loop only where running
// the iterations across the work-items makes an access consecutive that was
// not: it steps by a row along the loop and by one element along x
// (`B[k * n + col]`), and no access steps by one along the loop while
// moving with x (`A[gid * n + k]`, each work-item's own row).
TEST(PassTest, BarrierFreeLoopsWhoseAccessesStepAcrossWorkItemsGetABarrier) {
  // Each index is an element index in terms of the loop's counter %k, %x =
  // get_global_id(0), %y = get_global_id(1), the argument %n, and the
  // products %kn = k * n, %xn = x * n, %yn = y * n and %k4 = k << 2.
  auto kernel = [](const std::string &Name, const std::vector<std::string> &Indices,
                   const std::string &Bound = "%n", bool Divergent = false) {
    std::string Body;
    for (size_t I = 0; I < Indices.size(); ++I) {
      const std::string N = std::to_string(I);
      Body += "  %i" + N + " = " + Indices[I] + "\n  %p" + N +
              " = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i" + N + "\n  %v" + N +
              " = load float, ptr addrspace(1) %p" + N + "\n";
    }
    std::string Sum = "%acc";
    for (size_t I = 0; I < Indices.size(); ++I) {
      const std::string N = std::to_string(I);
      Body += "  %s" + N + " = fadd float " + Sum + ", %v" + N + "\n";
      Sum = "%s" + N;
    }
    return "define i32 @" + Name +
           "(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %n, ptr %ctx, i64 %lx, i64 %ly, "
           "i64 %lz, i32 %state, ptr %frame, ptr %uniform) \"weft-kernel\"=\"k\" {\nentry:\n"
           "  %x = call i64 @_Z13get_global_idj(i32 0)\n"
           "  %y = call i64 @_Z13get_global_idj(i32 1)\n" +
           (Divergent ? "  %few = icmp ult i64 %lx, 3\n  br i1 %few, label %head, label %done\n"
                      : "  br label %head\n") +
           "head:\n  %k = phi i64 [ 0, %entry ], [ %k.next, %body ]\n"
           "  %acc = phi float [ 0.0, %entry ], [ " +
           Sum + ", %body ]\n  %more = icmp slt i64 %k, " + Bound +
           "\n  br i1 %more, label %body, label %done\n"
           "body:\n" +
           Body +
           "  %k.next = add nsw i64 %k, 1\n  br label %head\n"
           "done:\n  %r = phi float [ %acc, %head ]" +
           (Divergent ? ", [ 0.0, %entry ]" : "") +
           "\n  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x\n"
           "  store float %r, ptr addrspace(1) %o\n  ret i32 -1\n}\n";
  };
  LLVMContext C;
  std::string Text = "target datalayout = \"e-m:e-i64:64-n8:16:32:64-S128\"\n"
                     "declare i64 @_Z13get_global_idj(i32)\n";
  struct Case {
    std::string Name;
    std::vector<std::string> Indices;
    std::string Bound = "%n";
    bool Divergent = false;
    uint64_t Barriers;
  };
  const std::vector<Case> Cases = {
      // B[k * n + x]: a column read down, across the work-items a row.
      {"__weft_wi_column", {"add nsw i64 %kn, %x"}, "%n", false, 1},
      // A[y * n + k] * B[k * n + x], a naive matrix product.
      {"__weft_wi_product", {"add nsw i64 %yn, %k", "add nsw i64 %kn, %x"}, "%n", false, 1},
      // In[x + k * 4]: by 4 along the loop, by one across x (shl).
      {"__weft_wi_strided", {"add nsw i64 %x, %k4"}, "%n", false, 1},
      // A[x * n + k]: each work-item's own row.
      {"__weft_wi_row", {"add nsw i64 %xn, %k"}, "%n", false, 0},
      // W[k]: the same element in every work-item.
      {"__weft_wi_weights", {"add nsw i64 %k, 0"}, "%n", false, 0},
      // A row and a column: the row's loop stays as it is.
      {"__weft_wi_row_and_column", {"add nsw i64 %xn, %k", "add nsw i64 %kn, %x"}, "%n", false, 0},
      // A column of 16 (a constant trip count: the unroller's).
      {"__weft_wi_column16", {"add nsw i64 %kn, %x"}, "16", false, 0},
      // A column of 512: too long for the unroller, as if n.
      {"__weft_wi_column512", {"add nsw i64 %kn, %x"}, "512", false, 1},
      // A column in a loop only some work-items run.
      {"__weft_wi_column_some", {"add nsw i64 %kn, %x"}, "%n", true, 0},
      // A column in a loop of each work-item's own trip count.
      {"__weft_wi_column_by_x", {"add nsw i64 %kn, %x"}, "%x", false, 0},
  };
  for (const Case &K : Cases) {
    std::string F = kernel(K.Name, K.Indices, K.Bound, K.Divergent);
    // The products each index may use, first in the loop body.
    const std::string Products = "body:\n  %kn = mul nsw i64 %k, %n\n  %xn = mul nsw i64 %x, %n\n"
                                 "  %yn = mul nsw i64 %y, %n\n  %k4 = shl nsw i64 %k, 2\n";
    F.replace(F.find("body:\n"), 6, Products);
    Text += F;
  }
  auto M = parse(C, Text.c_str());
  ASSERT_TRUE(M);
  for (const Case &K : Cases) {
    Function &F = *M->getFunction(K.Name);
    ASSERT_TRUE(BarrierStatePass::transform(F)) << K.Name;
    EXPECT_FALSE(verifyModule(*M, &errs())) << K.Name;
    EXPECT_EQ(wi::sizeAttr(F, wi::BarrierCountAttr), K.Barriers) << K.Name;
    EXPECT_EQ(wi::sizeAttr(F, wi::FrameSizeAttr) != 0, K.Barriers != 0) << K.Name;
  }
  // The product's loop: its header resumes after the new barrier (the
  // dispatch goes to the entry or to it), its counter is the group's
  // (Uniform), its sum a column.
  Function &F = *M->getFunction("__weft_wi_product");
  EXPECT_EQ(wi::sizeAttr(F, wi::UniformSizeAttr), 16u); // two copies of the counter
  EXPECT_EQ(F.getEntryBlock().getTerminator()->getNumSuccessors(), 2u);
  EXPECT_NE(F.getEntryBlock().getTerminator()->getSuccessor(0)->getName().find("resume"),
            StringRef::npos);
}

// A loop that reads a column behind a bounds check: the function gets a
// copy for the groups whose check passes in every work-item, computed at a
// new entry from the group's first and last global id (group id times the
// enqueued size, plus the offset; plus the local size less one), and the
// copy's loop gets the barrier. A bound loaded from memory, or an equality,
// is no check the group's ends decide: those functions are left.
TEST(PassTest, GuardedColumnLoopsGetACopyForGroupsWhoseChecksPass) {
  auto kernel = [](const std::string &Name, const std::string &Bound, const std::string &Pred) {
    return "define i32 @" + Name +
           "(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n, i32 %cols, ptr %ctx, i64 %lx, "
           "i64 %ly, i64 %lz, i32 %state, ptr %frame, ptr %uniform) \"weft-kernel\"=\"k\" {\n"
           "entry:\n"
           "  %lim = load i32, ptr addrspace(1) %out\n"
           "  %g = call i64 @_Z13get_global_idj(i32 0)\n"
           "  %col = trunc i64 %g to i32\n"
           "  %in.range = icmp " +
           Pred + " i32 %col, " + Bound +
           "\n"
           "  br i1 %in.range, label %head, label %done\n"
           "head:\n"
           "  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]\n"
           "  %acc = phi float [ 0.0, %entry ], [ %s, %body ]\n"
           "  %more = icmp slt i32 %k, %n\n"
           "  br i1 %more, label %body, label %store\n"
           "body:\n"
           "  %kc = mul nsw i32 %k, %cols\n"
           "  %i = add nsw i32 %kc, %col\n"
           "  %i64 = sext i32 %i to i64\n"
           "  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i64\n"
           "  %v = load float, ptr addrspace(1) %p\n"
           "  %s = fadd float %acc, %v\n"
           "  %k.next = add nsw i32 %k, 1\n"
           "  br label %head\n"
           "store:\n"
           "  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %g\n"
           "  store float %acc, ptr addrspace(1) %o\n"
           "  br label %done\n"
           "done:\n"
           "  ret i32 -1\n"
           "}\n";
  };
  LLVMContext C;
  const std::string Text = "target datalayout = \"e-m:e-i64:64-n8:16:32:64-S128\"\n"
                           "declare i64 @_Z13get_global_idj(i32)\n" +
                           kernel("__weft_wi_guarded", "%cols", "slt") +
                           kernel("__weft_wi_from_memory", "%lim", "slt") +
                           kernel("__weft_wi_equality", "%cols", "ne");
  auto M = parse(C, Text.c_str());
  ASSERT_TRUE(M);
  for (const char *Name : {"__weft_wi_guarded", "__weft_wi_from_memory", "__weft_wi_equality"}) {
    Function &F = *M->getFunction(Name);
    ASSERT_TRUE(BarrierStatePass::transform(F)) << Name;
    EXPECT_FALSE(verifyModule(*M, &errs())) << Name;
  }
  Function &F = *M->getFunction("__weft_wi_guarded");
  EXPECT_EQ(wi::sizeAttr(F, wi::BarrierCountAttr), 1u);
  const BasicBlock *Checks = nullptr;
  for (const BasicBlock &BB : F)
    if (BB.getName() == "group.checks")
      Checks = &BB;
  ASSERT_NE(Checks, nullptr);
  std::set<std::string> Queries;
  for (const Instruction &I : *Checks)
    if (const auto *Call = dyn_cast<CallInst>(&I))
      Queries.insert(Call->getCalledFunction()->getName().str());
  EXPECT_EQ(Queries, (std::set<std::string>{"_Z12get_group_idj", "_Z23get_enqueued_local_sizej",
                                            "_Z17get_global_offsetj", "_Z14get_local_sizej"}));
  const auto *Branch = dyn_cast<BranchInst>(Checks->getTerminator());
  ASSERT_TRUE(Branch && Branch->isConditional());
  // The copy and the kernel as written each load the column.
  EXPECT_EQ(numMatching(F,
                        [](Instruction &I) {
                          return isa<LoadInst>(I) && I.getType()->isFloatTy() &&
                                 cast<LoadInst>(I).getPointerAddressSpace() == 1;
                        }),
            2u);
  for (const char *Name : {"__weft_wi_from_memory", "__weft_wi_equality"}) {
    Function &Left = *M->getFunction(Name);
    EXPECT_EQ(wi::sizeAttr(Left, wi::BarrierCountAttr), 0u) << Name;
    EXPECT_EQ(
        numMatching(Left,
                    [](Instruction &I) { return isa<LoadInst>(I) && I.getType()->isFloatTy(); }),
        1u)
        << Name;
  }
}

TEST(PassTest, BarrierFreeFunctionUntouched) {
  LLVMContext C;
  auto M = parse(C, R"(
define i32 @__weft_wi_k(ptr %ctx, i64 %lx, i64 %ly, i64 %lz, i32 %state, ptr %frame, ptr %uniform) "weft-kernel"="k" {
entry:
  %a = alloca i32
  ret i32 -1
}
)");
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("__weft_wi_k");
  ASSERT_TRUE(BarrierStatePass::transform(F));
  EXPECT_EQ(wi::sizeAttr(F, wi::FrameSizeAttr), 0u);
  EXPECT_EQ(numMatching(F, [](Instruction &I) { return isa<AllocaInst>(I); }), 1u);
}

TEST(PassTest, SafeDivisionGuardsVariableDivisors) {
  LLVMContext C;
  auto M = parse(C, R"(
define i32 @f(i32 %n, i32 %d, <4 x i32> %vn, <4 x i32> %vd) {
  %q = sdiv i32 %n, %d
  %r = urem i32 %n, %d
  %c = sdiv i32 %n, 7
  %m = sdiv i32 %n, -1
  %v = udiv <4 x i32> %vn, %vd
  %s1 = add i32 %q, %r
  %s2 = add i32 %s1, %c
  %s3 = add i32 %s2, %m
  %e = extractelement <4 x i32> %v, i32 0
  %s4 = add i32 %s3, %e
  ret i32 %s4
})");
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("f");
  runOnFunction(SafeDivisionPass(), F);
  // sdiv, urem, udiv by variables and sdiv by the constant -1 are guarded;
  // the division by 7 is not.
  unsigned Guarded = 0, Unguarded = 0;
  for (Instruction &I : instructions(F))
    if (auto *BO = dyn_cast<BinaryOperator>(&I); BO && BO->isIntDivRem())
      (isa<SelectInst>(BO->getOperand(1)) ? Guarded : Unguarded)++;
  EXPECT_EQ(Guarded, 4u);
  EXPECT_EQ(Unguarded, 1u);
}

// A vector frem becomes the one-step reduction in vector registers, the
// frem itself kept (marked) on the branch for vectors with a hard lane;
// scalar frems and a second run leave the function alone.
TEST(PassTest, VectorFremRunsInVectorRegisters) {
  LLVMContext C;
  auto M = parse(C, R"(
define <8 x float> @f(<8 x float> %x, <8 x float> %y, double %a, double %b, ptr %p) {
  %r = frem <8 x float> %x, %y
  %s = frem double %a, %b
  store double %s, ptr %p
  %t = fadd <8 x float> %r, %x
  ret <8 x float> %t
})");
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("f");
  runOnFunction(VectorFremPass(), F);
  auto Frems = [&] {
    std::vector<Instruction *> V;
    for (Instruction &I : instructions(F))
      if (I.getOpcode() == Instruction::FRem)
        V.push_back(&I);
    return V;
  };
  std::vector<Instruction *> After = Frems();
  ASSERT_EQ(After.size(), 2u);
  Instruction *Lanes = After[0]->getType()->isVectorTy() ? After[0] : After[1];
  Instruction *Scalar = Lanes == After[0] ? After[1] : After[0];
  EXPECT_TRUE(Lanes->getMetadata(VectorFremPass::LaneByLaneMD));
  EXPECT_FALSE(Scalar->getMetadata(VectorFremPass::LaneByLaneMD));
  EXPECT_EQ(Lanes->getParent()->getName(), "frem.lanes");
  // The fadd takes the join's phi of the fast result and the frem's.
  auto *Phi = dyn_cast<PHINode>(F.getEntryBlock().getTerminator()->getSuccessor(1)->begin());
  ASSERT_TRUE(Phi);
  EXPECT_EQ(Phi->getNumIncomingValues(), 2u);
  EXPECT_TRUE(is_contained(Phi->incoming_values(), Lanes));
  for (User *U : Phi->users())
    EXPECT_TRUE(isa<BinaryOperator>(U));
  // The step: a division and a fused multiply-add on <8 x double>.
  auto OnDoubles = [](Instruction &I) {
    auto *V = dyn_cast<FixedVectorType>(I.getType());
    return V && V->getNumElements() == 8 && V->getElementType()->isDoubleTy();
  };
  EXPECT_EQ(numMatching(F, [&](Instruction &I) {
              return I.getOpcode() == Instruction::FDiv && OnDoubles(I);
            }), 1u);
  EXPECT_EQ(numMatching(F, [&](Instruction &I) {
              auto *II = dyn_cast<IntrinsicInst>(&I);
              return II && II->getIntrinsicID() == Intrinsic::fma && OnDoubles(I);
            }), 1u);
  // Run again: nothing left to do.
  unsigned Blocks = F.size();
  runOnFunction(VectorFremPass(), F);
  EXPECT_EQ(F.size(), Blocks);
  EXPECT_EQ(Frems().size(), 2u);
}

// A builtin's loop over a float4's lanes (unroll disabled, four trips,
// through stack arrays) is unrolled and its arrays made registers in a
// function with a barrier; one without keeps its loop for the vectorizer.
TEST(PassTest, LaneLoopsUnrollInFunctionsWithBarriers) {
  LLVMContext C;
  std::string Body = R"(
  %xa = alloca <4 x float>
  %ra = alloca <4 x float>
  store <4 x float> %x, ptr %xa
  br label %lane
lane:
  %j = phi i32 [0, %entry], [%j1, %lane]
  %px = getelementptr float, ptr %xa, i32 %j
  %v = load float, ptr %px
  %r = call float @atanf(float %v)
  %pr = getelementptr float, ptr %ra, i32 %j
  store float %r, ptr %pr
  %j1 = add nuw nsw i32 %j, 1
  %c = icmp ult i32 %j1, 4
  br i1 %c, label %lane, label %exit, !llvm.loop !0
exit:
)";
  auto M = parse(C, (R"(
declare void @_Z7barrierj(i32)
declare float @atanf(float) readnone nounwind
define void @withBarrier(<4 x float> %x, ptr %out) {
entry:)" + Body + R"(
  call void @_Z7barrierj(i32 1)
  %rv = load <4 x float>, ptr %ra
  store <4 x float> %rv, ptr %out
  ret void
}
define void @without(<4 x float> %x, ptr %out) {
entry:)" + Body + R"(
  %rv = load <4 x float>, ptr %ra
  store <4 x float> %rv, ptr %out
  ret void
}
!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.disable"})")
                        .c_str());
  ASSERT_TRUE(M);
  auto Calls = [](Instruction &I) {
    auto *Call = dyn_cast<CallInst>(&I);
    return Call && Call->getCalledFunction()->getName() == "atanf";
  };
  auto Allocas = [](Instruction &I) { return isa<AllocaInst>(I); };
  Function &With = *M->getFunction("withBarrier");
  runOnFunction(LaneLoopUnrollPass(), With);
  EXPECT_EQ(numMatching(With, Calls), 4u);
  EXPECT_EQ(numMatching(With, Allocas), 0u);
  EXPECT_EQ(numMatching(With, [](Instruction &I) { return isa<PHINode>(I); }), 0u);
  Function &Without = *M->getFunction("without");
  runOnFunction(LaneLoopUnrollPass(), Without);
  EXPECT_EQ(numMatching(Without, Calls), 1u);
  EXPECT_EQ(numMatching(Without, Allocas), 2u);
}

// A vector built lane by lane from calls of a function with a vector form
// of that width becomes one call of it; one with a lane from elsewhere, or
// calls of a function without such a form, stay as they are.
TEST(PassTest, LaneCallsPackIntoVectorForms) {
  LLVMContext C;
  auto M = parse(C, R"(
declare double @atan(double) nounwind readnone willreturn
declare double @atan2(double, double) nounwind readnone willreturn
declare double @erf(double) nounwind readnone willreturn
define <2 x double> @f(<2 x double> %x, <2 x double> %y, double %z) {
  %x0 = extractelement <2 x double> %x, i64 0
  %x1 = extractelement <2 x double> %x, i64 1
  %y0 = extractelement <2 x double> %y, i64 0
  %y1 = extractelement <2 x double> %y, i64 1
  %a0 = call double @atan(double %x0)
  %a1 = call double @atan(double %x1)
  %av0 = insertelement <2 x double> poison, double %a0, i64 0
  %av = insertelement <2 x double> %av0, double %a1, i64 1
  %b1 = call double @atan2(double %x1, double %y1)
  %b0 = call double @atan2(double %x0, double %y0)
  %bv0 = insertelement <2 x double> undef, double %b1, i64 1
  %bv = insertelement <2 x double> %bv0, double %b0, i64 0
  %c0 = call double @atan(double %x0)
  %c1 = call double @atan(double %z)
  %cv0 = insertelement <2 x double> poison, double %c0, i64 0
  %cv = insertelement <2 x double> %cv0, double %c1, i64 1
  %e0 = call double @erf(double %x0)
  %e1 = call double @erf(double %x1)
  %ev0 = insertelement <2 x double> poison, double %e0, i64 0
  %ev = insertelement <2 x double> %ev0, double %e1, i64 1
  %s1 = fadd <2 x double> %av, %bv
  %s2 = fadd <2 x double> %s1, %cv
  %s3 = fadd <2 x double> %s2, %ev
  ret <2 x double> %s3
})");
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("f");
  TargetLibraryInfoImpl TLII(Triple(M->getTargetTriple()));
  const VecDesc Forms[] = {{"atan", "vatan", ElementCount::getFixed(2)},
                           {"atan2", "vatan2", ElementCount::getFixed(2)}};
  TLII.addVectorizableFunctions(Forms);
  runWithLibrary(LaneCallPackingPass(), F, TLII);
  std::map<std::string, unsigned> Callees;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I))
      ++Callees[Call->getCalledFunction()->getName().str()];
  // atan and atan2 (lanes inserted in any order) packed; the atan vector
  // with a lane of %z kept its two calls, erf (no form) its two.
  EXPECT_EQ(Callees["vatan"], 1u);
  EXPECT_EQ(Callees["vatan2"], 1u);
  EXPECT_EQ(Callees["atan"], 2u);
  EXPECT_EQ(Callees["atan2"], 0u);
  EXPECT_EQ(Callees["erf"], 2u);
}

// A loop over work-items x, as WorkGroupLoopPass makes it, whose body
// computes %skip or %go from %i (the global id, %base + %x) and runs Region
// (by default a store to %out[%i]) where the branch on it enters the
// region, then Latch.
const char *StoreRegion = "  %p = getelementptr inbounds float, ptr addrspace(1) %out, i64 %i\n"
                          "  store float 1.0, ptr addrspace(1) %p\n";
std::string boundsLoop(const std::string &Name, const std::string &Check, bool GoWhenTrue,
                       const std::string &Region = StoreRegion, const std::string &Latch = "") {
  return "define void @" + Name + R"((ptr addrspace(1) %out, ptr addrspace(1) %in, i64 %base,
    i64 %count, i64 %n, i32 %n32, i64 %y, i64 %h) {
entry:
  br label %loop
loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %latch ]
  %i = add i64 %base, %x
)" + Check +
         (GoWhenTrue ? "  br i1 %go, label %then, label %latch\n"
                     : "  br i1 %skip, label %latch, label %then\n") +
         "then:\n" + Region + "  br label %latch\nlatch:\n" + Latch + R"(  %x.next = add nuw i64 %x, 1
  %more = icmp ult i64 %x.next, %count
  br i1 %more, label %loop, label %exit
exit:
  ret void
}
)";
}

// Bounds checks on the global id (unsigned, an int, falling, two dimensions,
// an early return) version the loop: the edge loop keeps the check, the
// fast one stores unconditionally. Checks on the local id or on loaded
// data, and checks guarding no memory, leave the loop alone; so does a
// second run.
TEST(PassTest, BoundsChecksVersionWorkItemLoops) {
  LLVMContext C;
  const std::map<std::string, std::pair<std::string, bool>> Versioned = {
      {"gid", {"  %go = icmp ult i64 %i, %n\n", true}},
      {"int_gid", {"  %i32 = trunc i64 %i to i32\n  %go = icmp slt i32 %i32, %n32\n", true}},
      {"falling", {"  %left = sub i64 %n, %i\n  %go = icmp sgt i64 %left, 0\n", true}},
      {"two_dims",
       {"  %a = icmp ult i64 %i, %n\n  %b = icmp ult i64 %y, %h\n  %go = and i1 %a, %b\n", true}},
      {"early_return",
       {"  %a = icmp uge i64 %i, %n\n  %b = icmp uge i64 %y, %h\n"
        "  %skip = select i1 %a, i1 true, i1 %b\n",
        false}}};
  const std::map<std::string, std::pair<std::string, bool>> Kept = {
      {"local_id", {"  %go = icmp ult i64 %x, %n\n", true}},
      {"data",
       {"  %q = getelementptr inbounds i64, ptr addrspace(1) %in, i64 %i\n"
        "  %v = load i64, ptr addrspace(1) %q\n  %go = icmp ult i64 %v, %n\n",
        true}},
      {"equal", {"  %go = icmp ne i64 %i, %n\n", true}}};
  std::string Text;
  for (const auto &[Name, Check] : Versioned)
    Text += boundsLoop(Name, Check.first, Check.second);
  for (const auto &[Name, Check] : Kept)
    Text += boundsLoop(Name, Check.first, Check.second);
  // No memory under the check: the vectorizer makes it a select.
  Text += boundsLoop("no_memory", "  %go = icmp ult i64 %i, %n\n", true,
                     "  %d = shl i64 %i, 1\n",
                     "  %v = phi i64 [ %d, %then ], [ 0, %loop ]\n"
                     "  %p = getelementptr inbounds i64, ptr addrspace(1) %out, i64 %x\n"
                     "  store i64 %v, ptr addrspace(1) %p\n");
  auto M = parse(C, Text.c_str());
  ASSERT_TRUE(M);
  // The conditional branches inside each loop of F, edge loops apart.
  struct Shape {
    unsigned Loops = 0, EdgeLoops = 0, FastBranches = 0, EdgeBranches = 0;
  };
  auto shapeOf = [](Function &F) {
    DominatorTree DT(F);
    LoopInfo LI(DT);
    Shape S;
    for (Loop *L : LI) {
      ++S.Loops;
      const bool Edge = BoundsCheckVersioningPass::isEdgeLoop(*L);
      S.EdgeLoops += Edge;
      // The edge loop, run by a group or two, is neither vectorized nor
      // unrolled.
      EXPECT_EQ(getOptionalBoolLoopAttribute(L, "llvm.loop.vectorize.enable"),
                Edge ? Optional<bool>(false) : None);
      EXPECT_EQ(findOptionMDForLoop(L, "llvm.loop.unroll.disable") != nullptr, Edge);
      for (BasicBlock *BB : L->blocks())
        if (auto *Br = dyn_cast<BranchInst>(BB->getTerminator()); Br && Br->isConditional())
          ++(Edge ? S.EdgeBranches : S.FastBranches);
    }
    return S;
  };
  for (const auto &[Name, Check] : Versioned) {
    Function &F = *M->getFunction(Name);
    runOnFunction(BoundsCheckVersioningPass(), F);
    const Shape S = shapeOf(F);
    EXPECT_EQ(S.Loops, 2u) << Name;
    EXPECT_EQ(S.EdgeLoops, 1u) << Name;
    EXPECT_EQ(S.FastBranches, 1u) << Name << ": the fast loop keeps only its latch's branch";
    EXPECT_EQ(S.EdgeBranches, 2u) << Name;
    const size_t Size = F.getInstructionCount();
    runOnFunction(BoundsCheckVersioningPass(), F);
    EXPECT_EQ(F.getInstructionCount(), Size) << Name << " changed on a second run";
  }
  for (const char *Name : {"local_id", "data", "equal", "no_memory"}) {
    Function &F = *M->getFunction(Name);
    runOnFunction(BoundsCheckVersioningPass(), F);
    EXPECT_EQ(shapeOf(F).Loops, 1u) << Name << " was versioned";
  }
}

/// A work-item loop (marked as WorkGroupLoopPass marks it) over %count
/// work-items whose body is Body, then the latch.
std::string workItemLoop(const std::string &Name, const std::string &Body) {
  return "define void @" + Name + R"((ptr addrspace(3) %s, ptr addrspace(1) %out, i64 %k,
    i32 %k32, i64 %count) {
entry:
  br label %loop
loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %latch ]
)" + Body +
         R"(latch:
  %x.next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %x.next, %count
  br i1 %more, label %loop, label %exit, !llvm.loop !0
exit:
  ret void
}
)";
}

const char *const TreeStep = R"(then:
  %xk = add nuw i64 %x, %k
  %pk = getelementptr inbounds i32, ptr addrspace(3) %s, i64 %xk
  %vk = load i32, ptr addrspace(3) %pk
  %p = getelementptr inbounds i32, ptr addrspace(3) %s, i64 %x
  %v = load i32, ptr addrspace(3) %p
  %sum = add i32 %v, %vk
  store i32 %sum, ptr addrspace(3) %p
  br label %latch
)";

// With a constant local size, a region's x loop is entered straight from
// the state switch and leaves to the state latch, whose phis the other
// regions share: no preheader, no exit of its own. ActiveRangePass alone
// leaves such a loop; after LoopSimplify, which the kernel pipeline runs
// just before it, the loop is narrowed (a check of work-item 0 before it).
TEST(PassTest, WorkItemLoopsEnteredFromTheStateSwitchAreNarrowedOnceSimplified) {
  LLVMContext C;
  const std::string Text = std::string(R"(
target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"
define i32 @regions(ptr addrspace(3) %s, i64 %k, i32 %state) {
entry:
  br label %state.loop
state.loop:
  %st = phi i32 [ %state, %entry ], [ %next, %state.latch ]
  switch i32 %st, label %done [
    i32 0, label %loop
    i32 1, label %other
  ]
other:
  br label %state.latch
loop:
  %x = phi i64 [ 0, %state.loop ], [ %x.next, %latch ]
  %go = icmp ult i64 %x, %k
  br i1 %go, label %then, label %latch
)") + TreeStep + R"(latch:
  %x.next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %x.next, 256
  br i1 %more, label %loop, label %state.latch, !llvm.loop !0
state.latch:
  %next = phi i32 [ 1, %latch ], [ 2, %other ]
  br label %state.loop
done:
  ret i32 %st
}
!0 = distinct !{!0, !1}
!1 = !{!")" + wi::WorkItemLoopMD +
                           "\"}\n";
  auto narrowed = [&](bool Simplify) {
    auto M = parse(C, Text.c_str());
    if (!M)
      return false;
    Function &F = *M->getFunction("regions");
    FunctionAnalysisManager FAM;
    PassBuilder PB;
    PB.registerFunctionAnalyses(FAM);
    if (Simplify)
      LoopSimplifyPass().run(F, FAM);
    ActiveRangePass().run(F, FAM);
    EXPECT_FALSE(verifyFunction(F, &errs()));
    for (Instruction &I : instructions(F))
      if (I.getName().startswith("active.enter"))
        return true;
    return false;
  };
  EXPECT_FALSE(narrowed(false)) << "no preheader to check work-item 0 in";
  EXPECT_TRUE(narrowed(true));
}

// A tree reduction's step, `if (lid < k) s[lid] += s[lid + k]`, in either
// branch order: the loop enters only if work-item 0 passes the check
// (`active.enter`), runs the step without it, and leaves after the last
// work-item that passes (`active.more` and-ed into the latch's test). The
// IR that comes out:
//   entry:  %active.enter = icmp ult i64 0, %k
//           br %active.enter, %loop, %exit
//   loop:   %x = phi ...; br label %then
//   latch:  %active.next = add i64 %x, 1
//           %active.more = icmp ult i64 %active.next, %k
//           br (and %more, %active.more), %loop, %latch.split (-> %exit)
// The same with an int local id, where the loop's trip count bounds it.
// Left alone: an int local id in a loop of unbounded trip count (it may
// wrap), a store outside the guarded region, a value used after the loop,
// a check that the first work-items fail (lid >= k), and a loop that is
// not over work-items.
TEST(PassTest, WorkItemLoopsRunOnlyTheWorkItemsTheirGuardLetsIn) {
  LLVMContext C;
  const std::string Go = "  %go = icmp ult i64 %x, %k\n  br i1 %go, label %then, label %latch\n";
  std::string Text = "target datalayout = \"e-m:e-i64:64-n8:16:32:64-S128\"\n";
  Text += workItemLoop("tree", Go + TreeStep);
  Text += workItemLoop("skip", "  %stop = icmp uge i64 %x, %k\n"
                               "  br i1 %stop, label %latch, label %then\n" +
                                   std::string(TreeStep));
  Text +=
      workItemLoop("unguarded_store", "  %q = getelementptr i32, ptr addrspace(1) %out, i64 %x\n"
                                      "  store i32 1, ptr addrspace(1) %q\n" +
                                          Go + TreeStep);
  Text += workItemLoop("upper_half", "  %go = icmp uge i64 %x, %k\n"
                                     "  br i1 %go, label %then, label %latch\n" +
                                         std::string(TreeStep));
  // An int local id is a truncation: narrowed where the loop's trip count
  // is bounded (the local sizes are, in a work-group function), so that it
  // cannot wrap; kept where it is not.
  const std::string IntGo = "  %l = trunc i64 %x to i32\n  %go = icmp slt i32 %l, %k32\n"
                            "  br i1 %go, label %then, label %latch\n";
  std::string Bounded = workItemLoop("int_bounded", IntGo + TreeStep);
  Bounded.replace(Bounded.find("%x.next, %count"), 15, "%x.next, 4096");
  Text += Bounded;
  Text += workItemLoop("int_unbounded", IntGo + TreeStep);
  std::string LiveOut = workItemLoop("live_out", Go + TreeStep);
  LiveOut.replace(LiveOut.find("  ret void"), 10,
                  "  store i64 %x, ptr addrspace(1) %out\n  ret void");
  Text += LiveOut;
  std::string Unmarked = workItemLoop("not_work_items", Go + TreeStep);
  Unmarked.replace(Unmarked.find(", !llvm.loop !0"), 15, "");
  Text += Unmarked;
  Text += "!0 = distinct !{!0, !1}\n!1 = !{!\"" + std::string(wi::WorkItemLoopMD) + "\"}\n";
  auto M = parse(C, Text.c_str());
  ASSERT_TRUE(M);
  for (const char *Name : {"tree", "skip", "int_bounded"}) {
    const bool Int = std::string(Name) == "int_bounded";
    Function &F = *M->getFunction(Name);
    runOnFunction(ActiveRangePass(), F);
    auto *Enter = dyn_cast<BranchInst>(F.getEntryBlock().getTerminator());
    ASSERT_TRUE(Enter && Enter->isConditional()) << Name;
    auto *EnterCmp = dyn_cast<ICmpInst>(Enter->getCondition());
    ASSERT_NE(EnterCmp, nullptr) << Name;
    EXPECT_EQ(EnterCmp->getPredicate(), Int ? CmpInst::ICMP_SLT : CmpInst::ICMP_ULT) << Name;
    EXPECT_TRUE(match(EnterCmp->getOperand(0), PatternMatch::m_Zero())) << Name;
    EXPECT_EQ(EnterCmp->getOperand(1), F.getArg(Int ? 3 : 2)) << Name;
    DominatorTree DT(F);
    LoopInfo LI(DT);
    ASSERT_EQ(LI.getTopLevelLoops().size(), 1u) << Name;
    Loop &L = *LI.getTopLevelLoops().front();
    // One conditional branch is left in the loop, the latch's.
    unsigned Conditional = 0;
    for (BasicBlock *BB : L.blocks())
      if (auto *Br = dyn_cast<BranchInst>(BB->getTerminator()); Br && Br->isConditional())
        ++Conditional;
    EXPECT_EQ(Conditional, 1u) << Name;
    auto *Latch = cast<BranchInst>(L.getLoopLatch()->getTerminator());
    EXPECT_EQ(Latch->getSuccessor(0), L.getHeader()) << Name;
    Value *Old, *More;
    ASSERT_TRUE(match(Latch->getCondition(),
                      PatternMatch::m_And(PatternMatch::m_Value(Old), PatternMatch::m_Value(More))))
        << Name;
    auto *MoreCmp = dyn_cast<ICmpInst>(More);
    ASSERT_NE(MoreCmp, nullptr) << Name;
    EXPECT_EQ(MoreCmp->getPredicate(), Int ? CmpInst::ICMP_SLT : CmpInst::ICMP_ULT) << Name;
    EXPECT_EQ(MoreCmp->getOperand(1), F.getArg(Int ? 3 : 2)) << Name;
    EXPECT_TRUE(L.hasDedicatedExits()) << Name;
    // One vector an iteration: the later steps run few work-items.
    const MDOperand *Count =
        findStringMetadataForLoop(&L, "llvm.loop.interleave.count").value_or(nullptr);
    ASSERT_NE(Count, nullptr) << Name;
    EXPECT_EQ(mdconst::extract<ConstantInt>(*Count)->getZExtValue(), 1u) << Name;
  }
  for (const char *Name :
       {"int_unbounded", "unguarded_store", "upper_half", "live_out", "not_work_items"}) {
    Function &F = *M->getFunction(Name);
    const size_t Size = F.getInstructionCount();
    runOnFunction(ActiveRangePass(), F);
    EXPECT_EQ(F.getInstructionCount(), Size) << Name << " changed";
    EXPECT_FALSE(cast<BranchInst>(F.getEntryBlock().getTerminator())->isConditional()) << Name;
  }
}

// Work-item loops whose body is one long chain of multiply-adds. With no
// target in the pass builder a vector register holds one lane, so an
// interleave count IC needs IC work-items. The IR that comes out:
//   chain (trip count %n):  entry: %0 = add i64 umax(%n, 1), -1
//                           %chain.wide = icmp uge i64 %0, 7
//                           br %chain.wide, %x.loop.ph, %x.loop.ph.short
//                           x.loop: ... !{"llvm.loop.interleave.count", i32 8}
//                           x.loop.short: ... !{"weft.chain.short"}
//   chain16 (trip count 4): interleave.count 4, not versioned
//   wide (eight chains of four): nothing
//   vector (a float4 chain): unroll.count 8, interleave.count 1
//   not_work_items (no work-item loop marker): nothing
TEST(PassTest, LongChainsInWorkItemLoopsInterleaveWhereTheGroupIsWideEnough) {
  LLVMContext C;
  auto chainOf = [](const std::string &Type, const std::string &Prefix, int Length) {
    std::string Body;
    for (int I = 0; I < Length; ++I)
      Body += "  %" + Prefix + std::to_string(I + 1) + " = call " + Type + " @llvm.fmuladd." +
              (Type == "float" ? "f32" : "v4f32") + "(" + Type + " %" + Prefix + std::to_string(I) +
              ", " + Type + " %a, " + Type + " %b)\n";
    return Body;
  };
  auto kernel = [](const std::string &Name, const std::string &Type, const std::string &Trip,
                   const std::string &Chains, const std::string &Last, bool Marked) {
    return "define void @" + Name + "(ptr %p, " + Type + " %a, " + Type + " %b, i64 %n) {\n" +
           "entry:\n  br label %x.loop\nx.loop:\n"
           "  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]\n"
           "  %q = getelementptr " +
           Type + ", ptr %p, i64 %x\n  %v0 = load " + Type + ", ptr %q\n" + Chains + "  store " +
           Type + " " + Last + ", ptr %q\n" +
           "  %x.next = add nuw nsw i64 %x, 1\n  %c = icmp ult i64 %x.next, " + Trip + "\n" +
           "  br i1 %c, label %x.loop, label %exit" + (Marked ? ", !llvm.loop !0" : "") +
           "\nexit:\n  ret void\n}\n";
  };
  // Eight chains of four, summed: the same 32 operations plus the sums,
  // the longest chain 4 + 3.
  std::string Wide;
  for (int K = 0; K < 8; ++K)
    for (int I = 0; I < 4; ++I)
      Wide += "  %w" + std::to_string(K) + "_" + std::to_string(I + 1) +
              " = call float @llvm.fmuladd.f32(float " +
              (I ? "%w" + std::to_string(K) + "_" + std::to_string(I) : std::string("%v0")) +
              ", float %a, float %b)\n";
  Wide += "  %s0 = fadd float %w0_4, %w1_4\n  %s1 = fadd float %w2_4, %w3_4\n"
          "  %s2 = fadd float %w4_4, %w5_4\n  %s3 = fadd float %w6_4, %w7_4\n"
          "  %s4 = fadd float %s0, %s1\n  %s5 = fadd float %s2, %s3\n  %s6 = fadd float %s4, %s5\n";
  const std::string Text =
      "declare float @llvm.fmuladd.f32(float, float, float)\n"
      "declare <4 x float> @llvm.fmuladd.v4f32(<4 x float>, <4 x float>, <4 x float>)\n" +
      kernel("chain", "float", "%n", chainOf("float", "v", 32), "%v32", true) +
      kernel("chain16", "float", "4", chainOf("float", "v", 32), "%v32", true) +
      kernel("wide", "float", "%n", Wide, "%s6", true) +
      kernel("vector", "<4 x float>", "%n", chainOf("<4 x float>", "v", 32), "%v32", true) +
      kernel("not_work_items", "float", "%n", chainOf("float", "v", 32), "%v32", false) +
      "!0 = distinct !{!0, !1}\n!1 = !{!\"" + wi::WorkItemLoopMD + "\"}\n";
  auto M = parse(C, Text.c_str());
  ASSERT_TRUE(M);
  struct Loops {
    unsigned Count = 0, Short = 0;
    std::vector<int64_t> Interleave, Unroll;
  };
  auto loopsOf = [](Function &F) {
    DominatorTree DT(F);
    LoopInfo LI(DT);
    Loops R;
    auto value = [](const Loop *L, const char *Name) -> int64_t {
      const MDOperand *Op = findStringMetadataForLoop(L, Name).value_or(nullptr);
      return Op ? mdconst::extract<ConstantInt>(*Op)->getSExtValue() : 0;
    };
    for (Loop *L : LI) {
      ++R.Count;
      R.Short += findOptionMDForLoop(L, ChainInterleavePass::ShortLoopMD) != nullptr;
      R.Interleave.push_back(value(L, "llvm.loop.interleave.count"));
      R.Unroll.push_back(value(L, "llvm.loop.unroll.count"));
    }
    std::sort(R.Interleave.begin(), R.Interleave.end());
    return R;
  };
  auto run = [&](const char *Name) {
    Function &F = *M->getFunction(Name);
    runOnFunction(ChainInterleavePass(), F);
    return loopsOf(F);
  };
  Loops Chain = run("chain");
  EXPECT_EQ(Chain.Count, 2u);
  EXPECT_EQ(Chain.Short, 1u);
  EXPECT_EQ(Chain.Interleave, (std::vector<int64_t>{0, 8}));
  std::string Out;
  raw_string_ostream OS(Out);
  M->getFunction("chain")->print(OS);
  // The backedge-taken count, umax(n, 1) - 1, against VF x IC - 1.
  EXPECT_NE(OS.str().find("icmp uge i64 %0, 7\n  br i1 %chain.wide, label %x.loop.ph, label "
                          "%x.loop.ph.short"),
            std::string::npos)
      << OS.str();

  Loops Chain16 = run("chain16");
  EXPECT_EQ(Chain16.Count, 1u);
  EXPECT_EQ(Chain16.Interleave, (std::vector<int64_t>{4}));

  Loops WideLoops = run("wide");
  EXPECT_EQ(WideLoops.Count, 1u);
  EXPECT_EQ(WideLoops.Interleave, (std::vector<int64_t>{0}));

  Loops Vector = run("vector");
  EXPECT_EQ(Vector.Count, 1u);
  EXPECT_EQ(Vector.Unroll, (std::vector<int64_t>{8}));
  EXPECT_EQ(Vector.Interleave, (std::vector<int64_t>{1}));

  Loops Unmarked = run("not_work_items");
  EXPECT_EQ(Unmarked.Count, 1u);
  EXPECT_EQ(Unmarked.Interleave, (std::vector<int64_t>{0}));

  // A second run changes nothing.
  Function &F = *M->getFunction("chain");
  const size_t Size = F.getInstructionCount();
  runOnFunction(ChainInterleavePass(), F);
  EXPECT_EQ(F.getInstructionCount(), Size);
}

// A function with a compute-bound chain loop (32 dependent multiply-adds,
// one load, one store) asks for the full width of an AVX-512 target; the
// same chain with a load per multiply-add (a filter's taps) does not, unless
// the loop runs whole 512-bit vectors (a trip count of 32 floats, as a
// group width fixed at the launch gives: a tiled SGEMM's rows), nor a
// target without AVX-512's features, and a width already asked for stays.
TEST(PassTest, ComputeBoundChainsAskForTheFullVectorWidth) {
  LLVMContext C;
  auto kernel = [](const std::string &Name, bool LoadPerStep, const std::string &Attrs,
                   const std::string &Trips = "%n") {
    std::string Body;
    for (int I = 0; I < 32; ++I) {
      const std::string Prev = "%v" + std::to_string(I), Next = "%v" + std::to_string(I + 1);
      std::string Factor = "%a";
      if (LoadPerStep) {
        Body += "  %t" + std::to_string(I) + " = load float, ptr %q\n";
        Factor = "%t" + std::to_string(I);
      }
      Body += "  " + Next + " = call float @llvm.fmuladd.f32(float " + Prev + ", float " + Factor +
              ", float %b)\n";
    }
    return "define void @" + Name + "(ptr %p, float %a, float %b, i64 %n) " + Attrs +
           " {\nentry:\n  br label %x.loop\nx.loop:\n"
           "  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]\n"
           "  %q = getelementptr float, ptr %p, i64 %x\n  %v0 = load float, ptr %q\n" +
           Body +
           "  store float %v32, ptr %q\n"
           "  %x.next = add nuw nsw i64 %x, 1\n  %c = icmp ult i64 %x.next, " +
           Trips +
           "\n"
           "  br i1 %c, label %x.loop, label %exit, !llvm.loop !0\nexit:\n  ret void\n}\n";
  };
  const std::string Text = "declare float @llvm.fmuladd.f32(float, float, float)\n" +
                           kernel("compute", false, "#0") + kernel("taps", true, "#0") +
                           kernel("avx2", false, "#1") + kernel("asked", false, "#2") +
                           kernel("rows32", true, "#0", "32") + kernel("rows24", true, "#0", "24") +
                           "attributes #0 = { \"target-features\"=\"+avx,+avx2,+fma,+avx512f\" }\n"
                           "attributes #1 = { \"target-features\"=\"+avx,+avx2,+fma\" "
                           "\"prefer-vector-width\"=\"256\" }\n"
                           "attributes #2 = { \"target-features\"=\"+avx,+avx2,+fma,+avx512f\" "
                           "\"prefer-vector-width\"=\"128\" }\n"
                           "!0 = distinct !{!0, !1}\n!1 = !{!\"" +
                           wi::WorkItemLoopMD + "\"}\n";
  auto M = parse(C, Text.c_str());
  ASSERT_TRUE(M);
  auto widthAfter = [&](const char *Name) {
    Function &F = *M->getFunction(Name);
    runOnFunction(ChainInterleavePass(), F);
    return F.getFnAttribute("prefer-vector-width").getValueAsString().str();
  };
  EXPECT_EQ(widthAfter("compute"), "512");
  EXPECT_EQ(widthAfter("taps"), "") << "a load per step: bound by memory";
  EXPECT_EQ(widthAfter("avx2"), "256") << "already the target's widest";
  EXPECT_EQ(widthAfter("asked"), "512") << "narrower than the target's widest";
  EXPECT_EQ(widthAfter("rows32"), "512") << "whole 512-bit vectors (a group width fixed at launch)";
  EXPECT_EQ(widthAfter("rows24"), "") << "a part of a 512-bit vector left over";
  // A second run changes nothing.
  Function &F = *M->getFunction("compute");
  const size_t Size = F.getInstructionCount();
  runOnFunction(ChainInterleavePass(), F);
  EXPECT_EQ(F.getFnAttribute("prefer-vector-width").getValueAsString(), "512");
  EXPECT_EQ(F.getInstructionCount(), Size);
}

// A builtin on a double8 or a float16 loops over the lanes inside the
// work-item loop (BuiltinMacros.h), and the loop vectorizer widens that
// loop's math calls to their vector forms: as wide as the function's
// preferred width. A lane loop calling a function with vector forms asks
// for the target's widest registers; one calling a function without, and
// one outside any work-item loop, do not.
TEST(PassTest, LaneLoopsCallingVectorMathAskForTheFullVectorWidth) {
  LLVMContext C;
  auto nest = [](const std::string &Name, const std::string &Callee, bool InWorkItems) {
    return "define void @" + Name +
           "(ptr %p, i64 %n) #0 {\nentry:\n  br label %x.loop\n"
           "x.loop:\n  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]\n"
           "  br label %lane\n"
           "lane:\n  %j = phi i64 [ 0, %x.loop ], [ %j.next, %lane ]\n"
           "  %i = add i64 %x, %j\n"
           "  %q = getelementptr double, ptr %p, i64 %i\n"
           "  %v = load double, ptr %q\n"
           "  %r = call double @" +
           Callee +
           "(double %v, double 1.5)\n"
           "  store double %r, ptr %q\n"
           "  %j.next = add nuw nsw i64 %j, 1\n  %more = icmp ult i64 %j.next, 8\n"
           "  br i1 %more, label %lane, label %x.latch, !llvm.loop !2\n"
           "x.latch:\n  %x.next = add nuw nsw i64 %x, 1\n  %c = icmp ult i64 %x.next, %n\n"
           "  br i1 %c, label %x.loop, label %exit" +
           (InWorkItems ? ", !llvm.loop !0" : "") + "\nexit:\n  ret void\n}\n";
  };
  const std::string Text = "declare double @pow(double, double) nounwind readnone willreturn\n"
                           "declare double @opaque(double, double) nounwind readnone willreturn\n" +
                           nest("lanes", "pow", true) + nest("plain", "opaque", true) +
                           nest("outside", "pow", false) +
                           "attributes #0 = { \"target-features\"=\"+avx,+avx2,+fma,+avx512f\" }\n"
                           "!0 = distinct !{!0, !1}\n!1 = !{!\"" +
                           wi::WorkItemLoopMD +
                           "\"}\n"
                           "!2 = distinct !{!2, !3}\n!3 = !{!\"llvm.loop.unroll.disable\"}\n";
  auto M = parse(C, Text.c_str());
  ASSERT_TRUE(M);
  TargetLibraryInfoImpl TLII(Triple(M->getTargetTriple()));
  const VecDesc Forms[] = {{"pow", "vpow", ElementCount::getFixed(8)}};
  TLII.addVectorizableFunctions(Forms);
  auto widthAfter = [&](const char *Name) {
    Function &F = *M->getFunction(Name);
    runWithLibrary(ChainInterleavePass(), F, TLII);
    return F.getFnAttribute("prefer-vector-width").getValueAsString().str();
  };
  EXPECT_EQ(widthAfter("lanes"), "512");
  EXPECT_EQ(widthAfter("plain"), "") << "no vector form to widen";
  EXPECT_EQ(widthAfter("outside"), "") << "not inside a work-item loop";
}

// A loop inside a work-item loop that carries a floating-point chain a
// constant number of times (a double16 kernel's `for (k < 128) v = v * a +
// b`) is marked for full unrolling; left alone: a loop with an unroll
// attribute of its own, an integer chain, one whose unrolled size would
// pass InnerChainUnrollPass::MaxUnrolledInstructions, one of unknown trip
// count, one whose parent is not a work-item loop, and one whose body is
// more than MaxBodyInstructions. The IR that comes
// out: the chain loop's latch carries
//   !{!"llvm.loop.unroll.full"}
TEST(PassTest, ChainLoopsInsideWorkItemLoopsAreMarkedForFullUnrolling) {
  LLVMContext C;
  auto nest = [](const std::string &Name, const std::string &Type, const std::string &Step,
                 const std::string &Trips, const std::string &InnerMD, const std::string &OuterMD) {
    return "define void @" + Name + "(ptr %p, " + Type + " %a, " + Type +
           " %b, i64 %n, i32 %t) {\nentry:\n  br label %x.loop\n"
           "x.loop:\n  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]\n"
           "  %q = getelementptr " +
           Type + ", ptr %p, i64 %x\n  %v0 = load " + Type +
           ", ptr %q\n"
           "  br label %k.loop\n"
           "k.loop:\n  %k = phi i32 [ 0, %x.loop ], [ %k.next, %k.loop ]\n"
           "  %v = phi " +
           Type +
           " [ %v0, %x.loop ], [ %v.next, %k.loop ]\n"
           "  %v.next = " +
           Step +
           "\n"
           "  %k.next = add nuw nsw i32 %k, 1\n  %more = icmp ult i32 %k.next, " +
           Trips +
           "\n"
           "  br i1 %more, label %k.loop, label %x.latch" +
           InnerMD +
           "\n"
           "x.latch:\n  store " +
           Type +
           " %v.next, ptr %q\n"
           "  %x.next = add nuw nsw i64 %x, 1\n  %c = icmp ult i64 %x.next, %n\n"
           "  br i1 %c, label %x.loop, label %exit" +
           OuterMD + "\nexit:\n  ret void\n}\n";
  };
  const std::string D16 = "<16 x double>";
  const std::string Fma = "call <16 x double> @llvm.fmuladd.v16f64(<16 x double> %v, <16 x double> "
                          "%a, <16 x double> %b)";
  const std::string WI = ", !llvm.loop !0";
  std::string Text = "declare <16 x double> @llvm.fmuladd.v16f64(<16 x double>, <16 x double>, "
                     "<16 x double>)\n";
  Text += nest("chain", D16, Fma, "128", "", WI);
  Text += nest("pragma", D16, Fma, "128", ", !llvm.loop !2", WI);
  Text += nest("integer", "i32", "mul i32 %v, %a", "128", "", WI);
  Text += nest("too_long", D16, Fma, "100000", "", WI);
  Text += nest("unknown_trips", D16, Fma, "%t", "", WI);
  Text += nest("not_work_items", D16, Fma, "128", "", "");
  // A body of twenty more instructions.
  std::string Big = "fadd <16 x double> %v, %b";
  for (int I = 0; I < 20; ++I)
    Big += "\n  %s" + std::to_string(I) + " = fadd <16 x double> " +
           (I == 0 ? std::string("%v.next") : "%s" + std::to_string(I - 1)) + ", %a";
  Text += nest("big_body", D16, Big, "128", "", WI);
  Text += "!0 = distinct !{!0, !1}\n!1 = !{!\"" + std::string(wi::WorkItemLoopMD) +
          "\"}\n!2 = distinct !{!2, !3}\n!3 = !{!\"llvm.loop.unroll.disable\"}\n";
  auto M = parse(C, Text.c_str());
  ASSERT_TRUE(M);
  ModulePassManager MPM;
  MPM.addPass(
      createModuleToFunctionPassAdaptor(createFunctionToLoopPassAdaptor(InnerChainUnrollPass())));
  KernelPipeline::runModulePasses(*M, MPM);
  EXPECT_FALSE(verifyModule(*M, &errs()));
  auto markedForFullUnroll = [&](const char *Name) {
    Function &F = *M->getFunction(Name);
    DominatorTree DT(F);
    LoopInfo LI(DT);
    for (Loop *L : LI.getLoopsInPreorder())
      if (L->isInnermost())
        return findOptionMDForLoop(L, "llvm.loop.unroll.full") != nullptr;
    ADD_FAILURE() << Name << ": no inner loop";
    return false;
  };
  EXPECT_TRUE(markedForFullUnroll("chain"));
  for (const char *Name :
       {"pragma", "integer", "too_long", "unknown_trips", "not_work_items", "big_body"})
    EXPECT_FALSE(markedForFullUnroll(Name)) << Name;
}

// A work-item loop computing one long chain on a <8 x float> (a float8
// kernel's v = v * a + b) is split into eight scalar chains and its
// vectorization forced; the same chain only 8 long stays whole, as wide
// vectors do (VectorTypeScalarizerPass).
TEST(PassTest, WideVectorChainsAreSplitAndVectorizationForced) {
  LLVMContext C;
  auto kernel = [](const std::string &Name, int Length) {
    std::string Text = "define void @" + Name +
                       "(ptr %p, <8 x float> %a, <8 x float> %b, i64 %n) {\n"
                       "entry:\n  br label %x.loop\nx.loop:\n"
                       "  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]\n"
                       "  %q = getelementptr <8 x float>, ptr %p, i64 %x\n"
                       "  %v0 = load <8 x float>, ptr %q\n";
    for (int I = 0; I < Length; ++I)
      Text += "  %v" + std::to_string(I + 1) +
              " = call <8 x float> @llvm.fmuladd.v8f32(<8 x float> %v" + std::to_string(I) +
              ", <8 x float> %a, <8 x float> %b)\n";
    return Text + "  store <8 x float> %v" + std::to_string(Length) +
           ", ptr %q\n  %x.next = add nuw nsw i64 %x, 1\n"
           "  %c = icmp ult i64 %x.next, %n\n"
           "  br i1 %c, label %x.loop, label %exit, !llvm.loop !0\nexit:\n  ret void\n}\n";
  };
  const std::string Text =
      "declare <8 x float> @llvm.fmuladd.v8f32(<8 x float>, <8 x float>, <8 x float>)\n" +
      kernel("chain", 32) + kernel("short", 8) + "!0 = distinct !{!0, !1}\n!1 = !{!\"" +
      wi::WorkItemLoopMD + "\"}\n";
  auto M = parse(C, Text.c_str());
  ASSERT_TRUE(M);
  auto vectorOps = [](Function &F) {
    return numMatching(F, [](Instruction &I) { return I.getType()->isVectorTy(); });
  };
  auto forced = [](Function &F) {
    DominatorTree DT(F);
    LoopInfo LI(DT);
    return getOptionalBoolLoopAttribute(*LI.begin(), "llvm.loop.vectorize.enable") ==
           Optional<bool>(true);
  };
  Function &Chain = *M->getFunction("chain");
  runOnFunction(VectorTypeScalarizerPass(), Chain);
  EXPECT_EQ(vectorOps(Chain), 0u);
  EXPECT_TRUE(forced(Chain));
  Function &Short = *M->getFunction("short");
  runOnFunction(VectorTypeScalarizerPass(), Short);
  EXPECT_GT(vectorOps(Short), 0u);
  EXPECT_FALSE(forced(Short));
}

TEST(PassTest, AtomicLibraryCallsBecomeInstructionsOfTheirOrder) {
  LLVMContext C;
  auto M = parse(C, R"(
declare i32 @__opencl_atomic_load_4(ptr addrspace(4), i32, i32)
declare void @__opencl_atomic_store_8(ptr addrspace(4), i64, i32, i32)
declare i32 @__opencl_atomic_fetch_umin_4(ptr addrspace(4), i32, i32, i32)
declare i64 @__opencl_atomic_exchange_8(ptr addrspace(4), i64, i32, i32)
declare i1 @__opencl_atomic_compare_exchange_4(ptr addrspace(4), ptr addrspace(4), i32, i32, i32, i32)
define i32 @f(ptr addrspace(4) %p, ptr addrspace(4) %q, ptr addrspace(4) %e, i32 %order) {
  %a = call i32 @__opencl_atomic_load_4(ptr addrspace(4) %p, i32 2, i32 1)
  %b = call i32 @__opencl_atomic_load_4(ptr addrspace(4) %p, i32 3, i32 1)
  call void @__opencl_atomic_store_8(ptr addrspace(4) %q, i64 5, i32 3, i32 2)
  %c = call i32 @__opencl_atomic_fetch_umin_4(ptr addrspace(4) %p, i32 %a, i32 0, i32 1)
  %d = call i64 @__opencl_atomic_exchange_8(ptr addrspace(4) %q, i64 1, i32 %order, i32 2)
  %ok = call i1 @__opencl_atomic_compare_exchange_4(ptr addrspace(4) %p, ptr addrspace(4) %e, i32 9, i32 4, i32 2, i32 2)
  %s1 = add i32 %b, %c
  %t = trunc i64 %d to i32
  %s2 = add i32 %s1, %t
  %z = zext i1 %ok to i32
  %s3 = add i32 %s2, %z
  ret i32 %s3
})");
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("f");
  runOnFunction(AtomicPass(), F);
  std::vector<AtomicOrdering> Loads, Stores, RMWs;
  std::vector<AtomicRMWInst::BinOp> Ops;
  unsigned Calls = 0, CmpXchgs = 0, PlainStores = 0;
  for (Instruction &I : instructions(F)) {
    if (auto *L = dyn_cast<LoadInst>(&I); L && L->isAtomic())
      Loads.push_back(L->getOrdering());
    if (auto *S = dyn_cast<StoreInst>(&I))
      S->isAtomic() ? Stores.push_back(S->getOrdering()) : void(++PlainStores);
    if (auto *R = dyn_cast<AtomicRMWInst>(&I)) {
      RMWs.push_back(R->getOrdering());
      Ops.push_back(R->getOperation());
    }
    if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I)) {
      ++CmpXchgs;
      EXPECT_EQ(X->getSuccessOrdering(), AtomicOrdering::AcquireRelease);
      EXPECT_EQ(X->getFailureOrdering(), AtomicOrdering::Acquire);
    }
    Calls += isa<CallInst>(I);
  }
  // A release load is not C11: the strongest order instead.
  EXPECT_EQ(Loads, (std::vector<AtomicOrdering>{AtomicOrdering::Acquire,
                                                AtomicOrdering::SequentiallyConsistent}));
  EXPECT_EQ(Stores, std::vector<AtomicOrdering>{AtomicOrdering::Release});
  // An order unknown at compile time: sequentially consistent.
  EXPECT_EQ(RMWs, (std::vector<AtomicOrdering>{AtomicOrdering::Monotonic,
                                               AtomicOrdering::SequentiallyConsistent}));
  EXPECT_EQ(Ops, (std::vector<AtomicRMWInst::BinOp>{AtomicRMWInst::UMin, AtomicRMWInst::Xchg}));
  EXPECT_EQ(CmpXchgs, 1u);
  EXPECT_EQ(PlainStores, 1u); // the expected value, written back on failure only
  EXPECT_EQ(Calls, 0u);
}

TEST(PassTest, PrintfCallsTheServicesTablesEntryWithDescribedArguments) {
  LLVMContext C;
  auto M = parse(C, R"(
target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"
@fmt = addrspace(2) constant [12 x i8] c"%d %f %v4hd\00"
declare i32 @printf(ptr addrspace(2), ...)
define i32 @__weft_wi_k(ptr addrspace(1) %out, ptr %ctx, i64 %lx, i64 %ly, i64 %lz, i32 %state, ptr %frame, ptr %uniform) "weft-kernel"="k" {
entry:
  %r = call i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @fmt, i32 7, double 1.5, <4 x i16> <i16 1, i16 2, i16 3, i16 4>)
  store i32 %r, ptr addrspace(1) %out
  ret i32 -1
}
)");
  ASSERT_TRUE(M);
  ModuleAnalysisManager MAM;
  PrintfPass().run(*M, MAM);
  EXPECT_FALSE(verifyModule(*M, &errs()));
  Function &F = *M->getFunction("__weft_wi_k");
  EXPECT_TRUE(F.hasFnAttribute(wi::PrintfAttr));
  // One indirect call of the function loaded from Ctx->Services->Printf,
  // with the format, the array of descriptions and the count 3; printf is
  // gone.
  CallInst *Entry = nullptr;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I)) {
      ASSERT_TRUE(Call->isIndirectCall());
      Entry = Call;
    }
  ASSERT_NE(Entry, nullptr);
  ASSERT_EQ(Entry->arg_size(), 4u);
  EXPECT_EQ(cast<ConstantInt>(Entry->getArgOperand(3))->getZExtValue(), 3u);
  auto *Fn = cast<LoadInst>(Entry->getCalledOperand());
  auto *FnAddr = cast<GetElementPtrInst>(Fn->getPointerOperand());
  EXPECT_EQ(cast<ConstantInt>(FnAddr->getOperand(1))->getZExtValue(), svc::Printf);
  auto *Services = cast<LoadInst>(FnAddr->getPointerOperand());
  auto *ServicesAddr = cast<GetElementPtrInst>(Services->getPointerOperand());
  EXPECT_EQ(ServicesAddr->getPointerOperand(), wi::extraArg(F, wi::Ctx));
  EXPECT_EQ(cast<ConstantInt>(ServicesAddr->getOperand(1))->getZExtValue(), ctx::Services);
  // The descriptions: int of 4 bytes, float of 8, a vector of 4 x 2 bytes.
  std::set<uint64_t> Types;
  for (Instruction &I : instructions(F))
    if (auto *St = dyn_cast<StoreInst>(&I))
      if (auto *CI = dyn_cast<ConstantInt>(St->getValueOperand()); CI && CI->getBitWidth() == 64)
        Types.insert(CI->getZExtValue());
  EXPECT_EQ(Types, (std::set<uint64_t>{rt::printfArgType(rt::PrintfArgKind::Integer, 4, 1),
                                       rt::printfArgType(rt::PrintfArgKind::Float, 8, 1),
                                       rt::printfArgType(rt::PrintfArgKind::Integer, 2, 4)}));
  // printf's result is the entry's.
  EXPECT_EQ(M->getFunction("printf")->getNumUses(), 0u);
}

// An image argument's descriptor loads (format, pitches, pixel pointer)
// become invariant, so O3 hoists them out of the work-item loop past the
// kernel's stores to pixels; a buffer argument's loads, and a load past the
// descriptor's 64 bytes, stay as they were.
TEST(PassTest, ImageDescriptorLoadsAreInvariant) {
  LLVMContext C;
  auto M = parse(C, R"(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
define void @__weft_wg_k(ptr %args, ptr %ctx) {
entry:
  %slot0 = load ptr, ptr %args, align 8
  %img = load ptr addrspace(1), ptr %slot0, align 1
  %a1 = getelementptr inbounds ptr, ptr %args, i64 1
  %slot1 = load ptr, ptr %a1, align 8
  %buf = load ptr addrspace(1), ptr %slot1, align 1
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %data = load ptr addrspace(1), ptr addrspace(1) %img, align 8
  %order.addr = getelementptr inbounds i8, ptr addrspace(1) %img, i64 40
  %order = load i32, ptr addrspace(1) %order.addr, align 4
  %cast = addrspacecast ptr addrspace(1) %img to ptr
  %pitch.addr = getelementptr inbounds i64, ptr %cast, i64 1
  %pitch = load i64, ptr %pitch.addr, align 8
  %past.addr = getelementptr inbounds i8, ptr addrspace(1) %img, i64 64
  %past = load i32, ptr addrspace(1) %past.addr, align 4
  %b = load i32, ptr addrspace(1) %buf, align 4
  %v = add i32 %order, %b
  %w = add i32 %v, %past
  %off = add i64 %x, %pitch
  %px = getelementptr i32, ptr addrspace(1) %data, i64 %off
  store i32 %w, ptr addrspace(1) %px, align 4
  %x.next = add i64 %x, 1
  %c = icmp ult i64 %x.next, 16
  br i1 %c, label %x.loop, label %exit
exit:
  ret void
}
)");
  ASSERT_TRUE(M);
  rt::KernelDesc D;
  D.Args.resize(2);
  D.Args[0].Kind = rt::ArgKind::Image;
  D.Args[1].Kind = rt::ArgKind::GlobalPointer;
  Function &F = *M->getFunction("__weft_wg_k");
  EXPECT_EQ(ImageDescriptorPass::run(F, D), 3u);
  std::set<std::string> Invariant;
  for (Instruction &I : instructions(F))
    if (I.hasMetadata(LLVMContext::MD_invariant_load))
      Invariant.insert(I.getName().str());
  EXPECT_EQ(Invariant, (std::set<std::string>{"data", "order", "pitch"}));
  EXPECT_FALSE(verifyFunction(F, &errs()));
  // The IR that comes out: the loop's first descriptor load, marked.
  std::string Text;
  raw_string_ostream OS(Text);
  F.getEntryBlock().getNextNode()->front().getNextNode()->print(OS);
  EXPECT_NE(OS.str().find("!invariant.load"), std::string::npos) << OS.str();
}

// Clang's form of enqueue_kernel: the block kernel's address becomes the
// address of a string with its name, the block kernel gets kernel metadata
// and the block-kernel mark, and the invoke function's address stored in
// the literal is nulled (the call that inlines it stays).
TEST(PassTest, BlockKernelsAreNamedForTheRuntime) {
  LLVMContext C;
  auto M = parse(C, R"(
%struct.ndrange_t = type { i32, [3 x i64], [3 x i64], [3 x i64] }
define internal spir_func void @__k_block_invoke(ptr addrspace(4) %lit, ptr addrspace(3) %p) {
  ret void
}
define spir_kernel void @__k_block_invoke_kernel(ptr addrspace(4) %0, ptr addrspace(3) %1) {
  call spir_func void @__k_block_invoke(ptr addrspace(4) %0, ptr addrspace(3) %1)
  ret void
}
declare spir_func i32 @__enqueue_kernel_varargs(ptr, i32, ptr, ptr addrspace(4), ptr addrspace(4), i32, ptr)
define spir_kernel void @k(ptr %q, ptr %nd, ptr %sizes) !kernel_arg_addr_space !0 {
  %lit = alloca { i32, i32, ptr addrspace(4) }
  %inv = getelementptr { i32, i32, ptr addrspace(4) }, ptr %lit, i32 0, i32 2
  store ptr addrspace(4) addrspacecast (ptr @__k_block_invoke to ptr addrspace(4)), ptr %inv
  %g = addrspacecast ptr %lit to ptr addrspace(4)
  %r = call spir_func i32 @__enqueue_kernel_varargs(ptr %q, i32 0, ptr %nd, ptr addrspace(4) addrspacecast (ptr @__k_block_invoke_kernel to ptr addrspace(4)), ptr addrspace(4) %g, i32 1, ptr %sizes)
  ret void
}
!0 = !{i32 0, i32 0, i32 0}
)");
  ASSERT_TRUE(M);
  std::string Log;
  ASSERT_TRUE(DeviceEnqueuePass::nameBlockKernels(*M, Log)) << Log;
  EXPECT_FALSE(verifyModule(*M, &errs()));
  Function &Block = *M->getFunction("__k_block_invoke_kernel");
  EXPECT_TRUE(Block.hasFnAttribute(DeviceEnqueuePass::BlockKernelAttr));
  MDNode *AS = Block.getMetadata("kernel_arg_addr_space");
  ASSERT_NE(AS, nullptr);
  EXPECT_EQ(mdconst::extract<ConstantInt>(AS->getOperand(0))->getZExtValue(), 4u);
  EXPECT_EQ(mdconst::extract<ConstantInt>(AS->getOperand(1))->getZExtValue(), 3u);
  // The IR that comes out: the call names the kernel by a string.
  Function &K = *M->getFunction("k");
  std::string Text;
  raw_string_ostream OS(Text);
  K.print(OS);
  EXPECT_NE(OS.str().find("@__weft_block_name"), std::string::npos) << OS.str();
  EXPECT_EQ(OS.str().find("@__k_block_invoke_kernel"), std::string::npos) << OS.str();
  EXPECT_EQ(OS.str().find("@__k_block_invoke to"), std::string::npos)
      << "the literal's invoke address is nulled:\n"
      << OS.str();
  auto *Name = M->getNamedGlobal("__weft_block_name");
  ASSERT_NE(Name, nullptr);
  EXPECT_EQ(cast<ConstantDataArray>(Name->getInitializer())->getAsCString(),
            "__k_block_invoke_kernel");
  EXPECT_EQ(M->getFunction("__k_block_invoke")->getNumUses(), 1u) << "only the call is left";
}

// In a work-item function, enqueue_kernel and the event built-ins become
// calls of the services loaded from Ctx->Services, at their offsets, with
// the operands a form lacks zero; the function gets UsesAttr.
TEST(PassTest, DeviceEnqueueCallsTheServices) {
  LLVMContext C;
  auto M = parse(C, R"(
target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"
@name = private constant [2 x i8] c"b\00"
declare i32 @__enqueue_kernel_basic(ptr, i32, ptr, ptr addrspace(4), ptr addrspace(4))
declare ptr @_Z17get_default_queuev()
declare void @_Z13release_event12ocl_clkevent(ptr)
declare i32 @__get_kernel_work_group_size_impl(ptr addrspace(4), ptr addrspace(4))
define i32 @__weft_wi_k(ptr addrspace(1) %out, ptr %nd, ptr addrspace(4) %lit, ptr %ev, ptr %ctx, i64 %lx, i64 %ly, i64 %lz, i32 %state, ptr %frame, ptr %uniform) "weft-kernel"="k" {
entry:
  %q = call ptr @_Z17get_default_queuev()
  %n = addrspacecast ptr @name to ptr addrspace(4)
  %r = call i32 @__enqueue_kernel_basic(ptr %q, i32 1, ptr %nd, ptr addrspace(4) %n, ptr addrspace(4) %lit)
  %w = call i32 @__get_kernel_work_group_size_impl(ptr addrspace(4) %n, ptr addrspace(4) %lit)
  call void @_Z13release_event12ocl_clkevent(ptr %ev)
  %s = add i32 %r, %w
  store i32 %s, ptr addrspace(1) %out
  ret i32 -1
}
)");
  ASSERT_TRUE(M);
  ModuleAnalysisManager MAM;
  DeviceEnqueuePass().run(*M, MAM);
  EXPECT_FALSE(verifyModule(*M, &errs()));
  Function &F = *M->getFunction("__weft_wi_k");
  EXPECT_TRUE(F.hasFnAttribute(DeviceEnqueuePass::UsesAttr));
  // Four indirect calls, at the services' offsets, each with Ctx first.
  std::vector<uint64_t> Offsets;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I)) {
      ASSERT_TRUE(Call->isIndirectCall()) << Call->getName().str();
      EXPECT_EQ(Call->getArgOperand(0), wi::extraArg(F, wi::Ctx));
      auto *Addr =
          cast<GetElementPtrInst>(cast<LoadInst>(Call->getCalledOperand())->getPointerOperand());
      Offsets.push_back(cast<ConstantInt>(Addr->getOperand(1))->getZExtValue());
      if (Offsets.back() == svc::EnqueueKernel) {
        ASSERT_EQ(Call->arg_size(), 11u);
        EXPECT_EQ(cast<ConstantInt>(Call->getArgOperand(2))->getZExtValue(), 1u); // flags
        EXPECT_TRUE(isa<ConstantInt>(Call->getArgOperand(4)));                    // no events
        EXPECT_TRUE(isa<ConstantPointerNull>(Call->getArgOperand(5)));
        EXPECT_TRUE(isa<ConstantPointerNull>(Call->getArgOperand(10))); // no locals
      }
    }
  EXPECT_EQ(Offsets, (std::vector<uint64_t>{svc::DeviceEvent, svc::EnqueueKernel, svc::BlockQuery,
                                            svc::DeviceEvent}));
}

// A launch's image formats, known, replace the loads of the channel order,
// data type and element size with constants; other descriptor loads (the
// width here) and the images the list does not name keep theirs.
TEST(PassTest, ImageFormatsBecomeConstants) {
  LLVMContext C;
  auto M = parse(C, R"(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
define i32 @__weft_wg_k(ptr %args, ptr %ctx) {
entry:
  %slot0 = load ptr, ptr %args, align 8
  %img = load ptr addrspace(1), ptr %slot0, align 1
  %a1 = getelementptr inbounds ptr, ptr %args, i64 1
  %slot1 = load ptr, ptr %a1, align 8
  %other = load ptr addrspace(1), ptr %slot1, align 1
  %order.addr = getelementptr inbounds i8, ptr addrspace(1) %img, i64 40
  %order = load i32, ptr addrspace(1) %order.addr, align 4
  %type.addr = getelementptr inbounds i8, ptr addrspace(1) %img, i64 44
  %type = load i32, ptr addrspace(1) %type.addr, align 4
  %size.addr = getelementptr inbounds i8, ptr addrspace(1) %img, i64 48
  %size = load i32, ptr addrspace(1) %size.addr, align 4
  %width.addr = getelementptr inbounds i8, ptr addrspace(1) %img, i64 24
  %width = load i32, ptr addrspace(1) %width.addr, align 4
  %o.addr = getelementptr inbounds i8, ptr addrspace(1) %other, i64 40
  %o = load i32, ptr addrspace(1) %o.addr, align 4
  %s1 = add i32 %order, %type
  %s2 = add i32 %s1, %size
  %s3 = add i32 %s2, %width
  %s4 = add i32 %s3, %o
  ret i32 %s4
}
)");
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("__weft_wg_k");
  EXPECT_EQ(ImageDescriptorPass::specialize(F, {{0, CL_BGRA, CL_UNORM_INT8, 4}}), 3u);
  EXPECT_FALSE(verifyFunction(F, &errs()));
  std::string Text;
  raw_string_ostream OS(Text);
  F.print(OS);
  // The IR that comes out: the sums start from the constants.
  EXPECT_NE(OS.str().find("%s1 = add i32 4278, 4306"), std::string::npos) << OS.str();
  EXPECT_NE(OS.str().find("%s2 = add i32 %s1, 4"), std::string::npos) << OS.str();
  EXPECT_NE(OS.str().find("%width = load i32"), std::string::npos) << OS.str();
  EXPECT_NE(OS.str().find("%o = load i32"), std::string::npos) << OS.str();
}

// A work-group function compiled for one local size: the loads of the
// context's LocalSize and EnqueuedLocalSize fields at constant dimensions
// become the sizes, in the function and in an internal helper every call
// of which passes the context. A load at a dimension known at run time,
// a helper whose address is taken (called from elsewhere, with another
// context), and other fields keep their loads.
TEST(PassTest, LocalSizesBecomeConstants) {
  LLVMContext C;
  auto M = parse(C, R"(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
@escape = global ptr @other
define internal i64 @helper(ptr %c, i64 %d) {
  %ls1.addr = getelementptr inbounds i8, ptr %c, i64 40
  %ls1 = load i64, ptr %ls1.addr
  %els2.addr = getelementptr inbounds i8, ptr %c, i64 72
  %els2 = load i64, ptr %els2.addr
  %any.addr = getelementptr inbounds i64, ptr %c, i64 %d
  %any = load i64, ptr %any.addr
  %h1 = add i64 %ls1, %els2
  %h2 = add i64 %h1, %any
  ret i64 %h2
}
define internal i64 @other(ptr %c) {
  %ls0.addr = getelementptr inbounds i8, ptr %c, i64 32
  %ls0.other = load i64, ptr %ls0.addr
  ret i64 %ls0.other
}
define i64 @__weft_wg_k(ptr %args, ptr %ctx) {
entry:
  %ls0.addr = getelementptr inbounds i8, ptr %ctx, i64 32
  %ls0 = load i64, ptr %ls0.addr, !range !0
  %ls2.addr = getelementptr inbounds i8, ptr %ctx, i64 48
  %ls2 = load i64, ptr %ls2.addr, !range !0
  %group.addr = getelementptr inbounds i8, ptr %ctx, i64 8
  %group = load i64, ptr %group.addr
  %h = call i64 @helper(ptr %ctx, i64 %group)
  %o = call i64 @other(ptr %ctx)
  %s1 = add i64 %ls0, %ls2
  %s2 = add i64 %s1, %group
  %s3 = add i64 %s2, %h
  %s4 = add i64 %s3, %o
  ret i64 %s4
}
!0 = !{i64 1, i64 4097}
)");
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("__weft_wg_k");
  EXPECT_EQ(specializeLocalSize(F, {16, 4, 2}), 4u);
  EXPECT_FALSE(verifyModule(*M, &errs()));
  std::string Text;
  raw_string_ostream OS(Text);
  M->print(OS, nullptr);
  // The IR that comes out.
  EXPECT_NE(OS.str().find("%s1 = add i64 16, 2"), std::string::npos) << OS.str();
  EXPECT_NE(OS.str().find("%group = load i64"), std::string::npos) << OS.str();
  EXPECT_NE(OS.str().find("%h1 = add i64 4, 2"), std::string::npos) << OS.str();
  EXPECT_NE(OS.str().find("%any = load i64"), std::string::npos) << OS.str();
  EXPECT_NE(OS.str().find("%ls0.other = load i64"), std::string::npos) << OS.str();
  static_assert(ctx::LocalSize == 32 && ctx::EnqueuedLocalSize == 56, "offsets of the IR above");
}

// A constant local size with rows holds the x loop from O3's full
// unroller (llvm.loop.unroll.disable beside weft.work-item-loop), and
// ReleaseWorkItemLoopsPass, at the vectorizer's start, lifts the hold again;
// a group of one row is not held.
TEST(PassTest, XLoopsOfGroupsWithRowsAreHeldUntilTheVectorizer) {
  const char *Text = R"(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
define void @__weft_wg_k(ptr %args, ptr %ctx, ptr addrspace(1) %out) {
entry:
  %ls0.addr = getelementptr inbounds i8, ptr %ctx, i64 32
  %ls0 = load i64, ptr %ls0.addr, !range !0
  %ls1.addr = getelementptr inbounds i8, ptr %ctx, i64 40
  %ls1 = load i64, ptr %ls1.addr, !range !0
  br label %y.loop
y.loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %x.exit ]
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.loop ]
  %i = add i64 %x, %y
  %p = getelementptr inbounds float, ptr addrspace(1) %out, i64 %i
  store float 1.0, ptr addrspace(1) %p
  %x.next = add nuw nsw i64 %x, 1
  %x.more = icmp ult i64 %x.next, %ls0
  br i1 %x.more, label %x.loop, label %x.exit, !llvm.loop !1
x.exit:
  %y.next = add nuw nsw i64 %y, 1
  %y.more = icmp ult i64 %y.next, %ls1
  br i1 %y.more, label %y.loop, label %done, !llvm.loop !3
done:
  ret void
}
!0 = !{i64 1, i64 4097}
!1 = distinct !{!1, !2}
!2 = !{!"weft.work-item-loop"}
!3 = distinct !{!3, !4, !5}
!4 = !{!"weft.work-item-rows"}
!5 = !{!"llvm.loop.unroll.disable"}
)";
  auto held = [](Function &F) {
    for (BasicBlock &BB : F)
      if (BB.getName() == "x.loop") {
        MDNode *Id = BB.getTerminator()->getMetadata(LLVMContext::MD_loop);
        EXPECT_TRUE(findOptionMDForLoopID(Id, wi::WorkItemLoopMD));
        return findOptionMDForLoopID(Id, "llvm.loop.unroll.disable") != nullptr;
      }
    ADD_FAILURE() << "no x loop";
    return false;
  };
  {
    LLVMContext C;
    auto M = parse(C, Text);
    ASSERT_TRUE(M);
    Function &F = *M->getFunction("__weft_wg_k");
    specializeLocalSize(F, {16, 16, 1});
    EXPECT_FALSE(verifyModule(*M, &errs()));
    EXPECT_TRUE(held(F));
    FunctionAnalysisManager FAM;
    PassBuilder PB;
    PB.registerFunctionAnalyses(FAM);
    ReleaseWorkItemLoopsPass().run(F, FAM);
    EXPECT_FALSE(verifyModule(*M, &errs()));
    EXPECT_FALSE(held(F));
  }
  {
    LLVMContext C;
    auto M = parse(C, Text);
    ASSERT_TRUE(M);
    Function &F = *M->getFunction("__weft_wg_k");
    specializeLocalSize(F, {256, 1, 1});
    EXPECT_FALSE(held(F));
  }
}

/// Lane Lane of V, followed through shufflevectors: the value it comes from
/// (the first that is not a shuffle) and its lane there.
static std::pair<Value *, unsigned> laneSource(Value *V, unsigned Lane) {
  while (auto *Shuffle = dyn_cast<ShuffleVectorInst>(V)) {
    const int M = Shuffle->getMaskValue(Lane);
    const unsigned Width =
        cast<FixedVectorType>(Shuffle->getOperand(0)->getType())->getNumElements();
    EXPECT_GE(M, 0) << "an undefined lane in " << Shuffle->getName().str();
    V = Shuffle->getOperand(unsigned(M) < Width ? 0 : 1);
    Lane = unsigned(M) < Width ? M : M - Width;
  }
  return {V, Lane};
}

// Component c of work-item (lane) w of a vector type of F components is
// element w * F + c of memory. The gathers of all F components (from a
// vector of pointers to each lane's vector, the vectorizer's induction
// plus a splat) and the interleaved groups the vectorizer makes of a wide
// load or store become F loads or stores of whole registers and a
// transposition: each component's lane w must be element w * F + c of the
// registers loaded, each stored register's lane l element l of the
// components interleaved. A group missing a component (a float3 read
// through a float4's stride) and one with a store between its gathers stay.
TEST(PassTest, ComponentsGatheredWholeAreLoadedAndTransposed) {
  LLVMContext C;
  auto M = parse(C, R"(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
declare <4 x float> @llvm.masked.gather.v4f32.v4p0(<4 x ptr>, i32, <4 x i1>, <4 x float>)
declare void @llvm.masked.scatter.v4f32.v4p0(<4 x float>, <4 x ptr>, i32, <4 x i1>)
declare void @sink4(<4 x float>, <4 x float>, <4 x float>, <4 x float>)
declare void @sink3(<4 x float>, <4 x float>, <4 x float>)
define void @f(ptr %in, ptr %in3, ptr %out, ptr %other, i64 %s, <4 x float> %v0, <4 x float> %v1,
               <4 x float> %v2, <4 x float> %v3, <4 x float> %v4, <4 x float> %v5,
               <4 x float> %v6, <4 x float> %v7) {
entry:
  %ins = insertelement <4 x i64> poison, i64 %s, i64 0
  %splat = shufflevector <4 x i64> %ins, <4 x i64> poison, <4 x i32> zeroinitializer
  br label %loop
loop:
  %ind = phi <4 x i64> [ <i64 0, i64 1, i64 2, i64 3>, %entry ], [ %ind.next, %loop ]
  %idx = add <4 x i64> %splat, %ind
  %root = getelementptr inbounds <4 x float>, ptr %in, <4 x i64> %idx
  %p1 = getelementptr float, <4 x ptr> %root, i64 1
  %p2 = getelementptr float, <4 x ptr> %root, i64 2
  %p3 = getelementptr float, <4 x ptr> %root, i64 3
  %c2 = call <4 x float> @llvm.masked.gather.v4f32.v4p0(<4 x ptr> %p2, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x float> poison)
  %c0 = call <4 x float> @llvm.masked.gather.v4f32.v4p0(<4 x ptr> %root, i32 16, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x float> poison)
  %c3 = call <4 x float> @llvm.masked.gather.v4f32.v4p0(<4 x ptr> %p3, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x float> poison)
  %c1 = call <4 x float> @llvm.masked.gather.v4f32.v4p0(<4 x ptr> %p1, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x float> poison)
  call void @sink4(<4 x float> %c0, <4 x float> %c1, <4 x float> %c2, <4 x float> %c3)
  %root3 = getelementptr inbounds <4 x float>, ptr %in3, <4 x i64> %idx
  %q1 = getelementptr float, <4 x ptr> %root3, i64 1
  %q2 = getelementptr float, <4 x ptr> %root3, i64 2
  %d0 = call <4 x float> @llvm.masked.gather.v4f32.v4p0(<4 x ptr> %root3, i32 16, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x float> poison)
  %d1 = call <4 x float> @llvm.masked.gather.v4f32.v4p0(<4 x ptr> %q1, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x float> poison)
  %d2 = call <4 x float> @llvm.masked.gather.v4f32.v4p0(<4 x ptr> %q2, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x float> poison)
  call void @sink3(<4 x float> %d0, <4 x float> %d1, <4 x float> %d2)
  %oroot = getelementptr inbounds <2 x float>, ptr %other, <4 x i64> %idx
  %o1 = getelementptr float, <4 x ptr> %oroot, i64 1
  %e0 = call <4 x float> @llvm.masked.gather.v4f32.v4p0(<4 x ptr> %oroot, i32 8, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x float> poison)
  store float 0.0, ptr %other
  %e1 = call <4 x float> @llvm.masked.gather.v4f32.v4p0(<4 x ptr> %o1, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x float> poison)
  call void @sink3(<4 x float> %e0, <4 x float> %e1, <4 x float> %e1)
  %wroot = getelementptr inbounds [8 x float], ptr %out, <4 x i64> %idx, i64 0
  %w1 = getelementptr float, <4 x ptr> %wroot, i64 1
  %w2 = getelementptr float, <4 x ptr> %wroot, i64 2
  %w3 = getelementptr float, <4 x ptr> %wroot, i64 3
  %w4 = getelementptr float, <4 x ptr> %wroot, i64 4
  %w5 = getelementptr float, <4 x ptr> %wroot, i64 5
  %w6 = getelementptr float, <4 x ptr> %wroot, i64 6
  %w7 = getelementptr float, <4 x ptr> %wroot, i64 7
  call void @llvm.masked.scatter.v4f32.v4p0(<4 x float> %v0, <4 x ptr> %wroot, i32 32, <4 x i1> <i1 true, i1 true, i1 true, i1 true>)
  call void @llvm.masked.scatter.v4f32.v4p0(<4 x float> %v5, <4 x ptr> %w5, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>)
  call void @llvm.masked.scatter.v4f32.v4p0(<4 x float> %v1, <4 x ptr> %w1, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>)
  call void @llvm.masked.scatter.v4f32.v4p0(<4 x float> %v2, <4 x ptr> %w2, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>)
  call void @llvm.masked.scatter.v4f32.v4p0(<4 x float> %v3, <4 x ptr> %w3, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>)
  call void @llvm.masked.scatter.v4f32.v4p0(<4 x float> %v4, <4 x ptr> %w4, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>)
  call void @llvm.masked.scatter.v4f32.v4p0(<4 x float> %v6, <4 x ptr> %w6, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>)
  call void @llvm.masked.scatter.v4f32.v4p0(<4 x float> %v7, <4 x ptr> %w7, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>)
  %ind.next = add <4 x i64> %ind, <i64 4, i64 4, i64 4, i64 4>
  %first = extractelement <4 x i64> %ind.next, i64 0
  %more = icmp ult i64 %first, 1024
  br i1 %more, label %loop, label %exit
exit:
  ret void
}
define void @g(ptr %in, ptr %out, <8 x float> %u0, <8 x float> %u1) {
  %wide = load <16 x float>, ptr %in, align 4
  %s0 = shufflevector <16 x float> %wide, <16 x float> poison, <4 x i32> <i32 0, i32 4, i32 8, i32 12>
  %s1 = shufflevector <16 x float> %wide, <16 x float> poison, <4 x i32> <i32 1, i32 5, i32 9, i32 13>
  %s2 = shufflevector <16 x float> %wide, <16 x float> poison, <4 x i32> <i32 2, i32 6, i32 10, i32 14>
  %s3 = shufflevector <16 x float> %wide, <16 x float> poison, <4 x i32> <i32 3, i32 7, i32 11, i32 15>
  call void @sink4(<4 x float> %s0, <4 x float> %s1, <4 x float> %s2, <4 x float> %s3)
  %cat = shufflevector <8 x float> %u0, <8 x float> %u1, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>
  %inter = shufflevector <16 x float> %cat, <16 x float> poison, <16 x i32> <i32 0, i32 8, i32 1, i32 9, i32 2, i32 10, i32 3, i32 11, i32 4, i32 12, i32 5, i32 13, i32 6, i32 14, i32 7, i32 15>
  store <16 x float> %inter, ptr %out, align 64
  ret void
}
)");
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("f");
  Function &G = *M->getFunction("g");
  runOnFunction(ComponentTransposePass(), F);
  runOnFunction(ComponentTransposePass(), G);
  auto calls = [](Function &Fn, Intrinsic::ID Id) {
    return numMatching(Fn, [&](Instruction &I) {
      auto *Call = dyn_cast<IntrinsicInst>(&I);
      return Call && Call->getIntrinsicID() == Id;
    });
  };
  // The float3 group (3 gathers) and the group with a store inside (2) stay.
  EXPECT_EQ(calls(F, Intrinsic::masked_gather), 5u);
  EXPECT_EQ(calls(F, Intrinsic::masked_scatter), 0u);

  // The registers loaded (or stored), by their offset in floats from the
  // group's base: lane 0 of the root (or the wide access's pointer).
  auto registerIndex = [](Value *Ptr, unsigned VF) -> int {
    int64_t Floats = 0;
    if (auto *GEP = dyn_cast<GetElementPtrInst>(Ptr)) {
      Floats = cast<ConstantInt>(GEP->getOperand(1))->getSExtValue();
      Ptr = GEP->getPointerOperand();
    }
    (void)Ptr;
    return Floats % VF == 0 ? static_cast<int>(Floats / VF) : -1;
  };
  // Gathers: sink4's operand c, lane w, is element w * 4 + c of the loads.
  for (Function *Fn : {&F, &G}) {
    CallInst *Sink = nullptr;
    for (Instruction &I : instructions(*Fn))
      if (auto *Call = dyn_cast<CallInst>(&I);
          Call && Call->getCalledFunction()->getName() == "sink4")
        Sink = Call;
    ASSERT_NE(Sink, nullptr);
    for (unsigned Comp = 0; Comp < 4; ++Comp)
      for (unsigned W = 0; W < 4; ++W) {
        auto [Src, Lane] = laneSource(Sink->getArgOperand(Comp), W);
        auto *Load = dyn_cast<LoadInst>(Src);
        ASSERT_NE(Load, nullptr) << Fn->getName().str() << ": component " << Comp;
        const unsigned Element = registerIndex(Load->getPointerOperand(), 4) * 4 + Lane;
        EXPECT_EQ(Element, W * 4 + Comp)
            << Fn->getName().str() << ": component " << Comp << ", lane " << W;
      }
  }
  // Scatters: F = 8 components of 4 lanes (%v0..%v7), 8 registers; g's
  // wide store: F = 2 of 8 lanes (%u0, %u1), 2 registers.
  for (auto [Fn, Components, VF] : {std::tuple{&F, 8u, 4u}, std::tuple{&G, 2u, 8u}}) {
    std::set<int> Registers;
    for (Instruction &I : instructions(*Fn)) {
      auto *Store = dyn_cast<StoreInst>(&I);
      if (!Store || !Store->getValueOperand()->getType()->isVectorTy())
        continue;
      ASSERT_EQ(cast<FixedVectorType>(Store->getValueOperand()->getType())->getNumElements(), VF)
          << Fn->getName().str();
      const int R = registerIndex(Store->getPointerOperand(), VF);
      Registers.insert(R);
      for (unsigned L = 0; L < VF; ++L) {
        auto [Src, Lane] = laneSource(Store->getValueOperand(), L);
        const unsigned Element = R * VF + L;
        auto *Arg = dyn_cast<Argument>(Src);
        ASSERT_NE(Arg, nullptr) << Fn->getName().str();
        const unsigned FirstComponent = Fn == &F ? 5 : 2; // %v0 / %u0
        EXPECT_EQ(Arg->getArgNo() - FirstComponent, Element % Components)
            << Fn->getName().str() << ": register " << R << ", lane " << L;
        EXPECT_EQ(Lane, Element / Components)
            << Fn->getName().str() << ": register " << R << ", lane " << L;
      }
    }
    EXPECT_EQ(Registers.size(), Components) << Fn->getName().str();
    EXPECT_FALSE(Registers.count(-1)) << Fn->getName().str();
  }
  EXPECT_EQ(numMatching(G,
                        [](Instruction &I) {
                          return isa<LoadInst>(I) &&
                                 cast<LoadInst>(I).getType()->getPrimitiveSizeInBits() > 128;
                        }),
            0u);
}

// A loop the vectorizer interleaved by two scatters two groups, their
// scatters alternating: splat(%s) + V and splat(%s + 4) + V, 4 float2s (32
// bytes) apart, are both transposed; at splat(%s + 1) + V they overlap, and
// neither moves.
TEST(PassTest, InterleavedScatterGroupsAreTransposedWhenApart) {
  for (auto [Distance, Scatters] : {std::pair{4, 0u}, std::pair{1, 4u}}) {
    std::string Text = R"(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
declare void @llvm.masked.scatter.v4f32.v4p0(<4 x float>, <4 x ptr>, i32, <4 x i1>)
define void @f(ptr %out, i64 %s, <4 x float> %a0, <4 x float> %a1, <4 x float> %b0, <4 x float> %b1) {
entry:
  %s2 = add i64 %s, DISTANCE
  %i1 = insertelement <4 x i64> poison, i64 %s, i64 0
  %sa = shufflevector <4 x i64> %i1, <4 x i64> poison, <4 x i32> zeroinitializer
  %i2 = insertelement <4 x i64> poison, i64 %s2, i64 0
  %sb = shufflevector <4 x i64> %i2, <4 x i64> poison, <4 x i32> zeroinitializer
  %ia = add <4 x i64> %sa, <i64 0, i64 1, i64 2, i64 3>
  %ib = add <4 x i64> %sb, <i64 0, i64 1, i64 2, i64 3>
  %ra = getelementptr inbounds <2 x float>, ptr %out, <4 x i64> %ia
  %rb = getelementptr inbounds <2 x float>, ptr %out, <4 x i64> %ib
  call void @llvm.masked.scatter.v4f32.v4p0(<4 x float> %a0, <4 x ptr> %ra, i32 8, <4 x i1> <i1 true, i1 true, i1 true, i1 true>)
  call void @llvm.masked.scatter.v4f32.v4p0(<4 x float> %b0, <4 x ptr> %rb, i32 8, <4 x i1> <i1 true, i1 true, i1 true, i1 true>)
  %pa = getelementptr float, <4 x ptr> %ra, i64 1
  %pb = getelementptr float, <4 x ptr> %rb, i64 1
  call void @llvm.masked.scatter.v4f32.v4p0(<4 x float> %a1, <4 x ptr> %pa, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>)
  call void @llvm.masked.scatter.v4f32.v4p0(<4 x float> %b1, <4 x ptr> %pb, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>)
  ret void
}
)";
    Text.replace(Text.find("DISTANCE"), 8, std::to_string(Distance));
    LLVMContext C;
    auto M = parse(C, Text.c_str());
    ASSERT_TRUE(M) << Distance;
    Function &F = *M->getFunction("f");
    runOnFunction(ComponentTransposePass(), F);
    EXPECT_EQ(numMatching(F,
                          [](Instruction &I) {
                            auto *Call = dyn_cast<IntrinsicInst>(&I);
                            return Call && Call->getIntrinsicID() == Intrinsic::masked_scatter;
                          }),
              Scatters)
        << "groups " << Distance << " float2s apart";
    EXPECT_EQ(numMatching(F, [](Instruction &I) { return isa<StoreInst>(I); }), Scatters ? 0u : 4u)
        << "groups " << Distance << " float2s apart";
  }
}

} // namespace weft::compiler::test
