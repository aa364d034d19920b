// The on-disk kernel cache: built programs as their prepared module plus
// everything the runtime needs besides (kernel descriptions, log, global
// variable size, the translated module of an IL build), keyed by what
// determines the build, so that building the same program in a later
// process skips the front end and the kernel pipeline; and the object code
// of each kernel compiled since, in an entry of its own keyed by the
// program's key and the kernel's name, so that its launch skips code
// generation too.
//
// The key hashes (SHA-256) the build's inputs (source or SPIR-V and
// specialization constants, options) with the compiler's identity (the GNU
// build ID of the binary holding this code, so any change to Weft, its
// passes or its builtins is a new key; LLVM's version) and the device (the
// host CPU and its features). Files a source build read from disk (-I
// headers) are recorded with a hash of their contents and checked when the
// entry is loaded. An entry is one file, written to a temporary name and
// renamed, ending in a SHA-256 of its contents: a torn or corrupt entry is
// a miss, never a wrong program. The cache keeps to MaxBytes by removing
// the entries least recently used (loads refresh the modification time).
// Listing the directory costs a stat per entry (over a second for a full
// cache of small entries), so the total is kept in a ledger beside the
// entries: a listing writes it, every store appends its size, and a process
// reads it at its first store and when its own estimate passes MaxBytes; it
// lists the directory only when the ledger's total passes MaxBytes, or when
// there is no ledger.
// Entries are files named <key>.wkc, the ledger is "ledger"; nothing else in
// the directory is touched.
//
// WEFT_CACHE_DIR selects the directory; "off" (or "0", or empty) disables
// the cache. Unset, it is $XDG_CACHE_HOME/weft or $HOME/.cache/weft.
#pragma once

#include "runtime/program/ProgramCompiler.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace weft::compiler {

/// A build as the cache keeps it (ProgramParts.h): the prepared program
/// and its variables part; or, in an entry of its own, the object of one
/// of its kernels (Objects alone).
struct CachedBuild {
  std::vector<rt::KernelDesc> Kernels;
  std::string Log;
  size_t GlobalVariableSize = 0;
  std::vector<unsigned char> Linked;
  /// The variables part's object, if the program has one; a kernel's
  /// entry: the kernel's object.
  std::vector<std::vector<unsigned char>> Objects;
  /// Files the build read: path and SHA-256 of the contents.
  std::vector<std::pair<std::string, std::string>> Inputs;
  /// The program as the kernel pipeline prepared it, made splittable, from
  /// which its kernels are compiled (JitExecutable::lookup).
  std::vector<unsigned char> PreparedIR;
  /// PreparedProgram's flags.
  bool OptDisable = false;
  bool Specializable = false;
};

class DiskCache {
public:
  /// The cache the environment selects, or nullopt when it is disabled or
  /// has no home.
  static std::optional<DiskCache> fromEnvironment();
  explicit DiskCache(std::string Directory, uint64_t MaxBytes = DefaultMaxBytes)
      : Dir(std::move(Directory)), MaxBytes(MaxBytes) {}

  /// The key of a build from Parts (each part counts with its length, so
  /// ("ab","c") and ("a","bc") differ) for the device Target ("cpu
  /// features").
  static std::string key(std::string_view Target, std::initializer_list<std::string_view> Parts);
  /// SHA-256 of Bytes in hex (how CachedBuild::Inputs records a file).
  static std::string hash(std::string_view Bytes);
  /// hash() of a file's contents, or "" if it cannot be read.
  static std::string fileHash(const std::string &Path);

  /// The entry for Key if there is a complete one whose inputs are
  /// unchanged.
  std::optional<CachedBuild> load(const std::string &Key) const;
  /// Stores B under Key (best effort: a cache that cannot be written is a
  /// cache that misses), then keeps the cache to MaxBytes: when the entries
  /// exceed it, the least recently used go until 3/4 of it is left.
  void store(const std::string &Key, const CachedBuild &B) const;

  const std::string &directory() const { return Dir; }
  static constexpr uint64_t DefaultMaxBytes = uint64_t(512) << 20;

private:
  std::string path(const std::string &Key) const;
  std::string ledgerPath() const;
  /// Counts Written bytes just stored, in the ledger and in the process's
  /// estimate of the total; trims when the ledger's total passes MaxBytes.
  void account(uint64_t Written) const;
  /// Appends a line "<Bytes>" to an existing ledger; false if there is none
  /// or it cannot be written.
  bool appendToLedger(uint64_t Bytes) const;
  /// The sum of the ledger's lines; nullopt if it is missing or damaged.
  std::optional<uint64_t> readLedger() const;
  /// Replaces the ledger by one line, Total.
  void writeLedger(uint64_t Total) const;
  /// Lists the entries, removes the least recently used if they exceed
  /// MaxBytes, writes the total left to the ledger and returns it.
  uint64_t trim() const;
  /// A ledger longer than this is folded into one line when read.
  static constexpr size_t MaxLedgerLines = 1024;
  std::string Dir;
  uint64_t MaxBytes;
};

} // namespace weft::compiler
