// SPIR-V front end; see SpirvFrontend.h.
#include "compiler/frontend/SpirvFrontend.h"

#include "compiler/CrashRecovery.h"
#include "compiler/frontend/SpirvBuiltinCalls.h"
#include "compiler/frontend/SpirvLowering.h"
#include "runtime/platform/Capabilities.h"

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <spirv-tools/libspirv.h>
#include <spirv-tools/libspirv.hpp>

#include <cstring>
#include <iterator>
#include <mutex>
#include <sstream>
#include <unordered_map>

namespace weft::compiler {

namespace {

constexpr uint32_t SpirvMagic = 0x07230203;

/// The translator keeps process-wide tables it fills lazily; one
/// translation at a time.
std::mutex &translatorMutex() {
  static std::mutex M;
  return M;
}

/// The opcodes LLVMSPIRVLib 15.0.0 can decode (its SPIRVOpCodeEnum.h),
/// as inclusive ranges. Its decoder asserts on any other opcode, even in a
/// valid module (SPIR-V 1.4's OpPtrDiff, for one), so such modules are
/// rejected before they reach it.
constexpr std::pair<uint16_t, uint16_t> DecodableOpcodes[] = {
    {0, 8},       {10, 12},     {14, 17},     {19, 39},     {41, 46},     {48, 52},
    {54, 57},     {59, 75},     {77, 84},     {86, 107},    {109, 124},   {126, 152},
    {154, 191},   {194, 205},   {207, 215},   {218, 221},   {224, 225},   {227, 242},
    {245, 257},   {259, 271},   {274, 288},   {291, 319},   {322, 324},   {330, 330},
    {332, 364},   {4431, 4431}, {4450, 4455}, {5571, 5578}, {5580, 5581}, {5600, 5601},
    {5609, 5611}, {5614, 5615}, {5630, 5631}, {5699, 5769}, {5776, 5816}, {5818, 5820},
    {5840, 5843}, {5846, 5882}, {5887, 5887}, {5911, 5913}, {5923, 5934}, {5938, 5938},
    {5946, 5947}, {5949, 5949}, {6035, 6035}, {6086, 6086}, {6090, 6092}, {6401, 6408},
};

bool decodable(uint32_t Opcode) {
  for (const auto &[First, Last] : DecodableOpcodes)
    if (Opcode >= First && Opcode <= Last)
      return true;
  return false;
}

/// Why the translator cannot take the instruction at Words[I] of a valid
/// module, even after lowering (SpirvLowering.h), or "".
std::string undecodable(const std::vector<uint32_t> &Words, size_t I) {
  uint32_t Opcode = Words[I] & 0xffff;
  if (decodable(Opcode) || isLoweredSpirvOpcode(Opcode))
    return "";
  return "SPIR-V instruction with opcode " + std::to_string(Opcode) + " (word " +
         std::to_string(I) + ") is not supported";
}

/// Where the operand that must have the result's type is, in the
/// instructions the translator turns into builtin calls whose mangled name
/// comes from the operand's type alone; 0 for the others. SPIR-V requires
/// the two types to be the same, but SPIRV-Tools 2023.1 does not check it
/// for these, and a module where they differ makes the translator declare
/// one builtin with two types, which it answers with report_fatal_error:
/// an exit of the process.
size_t sameTypedOperand(uint32_t Opcode) {
  auto in = [Opcode](uint32_t First, uint32_t Last) { return Opcode >= First && Opcode <= Last; };
  // OpGroupBroadcast, OpGroupNonUniformBroadcast(First), OpGroupNonUniformShuffle
  // (Xor, Up, Down): Scope, Value.
  if (Opcode == 263 || in(337, 338) || in(345, 348))
    return 4;
  // OpGroupIAdd ... OpGroupSMax, OpGroupNonUniformIAdd ... LogicalXor,
  // OpGroupIMulKHR ... LogicalXorKHR: Scope, Operation, X.
  if (in(264, 271) || in(349, 364) || in(6401, 6408))
    return 5;
  // OpSubgroupShuffle*INTEL: Data.
  if (in(5571, 5574))
    return 3;
  return 0;
}

struct TypeCheck {
  std::unordered_map<uint32_t, uint32_t> TypeOf; // result id -> its type
  std::string Why;
};

/// Why the valid module Words has an instruction of the kind
/// sameTypedOperand describes whose operand and result types differ, or "".
std::string mistypedGroupOperation(const std::vector<uint32_t> &Words) {
  TypeCheck Check;
  spv_context Ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_4);
  spvBinaryParse(
      Ctx, &Check, Words.data(), Words.size(), nullptr,
      [](void *User, const spv_parsed_instruction_t *P) -> spv_result_t {
        auto &C = *static_cast<TypeCheck *>(User);
        if (P->result_id != 0 && P->type_id != 0)
          C.TypeOf[P->result_id] = P->type_id;
        size_t At = sameTypedOperand(P->opcode);
        if (At == 0 || At >= P->num_words || !C.Why.empty())
          return SPV_SUCCESS;
        auto Operand = C.TypeOf.find(P->words[At]);
        if (Operand != C.TypeOf.end() && Operand->second != P->type_id)
          C.Why = "the instruction with opcode " + std::to_string(P->opcode) + " that defines %" +
                  std::to_string(P->result_id) + " has an operand of type %" +
                  std::to_string(Operand->second) + " and a result of type %" +
                  std::to_string(P->type_id) + "; SPIR-V requires them to be the same";
        return SPV_SUCCESS;
      },
      nullptr);
  spvContextDestroy(Ctx);
  return Check.Why;
}

/// Why the valid module Words needs what the device does not offer: an
/// extended instruction set, extension or capability missing from the
/// lists CL_DEVICE_SPIRV_* report (Capabilities.h); "" if it needs none.
std::string unsupportedDeclaration(const std::vector<uint32_t> &Words) {
  constexpr uint32_t OpExtension = 10, OpExtInstImport = 11, OpMemoryModel = 14, OpCapability = 17;
  // The three come before the memory model, which every module has once.
  for (size_t I = 5; I < Words.size(); I += Words[I] >> 16) {
    const uint32_t Opcode = Words[I] & 0xffff;
    if (Opcode == OpMemoryModel)
      break;
    if (Opcode == OpCapability && !rt::hasCapability(rt::SpirvCapabilities, Words[I + 1]))
      return "the module declares SPIR-V capability " + std::to_string(Words[I + 1]) +
             ", which this device does not support (CL_DEVICE_SPIRV_CAPABILITIES lists those "
             "it does)";
    if (Opcode == OpExtension || Opcode == OpExtInstImport) {
      const bool Extension = Opcode == OpExtension;
      const std::string Name = stringAt(Words, I + (Extension ? 1 : 2)).first;
      if (Extension ? !rt::hasName(rt::SpirvExtensions, Name)
                    : !rt::hasName(rt::SpirvExtendedInstructionSets, Name))
        return std::string("the module ") +
               (Extension ? "declares SPIR-V extension \""
                          : "imports the extended instruction set \"") +
               Name + "\", which this device does not support (see " +
               (Extension ? "CL_DEVICE_SPIRV_EXTENSIONS"
                          : "CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS") +
               ")";
    }
  }
  return "";
}

/// The module's words, without the debug information the front end drops
/// (withoutDebugInfo).
std::vector<uint32_t> toWords(const std::vector<unsigned char> &IL) {
  std::vector<uint32_t> Words(IL.size() / 4);
  std::memcpy(Words.data(), IL.data(), Words.size() * 4);
  return withoutDebugInfo(Words);
}

} // namespace

std::string SpirvFrontend::validate(const std::vector<unsigned char> &IL) {
  if (IL.size() < 20 || IL.size() % 4 != 0)
    return "error: the IL is not a SPIR-V module: its length (" + std::to_string(IL.size()) +
           " bytes) is not a whole number of words of at least a header\n";
  uint32_t Magic, Version;
  std::memcpy(&Magic, IL.data(), 4);
  std::memcpy(&Version, IL.data() + 4, 4);
  if (Magic != SpirvMagic)
    return "error: the IL is not a SPIR-V module of this host's byte order (magic number 0x" +
           llvm::utohexstr(Magic) + ")\n";
  uint32_t Schema;
  std::memcpy(&Schema, IL.data() + 16, 4);
  if (Schema != 0)
    return "error: the SPIR-V header's schema word is " + std::to_string(Schema) +
           ", not 0\n";
  unsigned Major = (Version >> 16) & 0xff, Minor = (Version >> 8) & 0xff;
  bool Listed = false;
  for (const rt::NamedVersion &V : rt::IntermediateLanguages)
    Listed |= CL_VERSION_MAJOR(V.Version) == Major && CL_VERSION_MINOR(V.Version) == Minor;
  if (!Listed)
    return "error: SPIR-V " + std::to_string(Major) + "." + std::to_string(Minor) +
           " is not supported (see CL_DEVICE_IL_VERSION)\n";
  // Validate against the module's own version, so a 1.0 module may not use
  // what 1.4 added.
  static constexpr spv_target_env Envs[] = {SPV_ENV_UNIVERSAL_1_0, SPV_ENV_UNIVERSAL_1_1,
                                            SPV_ENV_UNIVERSAL_1_2, SPV_ENV_UNIVERSAL_1_3,
                                            SPV_ENV_UNIVERSAL_1_4};
  static_assert(std::size(Envs) == std::size(rt::IntermediateLanguages),
                "one validation environment per SPIR-V 1.x version the device lists");
  spvtools::SpirvTools Tools(Envs[Minor]);
  std::string Messages;
  Tools.SetMessageConsumer([&](spv_message_level_t, const char *, const spv_position_t &Pos,
                               const char *Message) {
    Messages += "error: invalid SPIR-V (word " + std::to_string(Pos.index) + "): " + Message + "\n";
  });
  std::vector<uint32_t> Words = toWords(IL);
  if (!Tools.Validate(Words))
    return Messages.empty() ? "error: invalid SPIR-V module\n" : Messages;
  // Valid, so every instruction's word count is right.
  for (size_t I = 5; I < Words.size(); I += Words[I] >> 16)
    if (std::string Why = undecodable(Words, I); !Why.empty())
      return "error: " + Why + "\n";
  if (std::string Why = unsupportedDeclaration(Words); !Why.empty())
    return "error: " + Why + "\n";
  if (std::string Why = mistypedGroupOperation(Words); !Why.empty())
    return "error: invalid SPIR-V: " + Why + "\n";
  return "";
}

std::map<uint32_t, uint32_t> SpirvFrontend::specConstants(const std::vector<unsigned char> &IL) {
  std::lock_guard<std::mutex> Lock(translatorMutex());
  std::string Input = lowerSpirv(toWords(IL)).Bytes;
  std::vector<llvm::SpecConstInfoTy> Info;
  bool Ok = false;
  if (!runRecoverably([&] {
        std::istringstream In(Input);
        Ok = llvm::getSpecConstInfo(In, Info);
      }))
    Ok = false;
  std::map<uint32_t, uint32_t> Out;
  if (Ok)
    for (const auto &[Id, Size] : Info)
      Out[Id] = Size;
  return Out;
}

std::unique_ptr<llvm::Module>
SpirvFrontend::translate(const std::vector<unsigned char> &IL,
                         const std::map<uint32_t, uint64_t> &SpecValues, llvm::LLVMContext &Ctx,
                         std::string &Log) {
  llvm::SmallVector<char, 0> Bitcode;
  {
    std::lock_guard<std::mutex> Lock(translatorMutex());
    LoweredSpirv Lowered = lowerSpirv(toWords(IL));
    std::string Error;
    bool Translated = false;
    // The translation's objects live inside the recovered function: after a
    // crash they are abandoned (leaked), never destroyed half-built.
    bool Survived = runRecoverably([&] {
      auto *Typed = new llvm::LLVMContext();
      Typed->setOpaquePointers(false);
      SPIRV::TranslatorOpts Opts;
      Opts.enableAllExtensions();
      // OpenCL 2.0 names for the builtins (C11 atomics, work_group_barrier):
      // the 1.2 form cannot express every instruction of a 2.x module.
      Opts.setDesiredBIsRepresentation(SPIRV::BIsRepresentation::OpenCL20);
      Opts.enableGenArgNameMD();
      for (const auto &[Id, Value] : SpecValues)
        Opts.setSpecConst(Id, Value);
      std::istringstream In(Lowered.Bytes);
      llvm::Module *Raw = nullptr;
      if (llvm::readSpirv(*Typed, Opts, In, Raw, Error)) {
        std::string Broken;
        llvm::raw_string_ostream OS(Broken);
        if (std::string Clash = restoreSpirvNames(*Raw, Lowered); !Clash.empty()) {
          Error = Clash;
        } else if (llvm::verifyModule(*Raw, &OS)) {
          Error = "the translator produced invalid IR:\n" + OS.str();
        } else {
          llvm::raw_svector_ostream BOS(Bitcode);
          llvm::WriteBitcodeToFile(*Raw, BOS);
          Translated = true;
        }
      }
      delete Raw;
      delete Typed;
    });
    if (!Survived) {
      Log += "error: the SPIR-V translator failed on this module (an internal error of "
             "LLVMSPIRVLib)\n";
      return nullptr;
    }
    if (!Translated) {
      Log += "error: cannot translate the SPIR-V module: " + Error + "\n";
      return nullptr;
    }
  }
  llvm::Expected<std::unique_ptr<llvm::Module>> M = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(Bitcode.data(), Bitcode.size()), "spirv"), Ctx);
  if (!M) {
    Log += "error: cannot read the translated SPIR-V module: " + llvm::toString(M.takeError()) + "\n";
    return nullptr;
  }
  if (std::string Why = lowerSpirvBuiltinCalls(**M); !Why.empty()) {
    Log += "error: cannot translate the SPIR-V module: " + Why + "\n";
    return nullptr;
  }
  return std::move(*M);
}

} // namespace weft::compiler
