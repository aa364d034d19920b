// Figure 15: pipes. A producer kernel writes one packet per work-item into
// a pipe and a consumer kernel reads them all back, one after the other in
// the queue: the cost of the pipe built-ins (a reservation, a copy and a
// commit on each side), in packets moved per second. Every packet must
// come out exactly once. A device without pipes (PoCL 3.1 reports none)
// shows "-".
#include "Figures.h"
#include "Kernels.h"

#include <algorithm>
#include <numeric>

namespace weft::bench {

namespace {

struct PipeState {
  Program P;
  Kernel Send, Receive;
  Mem In, Out, Failed, Pipe;
  size_t Count = 0;
  HostArray<uint32_t> Got;
  std::vector<uint32_t> Want;
};

/// The -cl-std for a device's pipes, or "" if it has none.
std::string pipeStd(const Device &D) {
  cl_bool Pipes = CL_FALSE;
  char Version[128] = {};
  clGetDeviceInfo(D.Id, CL_DEVICE_VERSION, sizeof(Version), Version, nullptr);
  if (std::string(Version).rfind("OpenCL 2.", 0) == 0)
    return "-cl-std=CL2.0";
  if (clGetDeviceInfo(D.Id, CL_DEVICE_PIPE_SUPPORT, sizeof(Pipes), &Pipes, nullptr) !=
          CL_SUCCESS ||
      !Pipes)
    return "";
  return "-cl-std=CL3.0";
}

class PipeFigure : public Figure {
public:
  const char *name() const override { return "pipe"; }
  std::vector<Metric> metrics() const override {
    return {{"pipe.packets", "Mpackets/s", true}};
  }
  std::unique_ptr<FigureRun> prepare(Device &D, const Config &C) override {
    auto Run = std::make_unique<KernelRun>(D);
    TimedPart Part;
    const std::string Std = pipeStd(D);
    Part.Unsupported = Std.empty();
    if (!Part.Unsupported) {
      auto S = std::make_shared<PipeState>();
      S->Count = C.Quick ? (size_t(1) << 16) : (size_t(1) << 20);
      S->P = D.build(kernels::Pipe, Std);
      S->Send = D.kernel(S->P, "pipeSend");
      S->Receive = D.kernel(S->P, "pipeReceive");
      S->Want.resize(S->Count);
      std::iota(S->Want.begin(), S->Want.end(), 0x1000u);
      S->In = D.buffer(S->Count * sizeof(uint32_t), CL_MEM_READ_ONLY);
      D.write(S->In, S->Want.data(), S->Count * sizeof(uint32_t));
      S->Out = D.buffer(S->Count * sizeof(uint32_t));
      S->Failed = D.buffer(sizeof(uint32_t));
      cl_int Err;
      S->Pipe = Mem(clCreatePipe(D.Context, 0, sizeof(uint32_t), cl_uint(S->Count), nullptr, &Err));
      check(Err, "clCreatePipe");
      S->Got.resize(S->Count);
      setArgs(S->Send, S->In, S->Pipe, S->Failed);
      setArgs(S->Receive, S->Pipe, S->Out);
      const Device *Dev = &D;
      Part.Reset = [S, Dev](unsigned) {
        uint32_t Zero = 0;
        Dev->write(S->Failed, &Zero, sizeof(Zero));
      };
      Part.Launch = [S, Dev] {
        Dev->launch(S->Send, {S->Count}, {256});
        Dev->launch(S->Receive, {S->Count}, {256});
      };
      Part.Verify = [S, Dev](unsigned, unsigned) {
        uint32_t Failed = 0;
        Dev->read(S->Failed, &Failed, sizeof(Failed));
        if (Failed)
          throw Failure(std::to_string(Failed) + " writes into a pipe with room failed");
        // The last launch's packets, each exactly once.
        Dev->read(S->Out, S->Got.data(), S->Got.bytes());
        std::sort(S->Got.data(), S->Got.data() + S->Count);
        expectEqual(S->Got.data(), S->Want.data(), S->Count, "packets out of the pipe");
      };
      Part.WorkPerLaunch = static_cast<double>(S->Count);
      Part.Scale = 1e-6;
      Part.MaxLaunches = 200;
    }
    Run->Parts.push_back(std::move(Part));
    Run->prepare(C);
    return Run;
  }
};

} // namespace

std::unique_ptr<Figure> makePipe() { return std::make_unique<PipeFigure>(); }

} // namespace weft::bench
