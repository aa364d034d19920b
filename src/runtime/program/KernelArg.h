// A kernel argument's value as the application set it: one typed value per
// argument, decoded once from clSetKernelArg's (arg_size, arg_value) at the
// API boundary. The Kernel stores these values, never the caller's pointer.
//
// Memory objects are named weakly: an argument does not keep its buffer
// alive (releasing the buffer after clSetKernelArg runs its destructor
// callbacks, as the specification expects), and an enqueue turns each into
// a strong reference for the command's lifetime, or fails with
// CL_INVALID_KERNEL_ARGS if the application has released it. A sampler is
// immutable, so its argument holds the value the kernel reads, not the
// object.
#pragma once

#include "runtime/memory/MemObject.h"

#include <cstdint>
#include <variant>
#include <vector>

namespace weft::rt {

/// Not set yet: an enqueue fails with CL_INVALID_KERNEL_ARGS.
struct ArgUnset {};
/// A by-value argument: scalar, vector or struct bytes.
struct ArgBytes {
  std::vector<unsigned char> Bytes;
};
/// A `__global` or `__constant` pointer argument given a buffer; unnamed
/// for a NULL buffer.
struct ArgBuffer {
  WeakRef<MemObject> Mem;
};
/// An `image*_t` argument.
struct ArgImage {
  WeakRef<MemObject> Mem;
};
/// A `pipe` argument.
struct ArgPipe {
  WeakRef<MemObject> Mem;
};
/// A `sampler_t` argument: the sampler's value as the kernel reads it.
struct ArgSampler {
  uint64_t Value;
};
/// A pointer argument given an SVM pointer (clSetKernelArgSVMPointer).
struct ArgSvmPointer {
  void *Ptr;
};
/// A `__local` pointer argument: the size of the allocation.
struct ArgLocalSize {
  size_t Size;
};

using KernelArgValue = std::variant<ArgUnset, ArgBytes, ArgBuffer, ArgImage, ArgPipe, ArgSampler,
                                    ArgSvmPointer, ArgLocalSize>;

/// Whether an argument declared as Kind takes Value.
inline bool argAccepts(ArgKind Kind, const KernelArgValue &Value) {
  switch (Kind) {
  case ArgKind::GlobalPointer:
  case ArgKind::ConstantPointer:
    return std::holds_alternative<ArgBuffer>(Value) || std::holds_alternative<ArgSvmPointer>(Value);
  case ArgKind::LocalPointer:
    return std::holds_alternative<ArgLocalSize>(Value);
  case ArgKind::ByValue:
  case ArgKind::DeviceQueue: // the handle's bytes, checked by the API layer
    return std::holds_alternative<ArgBytes>(Value);
  case ArgKind::Sampler:
    return std::holds_alternative<ArgSampler>(Value);
  case ArgKind::Image:
    return std::holds_alternative<ArgImage>(Value);
  case ArgKind::Pipe:
    return std::holds_alternative<ArgPipe>(Value);
  }
  return false;
}

} // namespace weft::rt
