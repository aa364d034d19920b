// Program building, compiling and linking: hands source or objects and the
// options to the compiler, keeps the log, the binary type and the result;
// and the program binary container.
#include "runtime/program/Program.h"
#include "runtime/platform/Capabilities.h"
#include "runtime/program/BuildCache.h"

#include <cctype>
#include <cstdio>
#include <cstring>

namespace weft::rt {

Program::Program(Context &C, std::string Src) : Ctx(&C), Source(std::move(Src)) {}

namespace {
// Binary container: magic, format version, the binary type (uint32), then
// length-prefixed fields: source, options, bitcode. Format 2 added the type
// and the bitcode (compiled objects, libraries, linked executables).
constexpr char BinaryMagic[8] = {'W', 'E', 'F', 'T', 'B', 'I', 'N', '\0'};
constexpr uint32_t BinaryFormatVersion = 2;

void putWord(std::vector<unsigned char> &Out, uint32_t W) {
  Out.insert(Out.end(), reinterpret_cast<const unsigned char *>(&W),
             reinterpret_cast<const unsigned char *>(&W) + sizeof(W));
}

void putBytes(std::vector<unsigned char> &Out, const unsigned char *Data, uint64_t Len) {
  Out.insert(Out.end(), reinterpret_cast<const unsigned char *>(&Len),
             reinterpret_cast<const unsigned char *>(&Len) + sizeof(Len));
  Out.insert(Out.end(), Data, Data + Len);
}

void putField(std::vector<unsigned char> &Out, const std::string &S) {
  putBytes(Out, reinterpret_cast<const unsigned char *>(S.data()), S.size());
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
  uint32_t Type;
  std::string Src, Opts, Code;
  if (size_t(End - P) < sizeof(Type))
    return makeError(CL_INVALID_BINARY, "truncated Weft program binary");
  std::memcpy(&Type, P, sizeof(Type));
  P += sizeof(Type);
  if (!getField(P, End, Src) || !getField(P, End, Opts) || !getField(P, End, Code) || P != End)
    return makeError(CL_INVALID_BINARY, "truncated or corrupt Weft program binary");
  bool Valid =
      Type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE ? !Src.empty() || !Code.empty()
      : Type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT || Type == CL_PROGRAM_BINARY_TYPE_LIBRARY
          ? !Code.empty()
          : false;
  if (!Valid)
    return makeError(CL_INVALID_BINARY, "Weft program binary of an unknown type or without code");
  auto Prog = Ref<Program>::adopt(new Program(C, std::move(Src)));
  Prog->From = ProgramOrigin::Binary;
  Prog->Options = Opts;
  Prog->SourceOptions = std::move(Opts);
  Prog->BinaryType = Type;
  Prog->Bitcode.assign(Code.begin(), Code.end());
  return Prog;
}

Result<Ref<Program>> Program::fromIL(Context &C, const unsigned char *Data, size_t Size) {
  std::vector<unsigned char> Bytes(Data, Data + Size);
  if (std::string Why = ProgramCompiler::get().checkIL(Bytes); !Why.empty())
    return makeError(CL_INVALID_VALUE, Why);
  auto Prog = Ref<Program>::adopt(new Program(C, std::string()));
  Prog->From = ProgramOrigin::IL;
  Prog->SpecConstantSizes = ProgramCompiler::get().ilSpecConstants(Bytes);
  Prog->IL.Bytes = std::move(Bytes);
  return Prog;
}

Status Program::setSpecConstant(cl_uint Id, size_t Size, const void *Value) {
  if (From != ProgramOrigin::IL)
    return makeError(CL_INVALID_OPERATION, "the program was not created from IL");
  auto It = SpecConstantSizes.find(Id);
  if (It == SpecConstantSizes.end())
    return makeError(CL_INVALID_SPEC_ID, "the module has no specialization constant " +
                                             std::to_string(Id));
  if (Size != It->second || Size > sizeof(uint64_t))
    return makeError(CL_INVALID_VALUE, "specialization constant " + std::to_string(Id) + " has " +
                                           std::to_string(It->second) + " bytes, not " +
                                           std::to_string(Size));
  if (!Value)
    return makeError(CL_INVALID_VALUE, "spec_value is NULL");
  uint64_t Bits = 0;
  std::memcpy(&Bits, Value, Size); // little-endian host: zero-extended
  std::lock_guard<std::mutex> Lock(Mutex);
  IL.SpecValues[Id] = Bits;
  return {};
}

std::vector<unsigned char> Program::serializeBinary() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::vector<unsigned char> Out(BinaryMagic, BinaryMagic + sizeof(BinaryMagic));
  putWord(Out, BinaryFormatVersion);
  putWord(Out, uint32_t(BinaryType));
  putField(Out, Source);
  putField(Out, SourceOptions);
  putBytes(Out, Bitcode.data(), Bitcode.size());
  return Out;
}

namespace {
/// "-cl-std=CLx.y will fail to compile the program for any device whose
/// CL_DEVICE_OPENCL_C_ALL_VERSIONS does not include OpenCL C x.y". The
/// compiler itself knows every version; what the device reports decides.
Status checkOpenCLCVersion(const std::string &Options, cl_int FailCode) {
  size_t Pos = Options.rfind("-cl-std=");
  if (Pos == std::string::npos || (Pos > 0 && !std::isspace((unsigned char)Options[Pos - 1])))
    return {};
  std::string Value = Options.substr(Pos + 8, Options.find_first_of(" \t\n", Pos) - Pos - 8);
  unsigned Major = 0, Minor = 0;
  // Only the versions the language has; anything else is a malformed option,
  // which the compiler reports as CL_INVALID_BUILD_OPTIONS.
  if (Value != "CL1.0" && Value != "CL1.1" && Value != "CL1.2" && Value != "CL2.0" &&
      Value != "CL3.0" && Value != "CL3.1")
    return {};
  std::sscanf(Value.c_str(), "CL%u.%u", &Major, &Minor);
  for (const NamedVersion &V : OpenCLCVersions)
    if (CL_VERSION_MAJOR(V.Version) == Major && CL_VERSION_MINOR(V.Version) == Minor)
      return {};
  return makeError(FailCode, "error: -cl-std=" + Value + ": the device does not support OpenCL C " +
                                 std::to_string(Major) + "." + std::to_string(Minor) +
                                 " (see CL_DEVICE_OPENCL_C_ALL_VERSIONS)\n");
}
} // namespace

Status Program::begin(const std::string &Opts) {
  if (AttachedKernels > 0)
    return makeError(CL_INVALID_OPERATION, "kernel objects are attached to the program");
  std::lock_guard<std::mutex> Lock(Mutex);
  if (BuildStatus == CL_BUILD_IN_PROGRESS)
    return makeError(CL_INVALID_OPERATION, "a build of the program is in progress");
  BuildStatus = CL_BUILD_IN_PROGRESS;
  Options = Opts;
  return {};
}

Status Program::fail(cl_int Code, const std::string &Why, std::string FailLog) {
  std::lock_guard<std::mutex> Lock(Mutex);
  BuildStatus = CL_BUILD_ERROR;
  BinaryType = CL_PROGRAM_BINARY_TYPE_NONE;
  Log = std::move(FailLog);
  Exe.reset();
  Kernels.clear();
  GlobalVariableSize = 0;
  return makeError(Code, Why + ":\n" + Log);
}

Status Program::build(const std::string &Opts) {
  if (Status S = begin(Opts); !S)
    return S;
  if (From == ProgramOrigin::Binary && !Bitcode.empty())
    return buildFromBitcode();
  if (From == ProgramOrigin::IL)
    return buildFromIL(Opts);
  // An executable's binary carries its source and the options it was
  // compiled with: the build options were meant for the front end, which
  // that code has already been through (as for buildFromBitcode).
  std::string Compile;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Compile = From == ProgramOrigin::Binary ? SourceOptions : Opts;
  }
  if (Status S = checkOpenCLCVersion(Compile, CL_BUILD_PROGRAM_FAILURE); !S)
    return fail(S.error().Code, "clBuildProgram failed", S.error().Why);
  auto Unchanged = [](const FileDigests &In) { return ProgramCompiler::get().inputsUnchanged(In); };
  if (auto Hit = BuildCache::get().find(Source, Compile, Unchanged)) {
    std::lock_guard<std::mutex> Lock(Mutex);
    BuildStatus = CL_BUILD_SUCCESS;
    BinaryType = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    Log = Hit->Log;
    Exe = Hit->Exe;
    Kernels = Hit->Kernels;
    GlobalVariableSize = 0;
    Bitcode.clear();
    SourceOptions = Compile;
    return {};
  }
  auto Out = ProgramCompiler::get().buildSource(Source, Compile);
  if (auto *Fail = std::get_if<BuildFailure>(&Out))
    return fail(Fail->Code, "clBuildProgram failed", std::move(Fail->Log));
  std::lock_guard<std::mutex> Lock(Mutex);
  // Bitcode: a compiled object this program may have held goes.
  FileDigests Inputs = std::move(std::get<BuildOutput>(Out).Inputs);
  succeed(std::get<BuildOutput>(Out), {});
  SourceOptions = Compile;
  // An executable is shareable unless it holds program-scope variables,
  // which belong to this program alone.
  if (GlobalVariableSize == 0)
    BuildCache::get().insert(Source, Compile,
                             std::make_shared<BuildCache::Entry>(
                                 BuildCache::Entry{Exe, Kernels, Log, std::move(Inputs)}));
  return {};
}

Status Program::buildFromIL(const std::string &Opts) {
  IntermediateLanguage Input;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Input = IL;
  }
  auto Out = ProgramCompiler::get().buildIL(Input, Opts);
  if (auto *Fail = std::get_if<BuildFailure>(&Out))
    return fail(Fail->Code, "clBuildProgram failed", std::move(Fail->Log));
  std::lock_guard<std::mutex> Lock(Mutex);
  // The translated module: what the program binary carries, so a program
  // made from that binary builds without the IL.
  auto &Ok = std::get<BuildOutput>(Out);
  succeed(Ok, std::move(Ok.Linked));
  return {};
}

void Program::succeed(BuildOutput &Ok, std::vector<unsigned char> Code) {
  BuildStatus = CL_BUILD_SUCCESS;
  BinaryType = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  Log = std::move(Ok.Log);
  Exe = std::move(Ok.Exe);
  Kernels = std::move(Ok.Kernels);
  GlobalVariableSize = Ok.GlobalVariableSize;
  Bitcode = std::move(Code);
}

Status Program::buildFromBitcode() {
  // The build options were meant for the front end, which this code has
  // already been through; the link runs with none.
  auto Out = ProgramCompiler::get().link({Bitcode}, "");
  if (auto *Fail = std::get_if<BuildFailure>(&Out))
    return fail(CL_BUILD_PROGRAM_FAILURE, "clBuildProgram failed", std::move(Fail->Log));
  auto *Ok = std::get_if<BuildOutput>(&Out);
  if (!Ok)
    return fail(CL_BUILD_PROGRAM_FAILURE, "clBuildProgram failed",
                "error: the binary did not link to an executable\n");
  std::lock_guard<std::mutex> Lock(Mutex);
  succeed(*Ok, std::move(Ok->Linked));
  return {};
}

Status Program::compile(const std::string &Opts, const std::vector<EmbeddedHeader> &Headers) {
  if (Status S = begin(Opts); !S)
    return S;
  std::variant<ObjectOutput, BuildFailure> Out;
  if (From == ProgramOrigin::IL) {
    IntermediateLanguage Input;
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Input = IL;
    }
    Out = ProgramCompiler::get().compileIL(Input, Opts);
  } else {
    if (Status S = checkOpenCLCVersion(Opts, CL_COMPILE_PROGRAM_FAILURE); !S)
      return fail(S.error().Code, "clCompileProgram failed", S.error().Why);
    Out = ProgramCompiler::get().compileSource(Source, Opts, Headers);
  }
  if (auto *Fail = std::get_if<BuildFailure>(&Out))
    return fail(Fail->Code, "clCompileProgram failed", std::move(Fail->Log));
  std::lock_guard<std::mutex> Lock(Mutex);
  auto &Ok = std::get<ObjectOutput>(Out);
  BuildStatus = CL_BUILD_SUCCESS;
  BinaryType = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
  Log = std::move(Ok.Log);
  Bitcode = std::move(Ok.Bitcode);
  SourceOptions = Opts;
  Exe.reset();
  Kernels.clear();
  GlobalVariableSize = 0;
  return {};
}

Program::LinkResult Program::link(Context &C, const std::string &Opts,
                                  const std::vector<Ref<Program>> &Inputs) {
  std::vector<std::vector<unsigned char>> Objects;
  for (const Ref<Program> &In : Inputs) {
    std::lock_guard<std::mutex> Lock(In->Mutex);
    if (In->BinaryType != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
        In->BinaryType != CL_PROGRAM_BINARY_TYPE_LIBRARY)
      return {nullptr, makeError(CL_INVALID_OPERATION,
                                 "an input program is not a compiled object or a library")};
    Objects.push_back(In->Bitcode);
  }
  auto Out = ProgramCompiler::get().link(Objects, Opts);
  auto *Fail = std::get_if<BuildFailure>(&Out);
  if (Fail && Fail->Code == CL_INVALID_LINKER_OPTIONS)
    return {nullptr, makeError(Fail->Code, Fail->Log)};
  auto Prog = Ref<Program>::adopt(new Program(C, std::string()));
  Prog->From = ProgramOrigin::Link;
  Prog->Options = Opts;
  if (Fail)
    return {Prog, Prog->fail(Fail->Code, "clLinkProgram failed", std::move(Fail->Log))};
  Prog->BuildStatus = CL_BUILD_SUCCESS;
  if (auto *Lib = std::get_if<ObjectOutput>(&Out)) {
    Prog->BinaryType = CL_PROGRAM_BINARY_TYPE_LIBRARY;
    Prog->Log = std::move(Lib->Log);
    Prog->Bitcode = std::move(Lib->Bitcode);
    return {Prog, {}};
  }
  auto &Ok = std::get<BuildOutput>(Out);
  Prog->BinaryType = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  Prog->Log = std::move(Ok.Log);
  Prog->Exe = std::move(Ok.Exe);
  Prog->Kernels = std::move(Ok.Kernels);
  Prog->GlobalVariableSize = Ok.GlobalVariableSize;
  Prog->Bitcode = std::move(Ok.Linked);
  return {Prog, {}};
}

cl_program_binary_type Program::binaryType() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return BinaryType;
}

bool Program::isBuilt() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return BuildStatus == CL_BUILD_SUCCESS && BinaryType == CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
}

bool Program::isLinkable() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return BinaryType == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ||
         BinaryType == CL_PROGRAM_BINARY_TYPE_LIBRARY;
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

std::vector<KernelDesc> Program::kernels() const { return kernelsWhereBlock(false); }

std::vector<KernelDesc> Program::blockKernels() const { return kernelsWhereBlock(true); }

std::vector<KernelDesc> Program::kernelsWhereBlock(bool Block) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::vector<KernelDesc> Out;
  for (const KernelDesc &D : Kernels)
    if (D.Block == Block)
      Out.push_back(D);
  return Out;
}

size_t Program::globalVariableSize() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return GlobalVariableSize;
}

std::shared_ptr<Executable> Program::executable() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Exe;
}

} // namespace weft::rt
