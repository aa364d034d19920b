// WorkItemJamPass: IR in, IR out on work-item loops of the shapes it takes
// and of those it must leave; and kernels whose work-items run loops of
// data-dependent length (a list walk, an escape-time iteration, a search
// with two exits, a loop some work-items skip), compiled through the whole
// pipeline and checked exactly against the host over group sizes around
// the number of copies.
#include "KernelRunner.h"
#include "compiler/vectorize/WorkItemJamPass.h"

#include <gtest/gtest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>

#include <cmath>
#include <cstdint>
#include <regex>
#include <string>
#include <vector>

using namespace llvm;

namespace weft::compiler::test {

namespace {

/// A work-group function's x loop around a rotated `while (p) { s += p->v;
/// p = p->next; }` that the work-item enters only if its head is not null,
/// as WorkGroupLoopPass and O3 leave the list walk; Body is put into the
/// inner loop, Decl at the top.
std::string walk(const std::string &Name, const std::string &Body = "",
                 const std::string &Decl = "", const std::string &Latch = "%next.null") {
  return Decl + "define void @" + Name +
         R"((ptr addrspace(1) %heads, ptr addrspace(1) %sums, i64 %n, ptr addrspace(1) %count) {
entry:
  %private = alloca i32
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %slot = getelementptr inbounds ptr addrspace(1), ptr addrspace(1) %heads, i64 %x
  %head = load ptr addrspace(1), ptr addrspace(1) %slot
  %empty = icmp eq ptr addrspace(1) %head, null
  br i1 %empty, label %x.latch, label %walk.ph
walk.ph:
  br label %walk
walk:
  %p = phi ptr addrspace(1) [ %head, %walk.ph ], [ %next, %walk ]
  %s = phi i32 [ 0, %walk.ph ], [ %s.next, %walk ]
  %i = phi i32 [ 0, %walk.ph ], [ %i.next, %walk ]
  %v = load i32, ptr addrspace(1) %p
  %s.next = add i32 %s, %v
  %i.next = add i32 %i, 1
  %next.addr = getelementptr inbounds i8, ptr addrspace(1) %p, i64 8
  %next = load ptr addrspace(1), ptr addrspace(1) %next.addr
  %next.null = icmp eq ptr addrspace(1) %next, null
  %bounded = icmp eq i32 %i.next, %n.i32
)" + Body +
         "  br i1 " + Latch + R"(, label %walk.exit, label %walk
walk.exit:
  %s.lcssa = phi i32 [ %s.next, %walk ]
  br label %x.latch
x.latch:
  %sum = phi i32 [ 0, %x.loop ], [ %s.lcssa, %walk.exit ]
  %out = getelementptr inbounds i32, ptr addrspace(1) %sums, i64 %x
  store i32 %sum, ptr addrspace(1) %out
  %x.next = add nuw nsw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %x.exit, label %x.loop, !llvm.loop !0
x.exit:
  ret void
}
)";
}

unsigned blocksNamed(Function &F, StringRef Prefix) {
  unsigned N = 0;
  for (BasicBlock &BB : F)
    N += BB.getName().startswith(Prefix);
  return N;
}

} // namespace

TEST(WorkItemJamTest, WorkItemLoopsAroundDataDependentLoopsAreJammed) {
  // %n.i32 is defined in each function's entry through the Decl hook's
  // stand-in: a global constant keeps the text one shape.
  const std::string Common = "@n.i32.g = constant i32 1000\n";
  std::string Text = Common;
  auto fix = [](std::string S) {
    // The bound the `bounded` test uses, loaded in the entry.
    const std::string At = "entry:\n";
    return S.replace(S.find(At), At.size(), At + "  %n.i32 = load i32, ptr @n.i32.g\n");
  };
  Text += fix(walk("jammed"));
  Text += fix(walk("two_exits", "  %either = or i1 %next.null, %bounded\n", "", "%either"));
  Text += fix(walk("atomic", "  %old = atomicrmw add ptr addrspace(1) %count, i32 1 monotonic\n"));
  Text += fix(walk("private", "  store i32 %v, ptr %private\n"));
  Text += fix(walk("counted", "", "", "%bounded"));
  Text += fix(walk("writes_memory", "  call void @opaque()\n", "declare void @opaque()\n"));
  Text += "!0 = distinct !{!0, !1}\n!1 = !{!\"weft.work-item-loop\"}\n";
  LLVMContext C;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(Text, Err, C);
  ASSERT_TRUE(M) << Err.getMessage().str() << " at line " << Err.getLineNo();
  for (const char *Name :
       {"jammed", "two_exits", "atomic", "private", "counted", "writes_memory"}) {
    Function &F = *M->getFunction(Name);
    FunctionAnalysisManager FAM;
    PassBuilder PB;
    PB.registerFunctionAnalyses(FAM);
    WorkItemJamPass().run(F, FAM);
    EXPECT_FALSE(verifyFunction(F, &errs())) << Name;
    const bool Want = StringRef(Name) == "jammed" || StringRef(Name) == "two_exits";
    // Eight copies of the walk (a small body), each guarded by its flag,
    // one jammed loop; the original loop stays for the rest.
    EXPECT_EQ(blocksNamed(F, "wi.jam.if"), Want ? 8u : 0u) << Name;
    EXPECT_EQ(blocksNamed(F, "wi.jam.loop.next"), Want ? 1u : 0u) << Name;
    EXPECT_EQ(blocksNamed(F, "walk.wi7"), Want ? 1u : 0u) << Name;
    EXPECT_EQ(blocksNamed(F, "x.loop.wi7"), Want ? 1u : 0u) << Name;
    if (Want) {
      std::string Out;
      raw_string_ostream OS(Out);
      F.print(OS);
      // The rest starts where the jammed loop stopped.
      EXPECT_NE(Out.find("%x = phi i64 [ %wi.jam.start, %wi.jam.rest.ph ], [ %x.next, %x.latch ]"),
                std::string::npos)
          << Out;
      EXPECT_NE(Out.find("%wi.jam.x7 = add nuw nsw i64 %wi.jam.xj, 7"), std::string::npos) << Out;
      // A copy's sum after the loop: its last value, or 0 where it
      // skipped the walk.
      EXPECT_TRUE(std::regex_search(
                      Out, std::regex("%sum.wi3 = phi i32 .*%s.lcssa.wi3.next, .*%sum.bypass3")) ||
                  std::regex_search(
                      Out, std::regex("%sum.wi3 = phi i32 .*%sum.bypass3, .*%s.lcssa.wi3.next")))
          << Out;
    }
  }
}

// The whole pipeline. Lists of lengths 0 to 40 (0: a null head), walked
// from a table of heads; an escape-time iteration of a quadratic map in fixed point; a
// search with two exits; a countdown from a loaded value that is zero for
// some work-items. Exact against the host, over groups of 1 to 100
// work-items (fewer and more than the copies, with remainders), generic
// and specialized.
TEST(WorkItemJamTest, JammedWorkItemsComputeTheSame) {
  Program P;
  const char *Source = R"(
typedef struct Node { uint Value; __global struct Node *Next; } Node;
kernel void walk(global const ulong *heads, global uint *sums) {
  uint s = 0;
  for (global const Node *n = (global const Node *)heads[get_global_id(0)]; n; n = n->Next)
    s += n->Value;
  sums[get_global_id(0)] = s;
}
kernel void twice(global const ulong *heads, global uint *sums, local uint *tmp) {
  size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
  uint s = 0;
  for (global const Node *p = (global const Node *)heads[g]; p; p = p->Next)
    s += p->Value;
  tmp[l] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint t = 0;
  for (global const Node *p = (global const Node *)heads[g]; p; p = p->Next)
    t += p->Value * 3u;
  sums[g] = tmp[(l + 1) % n] + t;
}
kernel void escape(global const int *cx, global int *iters, int max) {
  size_t g = get_global_id(0);
  long x = 0, y = 0, c = cx[g];
  int i = 0;
  while (i < max && x * x + y * y <= (4L << 24)) {
    long t = ((x * x - y * y) >> 12) + c;
    y = ((2 * x * y) >> 12) + 1024;
    x = t;
    ++i;
  }
  iters[g] = i;
}
kernel void search(global const int *data, global const int *keys, global int *found, int n) {
  size_t g = get_global_id(0);
  int key = keys[g], at = -1;
  for (int i = 0; i < n; ++i) {
    if (data[i] == key) { at = i; break; }
    if (data[i] > key) break;
  }
  found[g] = at;
}
kernel void countdown(global const uint *start, global uint *out) {
  size_t g = get_global_id(0);
  uint v = start[g], steps = 0;
  while (v != 0) { v = (v & 1) ? 3 * v + 1 : v / 2; if (v == 1) v = 0; ++steps; }
  out[g] = steps;
}
)";
  ASSERT_TRUE(P.build(Source));
  const std::string Printed = compilesPrinted(
      [&] {
        Program Q;
        ASSERT_TRUE(Q.build(Source));
        for (const char *K : {"walk", "twice", "escape", "search", "countdown"})
          EXPECT_TRUE(Q.function(K)) << K;
      },
      "1");
  for (const char *K : {"walk", "escape", "countdown"}) {
    const size_t At = Printed.find("define void @__weft_wg_" + std::string(K));
    ASSERT_NE(At, std::string::npos) << K;
    const size_t End = Printed.find("\n}\n", At);
    EXPECT_NE(Printed.substr(At, End - At).find("wi.jam.loop"), std::string::npos)
        << K << " was not jammed";
  }
  // Both regions of the kernel with a barrier.
  {
    const size_t At = Printed.find("define void @__weft_wg_twice");
    ASSERT_NE(At, std::string::npos);
    const std::string Text = Printed.substr(At, Printed.find("\n}\n", At) - At);
    const std::regex Label(R"(\nwi\.jam\.loop\.next[0-9]*:)");
    EXPECT_EQ(std::distance(std::sregex_iterator(Text.begin(), Text.end(), Label),
                            std::sregex_iterator()),
              2)
        << Text;
  }

  const size_t N = 1000;
  // Lists: work-item i walks i % 41 nodes (none: a null head).
  struct Node {
    uint32_t Value;
    Node *Next;
  };
  Buffer<Node> Nodes(N * 41);
  Buffer<Node *> Heads(N);
  std::vector<uint32_t> WantSums(N);
  size_t Used = 0;
  for (size_t I = 0; I < N; ++I) {
    Node *Prev = nullptr;
    for (size_t K = 0; K < I % 41; ++K) {
      Node &Nd = Nodes[Used++];
      Nd.Value = uint32_t(I * 7919 + K * 31);
      Nd.Next = nullptr;
      WantSums[I] += Nd.Value;
      (Prev ? Prev->Next : Heads[I]) = &Nd;
      Prev = &Nd;
    }
    if (I % 41 == 0)
      Heads[I] = nullptr;
  }
  // Fixed point, 12 fraction bits: exact on host and device alike.
  Buffer<int> Cx(N);
  std::vector<int> WantIters(N);
  const int Max = 200;
  for (size_t I = 0; I < N; ++I) {
    Cx[I] = -8192 + int(I) * 10;
    int64_t X = 0, Y = 0, Cr = Cx[I];
    int It = 0;
    while (It < Max && X * X + Y * Y <= (int64_t(4) << 24)) {
      int64_t T = ((X * X - Y * Y) >> 12) + Cr;
      Y = ((2 * X * Y) >> 12) + 1024;
      X = T;
      ++It;
    }
    WantIters[I] = It;
  }
  const int DataSize = 300;
  Buffer<int> Data(DataSize), Keys(N);
  for (int I = 0; I < DataSize; ++I)
    Data[I] = 3 * I;
  std::vector<int> WantFound(N);
  for (size_t I = 0; I < N; ++I) {
    Keys[I] = int(I % 950);
    WantFound[I] = Keys[I] % 3 == 0 && Keys[I] / 3 < DataSize ? Keys[I] / 3 : -1;
  }
  Buffer<uint32_t> Start(N);
  std::vector<uint32_t> WantSteps(N);
  for (size_t I = 0; I < N; ++I) {
    Start[I] = I % 5 == 0 ? 0 : uint32_t(I * 13 + 1);
    uint32_t V = Start[I], Steps = 0;
    while (V != 0) {
      V = (V & 1) ? 3 * V + 1 : V / 2;
      if (V == 1)
        V = 0;
      ++Steps;
    }
    WantSteps[I] = Steps;
  }

  for (size_t Local : {1, 3, 7, 8, 9, 17, 64, 100}) {
    const size_t Global = N / Local * Local;
    for (bool Specialized : {false, true}) {
      const NDRange R = range1(Global, Local);
      auto run = [&](const char *K, const std::vector<Arg> &Args) {
        return Specialized ? P.runSpecialized(K, R, Args) : P.run(K, R, Args);
      };
      Buffer<uint32_t> Sums(N, 0xdead);
      Buffer<int> Iters(N, -7), Found(N, -7);
      Buffer<uint32_t> Steps(N, 0xdead);
      ASSERT_TRUE(run("walk", {Arg::pointer(Heads.data()), Arg::pointer(Sums.data())}));
      Buffer<uint32_t> Twice(N, 0xdead);
      ASSERT_TRUE(run("twice", {Arg::pointer(Heads.data()), Arg::pointer(Twice.data()),
                                Arg::local(Local * sizeof(uint32_t))}));
      for (size_t I = 0; I < Global; ++I) {
        const size_t Next = I / Local * Local + (I % Local + 1) % Local;
        ASSERT_EQ(Twice[I], WantSums[Next] + 3u * WantSums[I])
            << "twice " << I << " in groups of " << Local;
      }
      ASSERT_TRUE(
          run("escape", {Arg::pointer(Cx.data()), Arg::pointer(Iters.data()), Arg::value(Max)}));
      ASSERT_TRUE(run("search", {Arg::pointer(Data.data()), Arg::pointer(Keys.data()),
                                 Arg::pointer(Found.data()), Arg::value(DataSize)}));
      ASSERT_TRUE(run("countdown", {Arg::pointer(Start.data()), Arg::pointer(Steps.data())}));
      for (size_t I = 0; I < Global; ++I) {
        ASSERT_EQ(Sums[I], WantSums[I]) << "walk " << I << " in groups of " << Local;
        ASSERT_EQ(Iters[I], WantIters[I]) << "escape " << I << " in groups of " << Local;
        ASSERT_EQ(Found[I], WantFound[I]) << "search " << I << " in groups of " << Local;
        ASSERT_EQ(Steps[I], WantSteps[I]) << "countdown " << I << " in groups of " << Local;
      }
    }
  }
}

} // namespace weft::compiler::test
