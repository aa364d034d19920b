// RowInterleavePass: IR in, IR out, on row loops of the shape a specialized
// tiled SGEMM leaves (a chain of multiply-adds per row over operands every
// row shares), for the x86-64 CPUs of two register files; and a tiled SGEMM
// compiled through the whole pipeline, whose rows are interleaved and whose
// product is exact.
#include "KernelRunner.h"
#include "compiler/codegen/HostTarget.h"
#include "compiler/vectorize/RowInterleavePass.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <gtest/gtest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

#include <map>
#include <string>
#include <vector>

using namespace llvm;

namespace weft::compiler::test {

namespace {

/// What a row loop is made of; each field changes one thing of the shape
/// the pass takes.
struct Rows {
  std::string Name;
  unsigned Trip = 16;
  unsigned Lanes = 16;  ///< floats of a row's vector
  unsigned Chain = 16;  ///< multiply-adds of a row, one chain
  unsigned Shared = 16; ///< B rows every row shares (loaded before the loop)
  std::string Cpu = "skylake-avx512";
  bool Unmarked = false;  ///< without the wi::WorkItemRowsMD attribute
  bool Carried = false;   ///< a sum over the rows, carried by a phi
  bool Stack = false;     ///< each row stores to one stack slot
  bool Escapes = false;   ///< an alloca's address passed to a function
  bool Atomic = false;    ///< each row adds to a counter atomically
  bool UsedAfter = false; ///< the last row's result used after the loop
};

std::string functionOf(const Rows &R) {
  const std::string V = "<" + std::to_string(R.Lanes) + " x float>";
  const std::string Fma = "@llvm.fmuladd.v" + std::to_string(R.Lanes) + "f32";
  std::string T = "define void @" + R.Name + "(ptr %a, ptr %frame, ptr %bt, ptr %count) #" +
                  (R.Cpu == "haswell" ? "1" : "0") + " {\nentry:\n";
  if (R.Stack || R.Escapes)
    T += "  %tmp = alloca " + V + "\n";
  if (R.Escapes)
    T += "  call void @keep(ptr %tmp)\n";
  for (unsigned K = 0; K < R.Shared; ++K)
    T += "  %bp" + std::to_string(K) + " = getelementptr " + V + ", ptr %bt, i64 " +
         std::to_string(K) + "\n  %b" + std::to_string(K) + " = load " + V + ", ptr %bp" +
         std::to_string(K) + "\n";
  T += "  br label %y.loop\ny.loop:\n  %y = phi i64 [ 0, %entry ], [ %y.next, %y.loop ]\n";
  if (R.Carried)
    T += "  %sum = phi float [ 0.0, %entry ], [ %sum.next, %y.loop ]\n";
  T += "  %arow = getelementptr [" + std::to_string(R.Chain) + " x float], ptr %a, i64 %y\n";
  T += "  %slot = getelementptr " + V + ", ptr %frame, i64 %y\n  %c0 = load " + V + ", ptr %slot\n";
  for (unsigned K = 0; K < R.Chain; ++K) {
    const std::string S = std::to_string(K);
    T += "  %ap" + S + " = getelementptr float, ptr %arow, i64 " + S + "\n  %s" + S +
         " = load float, ptr %ap" + S + "\n  %i" + S + " = insertelement " + V +
         " poison, float %s" + S + ", i64 0\n  %v" + S + " = shufflevector " + V + " %i" + S +
         ", " + V + " poison, <" + std::to_string(R.Lanes) + " x i32> zeroinitializer\n";
    T += "  %c" + std::to_string(K + 1) + " = call " + V + " " + Fma + "(" + V + " %v" + S + ", " +
         V + " %b" + std::to_string(K % R.Shared) + ", " + V + " %c" + S + ")\n";
  }
  const std::string Last = "%c" + std::to_string(R.Chain);
  T += "  %out = getelementptr " + V + ", ptr %slot, i64 64\n  store " + V + " " + Last +
       ", ptr %out\n";
  if (R.Stack)
    T += "  store " + V + " " + Last + ", ptr %tmp\n";
  if (R.Atomic)
    T += "  %old = atomicrmw add ptr %count, i32 1 monotonic\n";
  if (R.Carried)
    T += "  %e = extractelement " + V + " " + Last + ", i64 0\n  %sum.next = fadd float %sum, %e\n";
  T += "  %y.next = add nuw nsw i64 %y, 1\n  %done = icmp eq i64 %y.next, " +
       std::to_string(R.Trip) + "\n  br i1 %done, label %exit, label %y.loop" +
       (R.Unmarked ? "" : ", !llvm.loop !0") + "\nexit:\n";
  if (R.UsedAfter)
    T += "  store " + V + " " + Last + ", ptr %frame\n";
  if (R.Carried)
    T += "  store float %sum.next, ptr %count\n";
  return T + "  ret void\n}\n";
}

/// An x86-64 target machine, or null where LLVM was built without X86.
std::unique_ptr<TargetMachine> x86Machine() {
  HostTarget::initialize();
  std::string Error;
  const Target *X86 = TargetRegistry::lookupTarget("x86_64-unknown-linux-gnu", Error);
  if (!X86)
    return nullptr;
  return std::unique_ptr<TargetMachine>(
      X86->createTargetMachine("x86_64-unknown-linux-gnu", "x86-64", "", TargetOptions(), None));
}

struct Outcome {
  unsigned Fmas = 0;        ///< multiply-adds in the function
  int64_t Rows = 0;         ///< the pass's loop attribute (0: none)
  bool Interleaved = false; ///< the first Rows multiply-adds are independent
};

Outcome run(Module &M, TargetMachine &TM, const std::string &Name) {
  Function &F = *M.getFunction(Name);
  PassAnalyses A(&TM);
  RowInterleavePass().run(F, A.FAM);
  EXPECT_FALSE(verifyFunction(F, &errs())) << Name;

  Outcome O;
  SmallVector<const IntrinsicInst *, 16> Fmas;
  for (const Instruction &I : instructions(F))
    if (const auto *II = dyn_cast<IntrinsicInst>(&I);
        II && II->getIntrinsicID() == Intrinsic::fmuladd)
      Fmas.push_back(II);
  O.Fmas = unsigned(Fmas.size());
  for (const BasicBlock &BB : F)
    if (const MDNode *Id = BB.getTerminator()->getMetadata(LLVMContext::MD_loop))
      for (const MDOperand &Op : Id->operands())
        if (const auto *Attr = dyn_cast<MDNode>(Op.get());
            Attr && Attr->getNumOperands() == 2 && isa<MDString>(Attr->getOperand(0)) &&
            cast<MDString>(Attr->getOperand(0))->getString() == RowInterleavePass::InterleavedMD)
          O.Rows = mdconst::extract<ConstantInt>(Attr->getOperand(1))->getSExtValue();
  if (O.Rows >= 2 && Fmas.size() >= size_t(O.Rows)) {
    O.Interleaved = true;
    for (int64_t J = 1; J < O.Rows; ++J)
      for (int64_t K = 0; K < J; ++K)
        O.Interleaved &= !is_contained(Fmas[J]->operands(), Fmas[K]);
  }
  return O;
}

} // namespace

// Before, rows16 (a tiled SGEMM's inner product on AVX-512: 16 rows, each
// one chain of 16 multiply-adds over 16 B rows every row shares):
//   y.loop: %y = phi [0, %entry], [%y.next, %y.loop]
//           %c1 = fmuladd(%v0, %b0, %c0) ... %c16 = fmuladd(%v15, %b15, %c15)
//           store %c16 ...; %y.next = add %y, 1; br (%y.next == 16) ...
// After: eight rows an iteration, their chains side by side:
//           %y.r1 = add nuw nsw i64 %y, 1 ... %y.r7
//           %c1 = fmuladd(%v0, %b0, %c0)
//           %c1.r1 = fmuladd(%v0.r1, %b0, %c0.r1) ... %c1.r7
//           %c2 = fmuladd(%v1, %b1, %c1) ...
//           %y.step = add nuw nsw i64 %y, 8; br (%y.step == 16) ...
//   (the vector registers: 32, less the 16 B rows, two a row: 8 rows)
// and the cases it leaves or takes fewer rows of:
//   rows12: 12 rows, a multiple of 4, not 8: 4 rows
//   rows3: 3 rows, no power of two divides them: none
//   haswell16: 16 registers, all taken by the B rows: none
//   haswell4: 16 registers, 4 B rows: (16 - 4) / 2 = 6, so 4 rows
//   short8: a chain of 8 (ChainInterleavePass::MinChain is 16): none
//   unmarked, carried, stack, escapes, atomic, used_after: none
TEST(RowInterleaveTest, RowChainsInterleaveWhereTheyFitTheRegisters) {
  std::unique_ptr<TargetMachine> TM = x86Machine();
  if (!TM)
    GTEST_SKIP() << "no x86-64 target in this LLVM";
  auto with = [](const char *Name, bool Rows::*Field) {
    Rows R{Name};
    R.*Field = true;
    return R;
  };
  const std::vector<Rows> Cases = {
      {"rows16"},
      {"rows12", 12},
      {"rows3", 3},
      {"haswell16", 16, 8, 16, 16, "haswell"},
      {"haswell4", 16, 8, 16, 4, "haswell"},
      {"short8", 16, 16, 8, 8},
      with("unmarked", &Rows::Unmarked),
      with("carried", &Rows::Carried),
      with("stack", &Rows::Stack),
      with("escapes", &Rows::Escapes),
      with("atomic", &Rows::Atomic),
      with("used_after", &Rows::UsedAfter),
  };
  std::string Text = "declare <16 x float> @llvm.fmuladd.v16f32(<16 x float>, <16 x float>, "
                     "<16 x float>)\ndeclare <8 x float> @llvm.fmuladd.v8f32(<8 x float>, <8 x "
                     "float>, <8 x float>)\ndeclare void @keep(ptr)\n";
  for (const Rows &R : Cases)
    Text += functionOf(R);
  Text += "attributes #0 = { \"target-cpu\"=\"skylake-avx512\" }\n"
          "attributes #1 = { \"target-cpu\"=\"haswell\" }\n"
          "!0 = distinct !{!0, !1}\n!1 = !{!\"" +
          std::string(wi::WorkItemRowsMD) + "\"}\n";
  LLVMContext C;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(Text, Err, C);
  ASSERT_TRUE(M) << Err.getMessage().str() << " at line " << Err.getLineNo();
  M->setTargetTriple("x86_64-unknown-linux-gnu");
  M->setDataLayout(TM->createDataLayout());

  const std::map<std::string, int64_t> Want = {
      {"rows16", 8},   {"rows12", 4},  {"rows3", 0},    {"haswell16", 0},
      {"haswell4", 4}, {"short8", 0},  {"unmarked", 0}, {"carried", 0},
      {"stack", 0},    {"escapes", 0}, {"atomic", 0},   {"used_after", 0}};
  for (const Rows &R : Cases) {
    const Outcome O = run(*M, *TM, R.Name);
    const int64_t Rows = Want.at(R.Name);
    EXPECT_EQ(O.Rows, Rows) << R.Name;
    EXPECT_EQ(O.Fmas, R.Chain * unsigned(std::max<int64_t>(Rows, 1))) << R.Name;
    if (Rows >= 2) {
      EXPECT_TRUE(O.Interleaved) << R.Name;
    }
  }
  std::string Out;
  raw_string_ostream OS(Out);
  M->getFunction("rows16")->print(OS);
  EXPECT_NE(Out.find("%y.step = add nuw nsw i64 %y, 8\n  %0 = icmp eq i64 %y.step, 16\n  br i1 "
                     "%0, label %exit, label %y.loop"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("%y.r7 = add nuw nsw i64 %y, 7"), std::string::npos) << Out;

  // A second run changes nothing.
  Function &F = *M->getFunction("rows16");
  const unsigned Size = F.getInstructionCount();
  run(*M, *TM, "rows16");
  EXPECT_EQ(F.getInstructionCount(), Size);
}

// The tiled SGEMM of weft_bench, compiled for its 16 x 16 groups: the x
// loop is one 512-bit vector on AVX-512, and the rows of its inner product
// are interleaved (elsewhere, whatever the host's registers allow). The
// inputs are small integers and halves, so every order of the sums gives
// the same exact product.
TEST(RowInterleaveTest, InterleavedRowsComputeTheSameProduct) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void sgemm(global const float *A, global const float *B, global float *C, int N) {
      local float At[16][16];
      local float Bt[16][16];
      int lx = get_local_id(0), ly = get_local_id(1);
      int col = get_global_id(0), row = get_global_id(1);
      float acc = 0.0f;
      for (int t = 0; t < N; t += 16) {
        At[ly][lx] = A[row * N + t + lx];
        Bt[ly][lx] = B[(t + ly) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < 16; ++k)
          acc += At[ly][k] * Bt[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      C[row * N + col] = acc;
    })"));
  const int N = 48;
  Buffer<float> A(N * N), B(N * N), Cm(N * N, -1.0f);
  for (int I = 0; I < N * N; ++I) {
    A[I] = float(I % 7) - 3.0f;
    B[I] = float(I % 5) * 0.5f - 1.0f;
  }
  NDRange R;
  R.Dims = 2;
  R.Global = {size_t(N), size_t(N), 1};
  R.Local = {16, 16, 1};
  const std::string Printed = compilesPrinted(
      [&] {
        ASSERT_TRUE(P.runSpecialized("sgemm", R,
                                     {Arg::pointer(A.data()), Arg::pointer(B.data()),
                                      Arg::pointer(Cm.data()), Arg::value(N)}));
      },
      "1");
  if (Printed.find("+avx512f") != std::string::npos) {
    EXPECT_NE(Printed.find(std::string("!{!\"") + RowInterleavePass::InterleavedMD + "\", i32 8}"),
              std::string::npos)
        << "rows not interleaved";
  }
  for (int Row = 0; Row < N; ++Row)
    for (int Col = 0; Col < N; ++Col) {
      float Want = 0.0f;
      for (int K = 0; K < N; ++K)
        Want += A[Row * N + K] * B[K * N + Col];
      ASSERT_EQ(Cm[Row * N + Col], Want) << Row << ", " << Col;
    }
}

} // namespace weft::compiler::test
