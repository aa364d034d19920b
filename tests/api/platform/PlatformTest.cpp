// Platform discovery through the real ICD loader.
#include "ApiTest.h"

using namespace weft::test;

TEST_F(WithDevice, PlatformStrings) {
  EXPECT_EQ(infoString(clGetPlatformInfo, Platform, CL_PLATFORM_NAME), "Weft");
  EXPECT_EQ(infoString(clGetPlatformInfo, Platform, CL_PLATFORM_PROFILE), "FULL_PROFILE");
  EXPECT_EQ(infoString(clGetPlatformInfo, Platform, CL_PLATFORM_VERSION).rfind("OpenCL 3.1 ", 0),
            0u);
  EXPECT_NE(infoString(clGetPlatformInfo, Platform, CL_PLATFORM_EXTENSIONS).find("cl_khr_icd"),
            std::string::npos);
  EXPECT_EQ(infoString(clGetPlatformInfo, Platform, CL_PLATFORM_ICD_SUFFIX_KHR), "WEFT");
}

TEST_F(WithDevice, PlatformInfoErrors) {
  char Buf[2];
  EXPECT_EQ(clGetPlatformInfo(Platform, 0xdead, 0, nullptr, nullptr), CL_INVALID_VALUE);
  // param_value_size smaller than the value.
  EXPECT_EQ(clGetPlatformInfo(Platform, CL_PLATFORM_NAME, sizeof(Buf), Buf, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetPlatformIDs(0, &Platform, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetPlatformIDs(1, nullptr, nullptr), CL_INVALID_VALUE);
}

TEST_F(WithDevice, ExtensionFunctionAddress) {
  EXPECT_NE(clGetExtensionFunctionAddressForPlatform(Platform, "clIcdGetPlatformIDsKHR"),
            nullptr);
  EXPECT_EQ(clGetExtensionFunctionAddressForPlatform(Platform, "clNoSuchFunctionKHR"), nullptr);
}
