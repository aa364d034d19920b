// Image formats: which (channel order, channel data type) pairs the
// specification defines, what a pixel of each weighs, which the device
// supports for which image types and access modes, and the one conversion
// the host does itself, a fill colour to a pixel (clEnqueueFillImage).
// Kernels convert in the image built-ins (src/builtins/Images.cl).
//
// Every defined format the built-ins decode is supported for every image
// type and access: a pixel is plain memory to a CPU, so reading, writing
// and both at once work alike. Depth formats are for 2D images and 2D
// arrays only, as cl_khr_depth_images says.
#pragma once

#include <CL/cl.h>

#include <array>
#include <cstddef>
#include <vector>

namespace weft::rt {

/// Whether the pair is a format the specification defines (else
/// CL_INVALID_IMAGE_FORMAT_DESCRIPTOR).
bool imageFormatDefined(const cl_image_format &Format);

/// Bytes per pixel of Format, or 0 if it is not a format the device
/// supports (a defined one: CL_IMAGE_FORMAT_NOT_SUPPORTED).
size_t imageElementSize(const cl_image_format &Format);

/// Whether Format is supported for an image of Type (CL_MEM_OBJECT_IMAGE*).
bool imageFormatSupported(const cl_image_format &Format, cl_mem_object_type Type);

/// The formats supported for images of Type: clGetSupportedImageFormats
/// (the same list for every access mode).
std::vector<cl_image_format> supportedImageFormats(cl_mem_object_type Type);

/// The pixel a fill colour makes (clEnqueueFillImage): Color is four
/// floats for a normalized, half or float type, four int32 for a signed
/// and four uint32 for an unsigned integer type; converted as a kernel's
/// write_image{f,i,ui} converts (rounding to nearest even, saturating).
std::array<unsigned char, 16> packImageColor(const cl_image_format &Format, const void *Color);

} // namespace weft::rt
