1

typedef struct Node {
  uint Value;
  __global struct Node *Next;
} Node;

// Work-item i walks the list that starts at Heads[i], summing its values:
// dependent loads through pointers the host wrote.
__kernel void chase(__global const Node *Heads, __global uint *Sums) {
  uint Sum = 0;
  for (__global const Node *N = &Heads[get_global_id(0)]; N; N = N->Next)
    Sum += N->Value;
  Sums[get_global_id(0)] = Sum;
}

#if __OPENCL_C_VERSION__ >= 200 // C11 atomics (the chase builds as OpenCL C 1.2)
// One work-item turns every even value of *Ball into the next odd one, the
// host every odd into the next even: Rounds round trips. A round that waits
// too long sets *Missed, so a device that cannot run beside the host fails
// instead of hanging.
__kernel void ping(volatile __global atomic_int *Ball, __global int *Missed, int Rounds) {
  for (int R = 0; R < Rounds; ++R) {
    long Spin = 0;
    while (atomic_load_explicit(Ball, memory_order_acquire, memory_scope_all_svm_devices) !=
           2 * R)
      if (++Spin == (1L << 31)) {
        *Missed = 1;
        return;
      }
    atomic_store_explicit(Ball, 2 * R + 1, memory_order_release, memory_scope_all_svm_devices);
  }
}
#endif
