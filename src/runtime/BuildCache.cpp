// LRU cache of built programs keyed by source and options.
#include "runtime/BuildCache.h"

namespace weft::rt {

BuildCache &BuildCache::get() {
  static BuildCache *C = new BuildCache(); // lives as long as the process
  return *C;
}

std::string BuildCache::key(const std::string &Source, const std::string &Options) {
  // The options first, length-prefixed, so no two (source, options) pairs
  // share a key.
  return std::to_string(Options.size()) + ':' + Options + Source;
}

std::shared_ptr<const BuildCache::Entry> BuildCache::find(const std::string &Source,
                                                          const std::string &Options) {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = Index.find(key(Source, Options));
  if (It == Index.end())
    return nullptr;
  Lru.splice(Lru.begin(), Lru, It->second);
  return It->second->second;
}

void BuildCache::insert(const std::string &Source, const std::string &Options,
                        std::shared_ptr<const Entry> E) {
  std::string K = key(Source, Options);
  std::lock_guard<std::mutex> Lock(Mutex);
  if (auto It = Index.find(K); It != Index.end()) {
    Lru.erase(It->second);
    Index.erase(It);
  }
  Lru.emplace_front(K, std::move(E));
  Index[std::move(K)] = Lru.begin();
  while (Lru.size() > Capacity) {
    Index.erase(Lru.back().first);
    Lru.pop_back();
  }
}

} // namespace weft::rt
