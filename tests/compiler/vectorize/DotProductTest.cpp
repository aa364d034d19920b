// DotProductPass: IR in, IR out, and the IR out run.
//
// Functions of 1 (scalar) to 32 lanes compute every kind of 8-bit dot
// product in the byte forms the pass knows (shift pairs, masks, sext/zext
// of truncations; products with their operands either way round; trees
// of any shape, with and without an accumulator; saturating additions)
// and one tree that is not a dot product (one product's positions
// differ). The pass runs for a CPU with AVX512-VNNI (every width) and one
// with AVX-VNNI only (no 512-bit vectors: a 16-lane dot product in
// halves); each dot product must then be instructions of the CPU's
// widths, the other tree untouched, and the functions, compiled for the
// host, must compute what a model in 64-bit arithmetic does (where the
// host has the instructions). And the dot-product built-ins compiled
// through the whole pipeline for VNNI CPUs are the instructions, with no
// vector multiply left.
#include "KernelRunner.h"
#include "compiler/KernelPipeline.h"
#include "compiler/codegen/HostTarget.h"
#include "compiler/frontend/BuildOptions.h"
#include "compiler/frontend/ClangFrontend.h"
#include "compiler/vectorize/DotProductPass.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <gtest/gtest.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/SourceMgr.h>

#include <algorithm>
#include <iostream>
#include <random>
#include <string>
#include <vector>

using namespace llvm;

namespace weft::compiler::test {

namespace {

/// The lane type of a function of N lanes, and a splat constant of it.
std::string laneType(unsigned N, unsigned Bits = 32) {
  const std::string E = "i" + std::to_string(Bits);
  return N == 1 ? E : "<" + std::to_string(N) + " x " + E + ">";
}
std::string splat(unsigned N, int64_t V) {
  if (N == 1)
    return std::to_string(V);
  std::string S = "<";
  for (unsigned L = 0; L < N; ++L)
    S += (L ? ", i32 " : "i32 ") + std::to_string(V);
  return S + ">";
}

/// Writes IR for functions of N lanes; each value gets a fresh name.
class Writer {
public:
  explicit Writer(unsigned N) : N(N), T(laneType(N)) {}

  /// Byte K of %X, widened signed or not, in form Form (each kind has
  /// its own: see DotProductPass.cpp).
  std::string byteOf(const std::string &X, unsigned K, bool Signed, unsigned Form) {
    if (Signed && Form % 2 == 0) {
      if (K == 3)
        return op("ashr " + T + " " + X + ", " + splat(N, 24));
      std::string Up = op("shl " + T + " " + X + ", " + splat(N, 24 - 8 * K));
      return op("ashr " + T + " " + Up + ", " + splat(N, 24));
    }
    if (!Signed && Form % 3 == 0) {
      if (K == 3)
        return op("lshr " + T + " " + X + ", " + splat(N, 24));
      std::string Down = K ? op("lshr " + T + " " + X + ", " + splat(N, 8 * K)) : X;
      return op("and " + T + " " + Down + ", " + splat(N, 255));
    }
    if (!Signed && Form % 3 == 1) {
      std::string Up = K == 3 ? X : op("shl " + T + " " + X + ", " + splat(N, 24 - 8 * K));
      return op("lshr " + T + " " + Up + ", " + splat(N, 24));
    }
    std::string Down = K ? op("lshr " + T + " " + X + ", " + splat(N, 8 * K)) : X;
    std::string Byte = op("trunc " + T + " " + Down + " to " + laneType(N, 8));
    return op(std::string(Signed ? "sext " : "zext ") + laneType(N, 8) + " " + Byte + " to " + T);
  }

  /// The sum of the products of bytes KX[k] of %X and KY[k] of %Y, in the
  /// order and tree shape Shape gives; each product's operands swapped
  /// every other time.
  std::string dotTree(const std::string &X, bool SX, const std::string &Y, bool SY, unsigned Shape,
                      const unsigned (&KX)[4], const unsigned (&KY)[4]) {
    std::string P[4];
    for (unsigned K = 0; K < 4; ++K) {
      std::string A = byteOf(X, KX[K], SX, K + Shape), B = byteOf(Y, KY[K], SY, K + 2 * Shape);
      P[K] = K % 2 ? op("mul " + T + " " + B + ", " + A) : op("mul " + T + " " + A + ", " + B);
    }
    if (Shape % 2 == 0)
      return add(add(P[0], P[1]), add(P[2], P[3]));
    return add(add(add(P[3], P[0]), P[2]), P[1]);
  }
  std::string dot(const std::string &X, bool SX, const std::string &Y, bool SY, unsigned Shape) {
    const unsigned K[4] = {0, 1, 2, 3};
    return dotTree(X, SX, Y, SY, Shape, K, K);
  }

  std::string add(const std::string &A, const std::string &B) {
    return op("add " + T + " " + A + ", " + B);
  }
  std::string call(const std::string &Intrinsic, const std::string &A, const std::string &B) {
    return op("call " + T + " @llvm." + Intrinsic + "." +
              (N == 1 ? "i32" : "v" + std::to_string(N) + "i32") + "(" + T + " " + A + ", " + T +
              " " + B + ")");
  }
  std::string op(const std::string &Text) {
    std::string Name = "%v" + std::to_string(Next++);
    Body += "  " + Name + " = " + Text + "\n";
    return Name;
  }

  const unsigned N;
  const std::string T;
  std::string Body;
  unsigned Next = 0;
};

/// The results each function stores, in this order.
enum Result { UsPlusC, Ss, UuPlusC, SatSu, SatSs, SatUu, NotADot, Results };

/// @dots_<N>(ptr %a, ptr %b, ptr %c, ptr %out): out[r] = result r (Result)
/// of the lanes of a, b, c.
std::string functionOf(unsigned N) {
  Writer W(N);
  const std::string &T = W.T;
  // Align 4: the test's buffers are std::vectors of uint32_t.
  std::string X = W.op("load " + T + ", ptr %a, align 4"),
              Y = W.op("load " + T + ", ptr %b, align 4"),
              C = W.op("load " + T + ", ptr %c, align 4");
  std::string R[Results];
  R[UsPlusC] = W.add(W.dot(X, false, Y, true, 0), C);
  R[Ss] = W.dot(X, true, Y, true, 1);
  R[UuPlusC] = W.add(C, W.dot(Y, false, X, false, 2));
  R[SatSu] = W.call("sadd.sat", W.dot(X, true, Y, false, 3), C);
  R[SatSs] = W.call("sadd.sat", C, W.dot(X, true, Y, true, 4));
  R[SatUu] = W.call("uadd.sat", W.dot(X, false, Y, false, 5), C);
  const unsigned KX[4] = {0, 1, 2, 3}, KY[4] = {0, 1, 2, 2}; // the last product's bytes differ
  R[NotADot] = W.dotTree(X, true, Y, true, 0, KX, KY);
  for (unsigned I = 0; I < Results; ++I) {
    std::string At = W.op("getelementptr " + T + ", ptr %out, i64 " + std::to_string(I));
    W.Body += "  store " + T + " " + R[I] + ", ptr " + At + ", align 4\n";
  }
  return "define void @dots_" + std::to_string(N) + "(ptr %a, ptr %b, ptr %c, ptr %out) {\n" +
         W.Body + "  ret void\n}\n";
}

const unsigned Widths[] = {1, 3, 4, 8, 16, 32};

std::unique_ptr<Module> dotsModule(LLVMContext &C) {
  std::string Text;
  for (unsigned N : Widths) {
    Text += functionOf(N);
    const std::string T = laneType(N), Suffix = N == 1 ? "i32" : "v" + std::to_string(N) + "i32";
    for (const char *Sat : {"sadd.sat", "uadd.sat"})
      Text += "declare " + T + " @llvm." + Sat + "." + Suffix + "(" + T + ", " + T + ")\n";
  }
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(Text, Err, C);
  if (!M) {
    std::string S;
    raw_string_ostream OS(S);
    Err.print("dots", OS);
    ADD_FAILURE() << OS.str() << "\n" << Text;
  }
  return M;
}

/// The subtarget of an x86-64 CPU with extra features.
std::unique_ptr<MCSubtargetInfo> subtarget(const std::string &Cpu, const std::string &Features) {
  HostTarget::initialize();
  std::string Err;
  const std::string Triple = "x86_64-unknown-linux-gnu";
  const Target *T = TargetRegistry::lookupTarget(Triple, Err);
  if (!T)
    return nullptr;
  return std::unique_ptr<MCSubtargetInfo>(T->createMCSubtargetInfo(Triple, Cpu, Features));
}

/// Runs DotProductPass for STI over M's functions.
void runPass(Module &M, const MCSubtargetInfo &STI) {
  PassAnalyses A;
  FunctionPassManager FPM;
  FPM.addPass(DotProductPass(STI));
  for (Function &F : M)
    if (!F.isDeclaration())
      FPM.run(F, A.FAM);
}

/// The VNNI calls in F, by lanes (0 for other intrinsics' calls).
std::vector<unsigned> vnniWidths(Function &F) {
  std::vector<unsigned> Widths;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<IntrinsicInst>(&I))
      switch (Call->getIntrinsicID()) {
      case Intrinsic::x86_avx512_vpdpbusd_128:
      case Intrinsic::x86_avx512_vpdpbusds_128:
        Widths.push_back(4);
        break;
      case Intrinsic::x86_avx512_vpdpbusd_256:
      case Intrinsic::x86_avx512_vpdpbusds_256:
        Widths.push_back(8);
        break;
      case Intrinsic::x86_avx512_vpdpbusd_512:
      case Intrinsic::x86_avx512_vpdpbusds_512:
        Widths.push_back(16);
        break;
      default:
        break;
      }
  return Widths;
}

unsigned countOf(Function &F, unsigned Opcode) {
  return unsigned(std::count_if(instructions(F).begin(), instructions(F).end(),
                                [&](Instruction &I) { return I.getOpcode() == Opcode; }));
}

/// Byte K of X, sign- or zero-extended.
int64_t byteOf(uint32_t X, unsigned K, bool Signed) {
  uint8_t B = uint8_t(X >> (8 * K));
  return Signed ? int64_t(int8_t(B)) : int64_t(B);
}

/// What @dots_<N> stores for one lane.
std::vector<uint32_t> model(uint32_t X, uint32_t Y, uint32_t C) {
  auto dot = [&](bool SX, bool SY, const unsigned(&KY)[4]) {
    int64_t Sum = 0;
    for (unsigned K = 0; K < 4; ++K)
      Sum += byteOf(X, K, SX) * byteOf(Y, KY[K], SY);
    return Sum;
  };
  const unsigned Same[4] = {0, 1, 2, 3}, Differ[4] = {0, 1, 2, 2};
  auto satS = [](int64_t V) {
    return uint32_t(int32_t(std::clamp<int64_t>(V, INT32_MIN, INT32_MAX)));
  };
  auto satU = [](int64_t V) { return uint32_t(std::clamp<int64_t>(V, 0, UINT32_MAX)); };
  std::vector<uint32_t> R(Results);
  R[UsPlusC] = uint32_t(dot(false, true, Same) + C);
  R[Ss] = uint32_t(dot(true, true, Same));
  R[UuPlusC] = uint32_t(dot(false, false, Same) + C);
  R[SatSu] = satS(int64_t(int32_t(C)) + dot(true, false, Same));
  R[SatSs] = satS(int64_t(int32_t(C)) + dot(true, true, Same));
  R[SatUu] = satU(int64_t(C) + dot(false, false, Same));
  R[NotADot] = uint32_t(dot(true, true, Differ));
  return R;
}

/// Whether the host runs code that uses Features (LLVM's names).
bool hostHas(std::initializer_list<const char *> Features) {
  StringMap<bool> Host;
  if (!sys::getHostCPUFeatures(Host))
    return false;
  for (const char *F : Features)
    if (!Host.lookup(F))
      return false;
  return true;
}

/// Compiles M for the host and checks each @dots_<N> against the model,
/// on inputs with the extreme bytes and saturating accumulators.
void runAndCheck(std::unique_ptr<Module> M, std::unique_ptr<LLVMContext> C) {
  auto JTMB = orc::JITTargetMachineBuilder::detectHost();
  ASSERT_TRUE(bool(JTMB));
  auto JIT = orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*JTMB)).create();
  ASSERT_TRUE(bool(JIT)) << toString(JIT.takeError());
  if (Error E = (*JIT)->addIRModule(orc::ThreadSafeModule(std::move(M), std::move(C))))
    FAIL() << toString(std::move(E));
  std::mt19937 Rng(3);
  const uint32_t Bytes[] = {0x00, 0x01, 0x7f, 0x80, 0x81, 0xff};
  for (unsigned N : Widths) {
    auto Sym = (*JIT)->lookup("dots_" + std::to_string(N));
    ASSERT_TRUE(bool(Sym)) << toString(Sym.takeError());
    using Fn = void(const uint32_t *, const uint32_t *, const uint32_t *, uint32_t *);
    auto *Dots = Sym->toPtr<Fn *>();
    // A 3-lane vector occupies 4 lanes' room in memory.
    const unsigned Room = N == 3 ? 4 : N;
    for (unsigned Round = 0; Round < 64; ++Round) {
      std::vector<uint32_t> X(Room), Y(Room), Acc(Room), Out(Room * Results);
      for (unsigned L = 0; L < Room; ++L) {
        X[L] = Round < 36 ? Bytes[Round % 6] * 0x01010101u : Rng();
        Y[L] = Round < 36 ? Bytes[Round / 6] * 0x01010101u : Rng();
        const uint32_t Near[] = {0x7fffffffu, 0x80000000u, 0xffffffffu, 0u, 0x7ffe0000u};
        Acc[L] = (Round + L) % 3 ? Near[(Round + L) % 5] : Rng();
      }
      Dots(X.data(), Y.data(), Acc.data(), Out.data());
      for (unsigned L = 0; L < N; ++L) {
        std::vector<uint32_t> Want = model(X[L], Y[L], Acc[L]);
        for (unsigned R = 0; R < Results; ++R)
          ASSERT_EQ(Out[R * Room + L], Want[R])
              << "dots_" << N << ", result " << R << ", lane " << L << ": x " << X[L] << ", y "
              << Y[L] << ", c " << Acc[L];
      }
    }
  }
}

} // namespace

// Every width becomes instructions of the widths the CPU has, the tree
// that is not a dot product keeps its four multiplies, and the mixed
// saturating addition is one vpdpbusds.
TEST(DotProductTest, RewritesEveryKindAndWidthForTheCpusWidths) {
  struct Cpu {
    const char *Name, *Cpu, *Features;
    unsigned Widest;
    std::initializer_list<const char *> HostNeeds;
  };
  const Cpu Cpus[] = {
      {"AVX512-VNNI", "skylake-avx512", "+avx512vnni", 16, {"avx512vnni", "avx512vl", "avx512bw"}},
      {"AVX-VNNI", "haswell", "+avxvnni", 8, {"avxvnni", "avx2"}}};
  for (const Cpu &Target : Cpus) {
    SCOPED_TRACE(Target.Name);
    auto STI = subtarget(Target.Cpu, Target.Features);
    ASSERT_TRUE(STI);
    ASSERT_TRUE(DotProductPass::appliesTo(*STI));
    auto C = std::make_unique<LLVMContext>();
    std::unique_ptr<Module> M = dotsModule(*C);
    ASSERT_TRUE(M);
    runPass(*M, *STI);
    ASSERT_FALSE(verifyModule(*M, &errs()));
    for (unsigned N : Widths) {
      Function &F = *M->getFunction("dots_" + std::to_string(N));
      SCOPED_TRACE(F.getName().str());
      // Only the tree that is no dot product still multiplies.
      EXPECT_EQ(countOf(F, Instruction::Mul), 4u);
      std::vector<unsigned> Vnni = vnniWidths(F);
      for (unsigned W : Vnni)
        EXPECT_LE(W, Target.Widest);
      // One instruction for the mixed product, two for each of the
      // others, one for the mixed saturating addition: 10 per piece.
      const unsigned Pieces = N <= Target.Widest ? 1 : N / Target.Widest;
      EXPECT_EQ(Vnni.size(), 10 * Pieces);
      // The saturating additions of the other kinds stay.
      unsigned Saturating = 0;
      for (Instruction &I : instructions(F))
        if (auto *Call = dyn_cast<IntrinsicInst>(&I))
          Saturating += Call->getIntrinsicID() == Intrinsic::sadd_sat ||
                        Call->getIntrinsicID() == Intrinsic::uadd_sat;
      EXPECT_EQ(Saturating, 2u);
    }
    if (!hostHas(Target.HostNeeds)) {
      std::cout << "[ note ] " << Target.Name << " code not run: the host lacks it\n";
      continue;
    }
    runAndCheck(std::move(M), std::move(C));
  }
}

// Without VNNI, or with WEFT_NO_DOT_PRODUCT, the pass stays out.
TEST(DotProductTest, AppliesOnlyWithVnniOfAllWidths) {
  auto V4 = subtarget("skylake-avx512", "");
  ASSERT_TRUE(V4);
  EXPECT_FALSE(DotProductPass::appliesTo(*V4));
  // AVX512-VNNI without AVX512VL has no 128- or 256-bit form.
  auto NoVl = subtarget("x86-64", "+avx512f,+avx512bw,+avx512vnni");
  ASSERT_TRUE(NoVl);
  EXPECT_FALSE(DotProductPass::appliesTo(*NoVl));
  auto Vnni = subtarget("icelake-server", "");
  ASSERT_TRUE(Vnni);
  EXPECT_TRUE(DotProductPass::appliesTo(*Vnni));
  setenv("WEFT_NO_DOT_PRODUCT", "1", 1);
  EXPECT_FALSE(DotProductPass::appliesTo(*Vnni));
  unsetenv("WEFT_NO_DOT_PRODUCT");
}

// The built-ins through the whole pipeline: each kernel's work-item loop,
// vectorized, holds dot-product instructions and no vector multiply, for
// a CPU with AVX512-VNNI and one with AVX-VNNI and no AVX-512.
TEST(DotProductTest, BuiltinsBecomeVnniInstructions) {
  const std::string Source = R"(
    kernel void uu(global uint *o, global uchar4 *a, global uchar4 *b) {
      size_t i = get_global_id(0); o[i] = dot(a[i], b[i]); }
    kernel void ss(global int *o, global char4 *a, global char4 *b) {
      size_t i = get_global_id(0); o[i] = dot(a[i], b[i]); }
    kernel void us(global int *o, global uchar4 *a, global char4 *b) {
      size_t i = get_global_id(0); o[i] = dot(a[i], b[i]); }
    kernel void su_acc(global int *o, global char4 *a, global uchar4 *b) {
      size_t i = get_global_id(0); o[i] = dot_acc_sat(a[i], b[i], o[i]); }
    kernel void packed_ss_acc(global int *o, global uint *a, global uint *b) {
      size_t i = get_global_id(0); o[i] = dot_acc_sat_4x8packed_ss_int(a[i], b[i], o[i]); }
    kernel void packed_uu_acc(global uint *o, global uint *a, global uint *b) {
      size_t i = get_global_id(0); o[i] = dot_acc_sat_4x8packed_uu_uint(a[i], b[i], o[i]); }
    kernel void row_sum(global int *o, global uchar4 *a, global char4 *b, int n) {
      size_t i = get_global_id(0);
      int s = 0;
      for (int j = 0; j < n; ++j)
        s += dot(a[i * n + j], b[j]);
      o[i] = s;
    })";
  for (const char *Cpu : {"icelake-server", "alderlake"}) {
    SCOPED_TRACE(Cpu);
    std::unique_ptr<TargetMachine> TM = targetMachineFor(Cpu);
    ASSERT_TRUE(TM);
    LLVMContext C;
    std::string Why, Log;
    std::optional<BuildOptions> Opts = BuildOptions::parse("-cl-std=CL3.0", Why);
    ASSERT_TRUE(Opts) << Why;
    std::unique_ptr<Module> M = ClangFrontend::compile(Source, *Opts, C, Log);
    std::vector<rt::KernelDesc> Kernels;
    ASSERT_TRUE(M && KernelPipeline(*TM, false, false).run(*M, Kernels, Log)) << Log;
    for (const char *K :
         {"uu", "ss", "us", "su_acc", "packed_ss_acc", "packed_uu_acc", "row_sum"}) {
      Function *WG = M->getFunction(std::string(wi::WorkGroupPrefix) + K);
      ASSERT_NE(WG, nullptr) << K;
      std::vector<unsigned> Vnni = vnniWidths(*WG);
      EXPECT_TRUE(std::any_of(Vnni.begin(), Vnni.end(), [](unsigned W) { return W > 4; }))
          << K << " has no vector dot-product instruction";
      for (Instruction &I : instructions(*WG))
        EXPECT_FALSE(I.getOpcode() == Instruction::Mul && I.getType()->isVectorTy())
            << K << " still multiplies vectors";
    }
  }
}

} // namespace weft::compiler::test
