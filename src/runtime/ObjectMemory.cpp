// The runtime's object allocator on oneTBB's scalable allocator
// (ObjectMemory.h).
#include "runtime/ObjectMemory.h"

#include <tbb/scalable_allocator.h>

#include <cstdlib>

// Under a sanitizer the objects stay on malloc, which the sanitizer
// intercepts: AddressSanitizer then sees a use after free of an event or a
// command, and ThreadSanitizer sees the reuse of a block across threads
// (libtbbmalloc's own synchronization is not instrumented).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define WEFT_OBJECTS_ON_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define WEFT_OBJECTS_ON_MALLOC 1
#endif
#endif

namespace weft::rt {

void *allocateObject(std::size_t Bytes) {
#if defined(WEFT_OBJECTS_ON_MALLOC)
  void *P = std::malloc(Bytes ? Bytes : 1);
#else
  void *P = scalable_malloc(Bytes ? Bytes : 1);
#endif
  if (!P)
    throw std::bad_alloc();
  return P;
}

void freeObject(void *P) noexcept {
#if defined(WEFT_OBJECTS_ON_MALLOC)
  std::free(P);
#else
  scalable_free(P);
#endif
}

} // namespace weft::rt
