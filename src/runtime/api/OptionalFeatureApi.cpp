// Entry points of the OpenCL 3.0 optional feature the device does not
// report yet: images and samplers (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE).
// Each returns exactly what the specification requires of a device without
// the feature, after the usual handle checks.
#include "runtime/Capabilities.h"
#include "runtime/api/Api.h"
#include "runtime/api/Entry.h"

namespace weft::api {

// These answers are true only while the feature table (Capabilities.h) says
// so: turning a feature on there without its entry points fails the build.
static_assert(!Images.Supported, "images are reported: their entry points belong here");

namespace {

Status noImages(cl_context C) {
  WEFT_VALID(Context, C);
  // "CL_INVALID_OPERATION if there are no devices in context that support images".
  return makeError(CL_INVALID_OPERATION, "no device in the context supports images");
}

/// Image commands: no image object can exist, so the image is invalid.
Status imageCommand(cl_command_queue Q) {
  WEFT_VALID(CommandQueue, Q);
  return makeError(CL_INVALID_MEM_OBJECT, "not an image object");
}

} // namespace

cl_mem CL_API_CALL clCreateImage(cl_context C, cl_mem_flags, const cl_image_format *,
                                 const cl_image_desc *, void *, cl_int *ErrcodeRet) {
  return create<cl_mem>(ErrcodeRet, [&]() -> Result<cl_mem> { return noImages(C).error(); });
}

cl_mem CL_API_CALL clCreateImageWithProperties(cl_context C, const cl_mem_properties *,
                                               cl_mem_flags, const cl_image_format *,
                                               const cl_image_desc *, void *,
                                               cl_int *ErrcodeRet) {
  return create<cl_mem>(ErrcodeRet, [&]() -> Result<cl_mem> { return noImages(C).error(); });
}

cl_mem CL_API_CALL clCreateImage2D(cl_context C, cl_mem_flags, const cl_image_format *, size_t,
                                   size_t, size_t, void *, cl_int *ErrcodeRet) {
  return create<cl_mem>(ErrcodeRet, [&]() -> Result<cl_mem> { return noImages(C).error(); });
}

cl_mem CL_API_CALL clCreateImage3D(cl_context C, cl_mem_flags, const cl_image_format *, size_t,
                                   size_t, size_t, size_t, size_t, void *, cl_int *ErrcodeRet) {
  return create<cl_mem>(ErrcodeRet, [&]() -> Result<cl_mem> { return noImages(C).error(); });
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context C, cl_mem_flags Flags,
                                              cl_mem_object_type Type, cl_uint NumEntries,
                                              cl_image_format *Formats, cl_uint *NumFormats) {
  return entry([&]() -> Status {
    WEFT_VALID(Context, C);
    WEFT_CHECK(NumEntries == 0 && Formats, CL_INVALID_VALUE, "num_entries is 0");
    if (NumFormats)
      *NumFormats = 0;
    return {};
  });
}

cl_int CL_API_CALL clGetImageInfo(cl_mem M, cl_image_info, size_t, void *, size_t *) {
  return entry([&]() -> Status {
    WEFT_VALID(MemObject, M);
    return makeError(CL_INVALID_MEM_OBJECT, "not an image object");
  });
}

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue Q, cl_mem Image, cl_bool, const size_t *,
                                      const size_t *, size_t, size_t, void *, cl_uint,
                                      const cl_event *, cl_event *) {
  return entry([&] { return imageCommand(Q); });
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue Q, cl_mem Image, cl_bool, const size_t *,
                                       const size_t *, size_t, size_t, const void *, cl_uint,
                                       const cl_event *, cl_event *) {
  return entry([&] { return imageCommand(Q); });
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue Q, cl_mem Src, cl_mem Dst, const size_t *,
                                      const size_t *, const size_t *, cl_uint, const cl_event *,
                                      cl_event *) {
  return entry([&] { return imageCommand(Q); });
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue Q, cl_mem Src, cl_mem,
                                              const size_t *, const size_t *, size_t, cl_uint,
                                              const cl_event *, cl_event *) {
  return entry([&] { return imageCommand(Q); });
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue Q, cl_mem, cl_mem Dst, size_t,
                                              const size_t *, const size_t *, cl_uint,
                                              const cl_event *, cl_event *) {
  return entry([&] { return imageCommand(Q); });
}

void *CL_API_CALL clEnqueueMapImage(cl_command_queue Q, cl_mem Image, cl_bool, cl_map_flags,
                                    const size_t *, const size_t *, size_t *, size_t *, cl_uint,
                                    const cl_event *, cl_event *, cl_int *ErrcodeRet) {
  return create<void *>(ErrcodeRet,
                        [&]() -> Result<void *> { return imageCommand(Q).error(); });
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue Q, cl_mem Image, const void *,
                                      const size_t *, const size_t *, cl_uint, const cl_event *,
                                      cl_event *) {
  return entry([&] { return imageCommand(Q); });
}

cl_sampler CL_API_CALL clCreateSampler(cl_context C, cl_bool, cl_addressing_mode, cl_filter_mode,
                                       cl_int *ErrcodeRet) {
  return create<cl_sampler>(ErrcodeRet,
                            [&]() -> Result<cl_sampler> { return noImages(C).error(); });
}

cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context C, const cl_sampler_properties *,
                                                     cl_int *ErrcodeRet) {
  return create<cl_sampler>(ErrcodeRet,
                            [&]() -> Result<cl_sampler> { return noImages(C).error(); });
}

// No sampler object can be created, so every sampler handle is invalid.
cl_int CL_API_CALL clRetainSampler(cl_sampler) { return CL_INVALID_SAMPLER; }
cl_int CL_API_CALL clReleaseSampler(cl_sampler) { return CL_INVALID_SAMPLER; }
cl_int CL_API_CALL clGetSamplerInfo(cl_sampler, cl_sampler_info, size_t, void *, size_t *) {
  return CL_INVALID_SAMPLER;
}

} // namespace weft::api
