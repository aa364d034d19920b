// Memory for the objects of a command: allocated on the thread that
// enqueues, freed on the worker that ends the command.
//
// glibc's malloc gives each thread's chunks back to the arena they came
// from, under that arena's lock: with the host enqueuing and a worker
// freeing, the two threads meet on that lock for every command (measured:
// the worker slept on it for most of a stream of tiny kernels). oneTBB's
// scalable allocator (libtbbmalloc, Debian's libtbbmalloc2) keeps a heap
// per thread and hands a remote free back to the owner's heap without a
// shared lock. The runtime uses it for commands, events, launches and
// their argument blocks; everything else stays on malloc. (The only TBB
// the runtime layer links: the allocator, not the scheduler.)
#pragma once

#include <cstddef>
#include <new>

namespace weft::rt {

void *allocateObject(std::size_t Bytes);
void freeObject(void *P) noexcept;

/// A standard allocator on allocateObject, for containers and
/// std::allocate_shared.
template <typename T> struct ObjectAllocator {
  using value_type = T;
  ObjectAllocator() = default;
  template <typename U> ObjectAllocator(const ObjectAllocator<U> &) {}
  T *allocate(std::size_t N) { return static_cast<T *>(allocateObject(N * sizeof(T))); }
  void deallocate(T *P, std::size_t) noexcept { freeObject(P); }
  template <typename U> bool operator==(const ObjectAllocator<U> &) const { return true; }
  template <typename U> bool operator!=(const ObjectAllocator<U> &) const { return false; }
};

/// A base that gives a class's new and delete to allocateObject.
struct ObjectMemory {
  static void *operator new(std::size_t Bytes) { return allocateObject(Bytes); }
  static void operator delete(void *P) noexcept { freeObject(P); }
};

} // namespace weft::rt
