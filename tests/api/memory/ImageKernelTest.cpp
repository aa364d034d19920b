// Sampled image reads in kernels, checked against a host model of the
// OpenCL C specification's "Image Addressing and Filtering": every image
// type read with read_image{f,i,ui} through every sampler state (each
// addressing mode, normalized or not, nearest and linear), samplers given
// as arguments, declared at program scope and written as literals; the
// border colour of each channel order; and a 3x3 blur compared exactly.
// The model is literal: each rule below is a transcription of the
// specification's pseudo-code, and the test coordinates keep away from
// the texel boundaries where the specification leaves precision open.
// Sampler-less reads and writes are in ImageKernelAccessTest.cpp.
#include "ImageTestUtil.h"

using namespace weft::test;

namespace {

using Float4 = std::array<float, 4>;

/// A sampler's state and the specification's addressing of one coordinate:
/// the two texels a filter takes along the axis and the second's weight
/// (nearest: one texel, weight 0).
struct SamplerState {
  bool Normalized;
  cl_addressing_mode Address;
  cl_filter_mode Filter;
};
struct Taps {
  int I0, I1;
  float A;
};
float frac(float X) { return X - std::floor(X); }

Taps address(float Coord, int Size, const SamplerState &St) {
  const bool Linear = St.Filter == CL_FILTER_LINEAR;
  if (St.Address == CL_ADDRESS_REPEAT) {
    const float U = (Coord - std::floor(Coord)) * Size;
    if (!Linear) {
      int I = int(std::floor(U));
      return I > Size - 1 ? Taps{I - Size, I - Size, 0} : Taps{I, I, 0};
    }
    int I0 = int(std::floor(U - 0.5f)), I1 = I0 + 1;
    return {I0 < 0 ? I0 + Size : I0, I1 > Size - 1 ? I1 - Size : I1, frac(U - 0.5f)};
  }
  if (St.Address == CL_ADDRESS_MIRRORED_REPEAT) {
    const float U = std::fabs(Coord - 2.0f * std::nearbyint(0.5f * Coord)) * Size;
    if (!Linear) {
      int I = std::min(int(std::floor(U)), Size - 1);
      return {I, I, 0};
    }
    int I0 = int(std::floor(U - 0.5f));
    return {std::max(I0, 0), std::min(I0 + 1, Size - 1), frac(U - 0.5f)};
  }
  const float U = St.Normalized ? Coord * Size : Coord;
  auto mode = [&](int C) {
    return St.Address == CL_ADDRESS_CLAMP_TO_EDGE ? std::clamp(C, 0, Size - 1)
           : St.Address == CL_ADDRESS_CLAMP       ? std::clamp(C, -1, Size)
                                                  : C;
  };
  if (!Linear) {
    int I = mode(int(std::floor(U)));
    return {I, I, 0};
  }
  int I0 = int(std::floor(U - 0.5f));
  return {mode(I0), mode(I0 + 1), frac(U - 0.5f)};
}

/// An array's layer: clamp(rint(coordinate), 0, layers - 1).
Taps layer(float Coord, int Layers) {
  int L = std::clamp(int(std::nearbyint(Coord)), 0, Layers - 1);
  return {L, L, 0};
}

/// An image as the read functions see it: every texel's colour, x fastest
/// (then y or a 1D array's layer, then z or a 2D array's layer), and the
/// border colour outside.
struct Texels {
  Shape S;
  std::vector<std::array<double, 4>> T;
  std::array<double, 4> Border;

  std::array<double, 4> at(int X, int Y, int Z) const {
    const int W = int(S.Ext[0]), H = int(S.Ext[1]), D = int(S.Ext[2]);
    if (X < 0 || X >= W || Y < 0 || Y >= H || Z < 0 || Z >= D)
      return Border;
    return T[(size_t(Z) * H + Y) * W + X];
  }
  /// The colour read_image{f,i,ui} returns at coordinate C.
  std::array<double, 4> sample(const SamplerState &St, const Float4 &C) const {
    const int W = int(S.Ext[0]), H = int(S.Ext[1]), D = int(S.Ext[2]);
    Taps X = address(C[0], W, St), Y{0, 0, 0}, Z{0, 0, 0};
    if (S.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
      Y = layer(C[1], H);
    if (S.Type == CL_MEM_OBJECT_IMAGE2D || S.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
        S.Type == CL_MEM_OBJECT_IMAGE3D)
      Y = address(C[1], H, St);
    if (S.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY)
      Z = layer(C[2], D);
    if (S.Type == CL_MEM_OBJECT_IMAGE3D)
      Z = address(C[2], D, St);
    std::array<double, 4> R = {0, 0, 0, 0};
    for (int Dz = 0; Dz < 2; ++Dz)
      for (int Dy = 0; Dy < 2; ++Dy)
        for (int Dx = 0; Dx < 2; ++Dx) {
          const double Wt = (Dx ? X.A : 1 - X.A) * (Dy ? Y.A : 1 - Y.A) * (Dz ? Z.A : 1 - Z.A);
          if (Wt == 0)
            continue;
          const auto Tx = at(Dx ? X.I1 : X.I0, Dy ? Y.I1 : Y.I0, Dz ? Z.I1 : Z.I0);
          for (int Ch = 0; Ch < 4; ++Ch)
            R[Ch] += Wt * Tx[Ch];
        }
    return R;
  }
};

/// The border colour of an order (CL_ADDRESS_CLAMP).
std::array<double, 4> borderOf(cl_channel_order O) {
  if (O == CL_R || O == CL_RG || O == CL_RGB || O == CL_LUMINANCE)
    return {0, 0, 0, 1};
  return {0, 0, 0, 0};
}

Texels texelsOf(const Shape &S, cl_image_format F, const std::vector<unsigned char> &Bytes) {
  Texels Tx{S, {}, borderOf(F.image_channel_order)};
  const size_t E = elementSize(F);
  for (size_t I = 0; I < Bytes.size() / E; ++I)
    Tx.T.push_back(decode(F, &Bytes[I * E]));
  return Tx;
}

class ImageKernels : public Images {};

/// How many of Got's 4-channel results (float4, int4 or uint4 per Fn)
/// differ from the model's Want by more than Tol, relative above 1 (the
/// first few reported with their coordinates).
size_t mismatches(char Fn, const std::vector<unsigned char> &Got,
                  const std::vector<std::array<double, 4>> &Want, double Tol,
                  const std::vector<Float4> &Coords) {
  size_t Bad = 0;
  for (size_t I = 0; I < Want.size(); ++I)
    for (int Ch = 0; Ch < 4; ++Ch) {
      const double G = resultChannel(Fn, Got, I, Ch);
      if (std::fabs(G - Want[I][Ch]) <= Tol * std::max(1.0, std::fabs(Want[I][Ch])))
        continue;
      if (++Bad <= 3)
        ADD_FAILURE() << "at (" << Coords[I][0] << ", " << Coords[I][1] << ", " << Coords[I][2]
                      << ") channel " << Ch << ": got " << G << ", want " << Want[I][Ch];
    }
  return Bad;
}

/// o[i] = read_image{f,i,ui}(im, s, c[i]) as kernels f_NAME, i_NAME and
/// u_NAME for an image type T, the sampler an argument (append
/// "READERS(T, NAME, COORD)").
const char *SampledReadSource = R"(
#define READER(FN, R, T, NAME, COORD)                                                  \
  __kernel void NAME(read_only T im, sampler_t s, __global const float4 *c,           \
                     __global R *o) {                                                  \
    float4 p = c[get_global_id(0)];                                                    \
    o[get_global_id(0)] = FN(im, s, COORD);                                            \
  }
#define READERS(T, NAME, COORD)                                                        \
  READER(read_imagef, float4, T, f_##NAME, COORD)                                      \
  READER(read_imagei, int4, T, i_##NAME, COORD)                                        \
  READER(read_imageui, uint4, T, u_##NAME, COORD)
)";

const cl_addressing_mode AddressModes[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE,
                                           CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
                                           CL_ADDRESS_MIRRORED_REPEAT};

/// Coordinates for reads of an image of shape S, every combination of:
/// along an addressed axis of N texels, points inside (a linear filter's
/// 2 texels inside too) and, with Outside, beyond both edges and beyond a
/// whole repeat, in texels or normalized; along a layer axis, values that
/// rint rounds half to even, then clamped.
std::vector<Float4> coordinates(const Shape &S, bool Normalized, bool Outside) {
  std::vector<float> Axes[3];
  for (int A = 0; A < 3; ++A) {
    const bool Layer = (A == 1 && S.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY) ||
                       (A == 2 && S.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY);
    const bool Addressed = A == 0 || (A == 1 && S.Type != CL_MEM_OBJECT_IMAGE1D && !Layer) ||
                           (A == 2 && S.Type == CL_MEM_OBJECT_IMAGE3D);
    const float N = float(S.Ext[A]);
    if (Layer)
      Axes[A] = {-0.7f, 0.5f, 1.5f, 2.5f, 3.2f, 9.0f};
    else if (!Addressed)
      Axes[A] = {0.0f};
    else {
      std::vector<float> V = {0.75f, 1.5f, 2.25f, N - 0.75f};
      if (Outside)
        V.insert(V.end(), {-1.3f, -0.2f, N + 0.6f, 2 * N + 1.25f, -N - 0.75f});
      for (float X : V)
        Axes[A].push_back(Normalized ? X / N : X);
    }
  }
  std::vector<Float4> C;
  for (float Z : Axes[2])
    for (float Y : Axes[1])
      for (float X : Axes[0])
        C.push_back({X, Y, Z, 0.0f});
  return C;
}

class SampledReads : public Images {
protected:
  /// Every sampler state with every read function on an image of shape S
  /// (OpenCL C type T, coordinate Coord of the float4 p), against the model.
  void check(const Shape &S, const char *T, const char *Coord) {
    cl_program P =
        program(std::string(SampledReadSource) + "READERS(" + T + ", read, " + Coord + ")\n");
    struct Format {
      cl_image_format F;
      char Fn;
    };
    for (Format Fm :
         {Format{{CL_RGBA, CL_FLOAT}, 'f'}, Format{{CL_RGBA, CL_UNORM_INT8}, 'f'},
          Format{{CL_RGBA, CL_SIGNED_INT16}, 'i'}, Format{{CL_RGBA, CL_UNSIGNED_INT8}, 'u'}}) {
      const size_t E = elementSize(Fm.F);
      const bool Unorm = Fm.F.image_channel_data_type == CL_UNORM_INT8;
      std::vector<unsigned char> Bytes = pattern(S.Ext[0] * S.Ext[1] * S.Ext[2] * E, 11);
      if (Fm.F.image_channel_data_type == CL_FLOAT)
        for (size_t I = 0; I < Bytes.size() / 4; ++I) {
          const float V = float(I * 7 % 61) * 0.25f - 5.0f;
          std::memcpy(&Bytes[I * 4], &V, 4);
        }
      const Texels Model = texelsOf(S, Fm.F, Bytes);
      cl_mem Img = image(Fm.F, S, CL_MEM_READ_ONLY);
      writeAll(Img, S, E, Bytes);
      cl_kernel K = make(P, std::string(1, Fm.Fn) + "_read");
      for (cl_bool N : {CL_FALSE, CL_TRUE})
        for (cl_addressing_mode A : AddressModes)
          for (cl_filter_mode Filter : {CL_FILTER_NEAREST, CL_FILTER_LINEAR}) {
            // Repeat modes take normalized coordinates only; integer reads a
            // nearest filter only.
            if (!N && (A == CL_ADDRESS_REPEAT || A == CL_ADDRESS_MIRRORED_REPEAT))
              continue;
            if (Fm.Fn != 'f' && Filter == CL_FILTER_LINEAR)
              continue;
            SCOPED_TRACE(testing::Message()
                         << std::hex << "format " << Fm.F.image_channel_data_type << ", normalized "
                         << N << ", addressing " << A << ", filter " << Filter);
            const SamplerState St{bool(N), A, Filter};
            const std::vector<Float4> Coords = coordinates(S, N, A != CL_ADDRESS_NONE);
            std::vector<std::array<double, 4>> Want;
            for (const Float4 &C : Coords)
              Want.push_back(Model.sample(St, C));
            const cl_sampler_properties Props[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                                   N,
                                                   CL_SAMPLER_ADDRESSING_MODE,
                                                   A,
                                                   CL_SAMPLER_FILTER_MODE,
                                                   Filter,
                                                   0};
            cl_int Err;
            cl_sampler Smp = clCreateSamplerWithProperties(Context, Props, &Err);
            ASSERT_EQ(Err, CL_SUCCESS);
            cl_mem C = input(Coords), O = buffer(Coords.size() * 16);
            setArg(K, 0, Img);
            setArg(K, 1, Smp);
            setArg(K, 2, C);
            setArg(K, 3, O);
            const size_t G = Coords.size();
            run(K, 1, &G);
            std::vector<unsigned char> Got = read<unsigned char>(O, G * 16);
            EXPECT_EQ(clReleaseSampler(Smp), CL_SUCCESS);
            const double Tol = Filter == CL_FILTER_LINEAR ? (Unorm ? 1.0 / 255 + 1e-4 : 1e-4)
                               : Unorm                    ? 1e-6
                                                          : 0;
            EXPECT_EQ(mismatches(Fm.Fn, Got, Want, Tol, Coords), 0u);
          }
    }
  }
};

} // namespace

TEST_F(SampledReads, Image1D) { check({CL_MEM_OBJECT_IMAGE1D, {8, 1, 1}}, "image1d_t", "p.x"); }
TEST_F(SampledReads, Image1DArray) {
  check({CL_MEM_OBJECT_IMAGE1D_ARRAY, {8, 4, 1}}, "image1d_array_t", "p.xy");
}
TEST_F(SampledReads, Image2D) { check({CL_MEM_OBJECT_IMAGE2D, {8, 4, 1}}, "image2d_t", "p.xy"); }
TEST_F(SampledReads, Image2DArray) {
  check({CL_MEM_OBJECT_IMAGE2D_ARRAY, {8, 4, 4}}, "image2d_array_t", "p");
}
TEST_F(SampledReads, Image3D) { check({CL_MEM_OBJECT_IMAGE3D, {4, 4, 4}}, "image3d_t", "p"); }

TEST_F(ImageKernels, SamplersDeclaredInTheProgramAndAsLiterals) {
  cl_program P = program(R"(
constant sampler_t Wrap = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
__kernel void program_scope(read_only image2d_t im, __global const float4 *c,
                            __global float4 *o) {
  o[get_global_id(0)] = read_imagef(im, Wrap, c[get_global_id(0)].xy);
}
__kernel void kernel_scope(read_only image2d_t im, __global const float4 *c,
                           __global float4 *o) {
  const sampler_t Border = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
  o[get_global_id(0)] = read_imagef(im, Border, c[get_global_id(0)].xy);
}
__kernel void literal(read_only image2d_t im, __global const float4 *c, __global float4 *o) {
  o[get_global_id(0)] = read_imagef(
      im, CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_NEAREST,
      c[get_global_id(0)].xy);
}
)");
  const Shape S{CL_MEM_OBJECT_IMAGE2D, {8, 4, 1}};
  const cl_image_format F{CL_RGBA, CL_FLOAT};
  std::vector<float> Values(8 * 4 * 4);
  for (size_t I = 0; I < Values.size(); ++I)
    Values[I] = float(I % 13) - 0.5f * float(I % 5);
  std::vector<unsigned char> Bytes(Values.size() * 4);
  std::memcpy(Bytes.data(), Values.data(), Bytes.size());
  const Texels Model = texelsOf(S, F, Bytes);
  cl_mem Img = image(F, S, CL_MEM_READ_ONLY);
  writeAll(Img, S, 16, Bytes);
  struct Case {
    const char *Kernel;
    SamplerState St;
  };
  for (Case C : {Case{"program_scope", {true, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR}},
                 Case{"kernel_scope", {false, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR}},
                 Case{"literal", {true, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST}}}) {
    SCOPED_TRACE(C.Kernel);
    const std::vector<Float4> Coords = coordinates(S, C.St.Normalized, true);
    std::vector<std::array<double, 4>> Want;
    for (const Float4 &Co : Coords)
      Want.push_back(Model.sample(C.St, Co));
    cl_kernel K = make(P, C.Kernel);
    cl_mem In = input(Coords), Out = buffer(Coords.size() * 16);
    setArg(K, 0, Img);
    setArg(K, 1, In);
    setArg(K, 2, Out);
    const size_t G = Coords.size();
    run(K, 1, &G);
    const double Tol = C.St.Filter == CL_FILTER_LINEAR ? 1e-4 : 0;
    EXPECT_EQ(mismatches('f', read<unsigned char>(Out, G * 16), Want, Tol, Coords), 0u);
  }
}

TEST_F(ImageKernels, BorderColourFollowsTheChannelOrder) {
  cl_program P = program(R"(
#define EDGE (CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST)
__kernel void f(read_only image2d_t im, __global float4 *o) {
  o[0] = read_imagef(im, EDGE, (int2)(-1, 0));
  o[1] = read_imagef(im, EDGE, (float2)(0.5f, 5.5f));
}
__kernel void i(read_only image2d_t im, __global int4 *o) {
  o[0] = read_imagei(im, EDGE, (int2)(-1, 0));
  o[1] = read_imagei(im, EDGE, (float2)(0.5f, 5.5f));
}
__kernel void d(read_only image2d_depth_t im, __global float4 *o) {
  o[0] = (float4)(read_imagef(im, EDGE, (int2)(-1, 0)), 0, 0, 1);
  o[1] = (float4)(read_imagef(im, EDGE, (float2)(0.5f, 5.5f)), 0, 0, 1);
}
)");
  struct Case {
    cl_image_format F;
    char Fn;
  };
  for (Case C : {Case{{CL_R, CL_FLOAT}, 'f'}, Case{{CL_RG, CL_UNORM_INT8}, 'f'},
                 Case{{CL_LUMINANCE, CL_UNORM_INT8}, 'f'}, Case{{CL_RGBA, CL_HALF_FLOAT}, 'f'},
                 Case{{CL_BGRA, CL_UNORM_INT8}, 'f'}, Case{{CL_A, CL_UNORM_INT8}, 'f'},
                 Case{{CL_INTENSITY, CL_FLOAT}, 'f'}, Case{{CL_R, CL_SIGNED_INT32}, 'i'},
                 Case{{CL_DEPTH, CL_FLOAT}, 'd'}}) {
    SCOPED_TRACE(testing::Message()
                 << std::hex << C.F.image_channel_order << "/" << C.F.image_channel_data_type);
    const Shape S{CL_MEM_OBJECT_IMAGE2D, {2, 2, 1}};
    cl_mem Img = image(C.F, S, CL_MEM_READ_ONLY);
    writeAll(Img, S, elementSize(C.F), std::vector<unsigned char>(4 * elementSize(C.F), 0x3c));
    cl_kernel K = make(P, std::string(1, C.Fn));
    cl_mem Out = buffer(32);
    setArg(K, 0, Img);
    setArg(K, 1, Out);
    const size_t One = 1;
    run(K, 1, &One);
    const std::array<double, 4> Border =
        C.Fn == 'd' ? std::array<double, 4>{0, 0, 0, 1} : borderOf(C.F.image_channel_order);
    const std::vector<Float4> Where = {{-1, 0, 0, 0}, {0.5f, 5.5f, 0, 0}};
    EXPECT_EQ(mismatches(C.Fn == 'i' ? 'i' : 'f', read<unsigned char>(Out, 32), {Border, Border}, 0,
                         Where),
              0u);
  }
}

TEST_F(ImageKernels, BlurMatchesTheHostExactly) {
  cl_program P = program(R"(
constant sampler_t Edge =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
// Each read converted back to its byte: exact whatever ulp read_imagef is
// within; the sum scaled by one multiply, which is correctly rounded.
__kernel void blur(read_only image2d_t in, write_only image2d_t out, float weight) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  int4 sum = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      sum += convert_int4_rte(read_imagef(in, Edge, p + (int2)(dx, dy)) * 255.0f);
  write_imagef(out, p, convert_float4(sum) * weight);
}
)");
  const int N = 256;
  const Shape S{CL_MEM_OBJECT_IMAGE2D, {size_t(N), size_t(N), 1}};
  std::vector<unsigned char> Pixels = pattern(N * N * 4, 13);
  cl_mem In = image(Rgba8, S, CL_MEM_READ_ONLY);
  cl_mem Out = image({CL_RGBA, CL_FLOAT}, S, CL_MEM_WRITE_ONLY);
  writeAll(In, S, 4, Pixels);
  const float Weight = 1.0f / 9.0f;
  cl_kernel K = make(P, "blur");
  setArg(K, 0, In);
  setArg(K, 1, Out);
  setArg(K, 2, Weight);
  run(K, 2, S.Ext);
  std::vector<unsigned char> Got = readAll(Out, S, 16);
  size_t Bad = 0;
  for (int Y = 0; Y < N; ++Y)
    for (int X = 0; X < N; ++X)
      for (int C = 0; C < 4; ++C) {
        int Sum = 0;
        for (int Dy = -1; Dy <= 1; ++Dy)
          for (int Dx = -1; Dx <= 1; ++Dx)
            Sum +=
                Pixels[(std::clamp(Y + Dy, 0, N - 1) * N + std::clamp(X + Dx, 0, N - 1)) * 4 + C];
        const float Want = float(Sum) * Weight;
        float G;
        std::memcpy(&G, &Got[((size_t(Y) * N + X) * 4 + C) * 4], 4);
        if (G != Want && ++Bad <= 3)
          ADD_FAILURE() << "(" << X << ", " << Y << ") channel " << C << ": " << G
                        << " != " << Want;
      }
  EXPECT_EQ(Bad, 0u);
}
