0

// Every work-item adds PerItem times to NumCounters shared counters.
__kernel void atomicContention(__global uint *Counters, uint NumCounters, uint PerItem) {
  uint Gid = get_global_id(0);
  for (uint I = 0; I < PerItem; ++I)
    atomic_add(&Counters[(Gid + I) % NumCounters], (Gid & 7u) + 1u);
}
