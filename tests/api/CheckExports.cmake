# Fails unless libweft.so exports exactly what the ICD loader needs: the
# cl_khr_icd entry points, and clGetPlatformInfo (ocl-icd 2.3 requires it).
execute_process(COMMAND nm -D --defined-only ${LIB} OUTPUT_VARIABLE OUT RESULT_VARIABLE RC)
if(NOT RC EQUAL 0)
  message(FATAL_ERROR "nm failed on ${LIB}")
endif()
string(REGEX MATCHALL "[^\n]+" LINES "${OUT}")
set(FOUND "")
foreach(L ${LINES})
  # Lower-case types are local: the linker leaves some in .dynsym (symbols
  # of static archives hidden by --exclude-libs), but nothing can bind them.
  if(L MATCHES "^[0-9a-fA-F]+ [a-z] ")
    continue()
  endif()
  string(REGEX REPLACE "^[0-9a-fA-F]+ [A-Za-z] " "" SYM "${L}")
  list(APPEND FOUND ${SYM})
endforeach()
list(SORT FOUND)
set(WANT clGetExtensionFunctionAddress clGetExtensionFunctionAddressForPlatform clGetPlatformInfo
         clIcdGetPlatformIDsKHR)
if(NOT FOUND STREQUAL WANT)
  message(FATAL_ERROR "libweft.so exports [${FOUND}], expected [${WANT}]")
endif()
message(STATUS "exports: ${FOUND}")
