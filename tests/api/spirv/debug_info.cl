// Compiled with -g: the module imports OpenCL.DebugInfo.100, which the
// device accepts (CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS).
kernel void scaled(global int *out, int factor) {
  size_t i = get_global_id(0);
  int twice = (int)i * factor;
  out[i] = twice + 1;
}
