// BuildOptions: the build options string of clBuildProgram/clCompileProgram,
// parsed and checked. The front end turns it into -cc1 arguments; the
// pipeline reads the flags that matter after the front end (-cl-opt-disable,
// -cl-kernel-arg-info). Unknown options are an error (CL_INVALID_BUILD_OPTIONS).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace weft::compiler {

class BuildOptions {
public:
  /// Parses Options; on failure returns nullopt and a sentence in Why.
  static std::optional<BuildOptions> parse(const std::string &Options, std::string &Why);

  /// -cc1 arguments that carry these options (defines, includes, -cl-std,
  /// warnings, math flags).
  const std::vector<std::string> &cc1Args() const { return Cc1Args; }
  bool optDisabled() const { return OptDisable; }
  bool kernelArgInfo() const { return KernelArgInfo; }
  /// The -cl-std value ("CL1.2" unless given).
  const std::string &clStd() const { return ClStd; }

private:
  std::vector<std::string> Cc1Args;
  std::string ClStd = "CL1.2";
  bool OptDisable = false;
  bool KernelArgInfo = false;
};

} // namespace weft::compiler
