// printf in kernels through the ICD loader: the output reaches the host's
// stdout, each work-item's lines complete and in its order, all of it by the
// time the kernel's event is complete; conversions match the host's printf.
#include "ApiTest.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <unistd.h>

using namespace weft::test;

namespace {

/// Sends file descriptor 1 to a temporary file until text() takes it back.
class StdoutCapture {
public:
  StdoutCapture() {
    std::fflush(stdout);
    File = std::tmpfile();
    Saved = dup(1);
    dup2(fileno(File), 1);
  }
  ~StdoutCapture() { restore(); }
  std::string text() {
    restore();
    std::string Out;
    std::rewind(File);
    char Chunk[4096];
    for (size_t N; (N = std::fread(Chunk, 1, sizeof(Chunk), File)) > 0;)
      Out.append(Chunk, N);
    return Out;
  }

private:
  void restore() {
    if (Saved < 0)
      return;
    std::fflush(stdout);
    dup2(Saved, 1);
    close(Saved);
    Saved = -1;
  }
  std::FILE *File;
  int Saved;
};

std::vector<std::string> lines(const std::string &Text) {
  std::vector<std::string> Out;
  std::istringstream In(Text);
  for (std::string L; std::getline(In, L);)
    Out.push_back(L);
  return Out;
}

class Printf : public WithQueue {
protected:
  /// Runs Kernel(out) over Global items in groups of Local; returns stdout
  /// as of the moment the kernel's event completed.
  std::string run(cl_kernel K, size_t Global, size_t Local, cl_mem Out) {
    EXPECT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
    StdoutCapture Capture;
    cl_event E = nullptr;
    EXPECT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local, 0, nullptr, &E),
              CL_SUCCESS);
    EXPECT_EQ(clWaitForEvents(1, &E), CL_SUCCESS);
    clReleaseEvent(E);
    return Capture.text();
  }
};

TEST_F(Printf, EveryWorkItemsLinesAreCompleteAndInOrderWhenTheEventCompletes) {
  cl_kernel K = kernel(R"CLC(
    kernel void k(global int *ret) {
      int i = (int)get_global_id(0);
      float4 v = (float4)(i, 0.5f, -1.25f, 1e10f);
      int a = printf("item %d first\n", i);
      barrier(CLK_LOCAL_MEM_FENCE); // the lines of a work-item span regions
      int b = printf("item %d second %v4hlf %s\n", i, v, "end");
      ret[i] = a == 0 && b == 0;
    })CLC",
                       "k", "-cl-std=CL3.0");
  constexpr size_t N = 96;
  cl_mem Ret = buffer(N * sizeof(cl_int));
  std::vector<std::string> Lines = lines(run(K, N, 24, Ret));
  ASSERT_EQ(Lines.size(), 2 * N);
  std::map<int, std::vector<std::string>> ByItem;
  for (const std::string &L : Lines) {
    int Item = -1;
    ASSERT_EQ(std::sscanf(L.c_str(), "item %d", &Item), 1) << L;
    ByItem[Item].push_back(L);
  }
  ASSERT_EQ(ByItem.size(), N);
  for (auto &[Item, Own] : ByItem) {
    ASSERT_EQ(Own.size(), 2u);
    EXPECT_EQ(Own[0], "item " + std::to_string(Item) + " first");
    char Expected[128];
    std::snprintf(Expected, sizeof(Expected), "item %d second %f,%f,%f,%f end", Item, double(Item),
                  0.5, -1.25, 1e10);
    EXPECT_EQ(Own[1], Expected);
  }
  for (cl_int R : read<cl_int>(Ret, N))
    EXPECT_EQ(R, 1) << "printf did not return 0";
}

TEST_F(Printf, ConversionsMatchTheHostsPrintf) {
  cl_kernel K = kernel(R"CLC(
    kernel void k(global int *unused) {
      printf("[%5d|%-5d|%05d|%+d|% d|%.3i]\n", 42, 42, 42, 42, 42, -7);
      printf("[%u|%o|%#o|%x|%#X|%hhd|%hd|%hhu|%hx]\n", 4000000000u, 8, 8, 255, 255, 200, 70000, 300, -1);
      printf("[%ld|%lu|%lx|%zu|%c|%4c|%-3c]\n", -9000000000000l, 18000000000000000000ul,
             0xdeadbeefcafel, (size_t)12345, 'x', 'y', 'z');
      printf("[%f|%.2f|%10.3e|%-10.1E|%g|%G|%a|%.3A]\n", 3.14159f, 2.71828f, 12345.678f, -0.000123f,
             0.0001f, 1e20f, 1.0f, -0.5f);
      printf("[%f|%F|%e|%g|%f]\n", 1.0f / 0.0f, -1.0f / 0.0f, 0.0f / 0.0f, -0.0f, 1e-40f);
      printf("[%.15f|%.17g|%a]\n", 0.1, 0.1, 3.0);
      printf("[%s|%8s|%-8s|%.2s]\n", "abc", "abc", "abc", "abc");
      printf("[%v2hhd|%v3hu|%#v2hlx|%v2ld|%.1v4hlf|%v2f]\n", (char2)(-1, 2), (ushort3)(1, 2, 65535),
             (uint2)(10, 11), (long2)(-5, 5), (float4)(0.25f, 0.5f, 0.75f, 1.0f), (double2)(1.5, -2.5));
      printf("100%% done\n");
    })CLC",
                       "k", "-cl-std=CL3.0");
  cl_mem Unused = buffer(sizeof(cl_int));
  std::string Got = run(K, 1, 1, Unused);
  char E[2048];
  std::string Want;
  std::snprintf(E, sizeof(E), "[%5d|%-5d|%05d|%+d|% d|%.3i]\n", 42, 42, 42, 42, 42, -7);
  Want += E;
  std::snprintf(E, sizeof(E), "[%u|%o|%#o|%x|%#X|%hhd|%hd|%hhu|%hx]\n", 4000000000u, 8, 8, 255, 255,
                200, 70000, 300, -1);
  Want += E;
  std::snprintf(E, sizeof(E), "[%ld|%lu|%lx|%zu|%c|%4c|%-3c]\n", -9000000000000l,
                18000000000000000000ul, 0xdeadbeefcafel, size_t(12345), 'x', 'y', 'z');
  Want += E;
  std::snprintf(E, sizeof(E), "[%f|%.2f|%10.3e|%-10.1E|%g|%G|%a|%.3A]\n", double(3.14159f),
                double(2.71828f), double(12345.678f), double(-0.000123f), double(0.0001f),
                double(1e20f), 1.0, -0.5);
  Want += E;
  std::snprintf(E, sizeof(E), "[%f|%F|%e|%g|%f]\n", double(INFINITY), double(-INFINITY),
                double(NAN), -0.0, double(1e-40f));
  Want += E;
  std::snprintf(E, sizeof(E), "[%.15f|%.17g|%a]\n", 0.1, 0.1, 3.0);
  Want += E;
  Want += "[abc|     abc|abc     |ab]\n";
  Want += "[-1,2|1,2,65535|0xa,0xb|-5,5|0.2,0.5,0.8,1.0|1.500000,-2.500000]\n";
  Want += "100% done\n";
  EXPECT_EQ(Got, Want);
}

TEST_F(Printf, OutputLargerThanTheBufferIsComplete) {
  // 8192 lines of 200 characters: more than CL_DEVICE_PRINTF_BUFFER_SIZE,
  // so workers write out part of their output before the kernel ends.
  cl_kernel K = kernel(R"CLC(
    kernel void k(global int *unused) {
      printf("%06d %0190d\n", (int)get_global_id(0), 7);
    })CLC",
                       "k");
  constexpr size_t N = 8192;
  cl_mem Unused = buffer(sizeof(cl_int));
  std::vector<std::string> Lines = lines(run(K, N, 64, Unused));
  ASSERT_EQ(Lines.size(), N);
  std::vector<bool> Seen(N);
  for (const std::string &L : Lines) {
    ASSERT_EQ(L.size(), 197u);
    int Item = std::stoi(L.substr(0, 6));
    ASSERT_LT(size_t(Item), N);
    EXPECT_FALSE(Seen[size_t(Item)]);
    Seen[size_t(Item)] = true;
  }
}

TEST_F(Printf, KernelsWithoutPrintfPrintNothing) {
  cl_kernel K = kernel(R"CLC(
    kernel void k(global int *out) { out[get_global_id(0)] = 1; })CLC",
                       "k");
  cl_mem Out = buffer(64 * sizeof(cl_int));
  EXPECT_EQ(run(K, 64, 16, Out), "");
}

} // namespace
