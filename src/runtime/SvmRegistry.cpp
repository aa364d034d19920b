// The SVM allocations of a context: their memory, and the pointer ->
// (allocation, offset) map.
#include "runtime/SvmRegistry.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>

namespace weft::rt {

SvmRegistry::~SvmRegistry() {
  for (auto &[Base, E] : ByBase)
    if (E.Owned)
      std::free(E.Alloc.Base);
}

void *SvmRegistry::allocate(size_t Size, size_t Alignment, cl_svm_mem_flags Flags) {
  // aligned_alloc wants a multiple of the alignment (and at least the
  // alignment of every allocation Weft makes, see MemObject.h).
  Alignment = std::max<size_t>(Alignment, alignof(std::max_align_t));
  if (Size > SIZE_MAX - Alignment)
    return nullptr;
  const size_t Rounded = (Size + Alignment - 1) / Alignment * Alignment;
  void *Base = std::aligned_alloc(Alignment, Rounded);
  if (!Base)
    return nullptr;
  std::unique_lock<std::shared_mutex> Lock(Mutex);
  ByBase[reinterpret_cast<uintptr_t>(Base)] = Entry{Allocation{Base, Size, Flags}, true};
  return Base;
}

bool SvmRegistry::free(void *Base) {
  {
    std::unique_lock<std::shared_mutex> Lock(Mutex);
    auto It = ByBase.find(reinterpret_cast<uintptr_t>(Base));
    if (It == ByBase.end() || !It->second.Owned)
      return false;
    ByBase.erase(It);
  }
  std::free(Base);
  return true;
}

void SvmRegistry::add(void *Base, size_t Size, cl_svm_mem_flags Flags) {
  std::unique_lock<std::shared_mutex> Lock(Mutex);
  ByBase[reinterpret_cast<uintptr_t>(Base)] = Entry{Allocation{Base, Size, Flags}, false};
}

std::optional<SvmRegistry::Allocation> SvmRegistry::remove(void *Base) {
  std::unique_lock<std::shared_mutex> Lock(Mutex);
  auto It = ByBase.find(reinterpret_cast<uintptr_t>(Base));
  if (It == ByBase.end() || It->second.Owned)
    return std::nullopt;
  Allocation A = It->second.Alloc;
  ByBase.erase(It);
  return A;
}

std::optional<SvmRegistry::Location> SvmRegistry::find(const void *Ptr) const {
  const uintptr_t P = reinterpret_cast<uintptr_t>(Ptr);
  std::shared_lock<std::shared_mutex> Lock(Mutex);
  auto It = ByBase.upper_bound(P); // the first base above P
  if (It == ByBase.begin())
    return std::nullopt;
  --It;
  const size_t Offset = P - It->first;
  if (Offset >= It->second.Alloc.Size)
    return std::nullopt;
  return Location{It->second.Alloc, Offset};
}

size_t SvmRegistry::count() const {
  std::shared_lock<std::shared_mutex> Lock(Mutex);
  return ByBase.size();
}

} // namespace weft::rt
