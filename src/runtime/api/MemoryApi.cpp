// Buffer and sub-buffer creation, memory-object queries and callbacks.
#include "runtime/api/Api.h"
#include "runtime/api/Entry.h"

namespace weft::api {

namespace {

Result<cl_mem> createBuffer(cl_context C, const cl_mem_properties *Properties,
                            cl_mem_flags Flags, size_t Size, void *HostPtr) {
  WEFT_TRY(Ctx, get<Context>(C));
  WEFT_TRY(Props, memProperties(Properties));
  if (auto S = checkMemFlags(Flags); !S)
    return S.error();
  // CL_MEM_FLAGS reports the flags as given; no access flag means read-write.
  WEFT_CHECK(Size == 0, CL_INVALID_BUFFER_SIZE, "size is 0");
  for (Device *D : Ctx->devices())
    WEFT_CHECK(Size > D->props().MaxMemAllocSize, CL_INVALID_BUFFER_SIZE,
               "size exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE");
  bool NeedsPtr = Flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  WEFT_CHECK(NeedsPtr && !HostPtr, CL_INVALID_HOST_PTR,
             "host_ptr is NULL with CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR");
  WEFT_CHECK(!NeedsPtr && HostPtr, CL_INVALID_HOST_PTR,
             "host_ptr given without CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR");
  // "if CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR is set in flags, and
  // host_ptr is a pointer returned by clSVMAlloc, and size is greater than
  // the size passed to clSVMAlloc" (and so for a pointer inside one).
  if (NeedsPtr)
    if (auto In = Ctx->svm().find(HostPtr))
      WEFT_CHECK(Size > In->Alloc.Size - In->Offset, CL_INVALID_BUFFER_SIZE,
                 "size exceeds the SVM allocation host_ptr points into");
  WEFT_TRY(Buf, Buffer::create(*Ctx, Flags, Size, HostPtr, std::move(Props)));
  return static_cast<cl_mem>(Buf.release());
}

Result<InfoValue> memInfo(MemObject &M, cl_mem_info Param) {
  switch (Param) {
  case CL_MEM_TYPE:
    return InfoValue(M.type());
  case CL_MEM_FLAGS:
    return InfoValue(M.flags());
  case CL_MEM_SIZE:
    return InfoValue(M.size());
  case CL_MEM_HOST_PTR:
    return InfoValue(M.hostPtr() && (M.flags() & CL_MEM_USE_HOST_PTR) ? M.hostPtr() : nullptr);
  case CL_MEM_MAP_COUNT:
    return InfoValue(M.mapCount());
  case CL_MEM_REFERENCE_COUNT:
    return InfoValue(cl_uint(M.appRefCount()));
  case CL_MEM_CONTEXT:
    return InfoValue(static_cast<cl_context>(&M.context()));
  case CL_MEM_ASSOCIATED_MEMOBJECT:
    return InfoValue(static_cast<cl_mem>(M.associated()));
  case CL_MEM_OFFSET:
    return InfoValue(M.offset());
  case CL_MEM_USES_SVM_POINTER:
    return InfoValue(cl_bool(M.usesSvmPointer()));
  case CL_MEM_PROPERTIES:
    return InfoValue(M.properties());
  default:
    return makeError(CL_INVALID_VALUE, "unknown cl_mem_info " + std::to_string(Param));
  }
}

} // namespace

cl_mem CL_API_CALL clCreateBuffer(cl_context C, cl_mem_flags Flags, size_t Size, void *HostPtr,
                                  cl_int *ErrcodeRet) {
  return create<cl_mem>(ErrcodeRet,
                        [&] { return createBuffer(C, nullptr, Flags, Size, HostPtr); });
}

cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context C, const cl_mem_properties *Properties,
                                                cl_mem_flags Flags, size_t Size, void *HostPtr,
                                                cl_int *ErrcodeRet) {
  return create<cl_mem>(ErrcodeRet,
                        [&] { return createBuffer(C, Properties, Flags, Size, HostPtr); });
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem Buffer, cl_mem_flags Flags,
                                     cl_buffer_create_type Type, const void *Info,
                                     cl_int *ErrcodeRet) {
  return create<cl_mem>(ErrcodeRet, [&]() -> Result<cl_mem> {
    WEFT_TRY(Mem, get<MemObject>(Buffer));
    rt::Buffer *Parent = Mem->as<rt::Buffer>();
    WEFT_CHECK(!Parent, CL_INVALID_MEM_OBJECT, "buffer is not a buffer object");
    WEFT_CHECK(Parent->parent(), CL_INVALID_MEM_OBJECT, "buffer is itself a sub-buffer");
    WEFT_TRY(Inherited, inheritMemFlags(Flags, Parent->flags()));
    WEFT_CHECK(Type != CL_BUFFER_CREATE_TYPE_REGION, CL_INVALID_VALUE,
               "buffer_create_type is not CL_BUFFER_CREATE_TYPE_REGION");
    WEFT_CHECK(!Info, CL_INVALID_VALUE, "buffer_create_info is NULL");
    const auto *Region = static_cast<const cl_buffer_region *>(Info);
    WEFT_CHECK(Region->size == 0, CL_INVALID_BUFFER_SIZE, "region size is 0");
    WEFT_CHECK(!Parent->contains(Region->origin, Region->size), CL_INVALID_VALUE,
               "region is out of the buffer's bounds");
    WEFT_CHECK(Region->origin % BufferAlignment, CL_MISALIGNED_SUB_BUFFER_OFFSET,
               "origin is not a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN");
    return static_cast<cl_mem>(
        rt::Buffer::createSub(*Parent, Inherited, Region->origin, Region->size).release());
  });
}

cl_int CL_API_CALL clRetainMemObject(cl_mem M) {
  return entry([&]() -> Status {
    WEFT_TRY(Mem, get<MemObject>(M));
    Mem->retain();
    return {};
  });
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem M) {
  return entry([&]() -> Status {
    WEFT_TRY(Mem, get<MemObject>(M));
    WEFT_CHECK(!Mem->release(), CL_INVALID_MEM_OBJECT, "memory object already released");
    return {};
  });
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem M, cl_mem_info Param, size_t Size, void *Value,
                                      size_t *SizeRet) {
  return entry([&]() -> Status {
    WEFT_TRY(Mem, get<MemObject>(M));
    WEFT_TRY(Info, memInfo(*Mem, Param));
    return Info.write(Size, Value, SizeRet);
  });
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem M,
                                                    void(CL_CALLBACK *Fn)(cl_mem, void *),
                                                    void *UserData) {
  return entry([&]() -> Status {
    WEFT_TRY(Mem, get<MemObject>(M));
    WEFT_CHECK(!Fn, CL_INVALID_VALUE, "pfn_notify is NULL");
    Mem->addDestructorCallback(Fn, UserData);
    return {};
  });
}

} // namespace weft::api
