// Image filters written the way video tools write them for OpenCL (the shape
// of FFmpeg's OpenCL filters; the kernels here are our own): a frame is a set
// of planes, each a CL_R image (CL_UNORM_INT8 or CL_UNORM_INT16, the chroma
// planes of 4:2:0 at half size, rounded up), uploaded from rows with a padded
// line size; kernels take __write_only and __read_only image2d_t, read with
// int2 coordinates through a clamp-to-edge nearest sampler, take their size
// from get_image_dim and return early past it, because the global size is
// rounded up to the work-group size. Convolution, unsharp mask, overlay of an
// RGBA picture, and two filters chained through an intermediate frame.
//
// Each output is compared exactly with a host model of the same arithmetic.
// read_imagef of a normalized channel is c / 255.0f (or c / 65535.0f), one
// correctly rounded division, and write_imagef stores convert_sat_rte(v *
// 255.0f); the model repeats the kernel's float operations in the kernel's
// order. One thing the source does not fix: OpenCL C contracts a * b + c in
// one statement by default (FP_CONTRACT ON), and whether that becomes a fused
// multiply-add depends on the CPU. So the model runs both ways and each
// output plane must equal one of the two exactly. This file is compiled with
// -ffp-contract=off (tests/api/CMakeLists.txt) so that the unfused model
// stays unfused.
#include "ImageTestUtil.h"

#include <functional>

using namespace weft::test;

namespace {

/// One plane: W x H samples of Bits (8 or 16) bits, row by row.
struct Plane {
  int W = 0, H = 0, Bits = 8;
  std::vector<uint16_t> S;

  Plane() = default;
  Plane(int W, int H, int Bits) : W(W), H(H), Bits(Bits), S(size_t(W) * H) {}
  float maxValue() const { return Bits == 8 ? 255.0f : 65535.0f; }
  /// The sample a clamp-to-edge sampler reads at (X, Y).
  uint16_t at(int X, int Y) const {
    return S[size_t(std::clamp(Y, 0, H - 1)) * W + std::clamp(X, 0, W - 1)];
  }
  /// read_imagef(...).x of a CL_R normalized image.
  float read(int X, int Y) const { return float(at(X, Y)) / maxValue(); }
  /// write_imagef of (V, ...): round to nearest even of V * max, saturated.
  void write(int X, int Y, float V) {
    const float Scaled = std::min(std::max(V * maxValue(), 0.0f), maxValue());
    S[size_t(Y) * W + X] = uint16_t(std::nearbyint(Scaled));
  }
};

/// Y, U and V of a 4:2:0 frame.
using Frame = std::array<Plane, 3>;

/// A picture a filter has work to do on: a diagonal ramp, a bright block
/// with hard edges (so that sharpening overshoots and saturates) and noise
/// (so that a transposed or shifted window shows).
Plane synth(int W, int H, int Bits, unsigned Seed) {
  Plane P(W, H, Bits);
  uint32_t R = Seed * 2654435761u + 1;
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X) {
      R = R * 1664525u + 1013904223u;
      double V = double(X + 2 * Y) / (W + 2 * H);
      if (X > W / 4 && X < W / 2 && Y > H / 3 && Y < 2 * H / 3)
        V = 0.97;
      V += double(R >> 8 & 1023) / 1023 * 0.16 - 0.08;
      P.S[size_t(Y) * W + X] = uint16_t(std::lround(std::clamp(V, 0.0, 1.0) * P.maxValue()));
    }
  return P;
}

Frame synthFrame(int W, int H, int Bits, unsigned Seed) {
  return {synth(W, H, Bits, Seed), synth((W + 1) / 2, (H + 1) / 2, Bits, Seed + 1),
          synth((W + 1) / 2, (H + 1) / 2, Bits, Seed + 2)};
}

/// a * b + c as the kernel computes a contracted expression.
float mad(bool Fused, float A, float B, float C) { return Fused ? std::fma(A, B, C) : A * B + C; }

// ---------------------------------------------------------------------------
// The kernels and their host models
// ---------------------------------------------------------------------------

const char *ConvolutionSource = R"(
__kernel void convolution(__write_only image2d_t dst, __read_only image2d_t src,
                          int size, __constant float *matrix, float rdiv, float bias)
{
    const sampler_t sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                              CLK_FILTER_NEAREST;
    int2 loc = (int2)(get_global_id(0), get_global_id(1));
    int2 dim = get_image_dim(dst);
    if (loc.x >= dim.x || loc.y >= dim.y)
        return;

    int half_size = size / 2;
    float4 sum = (float4)(0.0f);
    for (int j = -half_size; j <= half_size; j++) {
        for (int i = -half_size; i <= half_size; i++) {
            float4 pix = read_imagef(src, sampler, loc + (int2)(i, j));
            sum += pix * matrix[(j + half_size) * size + (i + half_size)];
        }
    }
    write_imagef(dst, loc, sum * rdiv + bias);
}
)";

struct Matrix {
  int Size;
  std::vector<float> M;
  float Rdiv, Bias;
};

Plane convolve(const Plane &In, const Matrix &K, bool Fused) {
  Plane Out(In.W, In.H, In.Bits);
  const int Half = K.Size / 2;
  for (int Y = 0; Y < In.H; ++Y)
    for (int X = 0; X < In.W; ++X) {
      float Sum = 0.0f;
      for (int J = -Half; J <= Half; ++J)
        for (int I = -Half; I <= Half; ++I)
          Sum = mad(Fused, In.read(X + I, Y + J), K.M[(J + Half) * K.Size + I + Half], Sum);
      Out.write(X, Y, mad(Fused, Sum, K.Rdiv, K.Bias));
    }
  return Out;
}

const char *UnsharpSource = R"(
__constant sampler_t sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                               CLK_FILTER_NEAREST;

__kernel void unsharp(__write_only image2d_t dst, __read_only image2d_t src,
                      int size_x, int size_y, float amount, __constant float *coef_matrix)
{
    int2 loc = (int2)(get_global_id(0), get_global_id(1));
    int2 dim = get_image_dim(src);
    if (loc.x >= dim.x || loc.y >= dim.y)
        return;

    int2 centre = (int2)(size_x / 2, size_y / 2);
    float blur = 0.0f;
    for (int y = 0; y < size_y; y++) {
        for (int x = 0; x < size_x; x++) {
            float4 pix = read_imagef(src, sampler, loc + (int2)(x, y) - centre);
            blur += pix.x * coef_matrix[y * size_x + x];
        }
    }
    float orig = read_imagef(src, sampler, loc).x;
    float val = orig + amount * (orig - blur);
    write_imagef(dst, loc, (float4)(clamp(val, 0.0f, 1.0f), 0.0f, 0.0f, 1.0f));
}
)";

/// A Size x Size binomial blur (rows of Pascal's triangle, normalized).
std::vector<float> binomial(int Size) {
  std::vector<float> Row = {1};
  for (int I = 1; I < Size; ++I) {
    std::vector<float> Next(Row.size() + 1, 0.0f);
    for (size_t J = 0; J < Row.size(); ++J) {
      Next[J] += Row[J];
      Next[J + 1] += Row[J];
    }
    Row = Next;
  }
  const float Total = std::ldexp(1.0f, 2 * (Size - 1));
  std::vector<float> M;
  for (float A : Row)
    for (float B : Row)
      M.push_back(A * B / Total); // exact: a power of two divides
  return M;
}

Plane unsharp(const Plane &In, int Size, float Amount, bool Fused) {
  const std::vector<float> Coef = binomial(Size);
  Plane Out(In.W, In.H, In.Bits);
  for (int Y = 0; Y < In.H; ++Y)
    for (int X = 0; X < In.W; ++X) {
      float Blur = 0.0f;
      for (int J = 0; J < Size; ++J)
        for (int I = 0; I < Size; ++I)
          Blur = mad(Fused, In.read(X + I - Size / 2, Y + J - Size / 2), Coef[J * Size + I], Blur);
      const float Orig = In.read(X, Y);
      const float Val = mad(Fused, Amount, Orig - Blur, Orig);
      Out.write(X, Y, std::min(std::max(Val, 0.0f), 1.0f));
    }
  return Out;
}

// The overlay picture is an RGBA image whose r, g and b hold the frame's Y, U
// and V (a 4:4:4 picture with alpha, in one image). A chroma sample covers
// sub x sub overlay pixels: it takes the colour of the first and the mean of
// their alphas, read separately.
const char *OverlaySource = R"(
__kernel void overlay(__write_only image2d_t dst, __read_only image2d_t main,
                      __read_only image2d_t overlay, int plane,
                      int x_position, int y_position, int sub)
{
    const sampler_t sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                              CLK_FILTER_NEAREST;
    int2 loc = (int2)(get_global_id(0), get_global_id(1));
    int2 dim = get_image_dim(dst);
    if (loc.x >= dim.x || loc.y >= dim.y)
        return;

    float in = read_imagef(main, sampler, loc).x;
    int2 ov_loc = loc * sub - (int2)(x_position, y_position);
    int2 ov_dim = get_image_dim(overlay);
    if (ov_loc.x < 0 || ov_loc.y < 0 || ov_loc.x >= ov_dim.x || ov_loc.y >= ov_dim.y) {
        write_imagef(dst, loc, (float4)(in));
        return;
    }

    float4 ov = read_imagef(overlay, sampler, ov_loc);
    float alpha = 0.0f;
    for (int j = 0; j < sub; j++)
        for (int i = 0; i < sub; i++)
            alpha += read_imagef(overlay, sampler, ov_loc + (int2)(i, j)).w;
    alpha /= sub * sub;

    float c = plane == 0 ? ov.x : plane == 1 ? ov.y : ov.z;
    write_imagef(dst, loc, (float4)(in * (1.0f - alpha) + c * alpha));
}
)";

/// The overlay picture: its four channels as planes.
using Rgba = std::array<Plane, 4>;

Rgba synthRgba(int W, int H, unsigned Seed) {
  return {synth(W, H, 8, Seed), synth(W, H, 8, Seed + 1), synth(W, H, 8, Seed + 2),
          synth(W, H, 8, Seed + 3)};
}

Plane overlay(const Plane &Main, const Rgba &Ov, int Index, int Px, int Py, int Sub, bool Fused) {
  Plane Out(Main.W, Main.H, Main.Bits);
  const Plane &A = Ov[3];
  for (int Y = 0; Y < Main.H; ++Y)
    for (int X = 0; X < Main.W; ++X) {
      const float In = Main.read(X, Y);
      const int Ox = X * Sub - Px, Oy = Y * Sub - Py;
      if (Ox < 0 || Oy < 0 || Ox >= A.W || Oy >= A.H) {
        Out.write(X, Y, In);
        continue;
      }
      float Alpha = 0.0f;
      for (int J = 0; J < Sub; ++J)
        for (int I = 0; I < Sub; ++I)
          Alpha += A.read(Ox + I, Oy + J);
      Alpha /= float(Sub * Sub);
      const float C = Ov[Index].read(Ox, Oy);
      Out.write(X, Y, mad(Fused, In, 1.0f - Alpha, C * Alpha));
    }
  return Out;
}

// ---------------------------------------------------------------------------
// The fixture: frames in and out of images, launches, comparison
// ---------------------------------------------------------------------------

constexpr size_t LocalSize[2] = {16, 8};

cl_image_format formatOf(int Bits) {
  return {CL_R, cl_channel_type(Bits == 8 ? CL_UNORM_INT8 : CL_UNORM_INT16)};
}

/// Host rows as a video frame lays them out: a line size padded to 64 bytes.
size_t lineSize(int W, size_t Elem) { return (W * Elem + 63) / 64 * 64; }

class ImageFilters : public Images {
protected:
  /// A CL_R image of P's size and depth, holding P.
  cl_mem upload(const Plane &P) {
    cl_mem M = blank(P.W, P.H, P.Bits);
    const size_t Elem = P.Bits / 8, Line = lineSize(P.W, Elem);
    std::vector<unsigned char> Host(Line * P.H, 0xee);
    for (int Y = 0; Y < P.H; ++Y)
      for (int X = 0; X < P.W; ++X)
        std::memcpy(&Host[Y * Line + X * Elem], &P.S[size_t(Y) * P.W + X], Elem); // little-endian
    const size_t Origin[3] = {0, 0, 0}, Region[3] = {size_t(P.W), size_t(P.H), 1};
    EXPECT_EQ(writeImage(M, Origin, Region, Line, 0, Host.data()), CL_SUCCESS);
    return M;
  }
  cl_mem blank(int W, int H, int Bits) {
    return image(formatOf(Bits), descOf(Shape{CL_MEM_OBJECT_IMAGE2D, {size_t(W), size_t(H), 1}}));
  }
  std::vector<cl_mem> upload(const Frame &F) { return {upload(F[0]), upload(F[1]), upload(F[2])}; }
  std::vector<cl_mem> blank(const Frame &F) {
    return {blank(F[0].W, F[0].H, F[0].Bits), blank(F[1].W, F[1].H, F[1].Bits),
            blank(F[2].W, F[2].H, F[2].Bits)};
  }
  /// The overlay picture as a CL_RGBA / CL_UNORM_INT8 image.
  cl_mem upload(const Rgba &P) {
    const int W = P[0].W, H = P[0].H;
    cl_mem M = image(Rgba8, descOf(Shape{CL_MEM_OBJECT_IMAGE2D, {size_t(W), size_t(H), 1}}));
    std::vector<unsigned char> Host(size_t(W) * H * 4);
    for (size_t I = 0; I < size_t(W) * H; ++I)
      for (int C = 0; C < 4; ++C)
        Host[I * 4 + C] = uint8_t(P[C].S[I]);
    const size_t Origin[3] = {0, 0, 0}, Region[3] = {size_t(W), size_t(H), 1};
    EXPECT_EQ(writeImage(M, Origin, Region, 0, 0, Host.data()), CL_SUCCESS);
    return M;
  }
  Plane download(cl_mem M, int W, int H, int Bits) {
    Plane P(W, H, Bits);
    const size_t Elem = Bits / 8, Line = lineSize(W, Elem);
    std::vector<unsigned char> Host(Line * H);
    const size_t Origin[3] = {0, 0, 0}, Region[3] = {size_t(W), size_t(H), 1};
    EXPECT_EQ(readImage(M, Origin, Region, Line, 0, Host.data()), CL_SUCCESS);
    for (int Y = 0; Y < H; ++Y)
      for (int X = 0; X < W; ++X)
        std::memcpy(&P.S[size_t(Y) * W + X], &Host[Y * Line + X * Elem], Elem);
    return P;
  }
  /// Enqueues K over W x H, the global size rounded up to the work-group.
  void launch(cl_kernel K, int W, int H) {
    const size_t Global[2] = {(W + LocalSize[0] - 1) / LocalSize[0] * LocalSize[0],
                              (H + LocalSize[1] - 1) / LocalSize[1] * LocalSize[1]};
    ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, LocalSize, 0, nullptr, nullptr),
              CL_SUCCESS);
  }
  /// Expects the plane read from M to equal Model(fused) or Model(unfused).
  void expectPlane(cl_mem M, const std::function<Plane(bool Fused)> &Model,
                   const std::string &What) {
    const Plane Fused = Model(true), Unfused = Model(false);
    const Plane Got = download(M, Fused.W, Fused.H, Fused.Bits);
    auto differences = [&](const Plane &Want) {
      size_t N = 0;
      for (size_t I = 0; I < Want.S.size(); ++I)
        N += Got.S[I] != Want.S[I];
      return N;
    };
    const size_t F = differences(Fused), U = differences(Unfused);
    if (F == 0 || U == 0)
      return;
    const Plane &Want = F <= U ? Fused : Unfused;
    ADD_FAILURE() << What << ": " << std::min(F, U) << " of " << Want.S.size()
                  << " samples differ from the " << (F <= U ? "fused" : "unfused") << " model";
    for (size_t I = 0, Shown = 0; I < Want.S.size() && Shown < 4; ++I)
      if (Got.S[I] != Want.S[I]) {
        ++Shown;
        ADD_FAILURE() << What << " at (" << I % Want.W << ", " << I / Want.W << "): got "
                      << Got.S[I] << ", want " << Want.S[I];
      }
  }
};

/// A frame size and sample depth.
struct Format {
  int W, H, Bits;
};
const Format Frames[] = {{64, 48, 8}, {64, 48, 16}, {37, 23, 8}, {37, 23, 16}};

std::string nameOf(const Format &F, int Plane) {
  return std::to_string(F.W) + "x" + std::to_string(F.H) + " " + std::to_string(F.Bits) +
         "-bit plane " + std::string(1, "YUV"[Plane]);
}

} // namespace

TEST_F(ImageFilters, ConvolutionOf8And16BitPlanes) {
  cl_kernel K = make(program(ConvolutionSource, ""), "convolution");
  // A lopsided emboss (rdiv 1, no bias) and a skewed 5x5 (divided, biased
  // to grey): neither equals its transpose or its mirror image, so a window
  // read the wrong way round shows.
  const Matrix Emboss{3, {-2, -1, 0, 0, 1, 1, 0, 1, 1}, 1.0f, 0.0f};
  std::vector<float> Skew(25);
  for (int I = 0; I < 25; ++I)
    Skew[I] = float((I * 7) % 11) - 5.0f;
  const Matrix Skewed{5, Skew, 1.0f / 9, 0.5f};
  for (const Matrix &Mx : {Emboss, Skewed})
    for (const Format &Fm : Frames) {
      const Frame In = synthFrame(Fm.W, Fm.H, Fm.Bits, 3);
      const std::vector<cl_mem> Src = upload(In), Dst = blank(In);
      cl_mem Coef = input(Mx.M);
      for (int P = 0; P < 3; ++P) {
        setArg(K, 0, Dst[P]);
        setArg(K, 1, Src[P]);
        setArg(K, 2, cl_int(Mx.Size));
        setArg(K, 3, Coef);
        setArg(K, 4, Mx.Rdiv);
        setArg(K, 5, Mx.Bias);
        launch(K, In[P].W, In[P].H);
      }
      for (int P = 0; P < 3; ++P)
        expectPlane(
            Dst[P], [&](bool Fused) { return convolve(In[P], Mx, Fused); },
            std::to_string(Mx.Size) + "x" + std::to_string(Mx.Size) + " on " + nameOf(Fm, P));
    }
}

TEST_F(ImageFilters, UnsharpMaskOfLumaAndChroma) {
  cl_kernel K = make(program(UnsharpSource, ""), "unsharp");
  // Luma sharpened hard through a 5x5 blur; chroma softened (a negative
  // amount) through a 3x3 one, as unsharp filters take them.
  struct Setting {
    int Size;
    float Amount;
  };
  const Setting Luma{5, 1.5f}, Chroma{3, -0.5f};
  for (const Format &Fm : {Frames[0], Frames[3]}) {
    const Frame In = synthFrame(Fm.W, Fm.H, Fm.Bits, 7);
    const std::vector<cl_mem> Src = upload(In), Dst = blank(In);
    const cl_mem Coef[2] = {input(binomial(Luma.Size)), input(binomial(Chroma.Size))};
    for (int P = 0; P < 3; ++P) {
      const Setting &S = P == 0 ? Luma : Chroma;
      setArg(K, 0, Dst[P]);
      setArg(K, 1, Src[P]);
      setArg(K, 2, cl_int(S.Size));
      setArg(K, 3, cl_int(S.Size));
      setArg(K, 4, S.Amount);
      setArg(K, 5, Coef[P == 0 ? 0 : 1]);
      launch(K, In[P].W, In[P].H);
    }
    for (int P = 0; P < 3; ++P) {
      const Setting &S = P == 0 ? Luma : Chroma;
      expectPlane(
          Dst[P], [&](bool Fused) { return unsharp(In[P], S.Size, S.Amount, Fused); },
          nameOf(Fm, P));
    }
  }
}

TEST_F(ImageFilters, OverlayOfAnRgbaPictureOnEachPlane) {
  cl_kernel K = make(program(OverlaySource, ""), "overlay");
  // Inside the frame; then across its right and bottom edges, on an odd-sized
  // frame whose last chroma column and row cover one luma column and row.
  struct Case {
    Format Fm;
    int OvW, OvH, X, Y;
  };
  for (const Case &C : {Case{Frames[0], 20, 14, 10, 6}, Case{Frames[3], 15, 9, 26, 16}}) {
    const Frame In = synthFrame(C.Fm.W, C.Fm.H, C.Fm.Bits, 11);
    const Rgba Ov = synthRgba(C.OvW, C.OvH, 19);
    const std::vector<cl_mem> Src = upload(In), Dst = blank(In);
    cl_mem Pic = upload(Ov);
    for (cl_int P = 0; P < 3; ++P) {
      setArg(K, 0, Dst[P]);
      setArg(K, 1, Src[P]);
      setArg(K, 2, Pic);
      setArg(K, 3, P);
      setArg(K, 4, cl_int(C.X));
      setArg(K, 5, cl_int(C.Y));
      setArg(K, 6, cl_int(P == 0 ? 1 : 2));
      launch(K, In[P].W, In[P].H);
    }
    for (int P = 0; P < 3; ++P)
      expectPlane(
          Dst[P], [&](bool Fused) { return overlay(In[P], Ov, P, C.X, C.Y, P ? 2 : 1, Fused); },
          nameOf(C.Fm, P));
  }
}

TEST_F(ImageFilters, ConvolutionThenOverlayThroughAnIntermediateFrame) {
  // Both filters are enqueued on the one in-order queue with no wait between
  // them: the overlay must see the convolution's output. Separate programs,
  // as separate filters build them.
  cl_kernel Conv = make(program(ConvolutionSource, ""), "convolution");
  cl_kernel Over = make(program(OverlaySource, ""), "overlay");
  const Matrix Blur{3, binomial(3), 1.0f, 0.0f};
  for (const Format &Fm : {Frames[2], Frames[1]}) {
    const Frame In = synthFrame(Fm.W, Fm.H, Fm.Bits, 23);
    const Rgba Ov = synthRgba(12, 10, 29);
    const int X = 4, Y = 8;
    const std::vector<cl_mem> Src = upload(In), Mid = blank(In), Dst = blank(In);
    cl_mem Coef = input(Blur.M), Pic = upload(Ov);
    for (cl_int P = 0; P < 3; ++P) {
      setArg(Conv, 0, Mid[P]);
      setArg(Conv, 1, Src[P]);
      setArg(Conv, 2, cl_int(Blur.Size));
      setArg(Conv, 3, Coef);
      setArg(Conv, 4, Blur.Rdiv);
      setArg(Conv, 5, Blur.Bias);
      launch(Conv, In[P].W, In[P].H);
      setArg(Over, 0, Dst[P]);
      setArg(Over, 1, Mid[P]);
      setArg(Over, 2, Pic);
      setArg(Over, 3, P);
      setArg(Over, 4, cl_int(X));
      setArg(Over, 5, cl_int(Y));
      setArg(Over, 6, cl_int(P == 0 ? 1 : 2));
      launch(Over, In[P].W, In[P].H);
    }
    for (int P = 0; P < 3; ++P) {
      const int Sub = P ? 2 : 1;
      expectPlane(
          Dst[P],
          [&](bool Fused) {
            return overlay(convolve(In[P], Blur, Fused), Ov, P, X, Y, Sub, Fused);
          },
          "output " + nameOf(Fm, P));
      expectPlane(
          Mid[P], [&](bool Fused) { return convolve(In[P], Blur, Fused); },
          "intermediate " + nameOf(Fm, P));
    }
  }
}
