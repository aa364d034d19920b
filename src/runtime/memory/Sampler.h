// Samplers: an immutable (normalized coordinates, addressing mode, filter)
// triple. A kernel receives a sampler as its bit-field (ImageLayout.h), the
// same value a sampler declared in OpenCL C has, so a sampler argument
// copies bits() and needs no reference to the object.
#pragma once

#include "runtime/Object.h"
#include "runtime/platform/Context.h"

#include <vector>

namespace weft::rt {

class Sampler final : public Object<_cl_sampler, HandleKind::Sampler> {
public:
  /// A sampler of validated modes; Properties is the list as given
  /// (CL_SAMPLER_PROPERTIES), empty for clCreateSampler.
  Sampler(Context &Ctx, bool Normalized, cl_addressing_mode Addressing, cl_filter_mode Filter,
          std::vector<cl_sampler_properties> Properties)
      : Ctx(&Ctx), Normalized(Normalized), Addressing(Addressing), Filter(Filter),
        Properties(std::move(Properties)) {}

  Context &context() const { return *Ctx; }
  bool normalized() const { return Normalized; }
  cl_addressing_mode addressing() const { return Addressing; }
  cl_filter_mode filter() const { return Filter; }
  const std::vector<cl_sampler_properties> &properties() const { return Properties; }
  /// The value a kernel's sampler_t holds for this sampler.
  uint32_t bits() const;

private:
  Ref<Context> Ctx;
  bool Normalized;
  cl_addressing_mode Addressing;
  cl_filter_mode Filter;
  std::vector<cl_sampler_properties> Properties;
};

} // namespace weft::rt
