// The pointer -> (allocation, offset) map of a context's SVM allocations.
#include "runtime/SvmRegistry.h"

#include <mutex>

namespace weft::rt {

void SvmRegistry::add(void *Base, size_t Size, cl_svm_mem_flags Flags) {
  std::unique_lock<std::shared_mutex> Lock(Mutex);
  ByBase[reinterpret_cast<uintptr_t>(Base)] = Allocation{Base, Size, Flags};
}

std::optional<SvmRegistry::Allocation> SvmRegistry::remove(void *Base) {
  std::unique_lock<std::shared_mutex> Lock(Mutex);
  auto It = ByBase.find(reinterpret_cast<uintptr_t>(Base));
  if (It == ByBase.end())
    return std::nullopt;
  Allocation A = It->second;
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
  if (Offset >= It->second.Size)
    return std::nullopt;
  return Location{It->second, Offset};
}

size_t SvmRegistry::count() const {
  std::shared_lock<std::shared_mutex> Lock(Mutex);
  return ByBase.size();
}

} // namespace weft::rt
