// The SVM allocations of a context: their memory, and the pointer ->
// (allocation, offset) map.
#include "runtime/memory/SvmRegistry.h"
#include "runtime/memory/MemObject.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>

namespace weft::rt {

SvmRegistry::~SvmRegistry() {
  for (auto &[Base, A] : ByBase)
    std::free(A.Base);
}

void *SvmRegistry::allocate(size_t Size, size_t Alignment, cl_svm_mem_flags Flags) {
  // At least the alignment of every allocation Weft makes (MemObject.h).
  Alignment = std::max<size_t>(Alignment, alignof(std::max_align_t));
  void *Base = allocateMemory(Size, Alignment);
  if (!Base)
    return nullptr;
  std::unique_lock<std::shared_mutex> Lock(Mutex);
  ByBase[reinterpret_cast<uintptr_t>(Base)] = Allocation{Base, Size, Flags};
  return Base;
}

bool SvmRegistry::free(void *Base) {
  {
    std::unique_lock<std::shared_mutex> Lock(Mutex);
    auto It = ByBase.find(reinterpret_cast<uintptr_t>(Base));
    if (It == ByBase.end())
      return false;
    ByBase.erase(It);
  }
  std::free(Base);
  return true;
}

std::optional<SvmRegistry::Location> SvmRegistry::find(const void *Ptr) const {
  const uintptr_t P = reinterpret_cast<uintptr_t>(Ptr);
  std::shared_lock<std::shared_mutex> Lock(Mutex);
  auto It = ByBase.upper_bound(P); // the first base above P
  if (It == ByBase.begin())
    return std::nullopt;
  --It;
  const size_t Offset = P - It->first;
  if (Offset >= It->second.Size)
    return std::nullopt;
  return Location{It->second, Offset};
}

size_t SvmRegistry::count() const {
  std::shared_lock<std::shared_mutex> Lock(Mutex);
  return ByBase.size();
}

} // namespace weft::rt
