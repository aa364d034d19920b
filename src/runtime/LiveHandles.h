// Every handle Weft has given out and not yet destroyed.
//
// A handle that is a call's own argument has been through the ICD loader,
// which reads its dispatch pointer first: a wild one never reaches Weft.
// But handles also arrive inside data: the events of a wait list, the
// cl_mem that clSetKernelArg's arg_value points to, the devices of a list.
// Those can be any pointer value at all, and the specification still names
// an error for them (CL_INVALID_EVENT_WAIT_LIST, CL_INVALID_MEM_OBJECT, ...).
// So the API layer asks here whether a handle is live before it reads it
// (Entry.h, fromHandle). Every API object registers in its constructor and
// leaves in its destructor (Object.h).
//
// Sharded by address, a mutex and a hash set per shard, so that threads
// creating and checking events at once rarely meet.
#pragma once

namespace weft::rt::handles {

void add(const void *Handle);
void remove(const void *Handle);
/// Whether Handle is an object Weft made and has not destroyed.
bool live(const void *Handle);

} // namespace weft::rt::handles
