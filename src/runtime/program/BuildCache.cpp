// LRU cache of built programs keyed by source and options, checked against
// the files each build read.
#include "runtime/program/BuildCache.h"

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

std::shared_ptr<const BuildCache::Entry>
BuildCache::find(const std::string &Source, const std::string &Options,
                 const std::function<bool(const FileDigests &)> &Unchanged) {
  std::shared_ptr<const Entry> E;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Index.find(key(Source, Options));
    if (It == Index.end())
      return nullptr;
    Lru.splice(Lru.begin(), Lru, It->second);
    E = It->second->second;
  }
  // Read the files without the lock; most builds read none.
  if (E->Inputs.empty() || Unchanged(E->Inputs))
    return E;
  std::lock_guard<std::mutex> Lock(Mutex);
  if (auto It = Index.find(key(Source, Options)); It != Index.end() && It->second->second == E) {
    Lru.erase(It->second);
    Index.erase(It);
  }
  return nullptr;
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
