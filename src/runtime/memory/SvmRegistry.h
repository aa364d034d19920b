// The SVM allocations of one context: the memory clSVMAlloc hands out, and
// which allocation holds a pointer, at what offset. clSetKernelArgSVMPointer,
// the SVM commands and CL_MEM_USES_SVM_POINTER all ask it (a pointer
// anywhere inside an allocation names that allocation).
//
// Host and device share one address space, so an SVM allocation of any
// kind (coarse-grained, fine-grained, with atomics) is plain host memory
// aligned as asked; the flags are recorded, not acted on. The registry owns
// what allocate() made and frees what is left when the context goes.
//
// Lookups outnumber changes by far, so they take a shared lock; the map is
// ordered by base address, and the allocation holding P is the one with the
// greatest base not above P, if P lies before its end.
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

  SvmRegistry() = default;
  SvmRegistry(const SvmRegistry &) = delete;
  SvmRegistry &operator=(const SvmRegistry &) = delete;
  /// Frees every allocation free() has not.
  ~SvmRegistry();

  /// New memory of Size > 0 bytes aligned to Alignment (a power of two),
  /// recorded with Flags; null if the host has no memory for it.
  void *allocate(size_t Size, size_t Alignment, cl_svm_mem_flags Flags);
  /// Forgets and frees the allocation at Base; false (and nothing happens)
  /// if Base is no allocation's base.
  bool free(void *Base);

  /// The allocation holding Ptr (anywhere in [Base, Base + Size)), or
  /// nullopt.
  std::optional<Location> find(const void *Ptr) const;
  size_t count() const;

private:
  mutable std::shared_mutex Mutex;
  std::map<uintptr_t, Allocation> ByBase;
};

} // namespace weft::rt
