// Samplers: clCreateSampler, clCreateSamplerWithProperties, their queries
// and reference counts (Sampler.h).
#include "runtime/api/Api.h"
#include "runtime/api/Entry.h"
#include "runtime/platform/Capabilities.h"

namespace weft::api {

namespace {

bool validAddressing(cl_ulong A) {
  return A == CL_ADDRESS_NONE || A == CL_ADDRESS_CLAMP_TO_EDGE || A == CL_ADDRESS_CLAMP ||
         A == CL_ADDRESS_REPEAT || A == CL_ADDRESS_MIRRORED_REPEAT;
}
bool validFilter(cl_ulong F) { return F == CL_FILTER_NEAREST || F == CL_FILTER_LINEAR; }
bool validBool(cl_ulong B) { return B == CL_TRUE || B == CL_FALSE; }

/// A sampler of the given modes; Properties as given (empty for
/// clCreateSampler).
Result<cl_sampler> makeSampler(Context &Ctx, cl_ulong Normalized, cl_ulong Addressing,
                               cl_ulong Filter, std::vector<cl_sampler_properties> Properties) {
  // "CL_INVALID_VALUE if addressing_mode, filter_mode, normalized_coords or
  // a combination of these arguments are not valid."
  WEFT_CHECK(!validBool(Normalized), CL_INVALID_VALUE, "normalized_coords is not a cl_bool");
  WEFT_CHECK(!validAddressing(Addressing), CL_INVALID_VALUE, "unknown addressing mode");
  WEFT_CHECK(!validFilter(Filter), CL_INVALID_VALUE, "unknown filter mode");
  return static_cast<cl_sampler>(new Sampler(Ctx, Normalized == CL_TRUE,
                                             cl_addressing_mode(Addressing), cl_filter_mode(Filter),
                                             std::move(Properties)));
}

Result<InfoValue> samplerInfo(const Sampler &S, cl_sampler_info Param) {
  switch (Param) {
  case CL_SAMPLER_REFERENCE_COUNT:
    return InfoValue(cl_uint(S.appRefCount()));
  case CL_SAMPLER_CONTEXT:
    return InfoValue(static_cast<cl_context>(&S.context()));
  case CL_SAMPLER_NORMALIZED_COORDS:
    return InfoValue(cl_bool(S.normalized()));
  case CL_SAMPLER_ADDRESSING_MODE:
    return InfoValue(S.addressing());
  case CL_SAMPLER_FILTER_MODE:
    return InfoValue(S.filter());
  case CL_SAMPLER_PROPERTIES:
    return InfoValue(S.properties());
  default:
    return makeError(CL_INVALID_VALUE, "unknown cl_sampler_info " + std::to_string(Param));
  }
}

} // namespace

cl_sampler CL_API_CALL clCreateSampler(cl_context C, cl_bool Normalized,
                                       cl_addressing_mode Addressing, cl_filter_mode Filter,
                                       cl_int *ErrcodeRet) {
  return create<cl_sampler>(ErrcodeRet, [&]() -> Result<cl_sampler> {
    WEFT_TRY(Ctx, get<Context>(C));
    return makeSampler(*Ctx, Normalized, Addressing, Filter, {});
  });
}

cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context C,
                                                     const cl_sampler_properties *Properties,
                                                     cl_int *ErrcodeRet) {
  return create<cl_sampler>(ErrcodeRet, [&]() -> Result<cl_sampler> {
    WEFT_TRY(Ctx, get<Context>(C));
    // The defaults: normalized coordinates, CL_ADDRESS_CLAMP, nearest.
    cl_ulong Normalized = CL_TRUE, Addressing = CL_ADDRESS_CLAMP, Filter = CL_FILTER_NEAREST;
    std::vector<cl_sampler_properties> Given;
    if (Properties) {
      bool Seen[3] = {false, false, false};
      for (const cl_sampler_properties *P = Properties; *P; P += 2) {
        int Which = P[0] == CL_SAMPLER_NORMALIZED_COORDS ? 0
                    : P[0] == CL_SAMPLER_ADDRESSING_MODE ? 1
                    : P[0] == CL_SAMPLER_FILTER_MODE     ? 2
                                                         : -1;
        WEFT_CHECK(Which < 0, CL_INVALID_VALUE, "unknown sampler property");
        WEFT_CHECK(Seen[Which], CL_INVALID_VALUE, "a sampler property is given twice");
        Seen[Which] = true;
        (Which == 0 ? Normalized : Which == 1 ? Addressing : Filter) = cl_ulong(P[1]);
        Given.push_back(P[0]);
        Given.push_back(P[1]);
      }
      Given.push_back(0);
    }
    return makeSampler(*Ctx, Normalized, Addressing, Filter, std::move(Given));
  });
}

cl_int CL_API_CALL clRetainSampler(cl_sampler S) {
  return entry([&]() -> Status {
    WEFT_TRY(Smp, get<Sampler>(S));
    Smp->retain();
    return {};
  });
}

cl_int CL_API_CALL clReleaseSampler(cl_sampler S) {
  return entry([&]() -> Status {
    WEFT_TRY(Smp, get<Sampler>(S));
    WEFT_CHECK(!Smp->release(), CL_INVALID_SAMPLER, "sampler already released");
    return {};
  });
}

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler S, cl_sampler_info Param, size_t Size, void *Value,
                                    size_t *SizeRet) {
  return entry([&]() -> Status {
    WEFT_TRY(Smp, get<Sampler>(S));
    WEFT_TRY(Info, samplerInfo(*Smp, Param));
    return Info.write(Size, Value, SizeRet);
  });
}

} // namespace weft::api
