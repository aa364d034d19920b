// GroupPrefetchPass: IR in, IR out on work-group functions with and
// without barriers; and the textbook tree reduction compiled through the
// whole pipeline, whose work-group function for its group size fetches
// its input ahead and whose sums are exact.
#include "KernelRunner.h"
#include "TreeReduction.h"
#include "compiler/vectorize/GroupPrefetchPass.h"
#include "compiler/workgroup/WorkGroupContextLayout.h"

#include <gtest/gtest.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/SourceMgr.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

using namespace llvm;

namespace weft::compiler::test {

namespace {

// The same body in a work-group function with barriers, in one without,
// and in a function that is no work-group function. Its group's data is at
// %g, which moves with both group ids (x and y) the function loads: a
// 64-byte and a 32-byte vector load from there, a 16-byte one, a scalar
// one, a masked one, and copies of 128 bytes, 8 KiB and a length known
// only at run time; and a vector load from __local memory, one from a
// strip that moves with the x group id only (a matrix product's columns,
// which the groups along y read again), and one from a fixed address.
const char *const Header = R"(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
declare void @llvm.memcpy.p3.p1.i64(ptr addrspace(3), ptr addrspace(1), i64, i1)
declare <16 x i32> @llvm.masked.load.v16i32.p1(ptr addrspace(1), i32, <16 x i1>, <16 x i32>)
)";
const char *const Body = R"(
define <16 x i32> @BODY(ptr %args, ptr %ctx, ptr addrspace(1) %base, ptr addrspace(3) %l, i64 %n, <16 x i1> %m) BARRIERS {
  %gx.addr = getelementptr inbounds i8, ptr %ctx, i64 GX
  %gx = load i64, ptr %gx.addr, align 8
  %gy.addr = getelementptr inbounds i8, ptr %ctx, i64 GY
  %gy = load i64, ptr %gy.addr, align 8
  %row = mul i64 %gy, 4096
  %col = mul i64 %gx, 16
  %at = add i64 %row, %col
  %g = getelementptr inbounds i32, ptr addrspace(1) %base, i64 %at
  %strip = getelementptr inbounds i32, ptr addrspace(1) %base, i64 %col
  %wide = load <16 x i32>, ptr addrspace(1) %g, align 4
  %g.half = getelementptr inbounds i8, ptr addrspace(1) %g, i64 64
  %half = load <8 x i32>, ptr addrspace(1) %g.half, align 4
  %quarter = load <4 x i32>, ptr addrspace(1) %g, align 4
  %one = load i32, ptr addrspace(1) %g, align 4
  %local = load <16 x i32>, ptr addrspace(3) %l, align 4
  %column = load <16 x i32>, ptr addrspace(1) %strip, align 4
  %fixed = load <16 x i32>, ptr addrspace(1) %base, align 4
  %masked = call <16 x i32> @llvm.masked.load.v16i32.p1(ptr addrspace(1) %g, i32 4, <16 x i1> %m, <16 x i32> poison)
  call void @llvm.memcpy.p3.p1.i64(ptr addrspace(3) %l, ptr addrspace(1) %g, i64 128, i1 false)
  call void @llvm.memcpy.p3.p1.i64(ptr addrspace(3) %l, ptr addrspace(1) %g, i64 8192, i1 false)
  call void @llvm.memcpy.p3.p1.i64(ptr addrspace(3) %l, ptr addrspace(1) %g, i64 %n, i1 false)
  %a = add <16 x i32> %wide, %local
  %b = add <16 x i32> %a, %masked
  %c = add <16 x i32> %b, %column
  %d = add <16 x i32> %c, %fixed
  ret <16 x i32> %d
}
)";

std::string withBody(const std::string &Name, const std::string &Attrs) {
  std::string Text = Body;
  auto Replace = [&](const std::string &What, const std::string &With) {
    Text.replace(Text.find(What), What.size(), With);
  };
  Replace("BODY", Name);
  Replace("BARRIERS", Attrs);
  Replace("GX", std::to_string(ctx::GroupId));
  Replace("GY", std::to_string(ctx::GroupId + 8));
  return Text;
}

/// The prefetches of each function of M: the byte offset from the load's
/// address (%g) of each, in order.
std::map<std::string, std::vector<int64_t>> prefetches(Module &M) {
  std::map<std::string, std::vector<int64_t>> Out;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *II = dyn_cast<IntrinsicInst>(&I);
          II && II->getIntrinsicID() == Intrinsic::prefetch) {
        int64_t Offset = 0;
        const Value *Base =
            GetPointerBaseWithConstantOffset(II->getArgOperand(0), Offset, M.getDataLayout());
        EXPECT_EQ(Base->getName(), "g") << "the group's data";
        EXPECT_EQ(cast<ConstantInt>(II->getArgOperand(1))->getZExtValue(), 0u) << "a read";
        EXPECT_EQ(cast<ConstantInt>(II->getArgOperand(2))->getZExtValue(), 2u) << "into L2";
        Out[F.getName().str()].push_back(Offset);
      }
  return Out;
}

} // namespace

TEST(GroupPrefetchTest, GlobalVectorLoadsAndCopiesOfKernelsWithBarriersFetchAhead) {
  LLVMContext C;
  SMDiagnostic Err;
  const std::string Text = Header + withBody("__weft_wg_k", "\"weft-barriers\"=\"2\"") +
                           withBody("__weft_wg_free", "\"weft-barriers\"=\"0\"") +
                           withBody("helper", "\"weft-barriers\"=\"2\"");
  std::unique_ptr<Module> M = parseAssemblyString(Text, Err, C);
  ASSERT_TRUE(M) << Err.getMessage().str();

  PassAnalyses A;
  for (Function &F : *M)
    GroupPrefetchPass().run(F, A.FAM);
  ASSERT_FALSE(verifyModule(*M, &errs()));

  constexpr int64_t D = GroupPrefetchPass::Distance;
  const std::map<std::string, std::vector<int64_t>> Got = prefetches(*M);
  // The 64- and 32-byte loads, the masked load, and the 128-byte copy's two
  // lines; not the 16-byte or scalar loads, __local memory, the strip or
  // the fixed address, a copy longer than MaxCopyBytes or one of a length
  // known only at run time.
  const std::vector<int64_t> Want = {D, D + 64, D, D, D + 64};
  ASSERT_EQ(Got.count("__weft_wg_k"), 1u);
  EXPECT_EQ(Got.at("__weft_wg_k"), Want);
  EXPECT_EQ(Got.count("__weft_wg_free"), 0u) << "a kernel without barriers";
  EXPECT_EQ(Got.count("helper"), 0u) << "not a work-group function";
}

namespace {

const std::string Reductions = std::string(TreeReduction) + R"CLC(
__kernel void copy(__global const uint *In, __global uint *Out) {
  Out[get_global_id(0)] = In[get_global_id(0)] + 1;
}
// A transpose of a strip of 16 rows of B: the groups along y read it again.
__kernel void strip(__global const float *B, __global float *C, __local float *S, uint N) {
  size_t X = get_local_id(0), Y = get_local_id(1);
  S[Y * 16 + X] = B[Y * N + get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  C[get_global_id(1) * N + get_global_id(0)] = S[X * 16 + Y];
}
)CLC";

} // namespace

// The tree reduction's work-group function for groups of 256: its input
// becomes a copy of 1 KiB into __local memory (or whole-vector loads),
// fetched ahead a line at a time; a copy kernel without barriers gets no
// prefetch, nor does a kernel reading a strip the groups along y share.
// The sums are exact, generic and specialized.
TEST(GroupPrefetchTest, TreeReductionsFetchTheirInputAhead) {
  Program P;
  ASSERT_TRUE(P.build(Reductions)) << P.log();
  constexpr size_t Group = 256, Groups = 8;
  Buffer<uint32_t> In(Group * Groups), Partial(Groups, 0), Out(Group * Groups);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = static_cast<uint32_t>(I * 2654435761u);
  const std::vector<Arg> TreeArgs = {Arg::pointer(In.data()), Arg::pointer(Partial.data()),
                                     Arg::local(Group * sizeof(uint32_t))};
  const std::string Printed = compilesPrinted(
      [&] {
        ASSERT_TRUE(P.runSpecialized("tree", range1(Group * Groups, Group), TreeArgs));
        ASSERT_TRUE(P.run("copy", range1(Group * Groups, Group),
                          {Arg::pointer(In.data()), Arg::pointer(Out.data())}));
        NDRange Square;
        Square.Dims = 2;
        Square.Global = {32, 32, 1};
        Square.Local = {16, 16, 1};
        Buffer<float> B(32 * 32, 1.0f), C(32 * 32);
        ASSERT_TRUE(P.runSpecialized("strip", Square,
                                     {Arg::pointer(B.data()), Arg::pointer(C.data()),
                                      Arg::local(16 * 16 * sizeof(float)), Arg::value(32u)}));
      },
      "1");
  const size_t Tree = Printed.find(".specialized");
  ASSERT_NE(Tree, std::string::npos);
  const std::string TreeFn = Printed.substr(Tree, Printed.find("\n}\n", Tree) - Tree);
  size_t Calls = 0;
  for (size_t At = TreeFn.find("call void @llvm.prefetch"); At != std::string::npos;
       At = TreeFn.find("call void @llvm.prefetch", At + 1))
    ++Calls;
  EXPECT_EQ(Calls, Group * sizeof(uint32_t) / GroupPrefetchPass::LineBytes) << TreeFn;
  const size_t Copy = Printed.find("define void @__weft_wg_copy(");
  ASSERT_NE(Copy, std::string::npos);
  EXPECT_EQ(Printed.substr(Copy, Printed.find("\n}\n", Copy) - Copy).find("llvm.prefetch"),
            std::string::npos);
  const size_t Strip = Printed.find("define void @__weft_wg_strip.specialized");
  ASSERT_NE(Strip, std::string::npos);
  EXPECT_EQ(Printed.substr(Strip, Printed.find("\n}\n", Strip) - Strip).find("llvm.prefetch"),
            std::string::npos);

  for (bool Specialized : {false, true}) {
    SCOPED_TRACE(Specialized ? "specialized" : "generic");
    std::fill(Partial.begin(), Partial.end(), 0u);
    ASSERT_TRUE(Specialized ? P.runSpecialized("tree", range1(Group * Groups, Group), TreeArgs)
                            : P.run("tree", range1(Group * Groups, Group), TreeArgs));
    for (size_t G = 0; G < Groups; ++G) {
      uint32_t Want = 0;
      for (size_t L = 0; L < Group; ++L)
        Want += In[G * Group + L];
      EXPECT_EQ(Partial[G], Want) << "group " << G;
    }
  }
}

} // namespace weft::compiler::test
