// The Weft demo: an ordinary OpenCL host program (it links only the system
// ICD loader) that finds the Weft platform, runs a 2-D kernel over 16 x 16
// tiles staged through __local memory with a barrier, checks every element
// against the host's own computation, and prints the kernel time from
// profiling events.
//
//   weft_demo [--platform NAME|all] [--tiles-x N] [--tiles-y N] [--tile T]
//
// `--platform all` runs on every platform in one process (Weft beside PoCL:
// two LLVM-based runtimes must not disturb each other).
#include <CL/cl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char *KernelSource = R"CLC(
// c[row*N+col] = aTile[x][y] * bTile[y][x], x and y the local ids: each
// work-item reads what two other work-items of its tile loaded.
__kernel void tiled(__global const float *a, __global const float *b, __global float *c) {
  __local float aTile[TILE][TILE];
  __local float bTile[TILE][TILE];
  const size_t x = get_local_id(0), y = get_local_id(1);
  const size_t col = get_global_id(0), row = get_global_id(1);
  aTile[y][x] = a[row * N + col];
  bTile[y][x] = b[row * N + col];
  barrier(CLK_LOCAL_MEM_FENCE);
  c[row * N + col] = aTile[x][y] * bTile[y][x];
}
)CLC";

#define CHECK(Call)                                                                                \
  do {                                                                                             \
    cl_int Err_ = (Call);                                                                          \
    if (Err_ != CL_SUCCESS) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s failed with %d\n", __FILE__, __LINE__, #Call, Err_);         \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

std::string platformName(cl_platform_id P) {
  char Buf[256] = {};
  clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof(Buf), Buf, nullptr);
  return Buf;
}

struct Options {
  size_t TilesX = 300, TilesY = 400, Tile = 16;
};

/// Runs the demo on the first device of P; returns the number of wrong elements.
size_t runOn(cl_platform_id Platform, const Options &O) {
  const size_t TilesX = O.TilesX, TilesY = O.TilesY, Tile = O.Tile;
  cl_device_id Device;
  CHECK(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 1, &Device, nullptr));
  char DeviceName[256] = {};
  CHECK(clGetDeviceInfo(Device, CL_DEVICE_NAME, sizeof(DeviceName), DeviceName, nullptr));
  cl_int Err;
  cl_context Ctx = clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err);
  CHECK(Err);
  cl_queue_properties QProps[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue Queue = clCreateCommandQueueWithProperties(Ctx, Device, QProps, &Err);
  CHECK(Err);

  const size_t N = TilesX * Tile, Rows = TilesY * Tile, Count = N * Rows;
  std::vector<float> A(Count), B(Count), C(Count, 0.0f);
  for (size_t I = 0; I < Count; ++I) {
    A[I] = float(I % 1013) * 0.5f;
    B[I] = float(I % 517) * 0.25f + 1.0f;
  }
  cl_mem BufA = clCreateBuffer(Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Count * 4, A.data(), &Err);
  CHECK(Err);
  cl_mem BufB = clCreateBuffer(Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Count * 4, B.data(), &Err);
  CHECK(Err);
  cl_mem BufC = clCreateBuffer(Ctx, CL_MEM_WRITE_ONLY, Count * 4, nullptr, &Err);
  CHECK(Err);

  cl_program Program = clCreateProgramWithSource(Ctx, 1, &KernelSource, nullptr, &Err);
  CHECK(Err);
  std::string Options = "-DTILE=" + std::to_string(Tile) + " -DN=" + std::to_string(N);
  auto BuildStart = std::chrono::steady_clock::now();
  Err = clBuildProgram(Program, 1, &Device, Options.c_str(), nullptr, nullptr);
  double BuildMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                              BuildStart).count();
  if (Err != CL_SUCCESS) {
    size_t LogSize = 0;
    clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &LogSize);
    std::string Log(LogSize, '\0');
    clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, LogSize, Log.data(), nullptr);
    std::fprintf(stderr, "build failed (%d):\n%s\n", Err, Log.c_str());
    std::exit(1);
  }
  cl_kernel Kernel = clCreateKernel(Program, "tiled", &Err);
  CHECK(Err);
  CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_mem), &BufA));
  CHECK(clSetKernelArg(Kernel, 1, sizeof(cl_mem), &BufB));
  CHECK(clSetKernelArg(Kernel, 2, sizeof(cl_mem), &BufC));

  const size_t Global[2] = {N, Rows}, Local[2] = {Tile, Tile};
  cl_event KernelEvent;
  CHECK(clEnqueueNDRangeKernel(Queue, Kernel, 2, nullptr, Global, Local, 0, nullptr, &KernelEvent));
  CHECK(clEnqueueReadBuffer(Queue, BufC, CL_TRUE, 0, Count * 4, C.data(), 0, nullptr, nullptr));
  cl_ulong Start = 0, End = 0;
  CHECK(clGetEventProfilingInfo(KernelEvent, CL_PROFILING_COMMAND_START, sizeof(Start), &Start, nullptr));
  CHECK(clGetEventProfilingInfo(KernelEvent, CL_PROFILING_COMMAND_END, sizeof(End), &End, nullptr));

  size_t Mismatches = 0;
  for (size_t Row = 0; Row < Rows; ++Row) {
    for (size_t Col = 0; Col < N; ++Col) {
      // Work-item (x, y) of the tile at (Col - x, Row - y) reads element
      // (y, x) of aTile, loaded by work-item (y, x), and (x, y) of bTile.
      size_t X = Col % Tile, Y = Row % Tile, TileCol = Col - X, TileRow = Row - Y;
      float Av = A[(TileRow + X) * N + TileCol + Y];
      float Bv = B[(TileRow + Y) * N + TileCol + X];
      float Want = Av * Bv;
      if (C[Row * N + Col] != Want && Mismatches++ < 5)
        std::fprintf(stderr, "mismatch at row %zu col %zu: got %g, want %g\n", Row, Col,
                     double(C[Row * N + Col]), double(Want));
    }
  }
  std::printf("platform: %s, device: %s\n", platformName(Platform).c_str(), DeviceName);
  std::printf("grid: %zu x %zu tiles of %zu x %zu (%zu work-items)\n", TilesX, TilesY, Tile, Tile,
              Count);
  std::printf("build: %.1f ms, kernel: %.3f ms (profiling START..END)\n", BuildMs,
              double(End - Start) / 1e6);
  std::printf("verified %zu elements: %s\n", Count, Mismatches ? "FAILED" : "all correct");

  clReleaseEvent(KernelEvent);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseMemObject(BufA);
  clReleaseMemObject(BufB);
  clReleaseMemObject(BufC);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Ctx);
  return Mismatches;
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Want = "Weft";
  Options O;
  for (int I = 1; I + 1 < Argc; I += 2) {
    if (!std::strcmp(Argv[I], "--platform"))
      Want = Argv[I + 1];
    else if (!std::strcmp(Argv[I], "--tiles-x"))
      O.TilesX = std::strtoul(Argv[I + 1], nullptr, 10);
    else if (!std::strcmp(Argv[I], "--tiles-y"))
      O.TilesY = std::strtoul(Argv[I + 1], nullptr, 10);
    else if (!std::strcmp(Argv[I], "--tile"))
      O.Tile = std::strtoul(Argv[I + 1], nullptr, 10);
  }

  cl_uint NumPlatforms = 0;
  CHECK(clGetPlatformIDs(0, nullptr, &NumPlatforms));
  std::vector<cl_platform_id> Platforms(NumPlatforms);
  CHECK(clGetPlatformIDs(NumPlatforms, Platforms.data(), nullptr));
  size_t Ran = 0, Wrong = 0;
  for (cl_platform_id P : Platforms) {
    if (Want != "all" && platformName(P) != Want)
      continue;
    Wrong += runOn(P, O);
    ++Ran;
  }
  if (!Ran) {
    std::fprintf(stderr, "no OpenCL platform named '%s' (is its .icd registered?)\n",
                 Want.c_str());
    return 1;
  }
  return Wrong ? 1 : 0;
}
