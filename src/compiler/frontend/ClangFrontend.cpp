// The in-process OpenCL C front end. It builds a -cc1 argument list (the
// same a driver would), creates a CompilerInvocation from it, feeds the
// source as a remapped in-memory file and runs EmitLLVMOnlyAction.
//
// The front end runs at -O2 with -disable-llvm-passes: -O0 would mark every
// function optnone/noinline, which the work-group passes cannot inline; the
// real optimization happens after the work-group passes (KernelPipeline).
// Kernel argument names are always requested (-cl-kernel-arg-info) and
// dropped later unless the user asked for them.
#include "compiler/frontend/ClangFrontend.h"

#include "runtime/platform/Capabilities.h"

#include <map>
#include <mutex>
#include <optional>
#include <string_view>
#include <utility>

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Mangle.h>
#include <clang/AST/PrettyPrinter.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/SourceManager.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>

namespace weft::compiler {

namespace {

constexpr const char *InputName = "input.cl";
constexpr const char *FeaturesName = "weft-features.h";

/// OpenCL C 3.0 features that clang 15's opencl-c-base.h defines itself for
/// SPIR targets, whatever -cl-ext says.
constexpr const char *HeaderOnlyFeatures[] = {
    "__opencl_c_work_group_collective_functions", "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device", "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_read_write_images"};

/// Extension macros that clang 15's opencl-c-base.h defines itself for
/// SPIR targets from OpenCL C 2.0 on, whatever -cl-ext says, each with the
/// extension that must be reported for it to stay. Its builtins are
/// declared only while the macro is defined.
constexpr std::pair<const char *, const char *> HeaderOnlyExtensions[] = {
    {"cl_khr_subgroup_extended_types", "cl_khr_subgroup_extended_types"},
    {"cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_non_uniform_vote"},
    {"cl_khr_subgroup_ballot", "cl_khr_subgroup_ballot"},
    {"cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_non_uniform_arithmetic"},
    {"cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle"},
    {"cl_khr_subgroup_shuffle_relative", "cl_khr_subgroup_shuffle_relative"},
    {"cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_clustered_reduce"},
    {"cl_khr_subgroup_rotate", "cl_khr_subgroup_rotate"},
    {"cl_khr_extended_bit_ops", "cl_khr_extended_bit_ops"},
    {"cl_khr_integer_dot_product", "cl_khr_integer_dot_product"},
    {"__opencl_c_integer_dot_product_input_4x8bit", "cl_khr_integer_dot_product"},
    {"__opencl_c_integer_dot_product_input_4x8bit_packed", "cl_khr_integer_dot_product"},
    {"cl_ext_float_atomics", "cl_ext_float_atomics"},
    {"__opencl_c_ext_fp16_global_atomic_load_store", "cl_ext_float_atomics"},
    {"__opencl_c_ext_fp16_local_atomic_load_store", "cl_ext_float_atomics"},
    {"__opencl_c_ext_fp16_global_atomic_add", "cl_ext_float_atomics"},
    {"__opencl_c_ext_fp16_local_atomic_add", "cl_ext_float_atomics"},
    {"__opencl_c_ext_fp16_global_atomic_min_max", "cl_ext_float_atomics"},
    {"__opencl_c_ext_fp16_local_atomic_min_max", "cl_ext_float_atomics"},
    {"__opencl_c_ext_fp32_global_atomic_add", "cl_ext_float_atomics"},
    {"__opencl_c_ext_fp32_local_atomic_add", "cl_ext_float_atomics"},
    {"__opencl_c_ext_fp32_global_atomic_min_max", "cl_ext_float_atomics"},
    {"__opencl_c_ext_fp32_local_atomic_min_max", "cl_ext_float_atomics"},
    {"__opencl_c_ext_fp64_global_atomic_add", "cl_ext_float_atomics"},
    {"__opencl_c_ext_fp64_local_atomic_add", "cl_ext_float_atomics"},
    {"__opencl_c_ext_fp64_global_atomic_min_max", "cl_ext_float_atomics"},
    {"__opencl_c_ext_fp64_local_atomic_min_max", "cl_ext_float_atomics"},
};

/// Extensions clang 15 knows nothing of: their macro is defined when the
/// device reports them (-cl-ext would not define it).
constexpr const char *ExtensionsClangLacks[] = {"cl_intel_required_subgroup_size",
                                                 "cl_khr_expect_assume"};

/// Included after the default header: undefines the header-only feature
/// and extension macros the device does not report, so that a kernel's
/// #ifdef sees exactly CL_DEVICE_OPENCL_C_FEATURES and
/// CL_DEVICE_EXTENSIONS (and cannot call, say, sub_group_ballot because
/// clang declared it).
std::string featuresPrelude(const BuildOptions &Opts) {
  std::string Text;
  // OpenCL C 3.1's version macro, defined (like clang's CL_VERSION_*) for
  // every language version.
  Text += "#define CL_VERSION_3_1 310\n";
  // Clang 15 knows OpenCL C 3.0 at most, and 3.1 is 3.0 plus what
  // extensions the device reports already bring (sub-group shuffles and
  // rotates, integer dot products, extended bit operations) and printf's
  // z and t length modifiers, which clang accepts: a 3.1 program is
  // compiled as 3.0 (languageArgs) and sees 3.1's version from here on,
  // after opencl-c-base.h has chosen the header-only features by 3.0's.
  if (Opts.clStd() == "CL3.1")
    Text += "#undef __OPENCL_C_VERSION__\n#define __OPENCL_C_VERSION__ 310\n";
  for (const char *F : HeaderOnlyFeatures)
    if (!rt::listed(rt::OpenCLCFeatures, F))
      Text += std::string("#undef ") + F + "\n";
  for (const auto &[Macro, Extension] : HeaderOnlyExtensions)
    if (!rt::listed(rt::DeviceExtensions, Extension))
      Text += std::string("#undef ") + Macro + "\n";
  return Text;
}

std::string extensionArg() {
  std::string Arg = "-cl-ext=-all";
  // Exactly what the device reports (one list, runtime/platform/Capabilities.h).
  for (const auto &E : rt::DeviceExtensions)
    Arg += std::string(",+") + E.Name;
  for (const auto &F : rt::OpenCLCFeatures)
    Arg += std::string(",+") + F.Name;
  return Arg;
}

/// The arguments that set the language: the target, the version in Opts,
/// and the device's extensions and features.
std::vector<std::string> languageArgs(const BuildOptions &Opts) {
  std::vector<std::string> Args = {
      "-triple", "spir64-unknown-unknown",
      "-cl-std=" + (Opts.clStd() == "CL3.1" ? std::string("CL3.0") : Opts.clStd()), "-resource-dir",
      WEFT_CLANG_RESOURCE_DIR, extensionArg(),
      // The SPIR target predefines it: true exactly when the device
      // reports images.
      rt::Images.Supported ? "-D__IMAGE_SUPPORT__=1" : "-U__IMAGE_SUPPORT__",
      // Clang leaves it to the target, and the SPIR target does not
      // define it: the device's OpenCL version.
      "-D__OPENCL_VERSION__=" + std::to_string(CL_VERSION_MAJOR(rt::OpenCLVersion) * 100 +
                                               CL_VERSION_MINOR(rt::OpenCLVersion) * 10),
      "-x", "cl"};
  for (const char *E : ExtensionsClangLacks)
    if (rt::listed(rt::DeviceExtensions, E))
      Args.push_back(std::string("-D") + E + "=1");
  return Args;
}

/// Clang 15 steps over the character after a `\N` escape that lacks its
/// `{` (having reported "expected '{' after '\N' escape sequence"). When
/// that character is the literal's closing quote, StringLiteralParser runs
/// past the end of the token and copies whatever memory follows (a fault,
/// or silently corrupt state). Such a literal is an error wherever Clang
/// reads it. So each buffer the compile reads is defused first: the `N` of
/// every such escape becomes `?` (the valid escape `\?`, same length, so
/// every location stays), and the build fails with a fatal error at the
/// escape when Clang enters the buffer (DefusedEscapes). Lexing a buffer
/// raw cannot see #if: a literal in a block left out is rejected too,
/// where Clang would accept it, and so is one in the text of #error or
/// #warning.
class DefusedEscapes {
public:
  /// A copy of Text named Name, defused. One compile's front end (one
  /// thread) makes them all.
  std::unique_ptr<llvm::MemoryBuffer> defused(llvm::StringRef Text, llvm::StringRef Name,
                                              const clang::LangOptions &LangOpts) {
    std::string Copy = Text.str();
    std::optional<unsigned> First = defuseBuffer(Copy, LangOpts);
    std::unique_ptr<llvm::MemoryBuffer> Buffer = llvm::MemoryBuffer::getMemBufferCopy(Copy, Name);
    if (First)
      FirstByBuffer.emplace(Buffer->getBufferStart(), *First);
    return Buffer;
  }

  /// The first escape defused in the buffer starting at Start, as an offset.
  std::optional<unsigned> firstIn(const char *Start) const {
    auto It = FirstByBuffer.find(Start);
    if (It == FirstByBuffer.end())
      return std::nullopt;
    return It->second;
  }

private:
  /// Defuses every such escape of Text; returns the offset of the first.
  static std::optional<unsigned> defuseBuffer(std::string &Text,
                                              const clang::LangOptions &LangOpts) {
    std::optional<unsigned> First;
    if (Text.find('\\') == std::string::npos && Text.find("?\?/") == std::string::npos)
      return First;
    const clang::SourceLocation Base = clang::SourceLocation::getFromRawEncoding(1);
    const char *Begin = Text.c_str();
    clang::Lexer Raw(Base, LangOpts, Begin, Begin, Begin + Text.size());
    clang::Token Tok;
    bool AfterHash = false, IncludeName = false;
    // The literal's characters as StringLiteralParser sees them (line
    // splices and trigraphs resolved), each with the offset of its last
    // byte in Text.
    std::string Chars;
    std::vector<unsigned> LastByte;
    while (!Raw.LexFromRawLexer(Tok)) {
      const bool Literal =
          clang::tok::isStringLiteral(Tok.getKind()) ||
          Tok.isOneOf(clang::tok::char_constant, clang::tok::wide_char_constant,
                      clang::tok::utf8_char_constant, clang::tok::utf16_char_constant,
                      clang::tok::utf32_char_constant);
      if (Literal && !IncludeName) {
        const unsigned Start = Tok.getLocation().getRawEncoding() - Base.getRawEncoding();
        Chars.clear();
        LastByte.clear();
        for (unsigned I = 0; I < Tok.getLength();) {
          unsigned Size = 0;
          Chars.push_back(clang::Lexer::getCharAndSizeNoWarn(Begin + Start + I, Size, LangOpts));
          I += Size;
          LastByte.push_back(Start + I - 1);
        }
        // Backslashes in a row, an odd count, then N, then the closing quote.
        const size_t N = Chars.size();
        if (N >= 3 && Chars[N - 2] == 'N') {
          size_t Slashes = 0;
          while (Slashes + 2 < N && Chars[N - 3 - Slashes] == '\\')
            ++Slashes;
          if (Slashes % 2 == 1) {
            Text[LastByte[N - 2]] = '?';
            if (!First)
              First = LastByte[N - 3];
          }
        }
      }
      IncludeName =
          AfterHash && Tok.is(clang::tok::raw_identifier) &&
          (Tok.getRawIdentifier() == "include" || Tok.getRawIdentifier() == "include_next" ||
           Tok.getRawIdentifier() == "import");
      AfterHash = Tok.is(clang::tok::hash) && Tok.isAtStartOfLine();
    }
    return First;
  }

  std::map<const char *, unsigned> FirstByBuffer;
};

/// An open file whose contents were read (and defused) already.
class ReadFile : public llvm::vfs::File {
public:
  ReadFile(llvm::vfs::Status Status, std::unique_ptr<llvm::MemoryBuffer> Buffer)
      : Stat(std::move(Status)), Buffer(std::move(Buffer)) {}

  llvm::ErrorOr<llvm::vfs::Status> status() override { return Stat; }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine &, int64_t, bool,
                                                               bool) override {
    // Clang reads an open file once (FileManager closes it then); a second
    // read fails rather than hand out text DefusedEscapes has not recorded.
    if (Buffer)
      return std::move(Buffer);
    return std::make_error_code(std::errc::io_error);
  }
  std::error_code close() override { return {}; }

private:
  llvm::vfs::Status Stat;
  std::unique_ptr<llvm::MemoryBuffer> Buffer;
};

/// The real file system, with every file read defused.
class DefusingFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  DefusingFileSystem(DefusedEscapes &Escapes, clang::LangOptions LangOpts)
      : ProxyFileSystem(llvm::vfs::getRealFileSystem()), Escapes(Escapes), LangOpts(LangOpts) {}

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override {
    llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> File = ProxyFileSystem::openFileForRead(Path);
    if (!File)
      return File;
    llvm::ErrorOr<llvm::vfs::Status> Status = (*File)->status();
    if (!Status)
      return Status.getError();
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer = (*File)->getBuffer(Path);
    if (!Buffer)
      return Buffer.getError();
    return std::make_unique<ReadFile>(
        *Status,
        Escapes.defused((*Buffer)->getBuffer(), (*Buffer)->getBufferIdentifier(), LangOpts));
  }

private:
  DefusedEscapes &Escapes;
  const clang::LangOptions LangOpts;
};

/// Reports the first escape DefusedEscapes changed in each buffer Clang
/// enters, as a fatal error.
class DefusedEscapeReporter : public clang::PPCallbacks {
public:
  DefusedEscapeReporter(clang::Preprocessor &PP, DefusedEscapes &Escapes)
      : PP(PP), Escapes(Escapes) {}

  void FileChanged(clang::SourceLocation Loc, FileChangeReason Reason,
                   clang::SrcMgr::CharacteristicKind, clang::FileID) override {
    clang::DiagnosticsEngine &Diags = PP.getDiagnostics();
    if (Reason != EnterFile || Diags.hasFatalErrorOccurred())
      return;
    const clang::SourceManager &SM = PP.getSourceManager();
    const clang::FileID File = SM.getFileID(Loc);
    llvm::Optional<llvm::MemoryBufferRef> Buffer = SM.getBufferOrNone(File);
    if (!Buffer)
      return;
    if (std::optional<unsigned> Offset = Escapes.firstIn(Buffer->getBufferStart()))
      Diags.Report(SM.getLocForStartOfFile(File).getLocWithOffset(*Offset),
                   Diags.getCustomDiagID(clang::DiagnosticsEngine::Fatal,
                                         "'\\N' escape sequence without its '{' at the end of "
                                         "a literal (Clang 15 reads past such a literal)"));
  }

private:
  clang::Preprocessor &PP;
  DefusedEscapes &Escapes;
};

/// EmitLLVMOnlyAction with a DefusedEscapeReporter on its preprocessor.
class DefusedEmitLLVMOnlyAction : public clang::EmitLLVMOnlyAction {
public:
  DefusedEmitLLVMOnlyAction(llvm::LLVMContext &Ctx, DefusedEscapes &Escapes)
      : EmitLLVMOnlyAction(&Ctx), Escapes(Escapes) {}

protected:
  bool BeginSourceFileAction(clang::CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<DefusedEscapeReporter>(CI.getPreprocessor(), Escapes));
    return EmitLLVMOnlyAction::BeginSourceFileAction(CI);
  }

private:
  DefusedEscapes &Escapes;
};

/// A CompilerInvocation from -cc1 arguments, its input (InputName) the
/// in-memory Source, defused by Escapes if given; nullptr, with the reason
/// on Diag, if they do not parse.
std::shared_ptr<clang::CompilerInvocation> invocation(const std::vector<std::string> &Args,
                                                      const std::string &Source,
                                                      llvm::raw_ostream &Diag,
                                                      DefusedEscapes *Escapes = nullptr) {
  std::vector<const char *> CArgs;
  for (const std::string &A : Args)
    CArgs.push_back(A.c_str());
  auto Invocation = std::make_shared<clang::CompilerInvocation>();
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> ArgDiagOpts = new clang::DiagnosticOptions();
  clang::TextDiagnosticPrinter ArgPrinter(Diag, ArgDiagOpts.get());
  clang::DiagnosticsEngine ArgDiags(new clang::DiagnosticIDs(), ArgDiagOpts.get(), &ArgPrinter,
                                    /*ShouldOwnClient=*/false);
  // Clang's option table is a lazily built process-wide singleton that is
  // not safe to parse from several threads at once; builds run
  // concurrently, so argument parsing (a tiny part of a build) is
  // serialized.
  static std::mutex OptionTableMutex;
  std::unique_lock<std::mutex> Lock(OptionTableMutex);
  bool Parsed = clang::CompilerInvocation::CreateFromArgs(*Invocation, CArgs, ArgDiags);
  Lock.unlock();
  if (!Parsed || ArgDiags.hasErrorOccurred())
    return nullptr;
  Invocation->getPreprocessorOpts().addRemappedFile(
      InputName, Escapes ? Escapes->defused(Source, InputName, *Invocation->getLangOpts()).release()
                         : llvm::MemoryBuffer::getMemBufferCopy(Source, InputName).release());
  Invocation->getPreprocessorOpts().RetainRemappedFileBuffers = false;
  Invocation->getFrontendOpts().DisableFree = false;
  return Invocation;
}

/// Collects every valid function declaration at file scope.
class DeclarationCollector : public clang::ASTConsumer {
public:
  explicit DeclarationCollector(std::vector<ClangFrontend::Declaration> &Out) : Out(Out) {}

  void HandleTranslationUnit(clang::ASTContext &Context) override {
    std::unique_ptr<clang::MangleContext> Mangle(Context.createMangleContext());
    clang::PrintingPolicy Policy(Context.getLangOpts());
    for (const clang::Decl *D : Context.getTranslationUnitDecl()->decls()) {
      const auto *F = llvm::dyn_cast<clang::FunctionDecl>(D);
      if (!F || F->isInvalidDecl())
        continue;
      ClangFrontend::Declaration Decl;
      Decl.Name = F->getName().str();
      if (Mangle->shouldMangleDeclName(F)) {
        llvm::raw_string_ostream OS(Decl.MangledName);
        Mangle->mangleName(F, OS);
      } else {
        Decl.MangledName = Decl.Name;
      }
      for (const clang::ParmVarDecl *P : F->parameters())
        Decl.ParamTypes.push_back(P->getType().getAsString(Policy));
      Decl.Variadic = F->isVariadic();
      Out.push_back(std::move(Decl));
    }
  }

private:
  std::vector<ClangFrontend::Declaration> &Out;
};

class CollectDeclarationsAction : public clang::ASTFrontendAction {
public:
  explicit CollectDeclarationsAction(std::vector<ClangFrontend::Declaration> &Out) : Out(Out) {}

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &,
                                                        llvm::StringRef) override {
    return std::make_unique<DeclarationCollector>(Out);
  }

private:
  std::vector<ClangFrontend::Declaration> &Out;
};

} // namespace

std::unique_ptr<llvm::Module>
ClangFrontend::compile(const std::string &Source, const BuildOptions &Opts, llvm::LLVMContext &Ctx,
                       std::string &Log, const std::vector<rt::EmbeddedHeader> &Headers,
                       std::vector<std::pair<std::string, std::string>> *ReadFiles) {
  std::vector<std::string> Args = languageArgs(Opts);
  for (const char *A :
       {"-emit-llvm", "-O2", "-disable-llvm-passes", "-fdeclare-opencl-builtins",
        "-finclude-default-header", "-cl-kernel-arg-info", "-include", FeaturesName})
    Args.push_back(A);
  for (const std::string &A : Opts.cc1Args())
    Args.push_back(A);
  // A header that includes another by its embedded name ("a.h" from inside
  // "foo/b.h") is looked up relative to the includer first, then here.
  if (!Headers.empty())
    Args.push_back("-I.");
  Args.push_back(InputName);
  std::string DiagText;
  llvm::raw_string_ostream DiagStream(DiagText);
  DefusedEscapes Escapes;
  std::shared_ptr<clang::CompilerInvocation> Invocation =
      invocation(Args, Source, DiagStream, &Escapes);
  if (!Invocation) {
    Log += DiagStream.str();
    return nullptr;
  }
  // -include looks the prelude up from the working directory ("./name").
  for (const std::string &Path : {std::string(FeaturesName), std::string("./") + FeaturesName})
    Invocation->getPreprocessorOpts().addRemappedFile(
        Path, llvm::MemoryBuffer::getMemBufferCopy(featuresPrelude(Opts), Path).release());
  for (const rt::EmbeddedHeader &H : Headers) {
    // Both spellings: "name" from the input's directory, "./name" through -I.
    for (const std::string &Path : {H.Name, "./" + H.Name})
      Invocation->getPreprocessorOpts().addRemappedFile(
          Path, Escapes.defused(H.Source, Path, *Invocation->getLangOpts()).release());
  }

  clang::CompilerInstance Instance;
  Instance.setInvocation(Invocation);
  Instance.createDiagnostics(new clang::TextDiagnosticPrinter(DiagStream,
                                                              &Instance.getDiagnosticOpts()),
                             /*ShouldOwnClient=*/true);
  // "N errors generated." goes to the log too, never to the host's stderr.
  Instance.setVerboseOutputStream(std::make_unique<llvm::raw_string_ostream>(DiagText));
  Instance.createFileManager(
      llvm::makeIntrusiveRefCnt<DefusingFileSystem>(Escapes, *Invocation->getLangOpts()));
  DefusedEmitLLVMOnlyAction Action(Ctx, Escapes);
  bool Ok = Instance.ExecuteAction(Action);
  DiagStream.flush();
  Log += DiagText;
  if (!Ok || Instance.getDiagnostics().hasErrorOccurred())
    return nullptr;
  if (ReadFiles) {
    clang::SourceManager &SM = Instance.getSourceManager();
    llvm::StringRef ResourceDir(WEFT_CLANG_RESOURCE_DIR);
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      const clang::FileEntry *File = It->getFirst();
      // Remapped buffers (the input, the prelude, embedded headers) are not
      // read from disk; Clang's own headers belong to the compiler.
      if (SM.isFileOverridden(File) || File->getName().startswith(ResourceDir))
        continue;
      llvm::SmallString<256> Path(File->tryGetRealPathName());
      if (Path.empty())
        Path = File->getName();
      llvm::Optional<llvm::MemoryBufferRef> Contents = SM.getMemoryBufferForFileOrNone(File);
      ReadFiles->emplace_back(std::string(Path.str()),
                              Contents ? Contents->getBuffer().str() : std::string());
    }
  }
  std::unique_ptr<llvm::Module> M = Action.takeModule();
  if (!M) {
    Log += "error: the front end produced no module\n";
    return nullptr;
  }
  std::string VerifyText;
  llvm::raw_string_ostream VerifyStream(VerifyText);
  if (llvm::verifyModule(*M, &VerifyStream)) {
    Log += "error: the front end produced invalid IR:\n" + VerifyStream.str();
    return nullptr;
  }
  return M;
}

std::vector<ClangFrontend::Declaration> ClangFrontend::declaredBuiltins(const BuildOptions &Opts,
                                                                        std::string &Log) {
  std::vector<std::string> Args = languageArgs(Opts);
  Args.push_back("-fsyntax-only");
  Args.push_back(InputName);
  // The prelude goes between the two headers: opencl-c-base.h defines the
  // header-only macros, opencl-c.h declares by them.
  const std::string Source =
      "#include <opencl-c-base.h>\n" + featuresPrelude(Opts) + "#include <opencl-c.h>\n";
  std::string DiagText;
  llvm::raw_string_ostream DiagStream(DiagText);
  std::shared_ptr<clang::CompilerInvocation> Invocation = invocation(Args, Source, DiagStream);
  if (!Invocation) {
    Log += DiagStream.str();
    return {};
  }

  clang::CompilerInstance Instance;
  Instance.setInvocation(Invocation);
  // clang 15's opencl-c.h declares the image functions whatever the
  // features say; those declarations are errors (and invalid) here.
  Instance.createDiagnostics(new clang::IgnoringDiagConsumer(), /*ShouldOwnClient=*/true);
  std::vector<Declaration> Declarations;
  CollectDeclarationsAction Action(Declarations);
  if (!Instance.ExecuteAction(Action) && Declarations.empty())
    Log += "error: clang's opencl-c.h did not parse\n";
  return Declarations;
}

} // namespace weft::compiler
