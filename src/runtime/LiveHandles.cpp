// The set of live handles (LiveHandles.h).
#include "runtime/LiveHandles.h"

#include <cstdint>
#include <mutex>
#include <unordered_set>

namespace weft::rt::handles {

namespace {

struct alignas(64) Shard {
  std::mutex Mutex;
  std::unordered_set<const void *> Handles;
};

constexpr size_t ShardCount = 64;

Shard &shardOf(const void *Handle) {
  // Never destroyed: an application may release objects from its own
  // static destructors, after ours would have run.
  static Shard *Shards = new Shard[ShardCount];
  // Objects are at least 64 bytes apart: the low bits say nothing.
  return Shards[(reinterpret_cast<uintptr_t>(Handle) >> 6) % ShardCount];
}

} // namespace

void add(const void *Handle) {
  Shard &S = shardOf(Handle);
  std::lock_guard<std::mutex> Lock(S.Mutex);
  S.Handles.insert(Handle);
}

void remove(const void *Handle) {
  Shard &S = shardOf(Handle);
  std::lock_guard<std::mutex> Lock(S.Mutex);
  S.Handles.erase(Handle);
}

bool live(const void *Handle) {
  Shard &S = shardOf(Handle);
  std::lock_guard<std::mutex> Lock(S.Mutex);
  return S.Handles.count(Handle) != 0;
}

} // namespace weft::rt::handles
