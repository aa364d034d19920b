// Kernel argument validation and the by-value argument snapshot.
#include "runtime/Kernel.h"

#include "runtime/Capabilities.h"

#include <algorithm>
#include <cstring>

namespace weft::rt {

Kernel::Kernel(Program &P, KernelDesc D, std::shared_ptr<Executable> E, WorkGroupFn F)
    : Prog(&P), Desc(std::move(D)), Exe(std::move(E)), Fn(F), Args(Desc.Args.size()) {
  Prog->attachKernel();
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
  auto K = Ref<Kernel>::adopt(new Kernel(*Prog, Desc, Exe, Fn));
  std::lock_guard<std::mutex> Lock(Mutex);
  K->Args = Args;
  return K;
}

Status Kernel::setArg(cl_uint Index, size_t Size, const void *Value, MemObject *Mem) {
  if (Index >= Desc.Args.size())
    return makeError(CL_INVALID_ARG_INDEX, "kernel " + Desc.Name + " has " +
                                               std::to_string(Desc.Args.size()) + " arguments");
  const KernelArgDesc &A = Desc.Args[Index];
  ArgValue V;
  V.IsSet = true;
  switch (A.Kind) {
  case ArgKind::LocalPointer:
    if (Value)
      return makeError(CL_INVALID_ARG_VALUE, "a __local argument takes a NULL arg_value");
    if (Size == 0)
      return makeError(CL_INVALID_ARG_SIZE, "a __local argument needs a size > 0");
    V.LocalSize = Size;
    break;
  case ArgKind::GlobalPointer:
  case ArgKind::ConstantPointer: {
    if (Size != sizeof(cl_mem))
      return makeError(CL_INVALID_ARG_SIZE, "a buffer argument takes sizeof(cl_mem)");
    void *Ptr = nullptr;
    if (Mem) {
      if (&Mem->context() != &Prog->context())
        return makeError(CL_INVALID_MEM_OBJECT, "buffer belongs to another context");
      V.Mem = Mem;
      Ptr = Mem->data();
    }
    V.Bytes.resize(sizeof(void *));
    std::memcpy(V.Bytes.data(), &Ptr, sizeof(void *));
    break;
  }
  case ArgKind::ByValue:
    if (!Value)
      return makeError(CL_INVALID_ARG_VALUE, "a by-value argument needs arg_value");
    if (Size != A.Size)
      return makeError(CL_INVALID_ARG_SIZE, "argument " + std::to_string(Index) + " (" +
                                                A.TypeName + ") takes " +
                                                std::to_string(A.Size) + " bytes, not " +
                                                std::to_string(Size));
    V.Bytes.assign(static_cast<const unsigned char *>(Value),
                   static_cast<const unsigned char *>(Value) + Size);
    break;
  case ArgKind::Sampler:
  case ArgKind::Image:
    return makeError(CL_INVALID_ARG_VALUE, "images and samplers are not supported yet");
  }
  std::lock_guard<std::mutex> Lock(Mutex);
  Args[Index] = std::move(V);
  return {};
}

bool Kernel::allArgsSet() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  for (const ArgValue &V : Args)
    if (!V.IsSet)
      return false;
  return true;
}

size_t Kernel::layoutLocalArgs(std::vector<std::pair<size_t, size_t>> *Offsets) const {
  size_t Total = Desc.StaticLocalSize;
  for (size_t I = 0; I < Args.size(); ++I) {
    if (!Args[I].LocalSize)
      continue;
    Total = (Total + LocalMemAlignment - 1) / LocalMemAlignment * LocalMemAlignment;
    if (Offsets)
      Offsets->emplace_back(I, Total);
    Total += Args[I].LocalSize;
  }
  return Total;
}

size_t Kernel::localMemSize() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return layoutLocalArgs(nullptr);
}

size_t Kernel::maxWorkGroupSize(const DeviceProperties &P) const {
  size_t Max = P.MaxWorkGroupSize;
  if (Desc.ReqdWorkGroupSize[0])
    Max = Desc.ReqdWorkGroupSize[0] * Desc.ReqdWorkGroupSize[1] * Desc.ReqdWorkGroupSize[2];
  if (Desc.UsesSubGroups)
    Max = std::min(Max, MaxSubGroupSize);
  return Max;
}

Kernel::Snapshot Kernel::snapshot() const {
  Snapshot S;
  auto L = std::make_shared<KernelLaunch>();
  L->Fn = Fn;
  L->PrivateFrameSize = Desc.PrivateFrameSize;
  L->UsesPrintf = Desc.UsesPrintf;
  std::lock_guard<std::mutex> Lock(Mutex);
  L->LocalMemSize = layoutLocalArgs(&L->LocalArgs);
  for (size_t I = 0; I < Args.size(); ++I) {
    const ArgValue &V = Args[I];
    // Every value 16-byte aligned: vectors are loaded with their alignment.
    size_t Off = (L->ArgStorage.size() + 15) / 16 * 16;
    size_t Len = V.LocalSize ? sizeof(void *) : V.Bytes.size();
    L->ArgStorage.resize(Off + Len);
    if (!V.LocalSize)
      std::memcpy(L->ArgStorage.data() + Off, V.Bytes.data(), Len);
    L->ArgOffsets.push_back(Off);
    if (V.Mem)
      S.MemObjects.emplace_back(V.Mem);
  }
  S.Launch = std::move(L);
  return S;
}

} // namespace weft::rt
