// Image built-ins through SPIR-V: a sampled read with a sampler argument
// and with a program-scope sampler (OpConstantSampler), a sampler-less
// read, a write, and the size queries.
constant sampler_t Nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

__kernel void sample(__read_only image2d_t in, sampler_t linear, __write_only image2d_t out,
                     __global float4 *dst, __global int *dims) {
  int x = get_global_id(0), y = get_global_id(1);
  float2 c = (float2)(x + 0.5f, y + 0.5f) / (float2)(get_image_width(in), get_image_height(in));
  float4 v = read_imagef(in, linear, c);
  dst[y * get_image_width(in) + x] = v + read_imagef(in, Nearest, (int2)(x - 1, y));
  write_imagef(out, (int2)(x, y), read_imagef(in, (int2)(x, y)) * 2.0f);
  if (x == 0 && y == 0) {
    dims[0] = get_image_width(out);
    dims[1] = get_image_height(out);
  }
}
