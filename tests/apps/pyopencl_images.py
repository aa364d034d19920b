#!/usr/bin/env python3
"""Weft's images through PyOpenCL's own image API, as a Python program uses it.

A real program, unchanged: it picks the platform named "Weft" (CTest points
the ICD loader at this build with OCL_ICD_VENDORS), asks for the supported
formats, creates 2D and 3D images with pyopencl.Image and
pyopencl.image_from_array, reads their info properties, copies rectangles in
and out with pyopencl.enqueue_copy (origin and region), samples them through
a linear pyopencl.Sampler and writes them from kernels. Every result is
checked with numpy against a model of the specification's rules; any
mismatch is printed and the exit status is 1.
"""

import sys

import numpy as np
import pyopencl as cl

mf = cl.mem_flags

SOURCE = """
__kernel void sample2d(__read_only image2d_t img, sampler_t smp,
                       __global const float2 *coords, __global float4 *out)
{
    int i = get_global_id(0);
    out[i] = read_imagef(img, smp, coords[i]);
}

__kernel void sample3d(__read_only image3d_t img, sampler_t smp,
                       __global const float4 *coords, __global float4 *out)
{
    int i = get_global_id(0);
    out[i] = read_imagef(img, smp, coords[i]);
}

__kernel void gradient(__write_only image2d_t dst, float scale)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(dst, p, (float4)(p.x, p.y, 8 * p.x, 255 - 2 * p.y) * scale);
}

#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable
__kernel void fill3d(__write_only image3d_t dst)
{
    int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    write_imagef(dst, p, (float4)(p.x + 10 * p.y + 100 * p.z, 0.0f, 0.0f, 0.0f));
}
"""

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("MISMATCH:", what, file=sys.stderr)


def check_close(got, want, tol, what):
    err = np.abs(np.asarray(got, np.float64) - want)
    bound = tol * np.maximum(1.0, np.abs(want))
    bad = np.argwhere(err > bound)
    detail = ""
    if len(bad):
        i = tuple(bad[0])
        detail = " (%d values; first at %s: got %r, want %r)" % (
            len(bad), i, got[i], want[i])
    check(len(bad) == 0, what + detail)


def weft_context():
    platforms = [p for p in cl.get_platforms() if p.name == "Weft"]
    if not platforms:
        sys.exit("pyopencl_images: no platform named Weft "
                 "(set OCL_ICD_VENDORS to the build's vendors directory)")
    devices = platforms[0].get_devices()
    if not devices or not devices[0].image_support:
        sys.exit("pyopencl_images: the Weft device reports no image support")
    return cl.Context(devices[:1])


def linear_taps(u, size):
    """The two texels a linear filter takes along one axis of an image with
    CLK_ADDRESS_CLAMP_TO_EDGE, and the second one's weight (u in texels)."""
    i0 = np.floor(u - 0.5).astype(int)
    a = (u - 0.5) - np.floor(u - 0.5)
    return np.clip(i0, 0, size - 1), np.clip(i0 + 1, 0, size - 1), a


def bilinear(texels, u, v):
    """read_imagef with a linear filter; texels indexed [y, x, channel]."""
    h, w = texels.shape[:2]
    x0, x1, a = linear_taps(u, w)
    y0, y1, b = linear_taps(v, h)
    a, b = a[:, None], b[:, None]
    return ((1 - a) * (1 - b) * texels[y0, x0] + a * (1 - b) * texels[y0, x1]
            + (1 - a) * b * texels[y1, x0] + a * b * texels[y1, x1])


def trilinear(texels, u, v, s):
    """The same in 3D; texels indexed [z, y, x]."""
    d, h, w = texels.shape
    x0, x1, a = linear_taps(u, w)
    y0, y1, b = linear_taps(v, h)
    z0, z1, c = linear_taps(s, d)
    out = 0.0
    for zi, wz in ((z0, 1 - c), (z1, c)):
        for yi, wy in ((y0, 1 - b), (y1, b)):
            for xi, wx in ((x0, 1 - a), (x1, a)):
                out = out + wz * wy * wx * texels[zi, yi, xi]
    return out


def check_formats(ctx):
    def formats(image_type):
        return {(f.channel_order, f.channel_data_type)
                for f in cl.get_supported_image_formats(ctx, mf.READ_ONLY, image_type)}

    co, ct = cl.channel_order, cl.channel_type
    in2d, in3d = formats(cl.mem_object_type.IMAGE2D), formats(cl.mem_object_type.IMAGE3D)
    # The minimum list of OpenCL 3.0 for read-only images, among others.
    for fmt in [(co.RGBA, ct.UNORM_INT8), (co.RGBA, ct.FLOAT), (co.R, ct.FLOAT),
                (co.R, ct.UNORM_INT16), (co.BGRA, ct.UNORM_INT8)]:
        check(fmt in in2d, "2D format %s/%s supported" % fmt)
    check((co.RGBA, ct.FLOAT) in in3d, "3D RGBA/FLOAT supported")


def check_2d_float(ctx, queue, prg):
    """An RGBA float image from a host buffer: info, rectangle copies, and
    reads through a linear sampler with normalized coordinates."""
    w, h = 16, 12
    texels = (np.arange(h * w * 4, dtype=np.float32).reshape(h, w, 4) % 37) * 0.25 - 3
    fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.FLOAT)
    img = cl.Image(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, fmt, shape=(w, h), hostbuf=texels)

    check(img.type == cl.mem_object_type.IMAGE2D, "2D image type")
    check(img.shape == (w, h), "2D shape %r" % (img.shape,))
    check((img.width, img.height, img.depth) == (w, h, 0), "2D width, height, depth")
    check(img.element_size == 16, "RGBA float element size %d" % img.element_size)
    check(img.row_pitch >= w * 16, "2D row pitch %d" % img.row_pitch)
    got_fmt = img.format
    check((got_fmt.channel_order, got_fmt.channel_data_type)
          == (cl.channel_order.RGBA, cl.channel_type.FLOAT), "2D image format")
    check(img.get_info(cl.mem_info.TYPE) == cl.mem_object_type.IMAGE2D, "2D mem type")

    # Read a rectangle out, then write another one in and read all back.
    part = np.empty((5, 7, 4), np.float32)
    cl.enqueue_copy(queue, part, img, origin=(3, 4), region=(7, 5))
    check(np.array_equal(part, texels[4:9, 3:10]), "2D rectangle read (origin 3,4)")
    patch = np.full((3, 4, 4), 9.5, np.float32)
    cl.enqueue_copy(queue, img, patch, origin=(10, 8), region=(4, 3))
    texels = texels.copy()
    texels[8:11, 10:14] = 9.5
    whole = np.empty_like(texels)
    cl.enqueue_copy(queue, whole, img, origin=(0, 0), region=(w, h))
    check(np.array_equal(whole, texels), "2D rectangle write (origin 10,8)")

    # Points on a grid of 1/64 (exact in binary, and exact times 16 or 12),
    # a few beyond the edges, where the sampler clamps to the edge texels.
    s = np.array([0.0, 0.03125, 0.25, 0.3125, 0.5078125, 0.75, 0.984375, 1.0, -0.25, 1.5])
    t = np.array([0.015625, 0.125, 0.4375, 0.546875, 0.9375, 1.25, -0.5, 0.0, 0.75, 0.5])
    coords = np.stack([s, t], axis=1).astype(np.float32)
    sampler = cl.Sampler(ctx, True, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.LINEAR)
    check(sampler.filter_mode == cl.filter_mode.LINEAR, "sampler filter mode")
    check(sampler.normalized_coords, "sampler normalized coordinates")
    coords_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=coords)
    out = np.empty((len(coords), 4), np.float32)
    out_buf = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
    prg.sample2d(queue, (len(coords),), None, img, sampler, coords_buf, out_buf)
    cl.enqueue_copy(queue, out, out_buf)
    want = bilinear(texels.astype(np.float64), s * w, t * h)
    check_close(out, want, 1e-5, "2D linear sampling of RGBA/FLOAT")


def check_2d_unorm_from_array(ctx, queue, prg):
    """image_from_array of a uint8 RGBA array, read as normalized values
    through a linear sampler with unnormalized coordinates."""
    h, w = 9, 13
    pixels = ((np.arange(h * w * 4).reshape(h, w, 4) * 29) % 256).astype(np.uint8)
    img = cl.image_from_array(ctx, pixels, num_channels=4, norm_int=True)
    check(img.shape == (w, h), "image_from_array shape %r" % (img.shape,))
    check(img.format.channel_data_type == cl.channel_type.UNORM_INT8, "image_from_array type")

    u = np.array([0.5, 1.0, 2.75, 6.25, 12.5, 13.0, -1.0, 7.5])
    v = np.array([0.5, 3.0, 8.25, 4.75, 0.0, 9.5, 2.5, 20.0])
    coords = np.stack([u, v], axis=1).astype(np.float32)
    sampler = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.LINEAR)
    coords_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=coords)
    out = np.empty((len(coords), 4), np.float32)
    out_buf = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
    prg.sample2d(queue, (len(coords),), None, img, sampler, coords_buf, out_buf)
    cl.enqueue_copy(queue, out, out_buf)
    want = bilinear(pixels.astype(np.float64) / 255, u, v)
    # The specification lets a linear filter of 8-bit values be as coarse as
    # the values' own step; Weft's is finer, but this is what may be asked.
    check_close(out, want, 1.0 / 255 + 1e-4, "2D linear sampling of RGBA/UNORM_INT8")


def check_3d(ctx, queue, prg):
    """A 3D R/FLOAT image: info, a box copied out, trilinear sampling; then a
    3D image written by a kernel and read back whole."""
    w, h, d = 6, 5, 4
    texels = (np.arange(d * h * w, dtype=np.float32).reshape(d, h, w) * 0.5) % 7
    fmt = cl.ImageFormat(cl.channel_order.R, cl.channel_type.FLOAT)
    img = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(w, h, d), hostbuf=texels)
    check(img.type == cl.mem_object_type.IMAGE3D, "3D image type")
    check(img.shape == (w, h, d), "3D shape %r" % (img.shape,))
    check(img.element_size == 4, "R float element size")
    check(img.slice_pitch >= img.row_pitch * h, "3D slice pitch")

    box = np.empty((2, 3, 4), np.float32)
    cl.enqueue_copy(queue, box, img, origin=(1, 2, 1), region=(4, 3, 2))
    check(np.array_equal(box, texels[1:3, 2:5, 1:5]), "3D box read (origin 1,2,1)")

    pts = np.array([[0.5, 0.5, 0.5], [1.25, 2.75, 1.5], [3.0, 4.0, 2.0], [5.75, 0.25, 3.5],
                    [-1.0, 2.5, 4.5], [2.5, 6.0, 0.75], [4.0, 1.5, 2.25]])
    coords = np.zeros((len(pts), 4), np.float32)
    coords[:, :3] = pts
    sampler = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.LINEAR)
    coords_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=coords)
    out = np.empty((len(pts), 4), np.float32)
    out_buf = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
    prg.sample3d(queue, (len(pts),), None, img, sampler, coords_buf, out_buf)
    cl.enqueue_copy(queue, out, out_buf)
    want = trilinear(texels.astype(np.float64), pts[:, 0], pts[:, 1], pts[:, 2])
    check_close(out[:, 0], want, 1e-5, "3D linear sampling of R/FLOAT")
    check_close(out[:, 1:], np.tile([0.0, 0.0, 1.0], (len(pts), 1)), 0,
                "3D R image's missing channels (0, 0, 1)")

    written = cl.Image(ctx, mf.WRITE_ONLY, fmt, shape=(w, h, d))
    prg.fill3d(queue, (w, h, d), None, written)
    back = np.empty((d, h, w), np.float32)
    cl.enqueue_copy(queue, back, written, origin=(0, 0, 0), region=(w, h, d))
    z, y, x = np.indices((d, h, w))
    check(np.array_equal(back, (x + 10 * y + 100 * z).astype(np.float32)), "3D image write")


def check_2d_write(ctx, queue, prg):
    """write_imagef to an RGBA/UNORM_INT8 image: each value times 255,
    rounded to nearest and saturated; then an image-to-image copy."""
    w, h = 40, 30
    fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNORM_INT8)
    img = cl.Image(ctx, mf.WRITE_ONLY, fmt, shape=(w, h))
    prg.gradient(queue, (w, h), None, img, np.float32(1.0 / 255))
    got = np.empty((h, w, 4), np.uint8)
    cl.enqueue_copy(queue, got, img, origin=(0, 0), region=(w, h))
    y, x = np.indices((h, w))
    want = np.clip(np.stack([x, y, 8 * x, 255 - 2 * y], axis=-1), 0, 255).astype(np.uint8)
    bad = np.argwhere(got != want)
    check(len(bad) == 0, "2D image write, RGBA/UNORM_INT8%s" % (
        "" if not len(bad) else " (first at %s: got %d, want %d)"
        % (tuple(bad[0]), got[tuple(bad[0])], want[tuple(bad[0])])))

    copy = cl.Image(ctx, mf.READ_WRITE, fmt, shape=(16, 8))
    cl.enqueue_copy(queue, copy, img, src_origin=(20, 10), dest_origin=(0, 0), region=(16, 8))
    part = np.empty((8, 16, 4), np.uint8)
    cl.enqueue_copy(queue, part, copy, origin=(0, 0), region=(16, 8))
    check(np.array_equal(part, want[10:18, 20:36]), "image to image copy (origin 20,10)")


def main():
    ctx = weft_context()
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, SOURCE).build()
    check_formats(ctx)
    check_2d_float(ctx, queue, prg)
    check_2d_unorm_from_array(ctx, queue, prg)
    check_3d(ctx, queue, prg)
    check_2d_write(ctx, queue, prg)
    queue.finish()
    if failures:
        print("pyopencl_images: %d mismatches" % len(failures), file=sys.stderr)
        return 1
    print("pyopencl_images: PyOpenCL %s, every image check passed" % cl.VERSION_TEXT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
