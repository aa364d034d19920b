// Kernel arguments: storing the typed values, laying out __local
// arguments, and the snapshot an enqueue takes of them.
#include "runtime/program/Kernel.h"

#include "runtime/commands/DeviceEnqueue.h"
#include "runtime/memory/Image.h"
#include "runtime/platform/Capabilities.h"

#include <algorithm>
#include <cstring>

namespace weft::rt {

Kernel::Kernel(Program &P, KernelDesc D, std::shared_ptr<Executable> E)
    : Prog(&P), Desc(std::move(D)), Exe(std::move(E)), Args(Desc.Args.size()) {
  Prog->attachKernel();
  if (Desc.UsesDeviceEnqueue)
    Blocks = std::make_shared<BlockKernels>(Exe, Prog->blockKernels());
}

// A kernel is attached to its program while the application holds it
// (clBuildProgram's CL_INVALID_OPERATION rule), not while commands that
// still run it do: those keep their own executable. Every kernel reaches
// the application (clone()'s adopted reference is handed over), so the
// destructor detaches only a kernel that would die before that.
void Kernel::lastAppReleased() { Prog->detachKernel(); }

Kernel::~Kernel() {
  if (appRefCount() != 0)
    Prog->detachKernel();
}

Ref<Kernel> Kernel::clone() const {
  auto K = Ref<Kernel>::adopt(new Kernel(*Prog, Desc, Exe));
  K->Fn.store(Fn.load(std::memory_order_acquire), std::memory_order_release);
  std::lock_guard<std::mutex> Lock(Mutex);
  K->Args = Args;
  return K;
}

Status Kernel::setArg(cl_uint Index, KernelArgValue Value) {
  if (Index >= Desc.Args.size())
    return makeError(CL_INVALID_ARG_INDEX, "kernel " + Desc.Name + " has " +
                                               std::to_string(Desc.Args.size()) + " arguments");
  if (!argAccepts(Desc.Args[Index].Kind, Value))
    return makeError(CL_INVALID_ARG_VALUE, "argument " + std::to_string(Index) + " (" +
                                               Desc.Args[Index].TypeName +
                                               ") does not take a value of this kind");
  std::lock_guard<std::mutex> Lock(Mutex);
  Args[Index] = std::move(Value);
  return {};
}

size_t Kernel::layoutLocalArgs(std::vector<std::pair<size_t, size_t>> *Offsets) const {
  size_t Total = Desc.StaticLocalSize;
  for (size_t I = 0; I < Args.size(); ++I) {
    const auto *Local = std::get_if<ArgLocalSize>(&Args[I]);
    if (!Local)
      continue;
    size_t Offset = placeLocalArg(Total, Local->Size);
    if (Offsets)
      Offsets->emplace_back(I, Offset);
  }
  return Total;
}

size_t Kernel::localMemSize() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return layoutLocalArgs(nullptr);
}

size_t kernelMaxWorkGroupSize(const KernelDesc &Desc, const DeviceProperties &P) {
  size_t Max = P.MaxWorkGroupSize;
  if (Desc.ReqdWorkGroupSize[0])
    Max = Desc.ReqdWorkGroupSize[0] * Desc.ReqdWorkGroupSize[1] * Desc.ReqdWorkGroupSize[2];
  return Max;
}

namespace {
template <typename... Fs> struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <typename... Fs> Overloaded(Fs...) -> Overloaded<Fs...>;

Error unsetArgument(const KernelDesc &Desc, size_t I) {
  return makeError(CL_INVALID_KERNEL_ARGS, "argument " + std::to_string(I) + " of kernel " +
                                               Desc.Name + " is not set");
}

Error releasedArgument(const KernelDesc &Desc, size_t I) {
  return makeError(CL_INVALID_KERNEL_ARGS,
                   "argument " + std::to_string(I) + " of kernel " + Desc.Name +
                       " names a memory object the application has released");
}
} // namespace

Status Kernel::argumentsReady() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  for (size_t I = 0; I < Args.size(); ++I) {
    if (std::holds_alternative<ArgUnset>(Args[I]))
      return unsetArgument(Desc, I);
    const WeakRef<MemObject> *Mem = nullptr;
    if (const auto *B = std::get_if<ArgBuffer>(&Args[I]); B && B->Mem.named())
      Mem = &B->Mem;
    else if (const auto *Img = std::get_if<ArgImage>(&Args[I]))
      Mem = &Img->Mem;
    else if (const auto *P = std::get_if<ArgPipe>(&Args[I]))
      Mem = &P->Mem;
    if (Mem && !Mem->lock())
      return releasedArgument(Desc, I);
  }
  return {};
}

Result<Kernel::Snapshot> Kernel::snapshot(const NDRange &Range, const DeviceProperties &P) const {
  Snapshot S;
  auto L = std::allocate_shared<KernelLaunch>(ObjectAllocator<KernelLaunch>());
  L->Name = Desc.Name;
  L->PrivateFrameSize = Desc.PrivateFrameSize;
  L->UsesPrintf = Desc.UsesPrintf;
  if (!Desc.MayWait && !Desc.UsesDeviceEnqueue)
    L->RunNanos = &RunNanos;
  L->GroupFree = Desc.GroupFree;
  Specialization Spec;
  std::vector<ImageArgFormat> &Formats = Spec.Formats;
  // Arguments whose addresses are multiples of Specialization::PointerAlign.
  uint64_t AlignedArgs = 0;
  std::unique_lock<std::mutex> Lock(Mutex);
  L->LocalMemSize = layoutLocalArgs(&L->LocalArgs);
  for (size_t I = 0; I < Args.size(); ++I) {
    // What the work-group function reads for the argument (KernelAbi.h):
    // the bytes of a by-value argument, else one pointer-sized value, each
    // 16-byte aligned (vectors are loaded with their alignment).
    auto place = [&](const void *Src, size_t Len) -> Status {
      size_t Off = (L->ArgStorage.size() + 15) / 16 * 16;
      L->ArgStorage.resize(Off + Len);
      if (Src)
        std::memcpy(L->ArgStorage.data() + Off, Src, Len);
      L->ArgOffsets.push_back(Off);
      return {};
    };
    auto pointer = [&](const void *Ptr) {
      if (I < 64 && reinterpret_cast<uintptr_t>(Ptr) % Specialization::PointerAlign == 0)
        AlignedArgs |= uint64_t(1) << I;
      return place(&Ptr, sizeof(Ptr));
    };
    // A memory object the application still holds: its memory for the
    // kernel, a reference for the command.
    auto memory = [&](const WeakRef<MemObject> &W) -> Status {
      Ref<MemObject> M = W.lock();
      if (!M)
        return releasedArgument(Desc, I);
      S.MemObjects.push_back(M);
      return pointer(M->kernelArgument());
    };
    Status Ok = std::visit(
        Overloaded{
            [&](const ArgUnset &) -> Status { return unsetArgument(Desc, I); },
            [&](const ArgBytes &V) {
              if (I < 64 && (Desc.ConditionArgs >> I & 1) && V.Bytes.size() <= 8) {
                uint64_t Value = 0;
                std::memcpy(&Value, V.Bytes.data(), V.Bytes.size());
                Spec.Arguments.emplace_back(uint32_t(I), Value);
              }
              return place(V.Bytes.data(), V.Bytes.size());
            },
            [&](const ArgBuffer &V) { return V.Mem.named() ? memory(V.Mem) : pointer(nullptr); },
            [&](const ArgImage &V) -> Status {
              if (Status St = memory(V.Mem); !St)
                return St;
              const auto &Img = static_cast<const Image &>(*S.MemObjects.back());
              Formats.push_back({uint32_t(I), Img.format().image_channel_order,
                                 Img.format().image_channel_data_type,
                                 uint32_t(Img.elementSize())});
              return {};
            },
            [&](const ArgPipe &V) { return memory(V.Mem); },
            [&](const ArgSampler &V) { return place(&V.Value, sizeof(V.Value)); },
            [&](const ArgSvmPointer &V) { return pointer(V.Ptr); },
            // The device stores the address in the arena (LocalArgs).
            [&](const ArgLocalSize &) { return place(nullptr, sizeof(void *)); },
        },
        Args[I]);
    if (!Ok)
      return Ok.error();
  }
  // Argument values are worth a compile when launches repeat them: asked
  // for from the second launch in a row with the same values, for at most
  // MaxArgumentSets sets of values.
  if (!Spec.Arguments.empty()) {
    const bool Repeated = Spec.Arguments == LastArguments;
    if (!Repeated)
      LastArguments = Spec.Arguments;
    const bool Known =
        std::find(ArgumentSets.begin(), ArgumentSets.end(), Spec.Arguments) != ArgumentSets.end();
    if (Repeated && !Known && ArgumentSets.size() < Specialization::MaxArgumentSets)
      ArgumentSets.push_back(Spec.Arguments);
    else if (!Known)
      Spec.Arguments.clear();
  }
  Lock.unlock();
  // The kernel's code is generated at its first launch (Executable::lookup),
  // once its arguments are known to be set.
  L->Fn = Fn.load(std::memory_order_acquire);
  if (!L->Fn) {
    Result<WorkGroupFn> Compiled = Exe->lookup(Desc.Name);
    if (!Compiled)
      return Compiled.error();
    L->Fn = *Compiled;
    Fn.store(L->Fn, std::memory_order_release);
  }
  // A kernel with barriers gains most from a constant local size: its
  // work-item loops run between barriers, each over the group. Only when
  // every group of the launch has that size.
  bool SameSizeGroups = Desc.PrivateFrameSize != 0 && !Range.empty();
  for (int D = 0; D < 3; ++D)
    SameSizeGroups = SameSizeGroups && Range.Global[D] % Range.Local[D] == 0;
  if (SameSizeGroups) {
    std::copy(Range.Local.begin(), Range.Local.end(), Spec.LocalSize.begin());
    Spec.SmallIds = Specialization::smallIds(Range.Global, Range.Offset);
  }
  // A launch whose work-items write more than the last-level cache holds
  // stores whole aligned vectors past the caches (StreamingStores.h); a
  // kernel that may wait for other work keeps its stores ordered as
  // written.
  const uint64_t Items = Range.Global[0] * Range.Global[1] * Range.Global[2];
  if (!Desc.MayWait && !Desc.UsesDeviceEnqueue && AlignedArgs != 0 && Desc.GlobalStoreBytes != 0 &&
      P.LastLevelCache.Size != 0 && Items >= P.LastLevelCache.Size / Desc.GlobalStoreBytes) {
    Spec.Streaming = true;
    Spec.AlignedArgs = AlignedArgs;
    // The lowest bit set in either (the device's runs of groups keep
    // multiples of the local size, CpuDevice.cpp).
    const uint64_t Along = Range.Local[0] | Range.Offset[0] | Specialization::MaxItemAlign;
    Spec.ItemAlign = uint32_t(Along & (~Along + 1));
  }
  // The executable's mutex, not this kernel's, serialises a compile.
  if (!Spec.empty())
    if (WorkGroupFn Specialized = Exe->specialize(Desc.Name, Spec))
      L->Fn = Specialized;
  S.Launch = std::move(L);
  S.Blocks = Blocks;
  return S;
}

} // namespace weft::rt
