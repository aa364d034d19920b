// SpirvFrontend: SPIR-V (clCreateProgramWithIL) to an LLVM module of the
// same form ClangFrontend produces: spir64 address spaces, Itanium-mangled
// OpenCL builtin calls, kernels with their kernel_arg_* metadata. From there
// the program takes the same pipeline as OpenCL C.
//
// The translator (LLVMSPIRVLib 15) asserts on malformed input, so every
// module is validated by SPIRV-Tools first and only valid modules reach it.
// It also produces typed-pointer IR: it reads into a context of its own,
// and the module moves to the caller's (opaque-pointer) context as bitcode.
#pragma once

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace weft::compiler {

class SpirvFrontend {
public:
  /// Why IL is not a valid SPIR-V module of a version the device lists
  /// (runtime/platform/Capabilities.h), or "" if it is.
  static std::string validate(const std::vector<unsigned char> &IL);

  /// The specialization constants of a valid module: SpecId -> size in bytes.
  static std::map<uint32_t, uint32_t> specConstants(const std::vector<unsigned char> &IL);

  /// Translates a valid module, with the given specialization constant
  /// values (bits, zero-extended), into Ctx. Returns nullptr with a message
  /// in Log on failure.
  static std::unique_ptr<llvm::Module> translate(const std::vector<unsigned char> &IL,
                                                 const std::map<uint32_t, uint64_t> &SpecValues,
                                                 llvm::LLVMContext &Ctx, std::string &Log);
};

} // namespace weft::compiler
