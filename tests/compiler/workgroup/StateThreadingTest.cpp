// StateThreadingPass: IR in, IR out on a state loop of two regions (the
// second a loop of barriers, k = 8, 4, 2, 1), and on the same function
// without barriers; and the textbook tree reduction compiled through the
// whole pipeline for its group size, whose work-group function is
// straight-line code, and whose sums are exact, generic and specialized.
#include "KernelRunner.h"
#include "TreeReduction.h"
#include "compiler/workgroup/StateThreadingPass.h"

#include <gtest/gtest.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Target/TargetMachine.h>

#include <cstdint>
#include <regex>
#include <string>

using namespace llvm;

namespace weft::compiler::test {

namespace {

// A work-group function as WorkGroupLoopPass and O3 leave it: a state loop
// whose region 0 fills s[0..16) and whose region 1, a loop of barriers of
// four trips, adds s[x + k] to s[x] for x < k = 8 >> i. (A tree's own
// `k >>= 1` trip count ScalarEvolution finds in the pipeline, not in this
// hand-written form: the test below has it.) NAME and ATTRS are replaced.
const char *const StateLoop = R"(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
define void @NAME(ptr %s) ATTRS {
entry:
  br label %state.loop
state.loop:
  %state = phi i32 [ 0, %entry ], [ %next, %latch ]
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %k = lshr i64 8, %i
  switch i32 %state, label %done [ i32 0, label %r0
                                   i32 1, label %r1 ]
r0:
  br label %x0
x0:
  %x = phi i64 [ 0, %r0 ], [ %x.n, %x0 ]
  %p = getelementptr inbounds i32, ptr %s, i64 %x
  %v = trunc i64 %x to i32
  store i32 %v, ptr %p, align 4
  %x.n = add nuw nsw i64 %x, 1
  %c = icmp ult i64 %x.n, 16
  br i1 %c, label %x0, label %r0.end, !llvm.loop !0
r0.end:
  br label %latch
r1:
  br label %x1
x1:
  %y = phi i64 [ 0, %r1 ], [ %y.n, %x1 ]
  %yk = add nuw nsw i64 %y, %k
  %q = getelementptr inbounds i32, ptr %s, i64 %yk
  %a = load i32, ptr %q, align 4
  %r = getelementptr inbounds i32, ptr %s, i64 %y
  %b = load i32, ptr %r, align 4
  %sum = add i32 %a, %b
  store i32 %sum, ptr %r, align 4
  %y.n = add nuw nsw i64 %y, 1
  %d = icmp ult i64 %y.n, %k
  br i1 %d, label %x1, label %r1.end, !llvm.loop !2
r1.end:
  %i.n = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.n, 4
  %st = select i1 %more, i32 1, i32 -1
  br label %latch
latch:
  %next = phi i32 [ 1, %r0.end ], [ %st, %r1.end ]
  %i.next = phi i64 [ %i, %r0.end ], [ %i.n, %r1.end ]
  %stop = icmp eq i32 %next, -1
  br i1 %stop, label %done, label %state.loop
done:
  ret void
}
!0 = distinct !{!0, !1}
!1 = !{!"weft.work-item-loop"}
!2 = distinct !{!2, !1}
)";

std::unique_ptr<Module> parse(LLVMContext &C, const std::string &Name, const std::string &Attrs) {
  std::string Text = StateLoop;
  Text.replace(Text.find("NAME"), 4, Name);
  Text.replace(Text.find("ATTRS"), 5, Attrs);
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(Text, Err, C);
  EXPECT_TRUE(M) << Err.getMessage().str();
  return M;
}

struct Shape {
  unsigned Switches = 0, Loops = 0, Stores = 0;
};

Shape run(Module &M) {
  PassAnalyses A;
  ModulePassManager MPM;
  MPM.addPass(createModuleToFunctionPassAdaptor(StateThreadingPass()));
  MPM.run(M, A.MAM);
  EXPECT_FALSE(verifyModule(M, &errs()));
  Shape S;
  Function &F = *M.begin();
  for (Instruction &I : instructions(F)) {
    S.Switches += isa<SwitchInst>(I);
    S.Stores += isa<StoreInst>(I);
  }
  S.Loops = static_cast<unsigned>(A.FAM.getResult<LoopAnalysis>(F).getLoopsInPreorder().size());
  return S;
}

} // namespace

// With barriers, the switch goes, the loop of barriers becomes four copies
// (k = 8, 4, 2, 1) and each copy's x loop (8, 4, 2 and 1 trips) and the
// first region's (16) are unrolled whole: 16 + 8 + 4 + 2 + 1 stores in
// straight-line code. Without barriers, or outside a work-group function,
// nothing changes.
TEST(StateThreadingTest, LoopsOfBarriersOfKnownTripCountsBecomeStraightLineRegions) {
  LLVMContext C;
  std::unique_ptr<Module> With = parse(C, "__weft_wg_k", "\"weft-barriers\"=\"2\"");
  ASSERT_TRUE(With);
  const Shape Threaded = run(*With);
  EXPECT_EQ(Threaded.Switches, 0u);
  EXPECT_EQ(Threaded.Loops, 0u);
  EXPECT_EQ(Threaded.Stores, 16u + 8u + 4u + 2u + 1u);

  for (auto [Name, Attrs] :
       {std::pair<const char *, const char *>{"__weft_wg_k", "\"weft-barriers\"=\"0\""},
        {"helper", "\"weft-barriers\"=\"2\""}}) {
    SCOPED_TRACE(std::string(Name) + " " + Attrs);
    std::unique_ptr<Module> Without = parse(C, Name, Attrs);
    ASSERT_TRUE(Without);
    const Shape Left = run(*Without);
    EXPECT_EQ(Left.Switches, 1u);
    EXPECT_EQ(Left.Loops, 3u);
    EXPECT_EQ(Left.Stores, 2u);
  }
}

// Compiled for groups of 256, the tree is one straight run: no switch, no
// loop left (no phi), the last steps in vectors of 8 and 4. Sums are exact
// for group sizes around the vector widths, generic and specialized.
TEST(StateThreadingTest, TreeReductionsCompiledForTheirGroupSizeRunStraight) {
  Program P;
  ASSERT_TRUE(P.build(TreeReduction)) << P.log();
  {
    constexpr size_t Group = 256, Groups = 4;
    Buffer<uint32_t> In(Group * Groups, 1), Partial(Groups, 0);
    const std::string Printed = compilesPrinted(
        [&] {
          ASSERT_TRUE(P.runSpecialized("tree", range1(Group * Groups, Group),
                                       {Arg::pointer(In.data()), Arg::pointer(Partial.data()),
                                        Arg::local(Group * sizeof(uint32_t))}));
        },
        "1");
    const size_t At = Printed.find(".specialized");
    ASSERT_NE(At, std::string::npos);
    const std::string Fn = Printed.substr(At, Printed.find("\n}\n", At) - At);
    EXPECT_EQ(Fn.find(" switch "), std::string::npos) << Fn;
    EXPECT_EQ(Fn.find(" phi "), std::string::npos) << Fn;
    // The step of 8 lanes is one AVX2 register; SSE4.2's hold 4.
    std::unique_ptr<llvm::TargetMachine> TM = hostTargetMachine();
    ASSERT_TRUE(TM);
    if (TM->getMCSubtargetInfo()->checkFeatures("+avx2")) {
      EXPECT_TRUE(std::regex_search(Fn, std::regex("add <8 x i32>"))) << Fn;
    }
    EXPECT_TRUE(std::regex_search(Fn, std::regex("add <4 x i32>"))) << Fn;
  }
  for (size_t Group : {1, 2, 7, 16, 33, 64, 256}) {
    const size_t Groups = 5;
    Buffer<uint32_t> In(Group * Groups), Partial(Groups, 0);
    for (size_t I = 0; I < In.size(); ++I)
      In[I] = static_cast<uint32_t>(I * 2654435761u + 12345u);
    for (bool Specialized : {false, true}) {
      SCOPED_TRACE(testing::Message() << "group " << Group << (Specialized ? " specialized" : ""));
      std::fill(Partial.begin(), Partial.end(), 0u);
      const std::vector<Arg> Args = {Arg::pointer(In.data()), Arg::pointer(Partial.data()),
                                     Arg::local(Group * sizeof(uint32_t))};
      ASSERT_TRUE(Specialized ? P.runSpecialized("tree", range1(Group * Groups, Group), Args)
                              : P.run("tree", range1(Group * Groups, Group), Args));
      // The tree adds S[L + K] for K = size / 2, ...: a power of two sums
      // its whole group, another size the elements the halving reaches.
      for (size_t G = 0; G < Groups; ++G) {
        std::vector<uint32_t> S(In.begin() + G * Group, In.begin() + (G + 1) * Group);
        for (size_t K = Group / 2; K > 0; K >>= 1)
          for (size_t L = 0; L < K; ++L)
            S[L] += S[L + K];
        EXPECT_EQ(Partial[G], S[0]) << "group " << G;
      }
    }
  }
}

} // namespace weft::compiler::test
