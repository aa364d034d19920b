// Program building: hands source and options to the compiler, keeps the log.
#include "runtime/Program.h"
#include "runtime/BuildCache.h"
#include "runtime/Capabilities.h"

#include <cctype>
#include <cstdio>
#include <cstring>

namespace weft::rt {

Program::Program(Context &C, std::string Src) : Ctx(&C), Source(std::move(Src)) {}

namespace {
// Binary container: magic, format version, then length-prefixed fields.
constexpr char BinaryMagic[8] = {'W', 'E', 'F', 'T', 'B', 'I', 'N', '\0'};
constexpr uint32_t BinaryFormatVersion = 1;

void putField(std::vector<unsigned char> &Out, const std::string &S) {
  uint64_t Len = S.size();
  Out.insert(Out.end(), reinterpret_cast<const unsigned char *>(&Len),
             reinterpret_cast<const unsigned char *>(&Len) + sizeof(Len));
  Out.insert(Out.end(), S.begin(), S.end());
}

bool getField(const unsigned char *&P, const unsigned char *End, std::string &S) {
  uint64_t Len;
  if (size_t(End - P) < sizeof(Len))
    return false;
  std::memcpy(&Len, P, sizeof(Len));
  P += sizeof(Len);
  if (uint64_t(End - P) < Len)
    return false;
  S.assign(reinterpret_cast<const char *>(P), Len);
  P += Len;
  return true;
}
} // namespace

Result<Ref<Program>> Program::fromBinary(Context &C, const unsigned char *Data, size_t Size) {
  const unsigned char *P = Data, *End = Data + Size;
  uint32_t Version;
  if (Size < sizeof(BinaryMagic) + sizeof(Version) ||
      std::memcmp(P, BinaryMagic, sizeof(BinaryMagic)) != 0)
    return makeError(CL_INVALID_BINARY, "not a Weft program binary");
  P += sizeof(BinaryMagic);
  std::memcpy(&Version, P, sizeof(Version));
  P += sizeof(Version);
  if (Version != BinaryFormatVersion)
    return makeError(CL_INVALID_BINARY, "Weft binary format " + std::to_string(Version) +
                                            " is not supported");
  std::string Src, Opts;
  if (!getField(P, End, Src) || !getField(P, End, Opts) || P != End)
    return makeError(CL_INVALID_BINARY, "truncated or corrupt Weft program binary");
  auto Prog = Ref<Program>::adopt(new Program(C, std::move(Src)));
  Prog->FromBinary = true;
  Prog->Options = std::move(Opts);
  return Prog;
}

std::vector<unsigned char> Program::serializeBinary() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::vector<unsigned char> Out(BinaryMagic, BinaryMagic + sizeof(BinaryMagic));
  Out.insert(Out.end(), reinterpret_cast<const unsigned char *>(&BinaryFormatVersion),
             reinterpret_cast<const unsigned char *>(&BinaryFormatVersion) + 4);
  putField(Out, Source);
  putField(Out, Options);
  return Out;
}

namespace {
/// "-cl-std=CLx.y will fail to compile the program for any device whose
/// CL_DEVICE_OPENCL_C_ALL_VERSIONS does not include OpenCL C x.y". The
/// compiler itself knows every version; what the device reports decides.
Status checkOpenCLCVersion(const std::string &Options) {
  size_t Pos = Options.rfind("-cl-std=");
  if (Pos == std::string::npos || (Pos > 0 && !std::isspace((unsigned char)Options[Pos - 1])))
    return {};
  std::string Value = Options.substr(Pos + 8, Options.find_first_of(" \t\n", Pos) - Pos - 8);
  unsigned Major = 0, Minor = 0;
  // Only the versions the language has; anything else is a malformed option,
  // which the compiler reports as CL_INVALID_BUILD_OPTIONS.
  if (Value != "CL1.0" && Value != "CL1.1" && Value != "CL1.2" && Value != "CL2.0" &&
      Value != "CL3.0")
    return {};
  std::sscanf(Value.c_str(), "CL%u.%u", &Major, &Minor);
  for (const NamedVersion &V : OpenCLCVersions)
    if (CL_VERSION_MAJOR(V.Version) == Major && CL_VERSION_MINOR(V.Version) == Minor)
      return {};
  return makeError(CL_BUILD_PROGRAM_FAILURE,
                   "error: -cl-std=" + Value + ": the device does not support OpenCL C " +
                       std::to_string(Major) + "." + std::to_string(Minor) +
                       " (see CL_DEVICE_OPENCL_C_ALL_VERSIONS)\n");
}
} // namespace

Status Program::build(const std::string &Opts) {
  if (AttachedKernels > 0)
    return makeError(CL_INVALID_OPERATION, "kernel objects are attached to the program");
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (BuildStatus == CL_BUILD_IN_PROGRESS)
      return makeError(CL_INVALID_OPERATION, "a build of the program is in progress");
    BuildStatus = CL_BUILD_IN_PROGRESS;
    Options = Opts;
  }
  if (Status S = checkOpenCLCVersion(Opts); !S) {
    std::lock_guard<std::mutex> Lock(Mutex);
    BuildStatus = CL_BUILD_ERROR;
    Log = S.error().Why;
    return S;
  }
  if (auto Hit = BuildCache::get().find(Source, Opts)) {
    std::lock_guard<std::mutex> Lock(Mutex);
    BuildStatus = CL_BUILD_SUCCESS;
    Log = Hit->Log;
    Exe = Hit->Exe;
    Kernels = Hit->Kernels;
    return {};
  }
  auto Out = ProgramCompiler::get().buildSource(Source, Opts);
  std::lock_guard<std::mutex> Lock(Mutex);
  if (auto *Fail = std::get_if<BuildFailure>(&Out)) {
    BuildStatus = CL_BUILD_ERROR;
    Log = Fail->Log;
    Exe.reset();
    Kernels.clear();
    return makeError(Fail->Code, "clBuildProgram failed:\n" + Fail->Log);
  }
  auto &Ok = std::get<BuildOutput>(Out);
  BuildStatus = CL_BUILD_SUCCESS;
  Log = std::move(Ok.Log);
  Exe = std::move(Ok.Exe);
  Kernels = std::move(Ok.Kernels);
  // Shareable while executables hold no per-program state (no program-scope
  // variables yet).
  BuildCache::get().insert(Source, Opts,
                           std::make_shared<BuildCache::Entry>(BuildCache::Entry{Exe, Kernels, Log}));
  return {};
}

cl_build_status Program::buildStatus() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return BuildStatus;
}

std::string Program::buildLog() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Log;
}

std::string Program::buildOptions() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Options;
}

std::vector<KernelDesc> Program::kernels() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Kernels;
}

std::shared_ptr<Executable> Program::executable() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Exe;
}

} // namespace weft::rt
