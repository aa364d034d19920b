// Contexts: creation from a device list and from a type, their property
// lists, reference counting, destructor callbacks (which run only once the
// last object of the context is gone, newest first) and one negative test
// per error code the context entry points return.
#include "ApiTest.h"

using namespace weft::test;

namespace {

struct CallbackLog {
  std::vector<int> Order;
  cl_context Seen = nullptr;
};

void CL_CALLBACK onContextDestroyed(cl_context C, void *Data) {
  auto *Log = static_cast<std::pair<CallbackLog *, int> *>(Data);
  Log->first->Order.push_back(Log->second);
  Log->first->Seen = C;
}

void CL_CALLBACK ignoreNotify(const char *, const void *, size_t, void *) {}

} // namespace

TEST_F(WithDevice, ContextLifecycle) {
  cl_int Err;
  cl_context C = clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(clGetContextInfo, C, CL_CONTEXT_REFERENCE_COUNT), 1u);
  EXPECT_EQ(clRetainContext(C), CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(clGetContextInfo, C, CL_CONTEXT_REFERENCE_COUNT), 2u);
  EXPECT_EQ(clReleaseContext(C), CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(clGetContextInfo, C, CL_CONTEXT_REFERENCE_COUNT), 1u);
  EXPECT_EQ(info<cl_uint>(clGetContextInfo, C, CL_CONTEXT_NUM_DEVICES), 1u);
  EXPECT_EQ(info<cl_device_id>(clGetContextInfo, C, CL_CONTEXT_DEVICES), Device);
  // No properties given: the property query is empty.
  size_t Size = 99;
  EXPECT_EQ(clGetContextInfo(C, CL_CONTEXT_PROPERTIES, 0, nullptr, &Size), CL_SUCCESS);
  EXPECT_EQ(Size, 0u);
  EXPECT_EQ(clReleaseContext(C), CL_SUCCESS);
}

TEST_F(WithDevice, ContextPropertiesAreReturned) {
  cl_context_properties Props[] = {CL_CONTEXT_PLATFORM,
                                   reinterpret_cast<cl_context_properties>(Platform),
                                   CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0};
  cl_int Err;
  cl_context C = clCreateContext(Props, 1, &Device, ignoreNotify, this, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  size_t Size = 0;
  ASSERT_EQ(clGetContextInfo(C, CL_CONTEXT_PROPERTIES, 0, nullptr, &Size), CL_SUCCESS);
  ASSERT_EQ(Size, sizeof(Props));
  cl_context_properties Got[5];
  ASSERT_EQ(clGetContextInfo(C, CL_CONTEXT_PROPERTIES, Size, Got, nullptr), CL_SUCCESS);
  EXPECT_EQ(std::memcmp(Got, Props, sizeof(Props)), 0);
  EXPECT_EQ(clReleaseContext(C), CL_SUCCESS);
}

TEST_F(WithDevice, ContextFromType) {
  cl_context_properties Props[] = {CL_CONTEXT_PLATFORM,
                                   reinterpret_cast<cl_context_properties>(Platform), 0};
  for (cl_device_type Type :
       {cl_device_type(CL_DEVICE_TYPE_CPU), cl_device_type(CL_DEVICE_TYPE_DEFAULT),
        cl_device_type(CL_DEVICE_TYPE_ALL)}) {
    cl_int Err;
    cl_context C = clCreateContextFromType(Props, Type, nullptr, nullptr, &Err);
    ASSERT_EQ(Err, CL_SUCCESS) << Type;
    EXPECT_EQ(info<cl_device_id>(clGetContextInfo, C, CL_CONTEXT_DEVICES), Device);
    EXPECT_EQ(clReleaseContext(C), CL_SUCCESS);
  }
  cl_int Err = CL_SUCCESS;
  EXPECT_EQ(clCreateContextFromType(Props, CL_DEVICE_TYPE_GPU, nullptr, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_DEVICE_NOT_FOUND);
  EXPECT_EQ(clCreateContextFromType(Props, cl_device_type(1) << 40, nullptr, nullptr, &Err),
            nullptr);
  EXPECT_EQ(Err, CL_INVALID_DEVICE_TYPE);
  EXPECT_EQ(clCreateContextFromType(Props, CL_DEVICE_TYPE_CPU, nullptr, this, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  cl_context_properties Bad[] = {CL_CONTEXT_PLATFORM,
                                 reinterpret_cast<cl_context_properties>(Platform), 0x7777, 1, 0};
  EXPECT_EQ(clCreateContextFromType(Bad, CL_DEVICE_TYPE_CPU, nullptr, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_PROPERTY);
}

TEST_F(WithDevice, CreateContextErrors) {
  cl_int Err = CL_SUCCESS;
  // num_devices is 0.
  EXPECT_EQ(clCreateContext(nullptr, 0, &Device, nullptr, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  // devices is NULL.
  EXPECT_EQ(clCreateContext(nullptr, 1, nullptr, nullptr, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  // user_data without pfn_notify.
  EXPECT_EQ(clCreateContext(nullptr, 1, &Device, nullptr, this, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  // A platform handle in the device list.
  cl_device_id Mixed[] = {Device, wrongHandle<cl_device_id>(Platform)};
  EXPECT_EQ(clCreateContext(nullptr, 2, Mixed, nullptr, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_DEVICE);
  // Unknown property, repeated property, bad property value.
  cl_context_properties Unknown[] = {0x7777, 1, 0};
  EXPECT_EQ(clCreateContext(Unknown, 1, &Device, nullptr, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_PROPERTY);
  auto P = reinterpret_cast<cl_context_properties>(Platform);
  cl_context_properties Twice[] = {CL_CONTEXT_PLATFORM, P, CL_CONTEXT_PLATFORM, P, 0};
  EXPECT_EQ(clCreateContext(Twice, 1, &Device, nullptr, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_PROPERTY);
  cl_context_properties BadSync[] = {CL_CONTEXT_INTEROP_USER_SYNC, 7, 0};
  EXPECT_EQ(clCreateContext(BadSync, 1, &Device, nullptr, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_PROPERTY);
  // CL_CONTEXT_PLATFORM naming something that is not a platform.
  cl_context_properties NotPlatform[] = {CL_CONTEXT_PLATFORM,
                                         reinterpret_cast<cl_context_properties>(Device), 0};
  EXPECT_EQ(clCreateContext(NotPlatform, 1, &Device, nullptr, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_PLATFORM);
}

TEST_F(WithContext, ContextHandleErrors) {
  cl_context NotContext = wrongHandle<cl_context>(Device);
  cl_uint V;
  EXPECT_EQ(clRetainContext(NotContext), CL_INVALID_CONTEXT);
  EXPECT_EQ(clReleaseContext(NotContext), CL_INVALID_CONTEXT);
  EXPECT_EQ(clGetContextInfo(NotContext, CL_CONTEXT_REFERENCE_COUNT, sizeof(V), &V, nullptr),
            CL_INVALID_CONTEXT);
  EXPECT_EQ(clGetContextInfo(Context, 0x7777, sizeof(V), &V, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetContextInfo(Context, CL_CONTEXT_REFERENCE_COUNT, 1, &V, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clSetContextDestructorCallback(Context, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clSetContextDestructorCallback(NotContext, onContextDestroyed, nullptr),
            CL_INVALID_CONTEXT);
}

TEST_F(WithDevice, ContextDestructorCallbacksRunLastInReverseOrder) {
  cl_int Err;
  cl_context C = clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  CallbackLog Log;
  std::pair<CallbackLog *, int> Data[] = {{&Log, 1}, {&Log, 2}, {&Log, 3}};
  for (auto &D : Data)
    ASSERT_EQ(clSetContextDestructorCallback(C, onContextDestroyed, &D), CL_SUCCESS);
  // A buffer keeps the context alive after the application's last release.
  cl_mem Buf = clCreateBuffer(C, CL_MEM_READ_WRITE, 64, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  ASSERT_EQ(clReleaseContext(C), CL_SUCCESS);
  EXPECT_TRUE(Log.Order.empty()) << "the context died while a buffer still used it";
  ASSERT_EQ(clReleaseMemObject(Buf), CL_SUCCESS);
  EXPECT_EQ(Log.Order, (std::vector<int>{3, 2, 1}));
  EXPECT_EQ(Log.Seen, C);
}
