// The OpenCL address spaces as LLVM numbers them in IR from Clang's SPIR
// target and from LLVMSPIRVLib (storage classes Function, CrossWorkgroup,
// UniformConstant, Workgroup, Generic). On the host they are all one flat
// memory; the numbers keep what the program said of each pointer.
#pragma once

namespace weft::compiler::addrspace {

constexpr unsigned Private = 0;
constexpr unsigned Global = 1;
constexpr unsigned Constant = 2;
constexpr unsigned Local = 3;
constexpr unsigned Generic = 4;

} // namespace weft::compiler::addrspace
