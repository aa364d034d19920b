// Fuzz harness: sequences of OpenCL API calls with detectable bad
// arguments. Each input is a little program: every opcode byte picks a call
// (buffers, sub-buffers, pipes, images, samplers, reads, writes, copies,
// fills, rect and image transfers, maps, kernel arguments, NDRanges, user
// events, wait lists, markers, queries, SVM), and the bytes after it its
// arguments: handles
// from the objects the program made so far, NULL, or a live object of the
// wrong type; sizes, offsets, flags and enums biased to their edges. Weft
// must answer each with CL_SUCCESS or the error the specification names;
// the harness never checks which (the API tests do), only that nothing
// crashes, hangs or trips a sanitizer.
//
// What the harness keeps valid, because the specification makes it the
// application's duty: host memory (every host range lies inside one
// scratch array), SVM ranges handed to memcpy and fill, handles (a
// released object is never passed again), and progress (user events are
// completed before anything blocks). At the end of each input everything
// is completed and released. WEFT_FUZZ_COUNT=1 prints the number of API
// calls made when the process exits.
#include "FuzzCommon.h"

#include <algorithm>
#include <cstring>

using namespace weft::fuzz;

namespace {

constexpr size_t ScratchSize = 1 << 20;
alignas(4096) unsigned char Scratch[ScratchSize];
unsigned long long Calls = 0;

const char *KernelSource = R"CLC(
__kernel void touch(__global char *p, int v, __local int *l) {
  if (get_global_id(0) == 0 && p)
    p[0] += (char)v;
  l[get_local_id(0) % 4] = v;
}
)CLC";

struct Svm {
  void *Ptr;
  size_t Size;
};

void CL_CALLBACK freeSvm(cl_command_queue Q, cl_uint N, void *Ptrs[], void *) {
  cl_context C;
  clGetCommandQueueInfo(Q, CL_QUEUE_CONTEXT, sizeof(C), &C, nullptr);
  for (cl_uint I = 0; I < N; ++I)
    clSVMFree(C, Ptrs[I]);
}

void CL_CALLBACK ignoreEvent(cl_event, cl_int, void *) {}

class Program {
public:
  explicit Program(const Target &T) : T(T) {}
  ~Program() { cleanUp(); }

  void run(Bytes &In) {
    for (int Steps = 0; !In.empty() && Steps < 256; ++Steps)
      step(In);
  }

private:
  // Arguments.
  cl_mem mem(Bytes &In) {
    switch (In.byte() % 8) {
    case 0:
      return nullptr;
    case 1:
      return reinterpret_cast<cl_mem>(T.Queue); // a live object of another type
    default:
      return Mems.empty() ? nullptr : Mems[In.byte() % Mems.size()];
    }
  }
  cl_command_queue queue(Bytes &In) {
    switch (In.byte() % 16) {
    case 0:
      return nullptr;
    case 1:
      return reinterpret_cast<cl_command_queue>(T.Context);
    case 2:
    case 3:
      return OutOfOrder;
    default:
      return T.Queue;
    }
  }
  /// A wait list: none, NULL with a count, live events, or a non-event.
  std::pair<cl_uint, const cl_event *> waitList(Bytes &In) {
    Wait.clear();
    switch (In.byte() % 8) {
    case 0:
      return {1, nullptr};
    case 1:
      Wait.push_back(reinterpret_cast<cl_event>(T.Queue));
      return {1, Wait.data()};
    case 2:
    case 3: {
      if (Events.empty())
        return {0, nullptr};
      size_t N = 1 + In.byte() % 3;
      for (size_t I = 0; I < N; ++I)
        Wait.push_back(Events[In.byte() % Events.size()]);
      return {cl_uint(Wait.size()), Wait.data()};
    }
    default:
      return {0, nullptr};
    }
  }
  /// Where a returned event goes: nowhere, or the pool.
  cl_event *eventOut(Bytes &In) { return In.byte() % 2 ? &NewEvent : nullptr; }
  void keepEvent(cl_event *Out, cl_int Err) {
    if (Out && Err == CL_SUCCESS && NewEvent) {
      Events.push_back(NewEvent);
      if (Events.size() > 32) {
        clReleaseEvent(Events.front());
        Events.erase(Events.begin());
      }
    }
    NewEvent = nullptr;
  }
  /// A host range of Size bytes inside the scratch array, or null if it
  /// cannot hold one.
  unsigned char *host(Bytes &In, size_t Size) {
    if (Size > ScratchSize)
      return nullptr;
    return Scratch + In.u32() % (ScratchSize - Size + 1);
  }
  /// Completes every user event, so that no blocking call waits forever.
  void unblock(Bytes &In) {
    for (cl_event E : UserEvents) {
      ++Calls, clSetUserEventStatus(E, In.byte() % 4 ? CL_COMPLETE : -5);
      clReleaseEvent(E);
    }
    UserEvents.clear();
  }
  /// The kernel's pointer argument may hold an SVM pointer about to be
  /// freed: it must not be used after that.
  void forgetSvmArgument() { ++Calls, clSetKernelArgSVMPointer(Kernel, 0, nullptr); }
  bool blocking(Bytes &In) {
    if (!(In.byte() % 2))
      return false;
    unblock(In);
    return true;
  }
  void addMem(cl_mem M) {
    if (!M)
      return;
    Mems.push_back(M);
    if (Mems.size() > 12) {
      ++Calls, clReleaseMemObject(Mems.front());
      Mems.erase(Mems.begin());
    }
  }
  /// Image origins and regions, in order: three sizes each, at their edges
  /// around an image of 32 pixels a side.
  void coordinates(Bytes &In, std::initializer_list<size_t *> Triples) {
    for (size_t *T : Triples)
      for (int I = 0; I < 3; ++I)
        T[I] = In.size(32);
  }
  /// A format: defined and decoded, defined and unsupported, or nonsense.
  cl_image_format imageFormat(Bytes &In) {
    const cl_channel_order Orders[] = {CL_R,     CL_RGBA,  CL_BGRA, CL_RGB,
                                       CL_INTENSITY, CL_DEPTH, CL_sRGBA, CL_RGx,
                                       CL_DEPTH_STENCIL, 0x7777};
    const cl_channel_type Types[] = {CL_UNORM_INT8,  CL_FLOAT,       CL_SIGNED_INT32,
                                     CL_UNORM_SHORT_565, CL_HALF_FLOAT, CL_UNORM_INT16,
                                     CL_UNORM_INT24, CL_UNORM_INT_101010_2, 0x7777};
    return {In.pick(Orders), In.pick(Types)};
  }
  size_t memSize(cl_mem M) {
    size_t S = 0;
    clGetMemObjectInfo(M, CL_MEM_SIZE, sizeof(S), &S, nullptr);
    return S;
  }

  void step(Bytes &In) {
    cl_int Err = CL_SUCCESS;
    const cl_mem_flags Flags[] = {0,
                                  CL_MEM_READ_WRITE,
                                  CL_MEM_READ_ONLY,
                                  CL_MEM_WRITE_ONLY,
                                  CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
                                  CL_MEM_HOST_NO_ACCESS,
                                  CL_MEM_HOST_READ_ONLY | CL_MEM_ALLOC_HOST_PTR,
                                  CL_MEM_USE_HOST_PTR,
                                  CL_MEM_COPY_HOST_PTR,
                                  CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR,
                                  cl_mem_flags(1) << 40};
    ++Calls;
    switch (In.byte() % 30) {
    case 0: { // clCreateBuffer
      cl_mem_flags F = In.pick(Flags);
      size_t Size = In.size(1 << 16);
      void *Host = (F & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) || In.byte() % 8 == 0
                       ? host(In, Size)
                       : nullptr;
      addMem(clCreateBuffer(T.Context, F, Size, Host, &Err));
      break;
    }
    case 1: { // clCreateSubBuffer
      cl_mem Parent = mem(In);
      cl_buffer_region R{In.size(1 << 16), In.size(1 << 16)};
      cl_buffer_create_type Type = In.byte() % 8 ? CL_BUFFER_CREATE_TYPE_REGION : 0x7777;
      addMem(clCreateSubBuffer(Parent, In.pick(Flags), Type, In.byte() % 16 ? &R : nullptr,
                               &Err));
      break;
    }
    case 2: { // clCreatePipe
      cl_pipe_properties None[] = {0};
      addMem(clCreatePipe(T.Context, In.byte() % 4 ? 0 : In.pick(Flags), cl_uint(In.size(256)),
                          cl_uint(In.size(1024)), In.byte() % 8 ? nullptr : None, &Err));
      break;
    }
    case 3: { // clReleaseMemObject of one the program owns
      if (Mems.empty())
        break;
      size_t I = In.byte() % Mems.size();
      clReleaseMemObject(Mems[I]);
      Mems.erase(Mems.begin() + long(I));
      break;
    }
    case 4:
    case 5: { // clEnqueueReadBuffer / clEnqueueWriteBuffer
      cl_command_queue Q = queue(In);
      cl_mem M = mem(In);
      size_t Offset = In.size(1 << 16), Size = In.size(1 << 16);
      bool Block = blocking(In);
      auto [N, W] = waitList(In);
      cl_event *Out = eventOut(In);
      unsigned char *Ptr = In.byte() % 16 ? host(In, Size) : nullptr;
      Err = In.byte() % 2
                ? clEnqueueReadBuffer(Q, M, Block, Offset, Size, Ptr, N, W, Out)
                : clEnqueueWriteBuffer(Q, M, Block, Offset, Size, Ptr, N, W, Out);
      keepEvent(Out, Err);
      break;
    }
    case 6: { // clEnqueueCopyBuffer
      cl_command_queue Q = queue(In);
      cl_mem S = mem(In), D = mem(In);
      size_t SO = In.size(1 << 16), DO = In.size(1 << 16), Size = In.size(1 << 16);
      auto [N, W] = waitList(In);
      cl_event *Out = eventOut(In);
      keepEvent(Out, clEnqueueCopyBuffer(Q, S, D, SO, DO, Size, N, W, Out));
      break;
    }
    case 7: { // clEnqueueFillBuffer
      cl_command_queue Q = queue(In);
      cl_mem M = mem(In);
      static const unsigned char Pattern[256] = {1, 2, 3};
      size_t PatternSize = In.size(130);
      size_t Offset = In.size(1 << 16), Size = In.size(1 << 16);
      auto [N, W] = waitList(In);
      cl_event *Out = eventOut(In);
      keepEvent(Out, clEnqueueFillBuffer(Q, M, In.byte() % 16 ? Pattern : nullptr,
                                         std::min<size_t>(PatternSize, sizeof(Pattern)), Offset,
                                         Size, N, W, Out));
      break;
    }
    case 8:
    case 9: { // the rect transfers and copy
      cl_command_queue Q = queue(In);
      cl_mem M = mem(In), D = mem(In);
      size_t BO[3], HO[3], R[3];
      for (size_t &V : BO)
        V = In.size(64);
      for (size_t &V : HO)
        V = In.size(64);
      for (size_t &V : R)
        V = In.size(64);
      size_t BRP = In.size(256), BSP = In.size(1 << 14), HRP = In.size(256),
             HSP = In.size(1 << 14);
      auto [N, W] = waitList(In);
      cl_event *Out = eventOut(In);
      if (In.byte() % 2) {
        Err = clEnqueueCopyBufferRect(Q, M, D, BO, HO, R, BRP, BSP, HRP, HSP, N, W, Out);
      } else {
        // The host rectangle must lie in the scratch array (the
        // application's duty): its extent with the pitches as resolved.
        size_t RP = HRP ? HRP : R[0], SP = HSP ? HSP : R[1] * RP;
        if (R[0] && R[1] && R[2] && RP < (1 << 20) && SP < (1 << 24) &&
            (HO[2] + R[2]) * SP + (HO[1] + R[1]) * RP + HO[0] + R[0] <= ScratchSize) {
          bool Block = blocking(In);
          Err = In.byte() % 2 ? clEnqueueReadBufferRect(Q, M, Block, BO, HO, R, BRP, BSP, HRP, HSP,
                                                        Scratch, N, W, Out)
                              : clEnqueueWriteBufferRect(Q, M, Block, BO, HO, R, BRP, BSP, HRP,
                                                         HSP, Scratch, N, W, Out);
        } else {
          Err = -1;
        }
      }
      keepEvent(Out, Err);
      break;
    }
    case 10: { // clEnqueueMapBuffer, then unmap (or an unmap of a non-mapping)
      cl_command_queue Q = queue(In);
      cl_mem M = mem(In);
      const cl_map_flags MapFlags[] = {CL_MAP_READ, CL_MAP_WRITE, CL_MAP_WRITE_INVALIDATE_REGION,
                                       CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0x40};
      size_t Offset = In.size(1 << 16), Size = In.size(1 << 16);
      bool Block = blocking(In);
      auto [N, W] = waitList(In);
      void *P = clEnqueueMapBuffer(Q, M, Block, In.pick(MapFlags), Offset, Size, N, W, nullptr,
                                   &Err);
      void *Unmap = P && In.byte() % 8 ? P : Scratch;
      ++Calls, clEnqueueUnmapMemObject(Q, M, Unmap, 0, nullptr, nullptr);
      if (P && Unmap != P)
        ++Calls, clEnqueueUnmapMemObject(T.Queue, M, P, 0, nullptr, nullptr);
      break;
    }
    case 11: { // clSetKernelArg
      cl_uint Index = In.byte() % 5;
      cl_mem M = mem(In);
      // arg_value points to as many bytes as arg_size says (the
      // application's duty), whatever the size.
      unsigned char V[512] = {};
      V[0] = In.byte();
      switch (In.byte() % 5) {
      case 0:
        clSetKernelArg(Kernel, Index, sizeof(cl_mem), &M);
        break;
      case 1:
        clSetKernelArg(Kernel, Index, In.size(16), V);
        break;
      case 2:
        clSetKernelArg(Kernel, Index, In.size(1 << 17), nullptr);
        break;
      case 3:
        clSetKernelArg(Kernel, Index, sizeof(cl_mem), nullptr);
        break;
      default:
        clSetKernelArgSVMPointer(Kernel, Index,
                                 SvmPool.empty() || In.byte() % 4 == 0
                                     ? nullptr
                                     : SvmPool[In.byte() % SvmPool.size()].Ptr);
      }
      break;
    }
    case 12: { // clEnqueueNDRangeKernel
      cl_command_queue Q = queue(In);
      cl_uint Dim = In.byte() % 5;
      size_t Global[3], Local[3], Offset[3];
      for (int I = 0; I < 3; ++I) {
        Global[I] = In.size(64);
        Local[I] = In.size(64);
        Offset[I] = In.size(64);
      }
      auto [N, W] = waitList(In);
      cl_event *Out = eventOut(In);
      keepEvent(Out, clEnqueueNDRangeKernel(Q, In.byte() % 16 ? Kernel : nullptr, Dim,
                                            In.byte() % 2 ? Offset : nullptr,
                                            In.byte() % 16 ? Global : nullptr,
                                            In.byte() % 2 ? Local : nullptr, N, W, Out));
      break;
    }
    case 13: { // user events
      if (In.byte() % 2 || UserEvents.empty()) {
        cl_event E = clCreateUserEvent(In.byte() % 16 ? T.Context : nullptr, &Err);
        if (E) {
          UserEvents.push_back(E);
          ++Calls, clRetainEvent(E);
          Events.push_back(E);
        }
      } else {
        size_t I = In.byte() % UserEvents.size();
        const cl_int Status[] = {CL_COMPLETE, -1, -9999, CL_RUNNING, 1};
        cl_int St = In.pick(Status);
        if (clSetUserEventStatus(UserEvents[I], St) != CL_SUCCESS)
          break; // not terminal: still pending
        clReleaseEvent(UserEvents[I]);
        UserEvents.erase(UserEvents.begin() + long(I));
      }
      break;
    }
    case 14: { // markers, barriers, flush, finish, waits
      cl_command_queue Q = queue(In);
      auto [N, W] = waitList(In);
      cl_event *Out = eventOut(In);
      switch (In.byte() % 5) {
      case 0:
        keepEvent(Out, clEnqueueMarkerWithWaitList(Q, N, W, Out));
        break;
      case 1:
        keepEvent(Out, clEnqueueBarrierWithWaitList(Q, N, W, Out));
        break;
      case 2:
        clFlush(Q);
        break;
      case 3:
        unblock(In);
        clFinish(Q);
        break;
      default:
        unblock(In);
        clWaitForEvents(N, W);
      }
      break;
    }
    case 15: { // queries with every size
      unsigned char Value[1024];
      size_t Size = std::min<size_t>(In.size(1024), sizeof(Value)), Ret;
      cl_uint Param = In.byte() % 4 ? 0x1000 + In.byte() * 2 + In.byte() % 2 * 0x100 : In.u32();
      void *Out = In.byte() % 8 ? Value : nullptr;
      switch (In.byte() % 6) {
      case 0:
        clGetMemObjectInfo(mem(In), Param, Size, Out, &Ret);
        break;
      case 1:
        clGetEventInfo(Events.empty() ? nullptr : Events[In.byte() % Events.size()], Param, Size,
                       Out, &Ret);
        break;
      case 2:
        clGetKernelInfo(Kernel, Param, Size, Out, &Ret);
        break;
      case 3:
        clGetDeviceInfo(T.Device, Param, Size, Out, &Ret);
        break;
      case 4:
        clGetCommandQueueInfo(queue(In), Param, Size, Out, &Ret);
        break;
      default:
        clGetKernelWorkGroupInfo(Kernel, In.byte() % 4 ? T.Device : nullptr, Param, Size, Out,
                                 &Ret);
      }
      break;
    }
    case 16: { // clSVMAlloc / clSVMFree
      if (In.byte() % 3 || SvmPool.empty()) {
        const cl_svm_mem_flags SvmFlags[] = {
            CL_MEM_READ_WRITE, CL_MEM_SVM_FINE_GRAIN_BUFFER,
            CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, CL_MEM_SVM_ATOMICS,
            CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, CL_MEM_USE_HOST_PTR};
        size_t Size = In.size(1 << 16);
        cl_uint Align = cl_uint(In.size(4096));
        void *P = clSVMAlloc(In.byte() % 16 ? T.Context : nullptr, In.pick(SvmFlags), Size, Align);
        if (P)
          SvmPool.push_back({P, Size});
      } else {
        unblock(In);
        clFinish(T.Queue);
        clFinish(OutOfOrder);
        size_t I = In.byte() % SvmPool.size();
        forgetSvmArgument();
        clSVMFree(T.Context, SvmPool[I].Ptr);
        SvmPool.erase(SvmPool.begin() + long(I));
      }
      break;
    }
    case 17: { // SVM memcpy and fill within allocations (or NULL, or overlapping)
      if (SvmPool.empty())
        break;
      const Svm &A = SvmPool[In.byte() % SvmPool.size()], &B = SvmPool[In.byte() % SvmPool.size()];
      size_t Size = In.size(std::min(A.Size, B.Size));
      Size = std::min(Size, std::min(A.Size, B.Size));
      size_t AO = In.u32() % (A.Size - Size + 1), BO = In.u32() % (B.Size - Size + 1);
      char *Dst = static_cast<char *>(A.Ptr) + AO, *Src = static_cast<char *>(B.Ptr) + BO;
      bool Block = blocking(In);
      auto [N, W] = waitList(In);
      cl_event *Out = eventOut(In);
      if (In.byte() % 2) {
        keepEvent(Out, clEnqueueSVMMemcpy(queue(In), Block, In.byte() % 16 ? Dst : nullptr, Src,
                                          Size, N, W, Out));
      } else {
        static const unsigned char Pattern[128] = {9};
        size_t PatternSize = In.size(128);
        keepEvent(Out, clEnqueueSVMMemFill(queue(In), Dst, Pattern, PatternSize, Size, N, W, Out));
      }
      break;
    }
    case 18: { // SVM map, unmap, migrate
      if (SvmPool.empty())
        break;
      const Svm &A = SvmPool[In.byte() % SvmPool.size()];
      auto [N, W] = waitList(In);
      bool Block = blocking(In);
      switch (In.byte() % 3) {
      case 0:
        clEnqueueSVMMap(queue(In), Block, In.byte() % 8 ? CL_MAP_READ : 0x40, A.Ptr,
                        In.size(A.Size), N, W, nullptr);
        break;
      case 1:
        clEnqueueSVMUnmap(queue(In), In.byte() % 8 ? A.Ptr : nullptr, N, W, nullptr);
        break;
      default: {
        const void *Ptrs[] = {A.Ptr, Scratch};
        size_t Sizes[] = {In.size(A.Size * 2), In.size(64)};
        clEnqueueSVMMigrateMem(queue(In), cl_uint(In.byte() % 3), Ptrs,
                               In.byte() % 2 ? Sizes : nullptr, In.byte() % 4 ? 0 : In.u32(), N,
                               W, nullptr);
      }
      }
      break;
    }
    case 19: { // clGetPipeInfo
      cl_uint V;
      const cl_pipe_info Params[] = {CL_PIPE_PACKET_SIZE, CL_PIPE_MAX_PACKETS, CL_PIPE_PROPERTIES,
                                     0x7777};
      clGetPipeInfo(mem(In), In.pick(Params), In.size(8), &V, nullptr);
      break;
    }
    case 20: { // clEnqueueMigrateMemObjects
      cl_mem List[3] = {mem(In), mem(In), mem(In)};
      auto [N, W] = waitList(In);
      clEnqueueMigrateMemObjects(queue(In), cl_uint(In.byte() % 4), In.byte() % 8 ? List : nullptr,
                                 In.byte() % 4 ? CL_MIGRATE_MEM_OBJECT_HOST : In.u32(), N, W,
                                 nullptr);
      break;
    }
    case 21: { // event callbacks and status
      if (Events.empty())
        break;
      cl_event E = Events[In.byte() % Events.size()];
      const cl_int Types[] = {CL_COMPLETE, CL_RUNNING, CL_SUBMITTED, CL_QUEUED, 7};
      clSetEventCallback(E, In.pick(Types), In.byte() % 8 ? ignoreEvent : nullptr, nullptr);
      break;
    }
    case 22: { // clEnqueueSVMFree of pool pointers, with and without a callback
      if (SvmPool.empty())
        break;
      unblock(In);
      clFinish(T.Queue);
      clFinish(OutOfOrder);
      void *Ptrs[] = {SvmPool.back().Ptr};
      SvmPool.pop_back();
      forgetSvmArgument();
      clEnqueueSVMFree(T.Queue, 1, Ptrs, In.byte() % 2 ? nullptr : freeSvm, nullptr, 0, nullptr,
                       nullptr);
      clFinish(T.Queue);
      break;
    }
    case 24: { // clCreateImage: any type, format, size, pitch and host pointer
      const cl_mem_object_type Types[] = {
          CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
          CL_MEM_OBJECT_IMAGE2D,       CL_MEM_OBJECT_IMAGE2D_ARRAY,  CL_MEM_OBJECT_IMAGE3D,
          CL_MEM_OBJECT_BUFFER,        0x7777};
      cl_image_desc D{};
      D.image_type = In.pick(Types);
      D.image_width = In.size(64);
      D.image_height = In.size(64);
      D.image_depth = In.size(16);
      D.image_array_size = In.size(16);
      D.image_row_pitch = In.byte() % 4 ? 0 : In.size(1024);
      D.image_slice_pitch = In.byte() % 4 ? 0 : In.size(1 << 14);
      D.num_mip_levels = In.byte() % 16 ? 0 : 1;
      D.buffer = In.byte() % 4 ? nullptr : mem(In);
      cl_image_format F = imageFormat(In);
      cl_mem_flags Fl = In.pick(Flags);
      // The host image must lie in the scratch array (the application's
      // duty): at most a slice (its pitch, or its rows) per slice or layer,
      // pitches as resolved for the largest element (16 bytes). Each
      // extent is below 2^20, so the products stay in range.
      const size_t Row = D.image_row_pitch ? D.image_row_pitch : D.image_width * 16;
      const size_t Slice = std::max(D.image_slice_pitch, Row * D.image_height);
      const size_t Need =
          Slice * std::max({D.image_depth, D.image_array_size, D.image_height, size_t(1)});
      void *Host = (Fl & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) || In.byte() % 8 == 0
                       ? (Need <= ScratchSize / 2 ? Scratch : nullptr)
                       : nullptr;
      addMem(clCreateImage(T.Context, Fl, In.byte() % 16 ? &F : nullptr,
                           In.byte() % 16 ? &D : nullptr, Host, &Err));
      break;
    }
    case 25: { // clEnqueueReadImage / WriteImage within the scratch array
      cl_command_queue Q = queue(In);
      cl_mem M = mem(In);
      size_t O[3], R[3];
      coordinates(In, {O, R});
      const size_t RP = In.byte() % 2 ? 0 : In.size(1024);
      const size_t SP = In.byte() % 2 ? 0 : In.size(1 << 14);
      // Pitches as the call resolves them, for the largest element (16);
      // the host rows or layers of any image type are within (row pitch +
      // slice pitch) * (rows + slices).
      const size_t Row = RP ? RP : R[0] * 16, Slice = SP ? SP : Row * R[1];
      bool Fits = R[0] <= 64 && R[1] <= 64 && R[2] <= 64 && Row <= 4096 && Slice <= 65536 &&
                  (Row + Slice) * (R[1] + R[2] + 1) <= ScratchSize;
      bool Block = blocking(In);
      auto [N, W] = waitList(In);
      cl_event *Out = eventOut(In);
      unsigned char *Ptr = Fits && In.byte() % 16 ? Scratch : nullptr;
      Err = In.byte() % 2 ? clEnqueueReadImage(Q, M, Block, In.byte() % 16 ? O : nullptr, R, RP,
                                               SP, Ptr, N, W, Out)
                          : clEnqueueWriteImage(Q, M, Block, O, In.byte() % 16 ? R : nullptr, RP,
                                                SP, Ptr, N, W, Out);
      keepEvent(Out, Err);
      break;
    }
    case 26: { // clEnqueueCopyImage, CopyImageToBuffer, CopyBufferToImage
      cl_command_queue Q = queue(In);
      cl_mem S = mem(In), D = mem(In);
      size_t SO[3], DO[3], R[3];
      coordinates(In, {SO, DO, R});
      size_t Offset = In.size(1 << 16);
      auto [N, W] = waitList(In);
      cl_event *Out = eventOut(In);
      switch (In.byte() % 3) {
      case 0:
        Err = clEnqueueCopyImage(Q, S, D, SO, DO, R, N, W, Out);
        break;
      case 1:
        Err = clEnqueueCopyImageToBuffer(Q, S, D, SO, R, Offset, N, W, Out);
        break;
      default:
        Err = clEnqueueCopyBufferToImage(Q, S, D, Offset, DO, R, N, W, Out);
      }
      keepEvent(Out, Err);
      break;
    }
    case 27: { // clEnqueueFillImage, clEnqueueMapImage and its unmap
      cl_command_queue Q = queue(In);
      cl_mem M = mem(In);
      size_t O[3], R[3];
      coordinates(In, {O, R});
      static const float Color[4] = {0.25f, -2.0f, 1e30f, 0.5f};
      auto [N, W] = waitList(In);
      cl_event *Out = eventOut(In);
      if (In.byte() % 2) {
        Err = clEnqueueFillImage(Q, M, In.byte() % 16 ? Color : nullptr, O, R, N, W, Out);
        keepEvent(Out, Err);
        break;
      }
      size_t RowPitch = 0, SlicePitch = 0;
      bool Block = blocking(In);
      void *P = clEnqueueMapImage(Q, M, Block, In.byte() % 2 ? CL_MAP_READ : CL_MAP_WRITE, O, R,
                                  In.byte() % 16 ? &RowPitch : nullptr,
                                  In.byte() % 4 ? &SlicePitch : nullptr, N, W, nullptr, &Err);
      if (P)
        ++Calls, clEnqueueUnmapMemObject(Q, M, P, 0, nullptr, nullptr);
      break;
    }
    case 28: { // samplers: create, query, pass to the kernel, release
      const cl_uint Addressing[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
                                    CL_ADDRESS_MIRRORED_REPEAT, 0x7777};
      const cl_uint Filter[] = {CL_FILTER_NEAREST, CL_FILTER_LINEAR, 0x7777};
      cl_sampler S;
      if (In.byte() % 2) {
        S = clCreateSampler(In.byte() % 8 ? T.Context : nullptr, In.byte() % 3,
                            In.pick(Addressing), In.pick(Filter), &Err);
      } else {
        const cl_sampler_properties Name =
            In.byte() % 8 ? CL_SAMPLER_FILTER_MODE : cl_sampler_properties(0x7777);
        cl_sampler_properties P[] = {Name, In.pick(Filter), CL_SAMPLER_ADDRESSING_MODE,
                                     In.pick(Addressing), 0};
        S = clCreateSamplerWithProperties(T.Context, In.byte() % 8 ? P : nullptr, &Err);
      }
      unsigned char V[64] = {};
      ++Calls, clGetSamplerInfo(S, 0x1150 + In.byte() % 8, In.size(32), V, nullptr);
      // arg_value holds as many bytes as arg_size says: the sampler first.
      unsigned char Arg[512] = {};
      std::memcpy(Arg, &S, sizeof(S));
      const size_t ArgSize = In.byte() % 2 ? sizeof(S) : std::min<size_t>(In.size(16), 512);
      ++Calls, clSetKernelArg(Kernel, In.byte() % 5, ArgSize, In.byte() % 8 ? Arg : nullptr);
      if (S)
        ++Calls, clReleaseSampler(S);
      break;
    }
    case 29: { // clGetImageInfo and clGetSupportedImageFormats with every size
      cl_mem M = mem(In);
      unsigned char V[64];
      ++Calls, clGetImageInfo(M, 0x1110 + In.byte() % 12, In.size(32),
                              In.byte() % 8 ? V : nullptr, nullptr);
      cl_image_format Formats[8];
      cl_uint Count;
      clGetSupportedImageFormats(In.byte() % 16 ? T.Context : nullptr, In.pick(Flags),
                                 0x10f0 + In.byte() % 8, In.byte() % 9,
                                 In.byte() % 4 ? Formats : nullptr,
                                 In.byte() % 2 ? &Count : nullptr);
      break;
    }
    default: { // retain and release of an event the program owns
      if (Events.empty())
        break;
      size_t I = In.byte() % Events.size();
      if (In.byte() % 2) {
        clRetainEvent(Events[I]);
        Events.push_back(Events[I]);
      } else {
        clReleaseEvent(Events[I]);
        Events.erase(Events.begin() + long(I));
      }
    }
    }
  }

  void cleanUp() {
    Bytes None(nullptr, 0);
    unblock(None);
    clFinish(T.Queue);
    clFinish(OutOfOrder);
    for (cl_event E : Events)
      clReleaseEvent(E);
    for (cl_mem M : Mems)
      clReleaseMemObject(M);
    forgetSvmArgument();
    for (const Svm &S : SvmPool)
      clSVMFree(T.Context, S.Ptr);
  }

public:
  static cl_kernel Kernel;
  static cl_command_queue OutOfOrder;

private:
  const Target &T;
  std::vector<cl_mem> Mems;
  std::vector<cl_event> Events, UserEvents, Wait;
  std::vector<Svm> SvmPool;
  cl_event NewEvent = nullptr;
};

cl_kernel Program::Kernel = nullptr;
cl_command_queue Program::OutOfOrder = nullptr;

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  const Target &T = target();
  cl_int Err;
  cl_program P = clCreateProgramWithSource(T.Context, 1, &KernelSource, nullptr, &Err);
  if (!P || clBuildProgram(P, 1, &T.Device, "", nullptr, nullptr) != CL_SUCCESS) {
    std::fprintf(stderr, "weft fuzz: the harness's kernel does not build\n");
    std::exit(2);
  }
  Program::Kernel = clCreateKernel(P, "touch", &Err);
  cl_queue_properties Props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  Program::OutOfOrder = clCreateCommandQueueWithProperties(T.Context, T.Device, Props, &Err);
  const char *Count = std::getenv("WEFT_FUZZ_COUNT");
  if (Count && *Count == '1')
    std::atexit([] { std::fprintf(stderr, "weft fuzz: %llu API calls\n", Calls); });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Bytes In(Data, Size);
  Program(target()).run(In);
  return 0;
}
