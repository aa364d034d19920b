// What the host CPU is, read at run time: the process's CPU affinity, the
// caches and memory from sysfs/sysconf, the SIMD ISA from the code the
// compiler emits (the host's own ISA, or the CPU WEFT_CPU names). Nothing is
// hard-coded: the same library reports an AVX-512 Xeon and an SSE laptop
// truthfully.
#pragma once

#include "runtime/platform/DeviceBackend.h"

namespace weft::cpu {

/// Reads the host's properties (name, units, caches, memory, vector widths).
rt::DeviceProperties probeHostCpu();

} // namespace weft::cpu
