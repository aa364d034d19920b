// An in-process cache of built programs, so that building the same source
// with the same options again (a fresh program object, another context, a
// library that rebuilds its kernels) skips the compiler entirely. An entry
// is the same build only while the headers it read are unchanged: find()
// asks the caller whether they are, and a stale entry is a miss (and goes).
//
// Executables are immutable and thread-safe, so programs share them. The
// cache holds the most recently used entries up to a fixed count; failed
// builds are not cached.
#pragma once

#include "runtime/program/ProgramCompiler.h"

#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace weft::rt {

class BuildCache {
public:
  struct Entry {
    std::shared_ptr<Executable> Exe;
    std::vector<KernelDesc> Kernels;
    std::string Log;
    /// The files the build read (BuildOutput::Inputs).
    FileDigests Inputs;
  };

  static BuildCache &get();

  /// The entry for (Source, Options) whose inputs are Unchanged, or null.
  std::shared_ptr<const Entry> find(const std::string &Source, const std::string &Options,
                                    const std::function<bool(const FileDigests &)> &Unchanged);
  void insert(const std::string &Source, const std::string &Options,
              std::shared_ptr<const Entry> E);

private:
  static constexpr size_t Capacity = 64;
  static std::string key(const std::string &Source, const std::string &Options);

  std::mutex Mutex;
  std::list<std::pair<std::string, std::shared_ptr<const Entry>>> Lru; // front: newest
  std::unordered_map<std::string, decltype(Lru)::iterator> Index;
};

} // namespace weft::rt
