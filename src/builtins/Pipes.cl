// The pipe built-ins (OpenCL C 6.15.17): read_pipe and write_pipe in their
// two- and four-argument forms, the reservations of a work-item, a
// work-group and a sub-group with their commits, and the pipe queries.
//
// Clang lowers the built-ins to calls of fixed names (__read_pipe_2,
// __reserve_write_pipe, __get_pipe_num_packets_ro, ...) with the pipe as a
// global pointer and a reservation id as a private pointer; so does the
// SPIR-V translator. With opaque pointers those are the types of the
// definitions below, which the kernel pipeline links like any builtin: the
// pipe is a pointer to its memory (the kernel argument is the pipe object's
// memory), laid out as src/runtime/memory/PipeLayout.h says; this file is the other
// side of that contract.
//
// A reservation id is the pointer-sized value (position << 32) | count:
// count >= 1, so the null id is the invalid one. It is a value, so a kernel
// may keep it in __local or __global memory.
//
// Nothing here waits: a reservation that cannot be had now (the pipe is
// full, or empty) fails, as the specification allows; commits publish slot
// by slot, so reservations of one pipe commit in any order. A sub-group is
// the whole work-group in Weft (SubGroups.cl), so the sub-group forms are
// the work-group ones.
#include "BuiltinMacros.h"
#include "runtime/memory/PipeLayout.h"

typedef volatile __global atomic_uint *Counter;

static INL uint headerField(__global uchar *P, uint Offset) {
  return *(__global const uint *)(P + Offset);
}
static INL Counter counter(__global uchar *P, uint Offset) { return (Counter)(P + Offset); }
static INL uint slotMask(__global uchar *P) { return headerField(P, WEFT_PIPE_SLOTS) - 1; }
static INL Counter sequence(__global uchar *P, uint Pos) {
  return (Counter)(P + WEFT_PIPE_SEQ + 4 * (size_t)(Pos & slotMask(P)));
}
static INL __global uchar *packet(__global uchar *P, uint Pos, uint Size) {
  const uint Slots = headerField(P, WEFT_PIPE_SLOTS);
  return P + WEFT_PIPE_PACKETS(Slots) + (size_t)(Pos & (Slots - 1)) * Size;
}
static INL uint loadAcquire(Counter C) {
  return atomic_load_explicit(C, memory_order_acquire, memory_scope_device);
}
static INL uint loadRelaxed(Counter C) {
  return atomic_load_explicit(C, memory_order_relaxed, memory_scope_device);
}

typedef __private void *Rid; // what Clang passes for a reserve_id_t
static INL ulong reserveId(uint Pos, uint Count) { return ((ulong)Pos << 32) | Count; }
static INL Rid toRid(ulong Id) { return (Rid)Id; }
static INL ulong fromRid(Rid R) { return (ulong)R; }
static INL uint reservedPos(ulong Id) { return (uint)(Id >> 32); }
static INL uint reservedCount(ulong Id) { return (uint)Id; }

// Whether the Count slots from position Pos each hold position + Ready in
// their sequence number (Ready 0: free for a writer; 1: committed for a
// reader): 0 if so, -1 if one is behind (the pipe is full, or empty), 1 if
// one is ahead (Pos is stale: others have reserved past it).
static INL int slotsReady(__global uchar *P, uint Pos, uint Count, uint Ready) {
  for (uint I = 0; I < Count; ++I) {
    const int Ahead = (int)(loadAcquire(sequence(P, Pos + I)) - (Pos + I + Ready));
    if (Ahead != 0)
      return Ahead < 0 ? -1 : 1;
  }
  return 0;
}

// Takes Count positions from Pos with one compare-and-swap of the counter
// At; a failure reloads Pos.
static INL bool claim(Counter At, uint *Pos, uint Count) {
  return atomic_compare_exchange_weak_explicit(At, Pos, *Pos + Count, memory_order_relaxed,
                                               memory_order_relaxed, memory_scope_device);
}

// Writers: Count contiguous positions at WritePos, if their slots are free
// and at most max_packets packets would be outstanding (WritePos -
// ReadDone; a negative count means Pos is stale).
static INL ulong reserveWrite(__global uchar *P, uint Count) {
  const uint Max = headerField(P, WEFT_PIPE_MAX_PACKETS);
  if (Count == 0 || Count > Max)
    return 0;
  Counter WritePos = counter(P, WEFT_PIPE_WRITE_POS);
  uint Pos = loadRelaxed(WritePos);
  for (;;) {
    const int Outstanding = (int)(Pos - loadAcquire(counter(P, WEFT_PIPE_READ_DONE)));
    const int State = Outstanding < 0                       ? 1
                      : (uint)Outstanding + Count > Max ? -1
                                                        : slotsReady(P, Pos, Count, 0);
    if (State < 0)
      return 0; // full
    if (State > 0)
      Pos = loadRelaxed(WritePos);
    else if (claim(WritePos, &Pos, Count))
      return reserveId(Pos, Count);
  }
}

// Readers: Count contiguous positions at ReadPos, if their slots are
// committed.
static INL ulong reserveRead(__global uchar *P, uint Count) {
  if (Count == 0 || Count > headerField(P, WEFT_PIPE_MAX_PACKETS))
    return 0;
  Counter ReadPos = counter(P, WEFT_PIPE_READ_POS);
  uint Pos = loadRelaxed(ReadPos);
  for (;;) {
    const int State = slotsReady(P, Pos, Count, 1);
    if (State < 0)
      return 0; // empty: not written, or written but not committed yet
    if (State > 0)
      Pos = loadRelaxed(ReadPos);
    else if (claim(ReadPos, &Pos, Count))
      return reserveId(Pos, Count);
  }
}

static INL void commitWrite(__global uchar *P, ulong Id) {
  const uint Pos = reservedPos(Id), Count = reservedCount(Id);
  for (uint I = 0; I < Count; ++I)
    atomic_store_explicit(sequence(P, Pos + I), Pos + I + 1, memory_order_release,
                          memory_scope_device);
}

static INL void commitRead(__global uchar *P, ulong Id) {
  const uint Pos = reservedPos(Id), Count = reservedCount(Id);
  const uint Slots = headerField(P, WEFT_PIPE_SLOTS);
  for (uint I = 0; I < Count; ++I)
    atomic_store_explicit(sequence(P, Pos + I), Pos + I + Slots, memory_order_release,
                          memory_scope_device);
  atomic_fetch_add_explicit(counter(P, WEFT_PIPE_READ_DONE), Count, memory_order_release,
                            memory_scope_device);
}

static INL void copyPacket(__generic uchar *Dst, __generic const uchar *Src, uint Size) {
  for (uint I = 0; I < Size; ++I)
    Dst[I] = Src[I];
}

// Packet Index of a reservation: its slot, or null for an invalid id or an
// index past the reservation (undefined by the specification; a failed
// read or write here, never a stray access).
static INL __global uchar *reservedPacket(__global uchar *P, ulong Id, uint Index, uint Size) {
  if (Id == 0 || Index >= reservedCount(Id))
    return 0;
  return packet(P, reservedPos(Id) + Index, Size);
}

int __read_pipe_2(__global uchar *P, __generic void *Ptr, uint Size, uint Align) {
  const ulong Id = reserveRead(P, 1);
  if (Id == 0)
    return -1;
  copyPacket((__generic uchar *)Ptr, packet(P, reservedPos(Id), Size), Size);
  commitRead(P, Id);
  return 0;
}

int __write_pipe_2(__global uchar *P, __generic const void *Ptr, uint Size, uint Align) {
  const ulong Id = reserveWrite(P, 1);
  if (Id == 0)
    return -1;
  copyPacket(packet(P, reservedPos(Id), Size), (__generic const uchar *)Ptr, Size);
  commitWrite(P, Id);
  return 0;
}

int __read_pipe_4(__global uchar *P, Rid R, uint Index, __generic void *Ptr, uint Size,
                  uint Align) {
  __global uchar *Slot = reservedPacket(P, fromRid(R), Index, Size);
  if (!Slot)
    return -1;
  copyPacket((__generic uchar *)Ptr, Slot, Size);
  return 0;
}

int __write_pipe_4(__global uchar *P, Rid R, uint Index, __generic const void *Ptr, uint Size,
                   uint Align) {
  __global uchar *Slot = reservedPacket(P, fromRid(R), Index, Size);
  if (!Slot)
    return -1;
  copyPacket(Slot, (__generic const uchar *)Ptr, Size);
  return 0;
}

Rid __reserve_read_pipe(__global uchar *P, uint Count, uint Size, uint Align) {
  return toRid(reserveRead(P, Count));
}

Rid __reserve_write_pipe(__global uchar *P, uint Count, uint Size, uint Align) {
  return toRid(reserveWrite(P, Count));
}

void __commit_read_pipe(__global uchar *P, Rid R, uint Size, uint Align) {
  if (fromRid(R) != 0)
    commitRead(P, fromRid(R));
}

void __commit_write_pipe(__global uchar *P, Rid R, uint Size, uint Align) {
  if (fromRid(R) != 0)
    commitWrite(P, fromRid(R));
}

bool OVL is_valid_reserve_id(reserve_id_t R) {
  // reserve_id_t allows no cast; its bits are the id.
  return *(__private const ulong *)&R != 0;
}

// The work-group forms: every work-item of the group calls them with the
// same arguments. The first work-item reserves for the group and the id
// reaches every work-item through work_group_broadcast; a commit waits at a
// barrier until every work-item has read or written its packets.
Rid __work_group_reserve_read_pipe(__global uchar *P, uint Count, uint Size, uint Align) {
  ulong Id = 0;
  if (get_local_linear_id() == 0)
    Id = reserveRead(P, Count);
  return toRid(work_group_broadcast(Id, (size_t)0));
}

Rid __work_group_reserve_write_pipe(__global uchar *P, uint Count, uint Size, uint Align) {
  ulong Id = 0;
  if (get_local_linear_id() == 0)
    Id = reserveWrite(P, Count);
  return toRid(work_group_broadcast(Id, (size_t)0));
}

void __work_group_commit_read_pipe(__global uchar *P, Rid R, uint Size, uint Align) {
  work_group_barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_linear_id() == 0 && fromRid(R) != 0)
    commitRead(P, fromRid(R));
}

void __work_group_commit_write_pipe(__global uchar *P, Rid R, uint Size, uint Align) {
  work_group_barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_linear_id() == 0 && fromRid(R) != 0)
    commitWrite(P, fromRid(R));
}

// The sub-group forms: every work-item of a sub-group calls them with the
// same arguments; the sub-group's first work-item reserves, and a commit
// waits until every work-item of the sub-group has read or written its
// packets (SubGroups.cl's helpers).
ulong __weft_sub_group_first(ulong V);
uint __weft_sub_group_leader(void);
void __weft_sub_group_barrier(void);

Rid __sub_group_reserve_read_pipe(__global uchar *P, uint Count, uint Size, uint Align) {
  ulong Id = 0;
  if (__weft_sub_group_leader())
    Id = reserveRead(P, Count);
  return toRid(__weft_sub_group_first(Id));
}

Rid __sub_group_reserve_write_pipe(__global uchar *P, uint Count, uint Size, uint Align) {
  ulong Id = 0;
  if (__weft_sub_group_leader())
    Id = reserveWrite(P, Count);
  return toRid(__weft_sub_group_first(Id));
}

void __sub_group_commit_read_pipe(__global uchar *P, Rid R, uint Size, uint Align) {
  __weft_sub_group_barrier();
  if (__weft_sub_group_leader() && fromRid(R) != 0)
    commitRead(P, fromRid(R));
}

void __sub_group_commit_write_pipe(__global uchar *P, Rid R, uint Size, uint Align) {
  __weft_sub_group_barrier();
  if (__weft_sub_group_leader() && fromRid(R) != 0)
    commitWrite(P, fromRid(R));
}

// get_pipe_num_packets: the packets written and not yet read, as of now
// (other work-items may change it before the caller looks).
static INL uint numPackets(__global uchar *P) {
  const int Count = (int)(loadAcquire(counter(P, WEFT_PIPE_WRITE_POS)) -
                          loadAcquire(counter(P, WEFT_PIPE_READ_POS)));
  return (uint)clamp(Count, 0, (int)headerField(P, WEFT_PIPE_MAX_PACKETS));
}

uint __get_pipe_num_packets_ro(__global uchar *P, uint Size, uint Align) { return numPackets(P); }
uint __get_pipe_num_packets_wo(__global uchar *P, uint Size, uint Align) { return numPackets(P); }
uint __get_pipe_max_packets_ro(__global uchar *P, uint Size, uint Align) {
  return headerField(P, WEFT_PIPE_MAX_PACKETS);
}
uint __get_pipe_max_packets_wo(__global uchar *P, uint Size, uint Align) {
  return headerField(P, WEFT_PIPE_MAX_PACKETS);
}
