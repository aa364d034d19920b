// The figures weft_bench reports, in the order it reports them. Each factory
// lives in the file of its family: runtime overheads and transfers
// (FiguresRuntime.cpp), kernels (FiguresKernels.cpp), the compiler
// (FigureBuild.cpp), shared virtual memory (FiguresSvm.cpp), pipes
// (FiguresPipe.cpp), images (FiguresImage.cpp), device-side enqueue
// (FiguresEnqueue.cpp), sub-groups (FiguresSubGroup.cpp).
#ifndef WEFT_BENCH_FIGURES_H
#define WEFT_BENCH_FIGURES_H

#include "Harness.h"

#include <memory>
#include <vector>

namespace weft::bench {

std::unique_ptr<Figure> makeLaunchLatency();    // 1. empty kernel round trip
std::unique_ptr<Figure> makeLaunchThroughput(); // 2. 10,000 tiny kernels
std::unique_ptr<Figure> makeBufferBandwidth();  // 3. write, read, copy of 64 MiB
std::unique_ptr<Figure> makeStream();           // 4. STREAM copy and triad
std::unique_ptr<Figure> makeSgemm();            // 5. naive and tiled SGEMM
std::unique_ptr<Figure> makeReduction();        // 6. work-group reduction
std::unique_ptr<Figure> makeAtomics();          // 7. atomic_add under contention
std::unique_ptr<Figure> makeBarriers();         // 8. barrier-heavy stencil
std::unique_ptr<Figure> makeVectors();          // 9. float vs float4
std::unique_ptr<Figure> makeMath();             // 10. transcendental builtins
std::unique_ptr<Figure> makeRemainders();       // 11. fmod and remainder
std::unique_ptr<Figure> makeFilter();           // 12. FIR filter, __constant taps
std::unique_ptr<Figure> makeBuild();            // 13. cold and cached clBuildProgram
std::unique_ptr<Figure> makeSvm();              // 14. SVM pointer chase and ping-pong
std::unique_ptr<Figure> makePipe();             // 15. packets through a pipe
std::unique_ptr<Figure> makeImage();            // 16. blur and resize on images
std::unique_ptr<Figure> makeEnqueue();          // 17. child kernels from kernels
std::unique_ptr<Figure> makeSubGroups();        // 18. sub-group reduce and scan

/// Every figure, in report order.
std::vector<std::unique_ptr<Figure>> makeAllFigures();

} // namespace weft::bench

#endif // WEFT_BENCH_FIGURES_H
