// Program building: hands source and options to the compiler, keeps the log.
#include "runtime/Program.h"

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
