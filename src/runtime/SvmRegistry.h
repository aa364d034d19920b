// The SVM allocations of one context: which allocation holds a pointer, and
// at what offset. clSetKernelArgSVMPointer, the SVM commands and
// CL_MEM_USES_SVM_POINTER all ask it (a pointer anywhere inside an
// allocation names that allocation); clSVMAlloc adds and clSVMFree removes.
//
// Lookups outnumber changes by far (every SVM argument of every enqueue),
// so they take a shared lock; the map is ordered by base address, and the
// allocation holding P is the one with the greatest base not above P, if P
// lies before its end.
#pragma once

#include <CL/cl.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <shared_mutex>

namespace weft::rt {

class SvmRegistry {
public:
  struct Allocation {
    void *Base = nullptr;
    size_t Size = 0;
    cl_svm_mem_flags Flags = 0;
  };
  /// An allocation and where in it a pointer points.
  struct Location {
    Allocation Alloc;
    size_t Offset = 0;
  };

  /// Records [Base, Base + Size); Size > 0, and no recorded allocation
  /// overlaps it (allocations come from the allocator).
  void add(void *Base, size_t Size, cl_svm_mem_flags Flags);
  /// Forgets the allocation at Base (its base exactly); what it was, or
  /// nullopt if Base is no allocation's base.
  std::optional<Allocation> remove(void *Base);
  /// The allocation holding Ptr (anywhere in [Base, Base + Size)), or
  /// nullopt.
  std::optional<Location> find(const void *Ptr) const;
  size_t count() const;

private:
  mutable std::shared_mutex Mutex;
  std::map<uintptr_t, Allocation> ByBase;
};

} // namespace weft::rt
