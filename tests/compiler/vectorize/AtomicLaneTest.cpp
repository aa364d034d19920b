// AtomicLanePass: IR in, IR out on a work-item loop with an atomic every
// work-item runs and one behind an if whose result is used, and on a loop
// it must leave; and kernels with atomics (counters, histograms with few
// and many bins, returned values of every combined operation, a stream
// compaction, a __local histogram) compiled through the whole pipeline and
// checked exactly, generic and specialized.
#include "KernelRunner.h"
#include "compiler/vectorize/AtomicLanePass.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <gtest/gtest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <regex>
#include <string>
#include <vector>

using namespace llvm;

namespace weft::compiler::test {

namespace {

/// A work-group function's x loop over 64 work-items: every work-item adds
/// its id's low bits to one of four counters and ors them into one flag
/// word; those with an odd input take a slot with atomic_inc and write
/// their input there. Extra goes into the loop's first block.
std::string counters(const std::string &Extra = "") {
  return R"(
define void @wg(ptr addrspace(1) noalias %in, ptr addrspace(1) %c, ptr addrspace(1) %n,
                ptr addrspace(1) noalias %out, ptr addrspace(1) %f) {
entry:
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %latch ]
  %slot = and i64 %x, 3
  %cp = getelementptr inbounds i32, ptr addrspace(1) %c, i64 %slot
  %x32 = trunc i64 %x to i32
  %v = and i32 %x32, 7
  %unused = atomicrmw add ptr addrspace(1) %cp, i32 %v monotonic, align 4
  %flags = atomicrmw or ptr addrspace(1) %f, i32 %v monotonic, align 4
  %ip = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %x
  %i = load i32, ptr addrspace(1) %ip, align 4
  %odd = trunc i32 %i to i1
)" + Extra +
         R"(
  br i1 %odd, label %take, label %latch
take:
  %at = atomicrmw add ptr addrspace(1) %n, i32 1 seq_cst, align 4
  %at64 = zext i32 %at to i64
  %op = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %at64
  store i32 %i, ptr addrspace(1) %op, align 4
  br label %latch
latch:
  %x.next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %x.next, 64
  br i1 %more, label %x.loop, label %exit, !llvm.loop !0
exit:
  ret void
}
!0 = distinct !{!0, !1}
!1 = !{!")" +
         std::string(wi::WorkItemLoopMD) + "\"}\n";
}

/// Runs AtomicLanePass on @wg of Text, compiled for the host (the loop
/// vectorizer it runs needs the host's vector registers).
std::unique_ptr<Module> runPass(LLVMContext &C, const std::string &Text) {
  std::unique_ptr<TargetMachine> TM = hostTargetMachine();
  if (!TM)
    return nullptr;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(Text, Err, C);
  if (!M) {
    ADD_FAILURE() << Err.getMessage().str();
    return nullptr;
  }
  M->setDataLayout(TM->createDataLayout());
  M->setTargetTriple(TM->getTargetTriple().str());
  PassAnalyses A(TM.get());
  Function &F = *M->getFunction("wg");
  AtomicLanePass().run(F, A.FAM);
  EXPECT_FALSE(verifyFunction(F, &errs()));
  return M;
}

template <typename T> unsigned count(Function &F, function_ref<bool(T &)> Pred = nullptr) {
  unsigned N = 0;
  for (Instruction &I : instructions(F))
    if (auto *X = dyn_cast<T>(&I))
      N += !Pred || Pred(*X);
  return N;
}

} // namespace

// The counter's atomic is vectorized: its lanes compare addresses with
// shuffles of each other, and one atomicrmw per address runs in a loop
// over the lanes that lead; the flag word's, one address for every lane,
// is one atomicrmw of the lanes' operands reduced; the slot's atomic, behind the if and with its
// result used, is vectorized too (J's phis became selects, its store is
// predicated). No lane call is left, and the order of each atomic is kept.
TEST(AtomicLaneTest, AtomicsInWorkItemLoopsVectorizeAndCombinePerAddress) {
  LLVMContext C;
  std::unique_ptr<Module> M = runPass(C, counters());
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("wg");
  auto vectorPtrCompare = [](ICmpInst &I) {
    auto *VT = dyn_cast<VectorType>(I.getOperand(0)->getType());
    return VT && VT->getElementType()->isPointerTy();
  };
  EXPECT_GE(count<ICmpInst>(F, vectorPtrCompare), 2u);
  EXPECT_GE(count<ShuffleVectorInst>(F), 2u);
  // Three in the vector loop (the flag word's alone, its lanes' operands
  // reduced), three in the scalar remainder.
  EXPECT_EQ(count<AtomicRMWInst>(F), 6u);
  EXPECT_EQ(count<AtomicRMWInst>(
                F, [](AtomicRMWInst &A) { return A.getOrdering() == AtomicOrdering::Monotonic; }),
            4u);
  EXPECT_EQ(
      count<CallInst>(
          F, [](CallInst &Call) { return Call.getIntrinsicID() == Intrinsic::vector_reduce_or; }),
      1u);
  EXPECT_EQ(count<CallInst>(F,
                            [](CallInst &Call) {
                              return Call.getCalledFunction() &&
                                     Call.getCalledFunction()->getName().startswith(
                                         "__weft_lane_atomic");
                            }),
            0u);
  // The store behind the if: a masked scatter, or one store per lane, in
  // the vector loop, beside the remainder's.
  const unsigned Scatters = count<CallInst>(F, [](CallInst &Call) {
    return Call.getCalledFunction() &&
           Call.getCalledFunction()->getName().startswith("llvm.masked.scatter");
  });
  EXPECT_GE(Scatters + count<StoreInst>(F), 2u);
}

// A compare-exchange in the loop is not combined: the loop is left as it
// was, scalar, its atomics untouched.
TEST(AtomicLaneTest, LoopsWithOtherAtomicsAreLeft) {
  LLVMContext C;
  std::unique_ptr<Module> M =
      runPass(C, counters("  %cx = cmpxchg ptr addrspace(1) %n, i32 0, i32 1 seq_cst seq_cst\n"));
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("wg");
  EXPECT_EQ(count<AtomicRMWInst>(F), 3u);
  EXPECT_EQ(count<ShuffleVectorInst>(F), 0u);
  EXPECT_EQ(count<AtomicCmpXchgInst>(F), 1u);
}

namespace {

const char *AtomicKernels = R"CLC(
// Odd inputs add their low bits to one counter.
kernel void counter(global const uint *in, global uint *n) {
  size_t i = get_global_id(0);
  if (in[i] & 1)
    atomic_add(n, in[i] & 15);
}
kernel void histogram(global const uint *in, global uint *bins, uint nbins) {
  size_t i = get_global_id(0);
  atomic_inc(&bins[in[i] % nbins]);
}
// Each work-item keeps the value it saw: a serialization's witness.
kernel void returned(global const uint *in, global uint *c, global uint *seen, uint ncounters) {
  // ncounters a power of two: a mask, which vectorizes (a remainder by an
  // argument the vectorizer finds too dear)
  size_t i = get_global_id(0);
  uint v = in[i];
  seen[6 * i + 0] = atomic_add(&c[0 * ncounters + (i & (ncounters - 1))], v & 255);
  seen[6 * i + 1] = atomic_sub(&c[1 * ncounters + (i & (ncounters - 1))], v & 255);
  seen[6 * i + 2] = atomic_max(&c[2 * ncounters + (i & (ncounters - 1))], v);
  seen[6 * i + 3] = atomic_min(&c[3 * ncounters + (i & (ncounters - 1))], v);
  seen[6 * i + 4] = atomic_or(&c[4 * ncounters + (i & (ncounters - 1))], 1u << (v & 31));
  seen[6 * i + 5] = atomic_and(&c[5 * ncounters + (i & (ncounters - 1))], ~(1u << (v & 31)));
}
// The same, the values seen kept in __local memory first: its stores need
// no run-time check against the context's loads, so the x loop vectorizes.
kernel void returnedLocal(global const uint *in, global uint *c, global uint *seen, uint ncounters,
                          local uint *keep) {
  size_t i = get_global_id(0), l = get_local_id(0);
  uint v = in[i];
  keep[2 * l] = atomic_add(&c[i & (ncounters - 1)], v & 255);
  keep[2 * l + 1] = atomic_sub(&c[ncounters + (i & (ncounters - 1))], v & 255);
  barrier(CLK_LOCAL_MEM_FENCE);
  seen[6 * i] = keep[2 * l];
  seen[6 * i + 1] = keep[2 * l + 1];
}
kernel void compact(global const uint *in, global uint *out, global uint *n) {
  size_t i = get_global_id(0);
  uint v = in[i];
  if (v & 1)
    out[atomic_inc(n)] = v;
}
kernel void localHistogram(global const uint *in, global uint *bins, local uint *tmp) {
  size_t l = get_local_id(0);
  if (l < 8)
    tmp[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&tmp[in[get_global_id(0)] & 7]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 8)
    atomic_add(&bins[l], tmp[l]);
}
)CLC";

std::vector<uint32_t> inputs(size_t N, uint32_t Seed) {
  std::vector<uint32_t> V(N);
  uint32_t S = Seed;
  for (uint32_t &X : V) {
    S = S * 1664525u + 1013904223u;
    X = S ^ (S >> 13);
  }
  return V;
}

/// Whether the values each work-item saw on one counter are those of one
/// order of their operations: sorted by what they saw, each is the one
/// before with the operation of the one before applied.
template <typename Op>
bool serializable(std::vector<std::pair<uint32_t, uint32_t>> SeenAndOperand, uint32_t Initial,
                  uint32_t Final, Op Apply, bool Descending) {
  // By what they saw, and among equals (an operand that changed nothing)
  // the operand that changes nothing first.
  std::sort(SeenAndOperand.begin(), SeenAndOperand.end(), [&](const auto &A, const auto &B) {
    if (A.first != B.first)
      return Descending ? A.first > B.first : A.first < B.first;
    return A.second < B.second;
  });
  uint32_t Value = Initial;
  for (auto [Seen, Operand] : SeenAndOperand) {
    if (Seen != Value)
      return false;
    Value = Apply(Value, Operand);
  }
  return Value == Final;
}

} // namespace

// Through the whole pipeline: the kernel that keeps its returned values in
// global memory vectorizes (its pointer compares are vectors), because its
// geometry loads are invariant and left the x loop past the sequentially
// consistent atomics; without the mark they stayed, and the vectorizer
// could not check the stores against them.
TEST(AtomicLaneTest, LoopsStoringBesideAtomicsVectorize) {
  Program P;
  ASSERT_TRUE(P.build(AtomicKernels));
  Buffer<uint32_t> In(256, 1), Cs(6, 0), Seen(6 * 256);
  const std::string Printed = compilesPrinted(
      [&] {
        ASSERT_TRUE(P.run("returned", range1(256, 64),
                          {Arg::pointer(In.data()), Arg::pointer(Cs.data()),
                           Arg::pointer(Seen.data()), Arg::value(1u)}));
      },
      "1");
  const size_t At = Printed.find("define void @__weft_wg_returned(");
  ASSERT_NE(At, std::string::npos);
  const std::string Fn = Printed.substr(At, Printed.find("\n}\n", At) - At);
  EXPECT_NE(Fn.find("!invariant.load"), std::string::npos);
  EXPECT_TRUE(std::regex_search(Fn, std::regex("icmp eq <[0-9]+ x ptr addrspace\\(1\\)>")))
      << "the x loop stayed scalar";
  EXPECT_TRUE(std::regex_search(Fn, std::regex("store <[0-9]+ x i32>")));
}

// Kernels with atomics, each generic and specialized (the x loops of the
// latter compile for the local size and vectorize), over group sizes
// around the vector widths, checked exactly.
TEST(AtomicLaneTest, KernelsWithAtomicsComputeTheSame) {
  Program P;
  ASSERT_TRUE(P.build(AtomicKernels));
  for (size_t Local : {1, 7, 16, 64, 256}) {
    const size_t Global = Local * 12;
    for (bool Specialized : {false, true}) {
      SCOPED_TRACE(testing::Message() << "local " << Local << (Specialized ? " specialized" : ""));
      auto run = [&](const char *Name, const std::vector<Arg> &Args) {
        return Specialized ? P.runSpecialized(Name, range1(Global, Local), Args)
                           : P.run(Name, range1(Global, Local), Args);
      };
      Buffer<uint32_t> In(Global);
      const std::vector<uint32_t> Data = inputs(Global, static_cast<uint32_t>(Local));
      std::copy(Data.begin(), Data.end(), In.begin());

      Buffer<uint32_t> N(1, 0);
      ASSERT_TRUE(run("counter", {Arg::pointer(In.data()), Arg::pointer(N.data())}));
      uint32_t Want = 0;
      for (uint32_t V : Data)
        Want += V & 1 ? V & 15 : 0;
      EXPECT_EQ(N[0], Want);

      for (uint32_t Bins : {1u, 4u, 5u, 1000u}) {
        Buffer<uint32_t> Got(Bins, 0);
        ASSERT_TRUE(run("histogram",
                        {Arg::pointer(In.data()), Arg::pointer(Got.data()), Arg::value(Bins)}));
        std::vector<uint32_t> Count(Bins, 0);
        for (uint32_t V : Data)
          ++Count[V % Bins];
        EXPECT_TRUE(std::equal(Count.begin(), Count.end(), Got.begin())) << Bins << " bins";
      }

      for (uint32_t Counters : {1u, 4u}) {
        const uint32_t Initial[6] = {0, 0xffffffffu, 0, 0xffffffffu, 0, 0xffffffffu};
        Buffer<uint32_t> Cs(6 * Counters), Seen(6 * Global);
        for (uint32_t K = 0; K < 6; ++K)
          std::fill_n(Cs.begin() + K * Counters, Counters, Initial[K]);
        ASSERT_TRUE(run("returned", {Arg::pointer(In.data()), Arg::pointer(Cs.data()),
                                     Arg::pointer(Seen.data()), Arg::value(Counters)}));
        Buffer<uint32_t> LocalCs(2 * Counters), LocalSeen(6 * Global);
        std::fill_n(LocalCs.begin(), Counters, 0u);
        std::fill_n(LocalCs.begin() + Counters, Counters, 0xffffffffu);
        ASSERT_TRUE(run("returnedLocal", {Arg::pointer(In.data()), Arg::pointer(LocalCs.data()),
                                          Arg::pointer(LocalSeen.data()), Arg::value(Counters),
                                          Arg::local(2 * Local * sizeof(uint32_t))}));
        for (uint32_t K = 0; K < Counters; ++K) {
          std::vector<std::pair<uint32_t, uint32_t>> Add, Sub;
          uint32_t Max = 0, Min = 0xffffffffu, Or = 0, And = 0xffffffffu;
          for (size_t I = K; I < Global; I += Counters) {
            const uint32_t V = Data[I];
            Add.push_back({Seen[6 * I], V & 255});
            Sub.push_back({Seen[6 * I + 1], V & 255});
            // A max, min, or, and saw a value between the initial and final.
            EXPECT_LE(Seen[6 * I + 2], Cs[2 * Counters + K]);
            EXPECT_GE(Seen[6 * I + 3], Cs[3 * Counters + K]);
            EXPECT_EQ(Seen[6 * I + 4] & ~Cs[4 * Counters + K], 0u);
            EXPECT_EQ(~Seen[6 * I + 5] & Cs[5 * Counters + K], 0u);
            Max = std::max(Max, V);
            Min = std::min(Min, V);
            Or |= 1u << (V & 31);
            And &= ~(1u << (V & 31));
          }
          std::vector<std::pair<uint32_t, uint32_t>> LocalAdd, LocalSub;
          for (size_t I = K; I < Global; I += Counters) {
            LocalAdd.push_back({LocalSeen[6 * I], Data[I] & 255});
            LocalSub.push_back({LocalSeen[6 * I + 1], Data[I] & 255});
          }
          EXPECT_TRUE(serializable(
              LocalAdd, 0, LocalCs[K], [](uint32_t A, uint32_t B) { return A + B; }, false));
          EXPECT_TRUE(serializable(
              LocalSub, 0xffffffffu, LocalCs[Counters + K],
              [](uint32_t A, uint32_t B) { return A - B; }, true));
          EXPECT_TRUE(serializable(
              Add, 0, Cs[K], [](uint32_t A, uint32_t B) { return A + B; }, false));
          EXPECT_TRUE(serializable(
              Sub, 0xffffffffu, Cs[Counters + K], [](uint32_t A, uint32_t B) { return A - B; },
              true));
          EXPECT_EQ(Cs[2 * Counters + K], Max);
          EXPECT_EQ(Cs[3 * Counters + K], Min);
          EXPECT_EQ(Cs[4 * Counters + K], Or);
          EXPECT_EQ(Cs[5 * Counters + K], And);
        }
      }

      Buffer<uint32_t> Out(Global, 0);
      N[0] = 0;
      ASSERT_TRUE(run("compact",
                      {Arg::pointer(In.data()), Arg::pointer(Out.data()), Arg::pointer(N.data())}));
      std::vector<uint32_t> Odd;
      for (uint32_t V : Data)
        if (V & 1)
          Odd.push_back(V);
      ASSERT_EQ(N[0], Odd.size());
      std::vector<uint32_t> Taken(Out.begin(), Out.begin() + N[0]);
      std::sort(Taken.begin(), Taken.end());
      std::sort(Odd.begin(), Odd.end());
      EXPECT_EQ(Taken, Odd);

      if (Local >= 8) {
        Buffer<uint32_t> Bins(8, 0);
        ASSERT_TRUE(run("localHistogram", {Arg::pointer(In.data()), Arg::pointer(Bins.data()),
                                           Arg::local(8 * sizeof(uint32_t))}));
        std::vector<uint32_t> Count(8, 0);
        for (uint32_t V : Data)
          ++Count[V & 7];
        EXPECT_TRUE(std::equal(Count.begin(), Count.end(), Bins.begin()));
      }
    }
  }
}

} // namespace weft::compiler::test
