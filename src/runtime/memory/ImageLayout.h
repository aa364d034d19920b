/* What an image kernel argument points at: the one contract between the
 * runtime, which fills it when an image is created (Image.cpp), and the
 * image built-ins, which run in kernels (src/builtins/Images.cl). Written
 * in the common subset of C++ and OpenCL C so that both read this file.
 *
 * An image*_t argument is a __global pointer to the image's WeftImage; a
 * sampler_t argument (and the value __translate_sampler_initializer returns
 * for a sampler literal) is the sampler's bit-field as a __constant pointer
 * value: the CLK_* addressing mode, normalized-coordinates and filter bits
 * of OpenCL C, which the runtime's cl_sampler turns into the same bits
 * (WEFT_SAMPLER_*).
 *
 * The pixels are stored as the host sees them (clEnqueueMapImage returns a
 * pointer into them): pixel (x, y, z) of a 3D image, or (x, y) of layer z
 * of an array, is at Data + x * ElementSize + y * RowPitch + z * SlicePitch.
 * A 1D array's layers are SlicePitch apart (its RowPitch says the same).
 * The descriptor does not change while a kernel runs.
 */
#ifndef WEFT_RUNTIME_IMAGE_LAYOUT_H
#define WEFT_RUNTIME_IMAGE_LAYOUT_H

#ifdef __OPENCL_C_VERSION__
typedef __global uchar *WeftImageData;
typedef ulong WeftImageU64;
typedef uint WeftImageU32;
typedef int WeftImageI32;
#else
#include <cstdint>
typedef unsigned char *WeftImageData;
typedef uint64_t WeftImageU64;
typedef uint32_t WeftImageU32;
typedef int32_t WeftImageI32;
#endif

typedef struct WeftImage {
  WeftImageData Data;            /* 0: pixel (0, 0, 0) */
  WeftImageU64 RowPitch;         /* 8: bytes from a row to the next */
  WeftImageU64 SlicePitch;       /* 16: bytes from a slice or layer to the next */
  WeftImageI32 Width;            /* 24: pixels */
  WeftImageI32 Height;           /* 28: rows; 1 for 1D images and 1D arrays */
  WeftImageI32 Depth;            /* 32: slices; 1 unless 3D */
  WeftImageI32 ArraySize;        /* 36: layers; 1 unless an array */
  WeftImageU32 ChannelOrder;     /* 40: CL_R ... CL_sBGRA, CL_DEPTH (== CLK_*) */
  WeftImageU32 ChannelDataType;  /* 44: CL_SNORM_INT8 ... CL_FLOAT (== CLK_*) */
  WeftImageU32 ElementSize;      /* 48: bytes per pixel */
  WeftImageU32 Type;             /* 52: CL_MEM_OBJECT_IMAGE1D ... */
  WeftImageU32 Reserved[2];      /* 56: zero */
} WeftImage;                     /* 64 bytes */

/* The sampler bit-field (the values of OpenCL C's CLK_* sampler macros). */
#define WEFT_SAMPLER_NORMALIZED 0x1
#define WEFT_SAMPLER_ADDRESS_MASK 0xe
#define WEFT_SAMPLER_ADDRESS_NONE 0x0
#define WEFT_SAMPLER_ADDRESS_CLAMP_TO_EDGE 0x2
#define WEFT_SAMPLER_ADDRESS_CLAMP 0x4
#define WEFT_SAMPLER_ADDRESS_REPEAT 0x6
#define WEFT_SAMPLER_ADDRESS_MIRRORED_REPEAT 0x8
#define WEFT_SAMPLER_FILTER_NEAREST 0x10
#define WEFT_SAMPLER_FILTER_LINEAR 0x20

#endif
