// Streaming stores (StreamingStores.h): IR in, IR out for the
// specialization and for StreamingStorePass; and copy kernels compiled
// through the whole pipeline for a launch with streaming stores, whose
// stores become non-temporal only where the launch's facts prove them
// aligned, and whose results are exact.
#include "KernelRunner.h"
#include "compiler/specialize/StreamingStores.h"

#include <gtest/gtest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>

#include <regex>
#include <string>

using namespace llvm;

namespace weft::compiler::test {

namespace {

// A work-group function as WorkGroupLoopPass reads its arguments (a value
// behind each slot of %args) and its context (EnqueuedLocalSize at 56,
// GlobalOffset at 104, GroupId at 8), storing at the group's first global
// id and around it.
const char *const Stores = R"(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
define void @__weft_wg_k(ptr %args, ptr %ctx, <16 x float> %v, <4 x float> %w, float %s) {
entry:
  %arg0.slot = load ptr, ptr %args
  %a = load ptr addrspace(1), ptr %arg0.slot, align 1
  %slot1 = getelementptr inbounds ptr, ptr %args, i64 1
  %arg1.slot = load ptr, ptr %slot1
  %c = load ptr addrspace(1), ptr %arg1.slot, align 1
  %slot2 = getelementptr inbounds ptr, ptr %args, i64 2
  %arg2.slot = load ptr, ptr %slot2
  %l = load ptr addrspace(3), ptr %arg2.slot, align 1
  %els0.addr = getelementptr inbounds i8, ptr %ctx, i64 56
  %els0 = load i64, ptr %els0.addr
  %els1.addr = getelementptr inbounds i8, ptr %ctx, i64 64
  %els1 = load i64, ptr %els1.addr
  %off0.addr = getelementptr inbounds i8, ptr %ctx, i64 104
  %off0 = load i64, ptr %off0.addr
  %g0.addr = getelementptr inbounds i8, ptr %ctx, i64 8
  %g0 = load i64, ptr %g0.addr
  %start = mul i64 %g0, %els0
  %first = add i64 %start, %off0
  %row = mul i64 %g0, %els1
  %next = add i64 %first, 1
  %c.first = getelementptr inbounds float, ptr addrspace(1) %c, i64 %first
  store <16 x float> %v, ptr addrspace(1) %c.first, align 4
  %c.next = getelementptr inbounds float, ptr addrspace(1) %c, i64 %next
  store <16 x float> %v, ptr addrspace(1) %c.next, align 4
  %c.row = getelementptr inbounds float, ptr addrspace(1) %c, i64 %row
  store <16 x float> %v, ptr addrspace(1) %c.row, align 4
  %a.first = getelementptr inbounds float, ptr addrspace(1) %a, i64 %first
  store <16 x float> %v, ptr addrspace(1) %a.first, align 4
  %c.quarter = getelementptr inbounds float, ptr addrspace(1) %c, i64 %first
  store <4 x float> %w, ptr addrspace(1) %c.quarter, align 4
  store float %s, ptr addrspace(1) %c.first, align 4
  %l.first = getelementptr inbounds float, ptr addrspace(3) %l, i64 %first
  store <16 x float> %v, ptr addrspace(3) %l.first, align 4
  ret void
}
define void @plain(ptr addrspace(1) align 64 %c, <16 x float> %v) {
  store <16 x float> %v, ptr addrspace(1) %c, align 64
  ret void
}
)";

std::unique_ptr<Module> parse(LLVMContext &C, const char *Text) {
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(Text, Err, C);
  if (!M)
    ADD_FAILURE() << Err.getMessage().str() << " at line " << Err.getLineNo();
  return M;
}

void runPass(Function &F) {
  FunctionAnalysisManager FAM;
  PassBuilder PB;
  PB.registerFunctionAnalyses(FAM);
  StreamingStorePass().run(F, FAM);
  EXPECT_FALSE(verifyFunction(F, &errs()));
}

/// The stores of F, by the name of their address, with whether each is
/// non-temporal and its alignment.
std::map<std::string, std::pair<bool, uint64_t>> storesOf(Function &F) {
  std::map<std::string, std::pair<bool, uint64_t>> Out;
  for (Instruction &I : instructions(F))
    if (auto *S = dyn_cast<StoreInst>(&I)) {
      std::string Name = S->getPointerOperand()->getName().str();
      if (!S->getValueOperand()->getType()->isVectorTy())
        Name += ".scalar";
      Out[Name] = {S->getMetadata(LLVMContext::MD_nontemporal) != nullptr, S->getAlign().value()};
    }
  return Out;
}

unsigned fences(Function &F) {
  unsigned N = 0;
  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      N += II->getIntrinsicID() == Intrinsic::x86_sse_sfence;
  return N;
}

} // namespace

TEST(StreamingStoreTest, AlignedArgumentsAndGroupStartsMakeWholeVectorStoresNonTemporal) {
  LLVMContext C;
  std::unique_ptr<Module> M = parse(C, Stores);
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("__weft_wg_k");
  // Arguments 1 (c) and 2 (l) aligned, a not; groups start at multiples of
  // 16 work-items: the x fields of the enqueued size and offset are masked.
  EXPECT_EQ(specializeStreamingStores(F, 16, 0b110, 64), 4u);
  EXPECT_TRUE(verifyFunction(F, &errs()) == false);
  EXPECT_TRUE(F.hasFnAttribute(StreamingStorePass::Attr));
  std::string Text;
  raw_string_ostream OS(Text);
  F.print(OS);
  EXPECT_NE(Text.find("%c = load ptr addrspace(1), ptr %arg1.slot, align 1, !align"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("%a = load ptr addrspace(1), ptr %arg0.slot, align 1\n"), std::string::npos)
      << Text;
  EXPECT_NE(Text.find("%els0.aligned = and i64 %els0, -16"), std::string::npos) << Text;
  EXPECT_NE(Text.find("%off0.aligned = and i64 %off0, -16"), std::string::npos) << Text;
  EXPECT_NE(Text.find("%start = mul i64 %g0, %els0.aligned"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("%els1.aligned"), std::string::npos) << Text;

  runPass(F);
  runPass(*M->getFunction("plain"));
  const auto Got = storesOf(F);
  // A whole vector at the group's first id of an aligned argument streams,
  // as does a quarter of one there; one element further on, at a row of
  // run-time pitch, through the unaligned argument, a scalar, or __local
  // memory, stores stay as they were.
  const std::map<std::string, std::pair<bool, uint64_t>> Want = {
      {"c.first", {true, 64}}, {"c.quarter", {true, 16}}, {"c.next", {false, 4}},
      {"c.row", {false, 4}},   {"a.first", {false, 4}},   {"c.first.scalar", {false, 4}},
      {"l.first", {false, 4}}};
  EXPECT_EQ(Got, Want);
  EXPECT_EQ(fences(F), 1u);
  // Not compiled for streaming: untouched, however aligned.
  EXPECT_EQ(storesOf(*M->getFunction("plain")).at("c"), std::make_pair(false, uint64_t(64)));
  EXPECT_EQ(fences(*M->getFunction("plain")), 0u);
}

TEST(StreamingStoreTest, WithoutTheFactsNothingStreams) {
  LLVMContext C;
  for (auto [ItemAlign, AlignedArgs] :
       {std::pair{uint64_t(1), uint64_t(0b110)}, std::pair{uint64_t(16), uint64_t(0)}}) {
    std::unique_ptr<Module> M = parse(C, Stores);
    ASSERT_TRUE(M);
    Function &F = *M->getFunction("__weft_wg_k");
    specializeStreamingStores(F, ItemAlign, AlignedArgs, 64);
    runPass(F);
    for (auto &[Name, Store] : storesOf(F))
      EXPECT_FALSE(Store.first) << Name << " with ItemAlign " << ItemAlign;
    EXPECT_EQ(fences(F), 0u);
  }
}

// Through the whole pipeline: STREAM's copy and triad, and a 2-D kernel
// whose rows have a run-time pitch, compiled for a launch with streaming
// stores; each result exact, over groups of 64 with a smaller last group
// and an offset.
TEST(StreamingStoreTest, KernelsCompiledForStreamingStoresComputeTheSame) {
  Program P;
  ASSERT_TRUE(P.build(R"(
kernel void copy(global const float *a, global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i];
}
kernel void triad(global const float *a, global const float *b, global float *c, float s) {
  size_t i = get_global_id(0);
  c[i] = a[i] + s * b[i];
}
kernel void rows(global float *c, uint w) {
  c[get_global_id(1) * w + get_global_id(0)] = (float)get_global_id(0);
}
)"));
  for (const char *Name : {"copy", "triad", "rows"})
    EXPECT_GT(P.kernel(Name)->GlobalStoreBytes, 0u) << Name;

  const size_t N = 64 * 37 + 5, Offset = 32, Size = N + Offset;
  Buffer<float> A(Size), B(Size), Out(Size);
  for (size_t I = 0; I < Size; ++I) {
    A[I] = float(I % 1000) * 0.25f;
    B[I] = float(I % 777) * 0.25f;
  }
  NDRange R = range1(N, 64);
  R.Offset[0] = Offset;
  auto streaming = [](uint32_t ItemAlign, uint64_t AlignedArgs) {
    rt::Specialization S;
    S.Streaming = true;
    S.ItemAlign = ItemAlign;
    S.AlignedArgs = AlignedArgs;
    return S;
  };
  // What the JIT gets for the launch: the specialized function's text.
  auto specialized = [](const std::string &Printed) {
    const size_t At = Printed.find(".specialized");
    return At == std::string::npos ? std::string() : Printed.substr(At);
  };
  auto checkCopy = [&] {
    for (size_t I = 0; I < Size; ++I)
      ASSERT_EQ(Out[I], I < Offset ? -1.0f : A[I]) << I;
  };

  // Aligned: the copy's vector stores stream, behind a fence.
  std::fill(Out.begin(), Out.end(), -1.0f);
  std::string Printed = specialized(compilesPrinted(
      [&] {
        P.runSpecializedFor("copy", R, {Arg::pointer(A.data()), Arg::pointer(Out.data())},
                            streaming(16, 0b11));
      },
      "1"));
  ASSERT_FALSE(Printed.empty());
  EXPECT_TRUE(std::regex_search(Printed, std::regex("store <[0-9]+ x float> .*, align "
                                                    "(16|32|64), .*!nontemporal")))
      << Printed;
  EXPECT_NE(Printed.find("call void @llvm.x86.sse.sfence()"), std::string::npos) << Printed;
  checkCopy();

  // The output argument not known aligned: nothing streams.
  std::fill(Out.begin(), Out.end(), -1.0f);
  Printed = specialized(compilesPrinted(
      [&] {
        P.runSpecializedFor("copy", R, {Arg::pointer(A.data()), Arg::pointer(Out.data())},
                            streaming(16, 0b01));
      },
      "1"));
  ASSERT_FALSE(Printed.empty());
  EXPECT_EQ(Printed.find("!nontemporal"), std::string::npos) << Printed;
  checkCopy();

  std::fill(Out.begin(), Out.end(), -1.0f);
  ASSERT_TRUE(P.runSpecializedFor(
      "triad", R,
      {Arg::pointer(A.data()), Arg::pointer(B.data()), Arg::pointer(Out.data()), Arg::value(3.0f)},
      streaming(32, 0b111)));
  for (size_t I = 0; I < Size; ++I)
    ASSERT_EQ(Out[I], I < Offset ? -1.0f : A[I] + 3.0f * B[I]) << I;

  // Rows of 50 floats: 200 bytes apart, no vector of a row aligned.
  const uint32_t W = 50;
  Buffer<float> Grid(W * 7);
  std::fill(Grid.begin(), Grid.end(), -1.0f);
  NDRange R2;
  R2.Dims = 2;
  R2.Global = {48, 7, 1};
  R2.Local = {16, 7, 1};
  ASSERT_TRUE(P.runSpecializedFor("rows", R2, {Arg::pointer(Grid.data()), Arg::value(W)},
                                  streaming(16, 1)));
  for (uint32_t Y = 0; Y < 7; ++Y)
    for (uint32_t X = 0; X < W; ++X)
      ASSERT_EQ(Grid[Y * W + X], X < 48 ? float(X) : -1.0f) << X << ", " << Y;
}

} // namespace weft::compiler::test
