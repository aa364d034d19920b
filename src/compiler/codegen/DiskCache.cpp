#include "compiler/codegen/DiskCache.h"

#include "runtime/BuildIdentity.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/SHA256.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace weft::compiler {

namespace {

constexpr char Magic[8] = {'W', 'E', 'F', 'T', 'K', 'C', '1', '2'};

// The entry format: Magic, then length-prefixed fields (little-endian
// 64-bit lengths and numbers), then the SHA-256 of everything before it.
class Writer {
public:
  void u64(uint64_t V) {
    for (int I = 0; I < 8; ++I)
      Bytes.push_back(char(V >> (8 * I)));
  }
  void bytes(StringRef S) {
    u64(S.size());
    Bytes.append(S.begin(), S.end());
  }
  void bytes(const std::vector<unsigned char> &V) {
    bytes(StringRef(reinterpret_cast<const char *>(V.data()), V.size()));
  }
  std::string Bytes;
};

class Reader {
public:
  explicit Reader(StringRef Data) : Data(Data) {}
  bool u64(uint64_t &V) {
    if (Data.size() - At < 8)
      return false;
    V = 0;
    for (int I = 0; I < 8; ++I)
      V |= uint64_t(uint8_t(Data[At + I])) << (8 * I);
    At += 8;
    return true;
  }
  template <typename T> bool number(T &V) {
    uint64_t X;
    if (!u64(X))
      return false;
    V = T(X);
    return true;
  }
  bool bytes(std::string &S) {
    uint64_t N;
    if (!u64(N) || Data.size() - At < N)
      return false;
    S.assign(Data.data() + At, N);
    At += N;
    return true;
  }
  bool bytes(std::vector<unsigned char> &V) {
    std::string S;
    if (!bytes(S))
      return false;
    V.assign(S.begin(), S.end());
    return true;
  }
  bool done() const { return At == Data.size(); }

private:
  StringRef Data;
  size_t At = 0;
};

void writeKernel(Writer &W, const rt::KernelDesc &D) {
  W.bytes(D.Name);
  W.u64(D.Args.size());
  for (const rt::KernelArgDesc &A : D.Args) {
    W.u64(uint64_t(A.Kind));
    W.u64(A.Size);
    W.u64(A.AddressQualifier);
    W.u64(A.AccessQualifier);
    W.u64(A.ImageType);
    W.u64(A.TypeQualifier);
    W.bytes(A.TypeName);
    W.bytes(A.Name);
  }
  W.bytes(D.Attributes);
  for (size_t V : D.ReqdWorkGroupSize)
    W.u64(V);
  for (size_t V : D.WorkGroupSizeHint)
    W.u64(V);
  W.u64(D.UniformWorkGroupSize);
  W.u64(D.StaticLocalSize);
  W.u64(D.PrivateFrameSize);
  W.u64(D.PrivateMemSize);
  W.u64(D.UsesPrintf);
  W.u64(D.UsesSubGroups);
  W.u64(D.SubGroupSize);
  W.u64(D.RequiredSubGroupSize);
  W.u64(D.Block);
  W.u64(D.UsesDeviceEnqueue);
  W.u64(D.MayWait);
  W.u64(D.GroupFree);
  W.u64(D.GlobalStoreBytes);
  W.u64(D.ConditionArgs);
}

bool readKernel(Reader &R, rt::KernelDesc &D) {
  uint64_t NumArgs;
  if (!R.bytes(D.Name) || !R.u64(NumArgs) || NumArgs > 4096)
    return false;
  D.Args.resize(NumArgs);
  for (rt::KernelArgDesc &A : D.Args)
    if (!R.number(A.Kind) || !R.number(A.Size) || !R.number(A.AddressQualifier) ||
        !R.number(A.AccessQualifier) || !R.number(A.ImageType) || !R.number(A.TypeQualifier) || !R.bytes(A.TypeName) ||
        !R.bytes(A.Name))
      return false;
  if (!R.bytes(D.Attributes))
    return false;
  for (size_t &V : D.ReqdWorkGroupSize)
    if (!R.number(V))
      return false;
  for (size_t &V : D.WorkGroupSizeHint)
    if (!R.number(V))
      return false;
  return R.number(D.UniformWorkGroupSize) && R.number(D.StaticLocalSize) &&
         R.number(D.PrivateFrameSize) && R.number(D.PrivateMemSize) && R.number(D.UsesPrintf) &&
         R.number(D.UsesSubGroups) && R.number(D.SubGroupSize) &&
         R.number(D.RequiredSubGroupSize) && R.number(D.Block) &&
         R.number(D.UsesDeviceEnqueue) && R.number(D.MayWait) && R.number(D.GroupFree) &&
         R.number(D.GlobalStoreBytes) && R.number(D.ConditionArgs);
}

/// Writes Bytes to a unique temporary name beside Path, then renames it to
/// Path: readers see the old file, no file or the whole new one. False if
/// it could not (nothing is left behind).
bool replaceFile(const std::string &Path, StringRef Bytes) {
  SmallString<256> Temp;
  int FD;
  if (sys::fs::createUniqueFile(Path + ".tmp-%%%%%%%%", FD, Temp))
    return false;
  bool Written;
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Bytes;
    OS.close();
    Written = !OS.has_error();
    OS.clear_error();
  }
  if (!Written || sys::fs::rename(Temp, Path)) {
    sys::fs::remove(Temp);
    return false;
  }
  return true;
}

} // namespace

std::optional<DiskCache> DiskCache::fromEnvironment() {
  if (const char *Env = std::getenv("WEFT_CACHE_DIR")) {
    std::string_view V(Env);
    if (V.empty() || V == "off" || V == "0")
      return std::nullopt;
    return DiskCache(std::string(V));
  }
  SmallString<256> Dir;
  if (const char *Xdg = std::getenv("XDG_CACHE_HOME"); Xdg && *Xdg == '/')
    Dir = Xdg;
  else if (const char *Home = std::getenv("HOME"); Home && *Home)
    sys::path::append(Dir, Home, ".cache");
  else
    return std::nullopt;
  sys::path::append(Dir, "weft");
  return DiskCache(std::string(Dir.str()));
}

std::string DiskCache::key(std::string_view Target, std::initializer_list<std::string_view> Parts) {
  SHA256 H;
  auto add = [&](std::string_view S) {
    uint64_t N = S.size();
    H.update(ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(&N), sizeof(N)));
    H.update(StringRef(S.data(), S.size()));
  };
  add(StringRef(Magic, sizeof(Magic)));
  add(toHex(rt::buildIdentity()));
  add(LLVM_VERSION_STRING);
  add(Target);
  for (std::string_view P : Parts)
    add(P);
  return toHex(H.final(), /*LowerCase=*/true);
}

std::string DiskCache::hash(std::string_view Bytes) {
  return toHex(SHA256::hash(ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Bytes.data()),
                                              Bytes.size())),
               /*LowerCase=*/true);
}

std::string DiskCache::fileHash(const std::string &Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> File = MemoryBuffer::getFile(Path, /*IsText=*/false);
  if (!File)
    return "";
  StringRef Bytes = (*File)->getBuffer();
  return hash(std::string_view(Bytes.data(), Bytes.size()));
}

std::string DiskCache::path(const std::string &Key) const {
  SmallString<256> P(Dir);
  sys::path::append(P, Key + ".wkc");
  return std::string(P.str());
}

std::optional<CachedBuild> DiskCache::load(const std::string &Key) const {
  std::string Path = path(Key);
  ErrorOr<std::unique_ptr<MemoryBuffer>> File = MemoryBuffer::getFile(Path, /*IsText=*/false);
  if (!File)
    return std::nullopt;
  StringRef Data = (*File)->getBuffer();
  if (Data.size() < sizeof(Magic) + 32 ||
      Data.substr(0, sizeof(Magic)) != StringRef(Magic, sizeof(Magic)))
    return std::nullopt;
  StringRef Body = Data.drop_back(32);
  std::array<uint8_t, 32> Sum =
      SHA256::hash(ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Body.data()), Body.size()));
  if (std::memcmp(Sum.data(), Data.data() + Body.size(), 32) != 0)
    return std::nullopt;

  Reader R(Body.drop_front(sizeof(Magic)));
  std::string StoredKey;
  uint64_t NumObjects, NumKernels, NumInputs;
  CachedBuild B;
  if (!R.bytes(StoredKey) || StoredKey != Key || !R.bytes(B.Log) ||
      !R.number(B.GlobalVariableSize) || !R.bytes(B.Linked) || !R.u64(NumObjects) ||
      NumObjects > 65536)
    return std::nullopt;
  B.Objects.resize(NumObjects);
  for (std::vector<unsigned char> &Object : B.Objects)
    if (!R.bytes(Object))
      return std::nullopt;
  if (!R.u64(NumKernels) || NumKernels > 65536)
    return std::nullopt;
  B.Kernels.resize(NumKernels);
  for (rt::KernelDesc &D : B.Kernels)
    if (!readKernel(R, D))
      return std::nullopt;
  if (!R.u64(NumInputs) || NumInputs > 65536)
    return std::nullopt;
  B.Inputs.resize(NumInputs);
  for (auto &[InputPath, Hash] : B.Inputs)
    if (!R.bytes(InputPath) || !R.bytes(Hash))
      return std::nullopt;
  uint64_t Flags;
  if (!R.bytes(B.PreparedIR) || !R.u64(Flags) || Flags > 3 || !R.done())
    return std::nullopt;
  B.OptDisable = Flags & 1;
  B.Specializable = Flags & 2;
  for (const auto &[InputPath, Hash] : B.Inputs)
    if (fileHash(InputPath) != Hash)
      return std::nullopt;
  // Recently used: trim() removes the oldest entries first.
  utimensat(AT_FDCWD, Path.c_str(), nullptr, 0);
  return B;
}

void DiskCache::store(const std::string &Key, const CachedBuild &B) const {
  Writer W;
  W.Bytes.append(Magic, sizeof(Magic));
  W.bytes(Key);
  W.bytes(B.Log);
  W.u64(B.GlobalVariableSize);
  W.bytes(B.Linked);
  W.u64(B.Objects.size());
  for (const std::vector<unsigned char> &Object : B.Objects)
    W.bytes(Object);
  W.u64(B.Kernels.size());
  for (const rt::KernelDesc &D : B.Kernels)
    writeKernel(W, D);
  W.u64(B.Inputs.size());
  for (const auto &[InputPath, Hash] : B.Inputs) {
    W.bytes(InputPath);
    W.bytes(Hash);
  }
  W.bytes(B.PreparedIR);
  W.u64((B.OptDisable ? 1 : 0) | (B.Specializable ? 2 : 0));
  std::array<uint8_t, 32> Sum = SHA256::hash(
      ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(W.Bytes.data()), W.Bytes.size()));
  W.Bytes.append(reinterpret_cast<const char *>(Sum.data()), Sum.size());

  if (sys::fs::create_directories(Dir) || !replaceFile(path(Key), W.Bytes))
    return;
  account(W.Bytes.size());
}

std::string DiskCache::ledgerPath() const {
  SmallString<256> P(Dir);
  sys::path::append(P, "ledger");
  return std::string(P.str());
}

void DiskCache::account(uint64_t Written) const {
  // Per directory: the ledger's total when this process last read it plus
  // what the process has stored since.
  static std::mutex M;
  static auto *Estimates = new std::map<std::string, uint64_t>;
  std::lock_guard<std::mutex> Lock(M);
  bool InLedger = appendToLedger(Written);
  auto It = Estimates->find(Dir);
  if (It != Estimates->end() && It->second + Written <= MaxBytes) {
    It->second += Written;
    return;
  }
  // The process's first store, or its estimate passes the limit: the
  // ledger has every process's stores since the last listing.
  if (std::optional<uint64_t> Total = InLedger ? readLedger() : std::nullopt;
      Total && *Total <= MaxBytes) {
    (*Estimates)[Dir] = *Total;
    return;
  }
  (*Estimates)[Dir] = trim();
}

bool DiskCache::appendToLedger(uint64_t Bytes) const {
  // Never created here: a directory without a ledger is listed (trim()
  // writes it), so that entries stored before it existed are counted.
  int FD = ::open(ledgerPath().c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (FD < 0)
    return false;
  // One write() of a line: appends from processes storing at once do not
  // interleave.
  std::string Line = std::to_string(Bytes) + "\n";
  bool Ok = ::write(FD, Line.data(), Line.size()) == ssize_t(Line.size());
  ::close(FD);
  return Ok;
}

std::optional<uint64_t> DiskCache::readLedger() const {
  ErrorOr<std::unique_ptr<MemoryBuffer>> File =
      MemoryBuffer::getFile(ledgerPath(), /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!File)
    return std::nullopt;
  SmallVector<StringRef, 0> Lines;
  StringRef((*File)->getBuffer()).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  uint64_t Total = 0;
  for (StringRef L : Lines) {
    uint64_t N;
    // A line that is not a number (a damaged ledger) makes the total
    // unknown: the caller lists the directory and writes a new ledger.
    if (L.getAsInteger(10, N) || Total + N < Total)
      return std::nullopt;
    Total += N;
  }
  // A long ledger is folded into one line, so that reading it stays cheap.
  // Lines other processes append meanwhile are lost; the total then runs
  // short by them until the next listing.
  if (Lines.size() > MaxLedgerLines)
    writeLedger(Total);
  return Total;
}

void DiskCache::writeLedger(uint64_t Total) const {
  replaceFile(ledgerPath(), std::to_string(Total) + "\n");
}

uint64_t DiskCache::trim() const {
  struct Entry {
    std::string Path;
    uint64_t Size;
    sys::TimePoint<> Time;
  };
  std::vector<Entry> Entries;
  uint64_t Total = 0;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC)) {
    if (sys::path::extension(It->path()) != ".wkc")
      continue;
    sys::fs::file_status St;
    if (sys::fs::status(It->path(), St))
      continue;
    Entries.push_back({It->path(), St.getSize(), St.getLastModificationTime()});
    Total += St.getSize();
  }
  if (Total > MaxBytes) {
    std::sort(Entries.begin(), Entries.end(),
              [](const Entry &A, const Entry &B) { return A.Time < B.Time; });
    for (const Entry &E : Entries) {
      if (Total <= MaxBytes / 4 * 3)
        break;
      if (!sys::fs::remove(E.Path))
        Total -= E.Size;
    }
  }
  // Stores other processes make between the listing and this rename are
  // lost to the ledger: the total runs short by them until the next listing.
  writeLedger(Total);
  return Total;
}

} // namespace weft::compiler
