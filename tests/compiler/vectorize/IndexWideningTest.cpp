// IndexWideningPass and the bounds a launch of small ids puts on the
// context's loads (boundGlobalIds): IR in, IR out; and a kernel of `int`
// indices compiled for small ids, for large ones and generic, which must
// compute the same.
#include "KernelRunner.h"
#include "compiler/specialize/LocalSizeSpecialization.h"
#include "compiler/vectorize/IndexWideningPass.h"
#include "compiler/workgroup/WorkGroupContextLayout.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <gtest/gtest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>

#include <string>

using namespace llvm;

namespace weft::compiler::test {

namespace {

std::unique_ptr<Module> parse(LLVMContext &C, const std::string &Text) {
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(Text, Err, C);
  if (!M)
    ADD_FAILURE() << Err.getMessage().str() << " at line " << Err.getLineNo();
  return M;
}

std::string printed(const Function &F) {
  std::string Out;
  raw_string_ostream OS(Out);
  F.print(OS);
  return OS.str();
}

void widen(Function &F) {
  FunctionAnalysisManager FAM;
  PassBuilder PB;
  PB.registerFunctionAnalyses(FAM);
  IndexWideningPass().run(F, FAM);
  EXPECT_FALSE(verifyFunction(F, &errs())) << F.getName().str();
}

unsigned extensionsOf32Bits(Function &F) {
  unsigned N = 0;
  for (Instruction &I : instructions(F))
    if (auto *S = dyn_cast<SExtInst>(&I))
      N += S->getSrcTy()->isIntegerTy(32) && S->getDestTy()->isIntegerTy(64);
  return N;
}

/// A work-item loop (x over the group's width %ls, at most 4096) that
/// loads in[Index] and stores it to out[x]; Setup computes values the
/// index uses before the loop, Index the 32-bit index from %x in the loop.
std::string loopWith(const std::string &Name, const std::string &Setup, const std::string &Index,
                     bool Marked = true) {
  return "define void @" + Name +
         "(ptr %in, ptr %out, ptr %lsp, ptr %gp, i32 %p, i32 %t) {\n"
         "entry:\n  %ls = load i64, ptr %lsp, !range !2\n" +
         Setup +
         "  br label %x.loop\n"
         "x.loop:\n  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]\n" +
         Index +
         "  %i64 = sext i32 %i to i64\n"
         "  %a = getelementptr inbounds float, ptr %in, i64 %i64\n"
         "  %v = load float, ptr %a\n"
         "  %o = getelementptr inbounds float, ptr %out, i64 %x\n"
         "  store float %v, ptr %o\n"
         "  %x.next = add nuw nsw i64 %x, 1\n"
         "  %more = icmp ult i64 %x.next, %ls\n"
         "  br i1 %more, label %x.loop, label %exit" +
         (Marked ? ", !llvm.loop !0" : "") + "\nexit:\n  ret void\n}\n";
}

} // namespace

// local (the tile load of a tiled SGEMM: p * t + lx, lx a local id):
//   Before: %lx = trunc i64 %x to i32            After: %p.w = sext i32 %p to i64
//           %b = mul nsw i32 %p, %t                     %t.w = sext i32 %t to i64
//           %i = add nsw i32 %b, %lx                    %b.w = mul nsw i64 %p.w, %t.w
//           %i64 = sext i32 %i to i64                   %i.w = add nsw i64 %b.w, %x
//                                                       (%a indexes by %i.w)
//   (the multiply is in the loop, so it is widened too; LICM hoists it)
// global (lx + a global id in `int` with nothing to bound it): as it was;
// bounded (the same, the id's start with !range below 2^30): widened, the
// 64-bit id itself in the sum; wrapping (no nsw), unmarked (not a
// work-item loop): as they were.
TEST(IndexWideningTest, IntIndicesFromWorkItemIdsAreComputedIn64Bits) {
  LLVMContext C;
  const std::string Local = "  %lx = trunc i64 %x to i32\n  %b = mul nsw i32 %p, %t\n"
                            "  %i = add nsw i32 %b, %lx\n";
  const std::string Global = "  %g = add nuw nsw i64 %start, %x\n  %col = trunc i64 %g to i32\n"
                             "  %i = add nsw i32 %p, %col\n";
  auto M = parse(
      C, loopWith("local", "", Local) +
             loopWith("global", "  %start = load i64, ptr %gp\n", Global) +
             loopWith("bounded", "  %start = load i64, ptr %gp, !range !3\n", Global) +
             loopWith("wrapping", "", "  %lx = trunc i64 %x to i32\n  %i = add i32 %p, %lx\n") +
             loopWith("unmarked", "", Local, false) + "!0 = distinct !{!0, !1}\n!1 = !{!\"" +
             wi::WorkItemLoopMD + "\"}\n!2 = !{i64 1, i64 4097}\n!3 = !{i64 0, i64 1073741824}\n");
  ASSERT_TRUE(M);

  Function &L = *M->getFunction("local");
  widen(L);
  EXPECT_EQ(extensionsOf32Bits(L), 2u) << printed(L); // %p's and %t's
  EXPECT_NE(printed(L).find("%b.w = mul nsw i64 %p.w, %t.w\n  %i.w = add nsw i64 %b.w, %x\n"),
            std::string::npos)
      << printed(L);
  EXPECT_NE(printed(L).find("getelementptr inbounds float, ptr %in, i64 %i.w"), std::string::npos)
      << printed(L);

  Function &G = *M->getFunction("global");
  const std::string GlobalBefore = printed(G);
  widen(G);
  EXPECT_EQ(printed(G), GlobalBefore);

  Function &B = *M->getFunction("bounded");
  widen(B);
  EXPECT_NE(printed(B).find("%i.w = add nsw i64 %p.w, %g\n"), std::string::npos) << printed(B);

  for (const char *Name : {"wrapping", "unmarked"}) {
    Function &F = *M->getFunction(Name);
    const std::string Before = printed(F);
    widen(F);
    EXPECT_EQ(printed(F), Before) << Name;
  }
}

// A work-group function's context loads, each field at dimension 0 and 1,
// before and after boundGlobalIds for groups of 16 x 4 and a limit of
// 2^30: GroupId [0, 2^30 / LS), NumGroups [1, 2^30 / LS + 1), GlobalSize
// [1, 2^30 + 1), GlobalOffset [0, 2^30); the local size is not touched.
TEST(IndexWideningTest, SmallIdLaunchesBoundTheContextsIdFields) {
  LLVMContext C;
  std::string Text = "define void @__weft_wg_k(ptr %args, ptr %ctx, ptr %out) {\nentry:\n";
  const std::pair<const char *, uint64_t> Fields[] = {{"group", ctx::GroupId},
                                                      {"groups", ctx::NumGroups},
                                                      {"size", ctx::GlobalSize},
                                                      {"offset", ctx::GlobalOffset},
                                                      {"local", ctx::LocalSize}};
  int Slot = 0;
  for (const auto &[Name, Field] : Fields)
    for (int D = 0; D < 2; ++D) {
      const std::string V = std::string("%") + Name + std::to_string(D);
      Text += "  " + V + ".p = getelementptr inbounds i8, ptr %ctx, i64 " +
              std::to_string(Field + 8 * D) + "\n  " + V + " = load i64, ptr " + V + ".p\n  %o" +
              std::to_string(Slot) + " = getelementptr i64, ptr %out, i64 " + std::to_string(Slot) +
              "\n  store i64 " + V + ", ptr %o" + std::to_string(Slot) + "\n";
      ++Slot;
    }
  Text += "  ret void\n}\n";
  auto M = parse(C, Text);
  ASSERT_TRUE(M);
  Function &WG = *M->getFunction("__weft_wg_k");
  EXPECT_EQ(boundGlobalIds(WG, {16, 4, 1}, uint64_t(1) << 30), 8u);
  auto rangeOf = [&](const std::string &Name) -> std::pair<uint64_t, uint64_t> {
    for (Instruction &I : instructions(WG))
      if (I.getName() == Name) {
        const MDNode *R = I.getMetadata(LLVMContext::MD_range);
        if (!R)
          return {0, 0};
        return {mdconst::extract<ConstantInt>(R->getOperand(0))->getZExtValue(),
                mdconst::extract<ConstantInt>(R->getOperand(1))->getZExtValue()};
      }
    ADD_FAILURE() << "no " << Name;
    return {0, 0};
  };
  const uint64_t Limit = uint64_t(1) << 30;
  using Range = std::pair<uint64_t, uint64_t>;
  EXPECT_EQ(rangeOf("group0"), Range(0, Limit / 16));
  EXPECT_EQ(rangeOf("group1"), Range(0, Limit / 4));
  EXPECT_EQ(rangeOf("groups0"), Range(1, Limit / 16 + 1));
  EXPECT_EQ(rangeOf("groups1"), Range(1, Limit / 4 + 1));
  EXPECT_EQ(rangeOf("size0"), Range(1, Limit + 1));
  EXPECT_EQ(rangeOf("offset1"), Range(0, Limit));
  EXPECT_EQ(rangeOf("local0"), Range(0, 0));
  EXPECT_FALSE(verifyFunction(WG, &errs()));
}

// A 2-D kernel of `int` ids and indices (a transpose through a tile),
// compiled for its local size with small ids, and run at a global offset
// that rules them out: a separate specialization, the same results.
TEST(IndexWideningTest, KernelsOfIntIdsComputeTheSameForSmallAndLargeIds) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void transpose(global const float *in, global float *out, int n, int base) {
      local float tile[16][17];
      int lx = get_local_id(0), ly = get_local_id(1);
      int gx = get_global_id(0) - base, gy = get_global_id(1) - base;
      tile[ly][lx] = in[gy * n + gx];
      barrier(CLK_LOCAL_MEM_FENCE);
      int ox = gy - ly + lx, oy = gx - lx + ly;
      out[oy * n + ox] = tile[lx][ly] * 2.0f;
    })"));
  const int N = 48;
  for (size_t Base : {size_t(0), size_t(3) << 29}) {
    Buffer<float> In(N * N), Out(N * N, -1.0f);
    for (int I = 0; I < N * N; ++I)
      In[I] = float(I);
    NDRange R;
    R.Dims = 2;
    R.Global = {size_t(N), size_t(N), 1};
    R.Local = {16, 16, 1};
    R.Offset = {Base, Base, 0};
    const int BaseArg = int(Base);
    ASSERT_TRUE(P.runSpecialized(
        "transpose", R,
        {Arg::pointer(In.data()), Arg::pointer(Out.data()), Arg::value(N), Arg::value(BaseArg)}));
    for (int Y = 0; Y < N; ++Y)
      for (int X = 0; X < N; ++X)
        ASSERT_EQ(Out[Y * N + X], 2.0f * In[X * N + Y])
            << "base " << Base << " at " << X << ", " << Y;
  }
}

} // namespace weft::compiler::test
