// Figure 16: images. A 5x5 binomial blur of an RGBA8 picture into floats,
// once through images (a CL_UNORM_INT8 image read with a clamp-to-edge,
// nearest sampler at integer coordinates, a CL_FLOAT image written) and once
// through buffers (uchar4 in, float4 out, the clamping and normalising done
// by hand): the same arithmetic in the same order, over the same picture
// with the same work-groups, so that the ratio of the two is the price of
// the image path itself (the aim is an image kernel within 2x of its buffer
// twin). And a bilinear resize in which the sampler (normalised
// coordinates, linear filtering) does all the work. Every output is checked
// against a reference the host computes once, in double. A device without
// images shows "-" for the image metrics; the buffer blur runs everywhere.
#include "Figures.h"
#include "Kernels.h"

#include <algorithm>
#include <cmath>

namespace weft::bench {

namespace {

/// Every kernel runs in 16 x 16 work-groups; every size is a multiple.
constexpr size_t GroupSide = 16;
/// What the outputs hold before each batch: no blur or resize of values in
/// [0, 1] gives it, so a kernel that wrote nothing cannot pass.
constexpr float Sentinel = -1.0f;
/// The blur's taps, as kernels::Image's Binomial5 (exact in float).
constexpr double Binomial5[5] = {1 / 16.0, 4 / 16.0, 6 / 16.0, 4 / 16.0, 1 / 16.0};

/// The inputs and the host's expected outputs. They do not depend on the
/// device, so the figure computes them once and shares them between devices.
struct ImageData {
  bool Quick = false;
  size_t Side = 0;                        ///< the blur's picture is Side x Side
  size_t SrcSide = 0, DstSide = 0;        ///< the resize goes from SrcSide^2 to DstSide^2
  float Step = 0;                         ///< the resize kernel's Step: 1 / DstSide
  HostArray<uint8_t> Picture, Src;        ///< RGBA bytes, row-major
  HostArray<double> BlurWant, ResizeWant; ///< RGBA values in [0, 1], row-major
};

/// Deterministic noise: neighbouring pixels unrelated, so that a tap taken
/// from the wrong place (or a filter weight wrongly placed) shows.
void fillNoise(HostArray<uint8_t> &Bytes, uint32_t Seed) {
  for (size_t I = 0; I < Bytes.size(); ++I) {
    Seed = Seed * 1664525u + 1013904223u;
    Bytes[I] = static_cast<uint8_t>(Seed >> 24);
  }
}

/// The blur of D.Picture, one axis at a time (clamping each axis to the
/// picture is what clamping the 2D coordinate does).
void blurReference(ImageData &D) {
  const ptrdiff_t N = static_cast<ptrdiff_t>(D.Side);
  auto At = [N](ptrdiff_t X, ptrdiff_t Y, int C) {
    return static_cast<size_t>(
        (std::clamp<ptrdiff_t>(Y, 0, N - 1) * N + std::clamp<ptrdiff_t>(X, 0, N - 1)) * 4 + C);
  };
  HostArray<double> Across(D.Picture.size());
  for (ptrdiff_t Y = 0; Y < N; ++Y)
    for (ptrdiff_t X = 0; X < N; ++X)
      for (int C = 0; C < 4; ++C) {
        double Sum = 0;
        for (int K = -2; K <= 2; ++K)
          Sum += Binomial5[K + 2] * (D.Picture[At(X + K, Y, C)] / 255.0);
        Across[At(X, Y, C)] = Sum;
      }
  D.BlurWant.resize(D.Picture.size());
  for (ptrdiff_t Y = 0; Y < N; ++Y)
    for (ptrdiff_t X = 0; X < N; ++X)
      for (int C = 0; C < 4; ++C) {
        double Sum = 0;
        for (int K = -2; K <= 2; ++K)
          Sum += Binomial5[K + 2] * Across[At(X, Y + K, C)];
        D.BlurWant[At(X, Y, C)] = Sum;
      }
}

/// The two texels CLK_FILTER_LINEAR blends along one axis of Size texels at
/// normalised coordinate S with CLK_ADDRESS_CLAMP_TO_EDGE, and the weight of
/// the second (OpenCL C, "Image Filtering": u = S * Size, i0 =
/// floor(u - 0.5), i1 = i0 + 1, both clamped, a = frac(u - 0.5)).
struct LinearTaps {
  size_t Lo, Hi;
  double Weight;
};
LinearTaps linearTaps(float S, size_t Size) {
  const double U = static_cast<double>(S) * static_cast<double>(Size) - 0.5;
  const double I0 = std::floor(U);
  auto Clamp = [Size](double I) {
    return static_cast<size_t>(std::clamp(I, 0.0, static_cast<double>(Size - 1)));
  };
  return {Clamp(I0), Clamp(I0 + 1), U - I0};
}

/// The resize of D.Src, sampled where the kernel samples: its coordinates
/// computed in float exactly as the kernel computes them.
void resizeReference(ImageData &D) {
  const size_t In = D.SrcSide, Out = D.DstSide;
  D.ResizeWant.resize(Out * Out * 4);
  auto Texel = [&](size_t X, size_t Y, int C) { return D.Src[(Y * In + X) * 4 + C] / 255.0; };
  for (size_t Y = 0; Y < Out; ++Y) {
    const LinearTaps V = linearTaps((static_cast<float>(Y) + 0.5f) * D.Step, In);
    for (size_t X = 0; X < Out; ++X) {
      const LinearTaps U = linearTaps((static_cast<float>(X) + 0.5f) * D.Step, In);
      for (int C = 0; C < 4; ++C)
        D.ResizeWant[(Y * Out + X) * 4 + C] =
            (1 - U.Weight) * (1 - V.Weight) * Texel(U.Lo, V.Lo, C) +
            U.Weight * (1 - V.Weight) * Texel(U.Hi, V.Lo, C) +
            (1 - U.Weight) * V.Weight * Texel(U.Lo, V.Hi, C) +
            U.Weight * V.Weight * Texel(U.Hi, V.Hi, C);
    }
  }
}

std::shared_ptr<const ImageData> makeImageData(bool Quick) {
  auto D = std::make_shared<ImageData>();
  D->Quick = Quick;
  D->Side = Quick ? 512 : 2048;
  D->SrcSide = Quick ? 256 : 1024;
  D->DstSide = D->SrcSide * 3 / 2;
  D->Step = 1.0f / static_cast<float>(D->DstSide);
  D->Picture.resize(D->Side * D->Side * 4);
  fillNoise(D->Picture, 1616);
  blurReference(*D);
  D->Src.resize(D->SrcSide * D->SrcSide * 4);
  fillNoise(D->Src, 6161);
  resizeReference(*D);
  return D;
}

bool hasImages(const Device &D) {
  cl_bool Images = CL_FALSE;
  return clGetDeviceInfo(D.Id, CL_DEVICE_IMAGE_SUPPORT, sizeof(Images), &Images, nullptr) ==
             CL_SUCCESS &&
         Images;
}

/// One device's programs, kernels and memory objects.
struct ImageState {
  std::shared_ptr<const ImageData> Data;
  Program BufferP, ImageP;
  Kernel BlurBuffer, BlurImage, Resize;
  Mem PictureBuffer, BlurredBuffer, PictureImage, BlurredImage, SrcImage, DstImage;
  HostArray<float> Got; ///< either output, read back
};

/// The image kernels' program, built by the first part that needs it.
const Program &imageProgram(const Device &D, ImageState &S) {
  if (!S.ImageP.get())
    S.ImageP = D.build(kernels::Image, "-cl-std=CL1.2 -DIMAGES=1");
  return S.ImageP;
}

void fillBuffer(const Device &D, const Mem &M, size_t Bytes) {
  check(clEnqueueFillBuffer(D.Queue, M.get(), &Sentinel, sizeof(Sentinel), 0, Bytes, 0, nullptr,
                            nullptr),
        "clEnqueueFillBuffer");
}

void fillImage(const Device &D, const Mem &M, size_t Width, size_t Height) {
  const cl_float4 Color = {{Sentinel, Sentinel, Sentinel, Sentinel}};
  const size_t Origin[3] = {0, 0, 0}, Region[3] = {Width, Height, 1};
  check(clEnqueueFillImage(D.Queue, M.get(), &Color, Origin, Region, 0, nullptr, nullptr),
        "clEnqueueFillImage");
}

/// Mpixels of output per second, in batches of at most 200 launches.
void perPixel(TimedPart &P, size_t Side) {
  P.WorkPerLaunch = static_cast<double>(Side * Side);
  P.Scale = 1e-6;
  P.MaxLaunches = 200;
}

TimedPart unsupported() {
  TimedPart P;
  P.Unsupported = true;
  return P;
}

// The three parts. The blur's input and expected output are the same for
// the image and the buffer kernel; its tolerance is relative, as every term
// of the sum is positive (float rounding and UNORM_INT8's 1.5 ulp
// conversion). The resize's is 1/255 + 1e-4, absolute: an implementation
// may blend with weights of reduced precision (graphics hardware uses 8-bit
// fractions), and the device finds the texels in float, the host in double.

TimedPart blurImagePart(const Device &D, const std::shared_ptr<ImageState> &S) {
  const size_t N = S->Data->Side;
  S->BlurImage = D.kernel(imageProgram(D, *S), "blurImage");
  S->PictureImage = D.image2d(CL_RGBA, CL_UNORM_INT8, N, N, CL_MEM_READ_ONLY);
  D.writeImage(S->PictureImage, S->Data->Picture.data(), N, N);
  S->BlurredImage = D.image2d(CL_RGBA, CL_FLOAT, N, N, CL_MEM_WRITE_ONLY);
  setArgs(S->BlurImage, S->PictureImage, S->BlurredImage);
  const Device *Dev = &D;
  TimedPart P;
  P.Reset = [S, Dev, N](unsigned) { fillImage(*Dev, S->BlurredImage, N, N); };
  P.Launch = [S, Dev, N] { Dev->launch(S->BlurImage, {N, N}, {GroupSide, GroupSide}); };
  P.Verify = [S, Dev, N](unsigned, unsigned) {
    Dev->readImage(S->BlurredImage, S->Got.data(), N, N);
    expectRelative(S->Got.data(), S->Data->BlurWant.data(), N * N * 4, 1e-5, 0,
                   "blurImage output (RGBA floats, row-major)");
  };
  perPixel(P, N);
  return P;
}

TimedPart blurBufferPart(const Device &D, const std::shared_ptr<ImageState> &S) {
  const size_t N = S->Data->Side;
  const size_t OutBytes = N * N * 4 * sizeof(float);
  S->BufferP = D.build(kernels::Image, "-cl-std=CL1.2");
  S->BlurBuffer = D.kernel(S->BufferP, "blurBuffer");
  S->PictureBuffer = D.buffer(S->Data->Picture.bytes(), CL_MEM_READ_ONLY);
  D.write(S->PictureBuffer, S->Data->Picture.data(), S->Data->Picture.bytes());
  S->BlurredBuffer = D.buffer(OutBytes, CL_MEM_WRITE_ONLY);
  const cl_int Side = static_cast<cl_int>(N);
  setArgs(S->BlurBuffer, S->PictureBuffer, S->BlurredBuffer, Side, Side);
  const Device *Dev = &D;
  TimedPart P;
  P.Reset = [S, Dev, OutBytes](unsigned) { fillBuffer(*Dev, S->BlurredBuffer, OutBytes); };
  P.Launch = [S, Dev, N] { Dev->launch(S->BlurBuffer, {N, N}, {GroupSide, GroupSide}); };
  P.Verify = [S, Dev, N, OutBytes](unsigned, unsigned) {
    Dev->read(S->BlurredBuffer, S->Got.data(), OutBytes);
    expectRelative(S->Got.data(), S->Data->BlurWant.data(), N * N * 4, 1e-5, 0,
                   "blurBuffer output (RGBA floats, row-major)");
  };
  perPixel(P, N);
  return P;
}

TimedPart resizePart(const Device &D, const std::shared_ptr<ImageState> &S) {
  const size_t In = S->Data->SrcSide, Out = S->Data->DstSide;
  S->Resize = D.kernel(imageProgram(D, *S), "resizeBilinear");
  S->SrcImage = D.image2d(CL_RGBA, CL_UNORM_INT8, In, In, CL_MEM_READ_ONLY);
  D.writeImage(S->SrcImage, S->Data->Src.data(), In, In);
  S->DstImage = D.image2d(CL_RGBA, CL_FLOAT, Out, Out, CL_MEM_WRITE_ONLY);
  cl_float2 Step;
  Step.s[0] = Step.s[1] = S->Data->Step;
  setArgs(S->Resize, S->SrcImage, S->DstImage, Step);
  const Device *Dev = &D;
  TimedPart P;
  P.Reset = [S, Dev, Out](unsigned) { fillImage(*Dev, S->DstImage, Out, Out); };
  P.Launch = [S, Dev, Out] { Dev->launch(S->Resize, {Out, Out}, {GroupSide, GroupSide}); };
  P.Verify = [S, Dev, Out](unsigned, unsigned) {
    Dev->readImage(S->DstImage, S->Got.data(), Out, Out);
    expectRelative(S->Got.data(), S->Data->ResizeWant.data(), Out * Out * 4, 0, 1.0 / 255 + 1e-4,
                   "resizeBilinear output (RGBA floats, row-major)");
  };
  perPixel(P, Out);
  return P;
}

class ImageFigure : public Figure {
public:
  const char *name() const override { return "image"; }
  std::vector<Metric> metrics() const override {
    return {{"image.blur_image", "Mpixels/s", true},
            {"image.blur_buffer", "Mpixels/s", true},
            {"image.resize_bilinear", "Mpixels/s", true}};
  }
  std::unique_ptr<FigureRun> prepare(Device &D, const Config &C) override {
    if (!Data || Data->Quick != C.Quick)
      Data = makeImageData(C.Quick);
    auto S = std::make_shared<ImageState>();
    S->Data = Data;
    const size_t Largest = std::max(Data->Side, Data->DstSide);
    S->Got.resize(Largest * Largest * 4);
    const bool Images = hasImages(D);
    auto Run = std::make_unique<KernelRun>(D);
    Run->Parts.push_back(Images ? partOrFailure([&] { return blurImagePart(D, S); })
                                : unsupported());
    Run->Parts.push_back(partOrFailure([&] { return blurBufferPart(D, S); }));
    Run->Parts.push_back(Images ? partOrFailure([&] { return resizePart(D, S); }) : unsupported());
    Run->prepare(C);
    return Run;
  }

private:
  std::shared_ptr<const ImageData> Data;
};

} // namespace

std::unique_ptr<Figure> makeImage() { return std::make_unique<ImageFigure>(); }

} // namespace weft::bench
