// Parsing of OpenCL build options (OpenCL 3.0 API, 5.8.6). Tokens are split
// on white space with double quotes grouping; each option is checked against
// the list the specification defines and mapped to the -cc1 spelling.
#include "compiler/frontend/BuildOptions.h"

#include <cctype>

namespace weft::compiler {
namespace {

std::vector<std::string> tokenize(const std::string &S) {
  std::vector<std::string> Tokens;
  std::string Cur;
  bool InQuote = false, HaveToken = false;
  for (char C : S) {
    if (C == '"') {
      InQuote = !InQuote;
      HaveToken = true;
    } else if (!InQuote && std::isspace(static_cast<unsigned char>(C))) {
      if (HaveToken)
        Tokens.push_back(Cur);
      Cur.clear();
      HaveToken = false;
    } else {
      Cur += C;
      HaveToken = true;
    }
  }
  if (HaveToken)
    Tokens.push_back(Cur);
  return Tokens;
}

/// Options cc1 accepts with the same spelling.
bool isPassThrough(const std::string &T) {
  static const char *const Known[] = {
      "-cl-mad-enable",          "-cl-no-signed-zeros",
      "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
      "-cl-fast-relaxed-math",
      "-cl-single-precision-constant", "-cl-fp32-correctly-rounded-divide-sqrt",
      "-cl-uniform-work-group-size", "-w", "-Werror",
  };
  for (const char *K : Known)
    if (T == K)
      return true;
  return false;
}

/// Options we accept and ignore (they only loosen what we may do).
bool isIgnored(const std::string &T) {
  return T == "-g" || T == "-cl-strict-aliasing" || T == "-cl-no-subgroup-ifp" ||
         T == "-cl-no-signed-zeros=0";
}

} // namespace

std::optional<BuildOptions> BuildOptions::parse(const std::string &Options, std::string &Why) {
  BuildOptions B;
  std::vector<std::string> Tokens = tokenize(Options);
  for (size_t I = 0; I < Tokens.size(); ++I) {
    const std::string &T = Tokens[I];
    auto takeValue = [&](size_t PrefixLen, const char *Opt) -> std::optional<std::string> {
      if (T.size() > PrefixLen)
        return T.substr(PrefixLen);
      if (I + 1 < Tokens.size())
        return Tokens[++I];
      Why = std::string("build option ") + Opt + " needs a value";
      return std::nullopt;
    };
    if (T.rfind("-D", 0) == 0) {
      auto V = takeValue(2, "-D");
      if (!V)
        return std::nullopt;
      B.Cc1Args.push_back("-D" + *V);
    } else if (T.rfind("-I", 0) == 0) {
      auto V = takeValue(2, "-I");
      if (!V)
        return std::nullopt;
      B.Cc1Args.push_back("-I" + *V);
    } else if (T.rfind("-cl-std=", 0) == 0) {
      std::string V = T.substr(8);
      for (char &C : V)
        C = static_cast<char>(std::toupper(static_cast<unsigned char>(C)));
      if (V != "CL1.0" && V != "CL1.1" && V != "CL1.2" && V != "CL2.0" && V != "CL3.0" &&
          V != "CL3.1") {
        Why = "unsupported -cl-std value '" + T.substr(8) + "'";
        return std::nullopt;
      }
      B.ClStd = V;
    } else if (T == "-cl-denorms-are-zero") {
      // cc1 has no -cl-denorms-are-zero; this is what the driver passes.
      B.Cc1Args.push_back("-fdenormal-fp-math-f32=preserve-sign,preserve-sign");
    } else if (T == "-cl-opt-disable") {
      B.OptDisable = true;
    } else if (T == "-cl-kernel-arg-info") {
      B.KernelArgInfo = true;
    } else if (isPassThrough(T)) {
      B.Cc1Args.push_back(T);
      B.UniformWorkGroupSize |= T == "-cl-uniform-work-group-size";
    } else if (isIgnored(T)) {
      continue;
    } else {
      Why = "unknown build option '" + T + "'";
      return std::nullopt;
    }
  }
  return B;
}

std::optional<BuildOptions> BuildOptions::parseLink(const std::string &Options, std::string &Why) {
  BuildOptions B;
  bool EnableLinkOptions = false;
  for (const std::string &T : tokenize(Options)) {
    if (T == "-create-library")
      B.CreateLibrary = true;
    else if (T == "-enable-link-options")
      EnableLinkOptions = true;
    else if (T != "-cl-denorms-are-zero" && T != "-cl-no-signed-zeros" &&
             T != "-cl-unsafe-math-optimizations" && T != "-cl-finite-math-only" &&
             T != "-cl-fast-relaxed-math" && T != "-cl-no-subgroup-ifp") {
      Why = "unknown link option '" + T + "'";
      return std::nullopt;
    }
  }
  // "-enable-link-options ... This option must be specified with the
  // -create-library option."
  if (EnableLinkOptions && !B.CreateLibrary) {
    Why = "-enable-link-options needs -create-library";
    return std::nullopt;
  }
  return B;
}

} // namespace weft::compiler
