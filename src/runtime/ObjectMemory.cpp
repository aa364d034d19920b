// The runtime's object allocator on oneTBB's scalable allocator
// (ObjectMemory.h).
#include "runtime/ObjectMemory.h"

#include <tbb/scalable_allocator.h>

namespace weft::rt {

void *allocateObject(std::size_t Bytes) {
  if (void *P = scalable_malloc(Bytes ? Bytes : 1))
    return P;
  throw std::bad_alloc();
}

void freeObject(void *P) noexcept { scalable_free(P); }

} // namespace weft::rt
