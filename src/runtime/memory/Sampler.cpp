// The sampler's bit-field: the OpenCL C encoding of ImageLayout.h.
#include "runtime/memory/Sampler.h"

#include "runtime/memory/ImageLayout.h"

namespace weft::rt {

uint32_t Sampler::bits() const {
  uint32_t Bits = Normalized ? WEFT_SAMPLER_NORMALIZED : 0;
  switch (Addressing) {
  case CL_ADDRESS_CLAMP_TO_EDGE:
    Bits |= WEFT_SAMPLER_ADDRESS_CLAMP_TO_EDGE;
    break;
  case CL_ADDRESS_CLAMP:
    Bits |= WEFT_SAMPLER_ADDRESS_CLAMP;
    break;
  case CL_ADDRESS_REPEAT:
    Bits |= WEFT_SAMPLER_ADDRESS_REPEAT;
    break;
  case CL_ADDRESS_MIRRORED_REPEAT:
    Bits |= WEFT_SAMPLER_ADDRESS_MIRRORED_REPEAT;
    break;
  default:
    Bits |= WEFT_SAMPLER_ADDRESS_NONE;
    break;
  }
  Bits |= Filter == CL_FILTER_LINEAR ? WEFT_SAMPLER_FILTER_LINEAR : WEFT_SAMPLER_FILTER_NEAREST;
  return Bits;
}

} // namespace weft::rt
