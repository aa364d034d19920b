0
#define TAPS 17

// A 1-D FIR filter of TAPS taps whose coefficients sit in __constant
// memory, as signal and image code keeps them. The input buffer holds
// TAPS - 1 more elements than the output.
__kernel void firConstant(__global const float *In, __constant float *Taps,
                          __global float *Out) {
  size_t I = get_global_id(0);
  float Acc = 0.0f;
  for (int K = 0; K < TAPS; ++K)
    Acc += Taps[K] * In[I + K];
  Out[I] = Acc;
}
