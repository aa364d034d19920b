// BuildOptions: the build options string of clBuildProgram/clCompileProgram,
// parsed and checked. The front end turns it into -cc1 arguments; the
// pipeline reads the flags that matter after the front end (-cl-opt-disable,
// -cl-kernel-arg-info). Unknown options are an error (CL_INVALID_BUILD_OPTIONS).
// The link options of clLinkProgram (5.8.7) are a separate, smaller list
// parsed by parseLink.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace weft::compiler {

class BuildOptions {
public:
  /// Parses Options; on failure returns nullopt and a sentence in Why.
  static std::optional<BuildOptions> parse(const std::string &Options, std::string &Why);
  /// Parses clLinkProgram options: -create-library, -enable-link-options
  /// (with -create-library only) and the math options, which are accepted
  /// and have no further effect at link time.
  static std::optional<BuildOptions> parseLink(const std::string &Options, std::string &Why);

  /// -cc1 arguments that carry these options (defines, includes, -cl-std,
  /// warnings, math flags).
  const std::vector<std::string> &cc1Args() const { return Cc1Args; }
  bool optDisabled() const { return OptDisable; }
  bool kernelArgInfo() const { return KernelArgInfo; }
  /// -cl-uniform-work-group-size: for OpenCL C, clang marks the kernels;
  /// a module from IL gets the mark from the build (LlvmProgramCompiler).
  bool uniformWorkGroupSize() const { return UniformWorkGroupSize; }
  /// The -cl-std value ("CL1.2" unless given).
  const std::string &clStd() const { return ClStd; }
  /// Link options: produce a library instead of an executable.
  bool createLibrary() const { return CreateLibrary; }

private:
  std::vector<std::string> Cc1Args;
  std::string ClStd = "CL1.2";
  bool OptDisable = false;
  bool KernelArgInfo = false;
  bool UniformWorkGroupSize = false;
  bool CreateLibrary = false;
};

} // namespace weft::compiler
