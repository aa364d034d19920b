// Buffers over host memory, and sub-buffers over their parent's.
#include "runtime/memory/Buffer.h"

namespace weft::rt {

Result<Ref<Buffer>> Buffer::create(Context &Ctx, cl_mem_flags Flags, size_t Size, void *HostPtr,
                                   std::vector<cl_mem_properties> Properties) {
  auto B = Ref<Buffer>::adopt(new Buffer(Ctx, Flags, Size, std::move(Properties)));
  if (Status S = B->allocate(HostPtr, Size); !S)
    return S.error();
  return B;
}

Ref<Buffer> Buffer::createSub(Buffer &Parent, cl_mem_flags Flags, size_t Origin, size_t Size) {
  auto B = Ref<Buffer>::adopt(new Buffer(Parent.context(), Flags, Size, {}));
  B->viewOf(Parent, Origin);
  return B;
}

} // namespace weft::rt
