#!/usr/bin/python3
"""The OpenCL-CTS's offline compiler, for its SPIR-V compilation mode.

Implements the interface of the CTS's
test_common/harness/cl_offline_compiler-interface.txt with Debian's
clang-15 and llvm-spirv-15: OpenCL C source to SPIR-V, compiled for what the
device reports. The device-info file the CTS writes gives the extensions and
its extensions; the OpenCL C features, which it does not name, are asked of
the device (pyopencl, through the ICD loader the CTS runs with). Both become
clang's -cl-ext list, so a kernel's #ifdef sees exactly what the device
reports, as it would building online.

  offline_compiler.py --source FILE --output FILE --cl-device-info FILE
                      --mode spir-v -- [BUILD_OPTIONS ...]

run_cts.py --compilation-mode spir-v passes it to every CTS binary
(--compilation-program). Exits non-zero with the compiler's message on
stderr when the source does not compile, which the CTS reports as a build
failure.
"""

import argparse
import os
import shlex
import subprocess
import sys
import tempfile

CLANG = os.environ.get("WEFT_CTS_CLANG", "clang-15")
LLVM_SPIRV = os.environ.get("WEFT_CTS_LLVM_SPIRV", "llvm-spirv-15")


def read_device_info(path):
    """KEY=VALUE lines of the CTS's device-info file (values unquoted)."""
    info = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#") or "=" not in line:
                continue
            key, value = line.split("=", 1)
            info[key.strip()] = " ".join(shlex.split(value)) if value.strip() else ""
    return info


# The OpenCL C 3.0 features an extension stands for, where the device-info
# file (which names no features) is all there is to go on.
PAIRED_FEATURES = {
    "cl_khr_fp64": "__opencl_c_fp64",
    "cl_khr_3d_image_writes": "__opencl_c_3d_image_writes",
    "cl_khr_subgroups": "__opencl_c_subgroups",
}


def device_features(name, extensions):
    """The device's OpenCL C features: asked of the device itself (the CTS
    runs this with the ICD loader pointed at the library under test), or
    the features the extensions stand for."""
    try:
        import pyopencl as cl
        for platform in cl.get_platforms():
            for device in platform.get_devices():
                if device.name == name:
                    return [f.name for f in device.get_info(cl.device_info.OPENCL_C_FEATURES)]
    except Exception as e:  # no pyopencl, or no such query: fall back
        print(f"offline_compiler: device features not read ({e})", file=sys.stderr)
    return [PAIRED_FEATURES[e] for e in extensions if e in PAIRED_FEATURES]


# The SPIR-V extensions llvm-spirv-15 must be allowed to use for the
# OpenCL C of a device extension (it uses no other without being asked).
SPIRV_EXTENSIONS = {
    "cl_khr_subgroup_rotate": "SPV_KHR_subgroup_rotate",
    "cl_khr_extended_bit_ops": "SPV_KHR_bit_instructions",
    "cl_khr_integer_dot_product": "SPV_KHR_integer_dot_product",
}


def clang_options(build_options):
    """The OpenCL build options clang's driver takes as they are; the rest
    (the CTS passes only options of the specification) dropped with a
    note."""
    kept = []
    i = 0
    while i < len(build_options):
        opt = build_options[i]
        if opt in ("-D", "-I") and i + 1 < len(build_options):
            kept += [opt, build_options[i + 1]]
            i += 2
            continue
        if (opt.startswith(("-D", "-I", "-cl-std=", "-cl-")) or opt in ("-w", "-Werror")):
            kept.append(opt)
        elif opt:
            print(f"offline_compiler: option {opt} not passed on", file=sys.stderr)
        i += 1
    return kept


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--cl-device-info", required=True)
    parser.add_argument("--mode", required=True)
    parser.add_argument("build_options", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if args.mode != "spir-v":
        print(f"offline_compiler: mode {args.mode} is not supported (spir-v only)",
              file=sys.stderr)
        return 2
    options = args.build_options
    if options and options[0] == "--":
        options = options[1:]
    # One string or many: the CTS passes the options as separate words.
    options = [w for opt in options for w in shlex.split(opt)]
    info = read_device_info(args.cl_device_info)
    names = info.get("CL_DEVICE_EXTENSIONS", "").split()
    names += device_features(info.get("CL_DEVICE_NAME", ""), names)
    ext = "-cl-ext=-all" + "".join(",+" + n for n in names)
    bits = info.get("CL_DEVICE_ADDRESS_BITS", "64")
    target = "spir64" if bits == "64" else "spir"
    with tempfile.TemporaryDirectory() as tmp:
        bitcode = os.path.join(tmp, "module.bc")
        # Unoptimized, as the translator reads it best (clang's -O2 makes
        # integers of odd widths, i4, that SPIR-V has no type for); Weft
        # optimizes the module it builds. Without optnone, which would
        # keep it from doing so.
        compile_cmd = [CLANG, "-c", "-target", target, "-emit-llvm", "-O0",
                       "-Xclang", "-disable-O0-optnone", "-Xclang", "-finclude-default-header",
                       "-Xclang", ext]
        compile_cmd += clang_options(options)
        compile_cmd += ["-x", "cl", args.source, "-o", bitcode]
        done = subprocess.run(compile_cmd, stderr=subprocess.PIPE, text=True)
        sys.stderr.write(done.stderr)
        if done.returncode != 0:
            return done.returncode
        spirv_ext = [SPIRV_EXTENSIONS[n] for n in names if n in SPIRV_EXTENSIONS]
        translate_cmd = [LLVM_SPIRV, bitcode, "-o", args.output]
        if spirv_ext:
            translate_cmd.append("--spirv-ext=" + ",".join("+" + e for e in spirv_ext))
        done = subprocess.run(translate_cmd,
                              stderr=subprocess.PIPE, text=True)
        sys.stderr.write(done.stderr)
        return done.returncode


if __name__ == "__main__":
    sys.exit(main())
