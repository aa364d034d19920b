// The hand-written launcher of KernelRunner.h: fills a WorkGroupContext per
// group, gives the group a local arena (static locals, then __local
// arguments, each 128-byte aligned) and a private arena of
// PrivateFrameSize per work-item, and calls the work-group function.
#include "KernelRunner.h"

#include "compiler/codegen/HostTarget.h"
#include "runtime/platform/Capabilities.h"

#include <gtest/gtest.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Target/TargetMachine.h>

#include <cstdlib>

namespace weft::compiler::test {

namespace {

size_t alignUp(size_t V, size_t A) { return (V + A - 1) / A * A; }

struct AlignedBuffer {
  explicit AlignedBuffer(size_t Size)
      : Ptr(static_cast<char *>(std::aligned_alloc(rt::LocalMemAlignment,
                                                   alignUp(Size ? Size : 1, rt::LocalMemAlignment)))) {
    std::memset(Ptr, 0xcd, alignUp(Size ? Size : 1, rt::LocalMemAlignment));
  }
  ~AlignedBuffer() { std::free(Ptr); }
  char *Ptr;
};

} // namespace

bool Program::build(const std::string &Source, const std::string &Options) {
  auto Result = rt::ProgramCompiler::get().buildSource(Source, Options);
  if (auto *F = std::get_if<rt::BuildFailure>(&Result)) {
    Log = F->Log;
    ADD_FAILURE() << "build failed (" << F->Code << "):\n" << F->Log;
    return false;
  }
  Out = std::move(std::get<rt::BuildOutput>(Result));
  Log = Out.Log;
  return true;
}

bool Program::link(const std::vector<std::vector<unsigned char>> &Objects,
                   const std::string &Options) {
  auto Result = rt::ProgramCompiler::get().link(Objects, Options);
  if (auto *F = std::get_if<rt::BuildFailure>(&Result)) {
    Log = F->Log;
    ADD_FAILURE() << "link failed (" << F->Code << "):\n" << F->Log;
    return false;
  }
  if (!std::holds_alternative<rt::BuildOutput>(Result)) {
    ADD_FAILURE() << "link made a library, not an executable";
    return false;
  }
  Out = std::move(std::get<rt::BuildOutput>(Result));
  Log = Out.Log;
  return true;
}

const rt::KernelDesc *Program::kernel(const std::string &Name) const {
  for (const rt::KernelDesc &D : Out.Kernels)
    if (D.Name == Name)
      return &D;
  return nullptr;
}

rt::WorkGroupFn Program::function(const std::string &Name) {
  if (!Out.Exe)
    return nullptr;
  rt::Result<rt::WorkGroupFn> Fn = Out.Exe->lookup(Name);
  if (!Fn) {
    ADD_FAILURE() << "kernel " << Name << ": " << Fn.error().Why;
    return nullptr;
  }
  return *Fn;
}

bool Program::run(const std::string &Name, const NDRange &R, const std::vector<Arg> &Args) {
  return runWith(function(Name), Name, R, Args);
}

bool Program::runSpecialized(const std::string &Name, const NDRange &R,
                             const std::vector<Arg> &Args) {
  rt::Specialization S;
  for (int D = 0; D < 3; ++D) {
    if (R.Global[D] % R.Local[D] != 0) {
      ADD_FAILURE() << "a specialized launch needs groups of one size";
      return false;
    }
    S.LocalSize[D] = R.Local[D];
  }
  // As the runtime does (Kernel::snapshot).
  S.SmallIds = rt::Specialization::smallIds(R.Global, R.Offset);
  return runSpecializedFor(Name, R, Args, S);
}

bool Program::runSpecializedFor(const std::string &Name, const NDRange &R,
                                const std::vector<Arg> &Args, const rt::Specialization &S) {
  // The launch that makes the executable compile it (the first ones get
  // the generic function, nullptr here).
  rt::WorkGroupFn Fn = nullptr;
  for (unsigned Ask = 0; Out.Exe && !Fn && Ask < 16; ++Ask)
    Fn = Out.Exe->specialize(Name, S);
  if (!Fn) {
    ADD_FAILURE() << "no work-group function of " << Name << " for its specialization";
    return false;
  }
  return runWith(Fn, Name, R, Args);
}

bool Program::runWith(rt::WorkGroupFn Fn, const std::string &Name, const NDRange &R,
                      const std::vector<Arg> &Args) {
  const rt::KernelDesc *D = kernel(Name);
  if (!D || !Fn) {
    ADD_FAILURE() << "no kernel " << Name;
    return false;
  }
  if (D->Args.size() != Args.size()) {
    ADD_FAILURE() << "kernel " << Name << " takes " << D->Args.size() << " arguments";
    return false;
  }
  // Local arena: static locals, then __local arguments.
  size_t LocalBytes = alignUp(D->StaticLocalSize, rt::LocalMemAlignment);
  std::vector<size_t> LocalOffsets(Args.size(), 0);
  for (size_t I = 0; I < Args.size(); ++I)
    if (Args[I].K == Arg::Local) {
      LocalOffsets[I] = LocalBytes;
      LocalBytes += alignUp(Args[I].LocalSize, rt::LocalMemAlignment);
    }
  AlignedBuffer Local(LocalBytes);
  size_t MaxItems = R.Local[0] * R.Local[1] * R.Local[2];
  // The runtime launches no larger group; the compiled code assumes it.
  if (MaxItems > rt::MaxWorkGroupSize) {
    ADD_FAILURE() << "a work-group of " << MaxItems << " work-items";
    return false;
  }
  AlignedBuffer Private(D->PrivateFrameSize * MaxItems);

  std::vector<void *> LocalPtrs(Args.size());
  std::vector<void *> Slots(Args.size());
  for (size_t I = 0; I < Args.size(); ++I) {
    switch (Args[I].K) {
    case Arg::Value:
      Slots[I] = const_cast<char *>(Args[I].Bytes.data());
      break;
    case Arg::Pointer:
      Slots[I] = const_cast<void **>(&Args[I].Ptr);
      break;
    case Arg::Local:
      LocalPtrs[I] = Local.Ptr + LocalOffsets[I];
      Slots[I] = &LocalPtrs[I];
      break;
    }
  }

  rt::WorkGroupContext Ctx{};
  Ctx.WorkDim = R.Dims;
  for (unsigned Dm = 0; Dm < 3; ++Dm) {
    bool Used = Dm < R.Dims;
    Ctx.GlobalSize[Dm] = Used ? R.Global[Dm] : 1;
    Ctx.EnqueuedLocalSize[Dm] = Used ? R.Local[Dm] : 1;
    Ctx.GlobalOffset[Dm] = Used ? R.Offset[Dm] : 0;
    Ctx.NumGroups[Dm] = (Ctx.GlobalSize[Dm] + Ctx.EnqueuedLocalSize[Dm] - 1) / Ctx.EnqueuedLocalSize[Dm];
  }
  Ctx.LocalMem = Local.Ptr;
  Ctx.LocalMemSize = LocalBytes;
  Ctx.PrivateMem = Private.Ptr;
  Ctx.PrivateMemSize = D->PrivateFrameSize * MaxItems;
  Ctx.StackTop = static_cast<char *>(__builtin_frame_address(0));
  AlignedBuffer Collective(rt::collectiveScratchBytes(MaxItems));
  Ctx.CollectiveScratch = Collective.Ptr;
  for (uint64_t Gz = 0; Gz < Ctx.NumGroups[2]; ++Gz)
    for (uint64_t Gy = 0; Gy < Ctx.NumGroups[1]; ++Gy)
      for (uint64_t Gx = 0; Gx < Ctx.NumGroups[0]; ++Gx) {
        uint64_t G[3] = {Gx, Gy, Gz};
        for (unsigned Dm = 0; Dm < 3; ++Dm) {
          Ctx.GroupId[Dm] = G[Dm];
          uint64_t Start = G[Dm] * Ctx.EnqueuedLocalSize[Dm];
          Ctx.LocalSize[Dm] = std::min<uint64_t>(Ctx.EnqueuedLocalSize[Dm], Ctx.GlobalSize[Dm] - Start);
        }
        Fn(Slots.data(), &Ctx);
      }
  return true;
}

std::string compilesPrinted(const std::function<void()> &Body, const char *When) {
  setenv("WEFT_DUMP_IR", When, 1);
  ::testing::internal::CaptureStderr();
  Body();
  std::string Printed = ::testing::internal::GetCapturedStderr();
  unsetenv("WEFT_DUMP_IR");
  return Printed;
}

namespace {

std::unique_ptr<llvm::TargetMachine>
targetMachine(std::optional<llvm::orc::JITTargetMachineBuilder> JTMB, const std::string &Why) {
  if (!JTMB) {
    ADD_FAILURE() << Why;
    return nullptr;
  }
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> TM = JTMB->createTargetMachine();
  if (!TM) {
    ADD_FAILURE() << llvm::toString(TM.takeError());
    return nullptr;
  }
  return std::move(*TM);
}

} // namespace

std::unique_ptr<llvm::TargetMachine> hostTargetMachine() {
  std::string Why;
  std::optional<llvm::orc::JITTargetMachineBuilder> JTMB = HostTarget::builder(Why);
  return targetMachine(std::move(JTMB), Why);
}

std::unique_ptr<llvm::TargetMachine> targetMachineFor(const std::string &Cpu) {
  std::string Why;
  std::optional<llvm::orc::JITTargetMachineBuilder> JTMB = HostTarget::builderFor(Cpu, Why);
  return targetMachine(std::move(JTMB), Why);
}

PassAnalyses::PassAnalyses(llvm::TargetMachine *TM) {
  llvm::PassBuilder PB(TM);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
}

} // namespace weft::compiler::test
