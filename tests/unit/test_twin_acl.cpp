// The twin's ACL runtime (src/twin/acl/): the documented behaviour a program written against
// CANN relies on, and the stricter checks the twin adds (docs/npu.md "The twin behind ACL").
// Linked against the twin's libascendcl.so and libnnopbase.so as an invoker would be.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "ascendopt_twin/acl_device.h"

namespace {

std::string recent() { return aclGetRecentErrMsg(); }

// Each test starts from an uninitialized runtime with the given settings and leaves it so.
class TwinAcl : public ::testing::Test {
protected:
    void SetUp() override {
        for (const char* v : {"ASCENDOPT_TWIN_ACL_DEVICES", "ASCENDOPT_TWIN_ACL_MEMORY", "ASCENDOPT_TWIN_SOC"}) unsetenv(v);
    }
    void TearDown() override { aclFinalize(); }
    void open(int device = 0) {
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << recent();
        ASSERT_EQ(aclrtSetDevice(device), ACL_SUCCESS) << recent();
    }
};

TEST_F(TwinAcl, InitializationIsOncePerProcessAndComesFirst) {
    uint32_t count = 0;
    EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_ERROR_UNINITIALIZE);
    EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
    EXPECT_EQ(aclrtGetSocName(), nullptr);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
    ASSERT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    EXPECT_EQ(count, 1u);
    EXPECT_STREQ(aclrtGetSocName(), "Ascend910B2");
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_ERROR_UNINITIALIZE);
    EXPECT_EQ(aclInit("/nonexistent/acl.json"), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(recent().find("/nonexistent/acl.json"), std::string::npos) << recent();
}

TEST_F(TwinAcl, DevicesComeFromTheSettingsAndMustBeSetBeforeUse) {
    setenv("ASCENDOPT_TWIN_ACL_DEVICES", "2", 1);
    setenv("ASCENDOPT_TWIN_SOC", "Ascend310P3", 1);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    uint32_t count = 0;
    ASSERT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    EXPECT_EQ(count, 2u);
    EXPECT_STREQ(aclrtGetSocName(), "Ascend310P3");
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_NE(recent().find("aclrtSetDevice"), std::string::npos) << recent();
    EXPECT_EQ(aclrtSetDevice(2), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_NE(recent().find("sees 2"), std::string::npos) << recent();
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    int32_t current = -1;
    ASSERT_EQ(aclrtGetDevice(&current), ACL_SUCCESS);
    EXPECT_EQ(current, 1);
}

TEST_F(TwinAcl, MalformedSettingsAreRefusedByName) {
    setenv("ASCENDOPT_TWIN_ACL_DEVICES", "two", 1);
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(recent().find("ASCENDOPT_TWIN_ACL_DEVICES='two'"), std::string::npos) << recent();
    setenv("ASCENDOPT_TWIN_ACL_DEVICES", "0", 1);
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(TwinAcl, AllocationsHaveTheDocumentedRoundingAndStartUninitialized) {
    open();
    void* p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, 100, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS) << recent();
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    void* start = nullptr;
    size_t usable = 0;
    ASSERT_EQ(ascendopt_twin_acl_allocation(static_cast<char*>(p) + 10, 150, &start, &usable), ACL_SUCCESS) << recent();
    EXPECT_EQ(start, p);
    EXPECT_EQ(usable, 160u);  // ALIGN_UP(100, 32) + 32
    EXPECT_NE(ascendopt_twin_acl_allocation(p, 161, nullptr, nullptr), ACL_SUCCESS);

    std::vector<uint8_t> back(160, 0);
    ASSERT_EQ(aclrtMemcpy(back.data(), back.size(), p, 160, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS) << recent();
    for (uint8_t b : back) EXPECT_EQ(b, 0xFF);
    EXPECT_EQ(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
}

TEST_F(TwinAcl, CopiesStayInsideOneAllocationOnTheSideTheirKindNames) {
    open();
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
    std::vector<float> in(64), out(64, 0.f);
    for (size_t i = 0; i < in.size(); ++i) in[i] = float(i) * 0.5f;
    ASSERT_EQ(aclrtMemcpy(dev, 256, in.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS) << recent();
    ASSERT_EQ(aclrtMemcpy(out.data(), 256, dev, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS) << recent();
    EXPECT_EQ(in, out);

    EXPECT_EQ(aclrtMemcpy(dev, 512, in.data(), 289, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);  // 288 usable
    EXPECT_NE(recent().find("288 usable bytes"), std::string::npos) << recent();
    EXPECT_EQ(aclrtMemcpy(out.data(), 256, in.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(recent().find("not inside a device allocation"), std::string::npos) << recent();
    EXPECT_EQ(aclrtMemcpy(dev, 256, dev, 256, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(recent().find("is device memory"), std::string::npos) << recent();
    EXPECT_EQ(aclrtMemcpy(dev, 100, in.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(recent().find("exceeds destMax"), std::string::npos) << recent();
    EXPECT_EQ(aclrtMemcpy(dev, 256, in.data(), 256, static_cast<aclrtMemcpyKind>(7)), ACL_ERROR_INVALID_PARAM);

    ASSERT_EQ(aclrtMemset(dev, 256, 0, 256), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(out.data(), 256, dev, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out, std::vector<float>(64, 0.f));

    EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(dev), ACL_ERROR_RT_MEMORY_FREE);
    EXPECT_EQ(aclrtMemcpy(dev, 256, in.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
}

TEST_F(TwinAcl, ReadingPastTheMappedPagesFaults) {
    open();
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 4096 - 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);  // usable: exactly one page
    volatile uint8_t* bytes = static_cast<uint8_t*>(dev);
    EXPECT_EQ(bytes[4095], 0xFF);
    EXPECT_DEATH((void)bytes[4096], "");
}

TEST_F(TwinAcl, TheDeviceMemoryIsFinite) {
    setenv("ASCENDOPT_TWIN_ACL_MEMORY", "8192", 1);
    open();
    void *a = nullptr, *b = nullptr;
    ASSERT_EQ(aclrtMalloc(&a, 4000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS) << recent();
    EXPECT_EQ(aclrtMalloc(&b, 4200, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    EXPECT_NE(recent().find("4160 bytes free"), std::string::npos) << recent();
    ASSERT_EQ(aclrtFree(a), ACL_SUCCESS);
    EXPECT_EQ(aclrtMalloc(&b, 4200, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS) << recent();
}

TEST_F(TwinAcl, EventsMeasureTheModeledDeviceTimeOfTheirStream) {
    open();
    aclrtStream stream = nullptr;
    aclrtEvent start = nullptr, end = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEvent(&start), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEvent(&end), ACL_SUCCESS);
    float ms = -1;
    EXPECT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(recent().find("has not been recorded"), std::string::npos) << recent();
    ASSERT_EQ(aclrtRecordEvent(start, stream), ACL_SUCCESS);
    ASSERT_EQ(ascendopt_twin_acl_charge(stream, 1500), ACL_SUCCESS);
    ASSERT_EQ(ascendopt_twin_acl_charge(nullptr, 99999), ACL_SUCCESS);  // the default stream is another clock
    ASSERT_EQ(aclrtRecordEvent(end, stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeEvent(end), ACL_SUCCESS);
    ASSERT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_SUCCESS);
    EXPECT_FLOAT_EQ(ms, 0.0015f);
    EXPECT_EQ(aclrtDestroyEvent(start), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(start), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_INVALID_PARAM);
}

TEST_F(TwinAcl, ResettingTheLastReferenceReleasesTheDevice) {
    open();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);  // a second reference
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(ascendopt_twin_acl_allocation(dev, 64, nullptr, nullptr), ACL_SUCCESS) << "one reference is left";
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_NE(ascendopt_twin_acl_allocation(dev, 64, nullptr, nullptr), ACL_SUCCESS) << "the memory went with the device";
}

TEST_F(TwinAcl, TensorsDescribeAViewInsideTheirStorageInsideOneAllocation) {
    open();
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 6 * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const int64_t dims[] = {2, 3}, strides[] = {3, 1};
    aclTensor* t = aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 2, dev);
    ASSERT_NE(t, nullptr) << recent();
    const AscendoptTwinTensorView* v = ascendopt_twin_tensor_view(t);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->view_rank, 2u);
    EXPECT_EQ(v->view_dims[1], 3);
    EXPECT_EQ(v->data_type, ACL_FLOAT);
    EXPECT_EQ(v->data, dev);

    const int64_t wide[] = {2, 4};
    EXPECT_EQ(aclCreateTensor(wide, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 2, dev), nullptr);
    EXPECT_NE(recent().find("the storage holds 6"), std::string::npos) << recent();
    const int64_t big[] = {4, 16};
    EXPECT_EQ(aclCreateTensor(big, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, big, 2, dev), nullptr);
    EXPECT_NE(recent().find("not inside one device allocation"), std::string::npos) << recent();
    float host[6];
    EXPECT_EQ(aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 2, host), nullptr);
    EXPECT_EQ(aclCreateTensor(dims, 2, ACL_STRING, strides, 0, ACL_FORMAT_ND, dims, 2, dev), nullptr);

    EXPECT_EQ(aclDestroyTensor(t), ACL_SUCCESS);
    EXPECT_EQ(ascendopt_twin_tensor_view(t), nullptr);
    EXPECT_EQ(aclDestroyTensor(t), ACL_ERROR_INVALID_PARAM);
}

}  // namespace

namespace {

TEST_F(TwinAcl, ListsCopyTheirValuesAndTensorListsHoldLiveTensors) {
    open();
    int64_t ints[] = {3, -1, 7};
    aclIntArray* a = aclCreateIntArray(ints, 3);
    ASSERT_NE(a, nullptr);
    ints[0] = 99;  // the array kept its own copy
    uint64_t n = 0;
    const int64_t* got = ascendopt_twin_int_array(a, &n);
    ASSERT_NE(got, nullptr);
    EXPECT_EQ(n, 3u);
    EXPECT_EQ(got[0], 3);
    const bool flags[] = {true, false};
    aclBoolArray* b = aclCreateBoolArray(flags, 2);
    ASSERT_NE(b, nullptr);
    EXPECT_TRUE(ascendopt_twin_bool_array(b, &n)[0]);
    const float fs[] = {0.5f};
    aclFloatArray* f = aclCreateFloatArray(fs, 1);
    EXPECT_FLOAT_EQ(ascendopt_twin_float_array(f, &n)[0], 0.5f);
    EXPECT_EQ(aclCreateIntArray(nullptr, 2), nullptr);
    EXPECT_NE(recent().find("value is null but size is 2"), std::string::npos) << recent();
    aclIntArray* empty = aclCreateIntArray(nullptr, 0);
    ASSERT_NE(empty, nullptr);
    EXPECT_NE(ascendopt_twin_int_array(empty, &n), nullptr) << "a live empty array is not an absent one";
    EXPECT_EQ(n, 0u);
    EXPECT_EQ(aclDestroyIntArray(empty), ACL_SUCCESS);

    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const int64_t dims[] = {4}, strides[] = {1};
    const aclTensor* t = aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 1, dev);
    ASSERT_NE(t, nullptr) << recent();
    aclTensorList* list = aclCreateTensorList(&t, 1);
    ASSERT_NE(list, nullptr) << recent();
    EXPECT_EQ(ascendopt_twin_tensor_list(list, &n)[0], t);
    const aclTensor* bogus[] = {reinterpret_cast<const aclTensor*>(ints)};
    EXPECT_EQ(aclCreateTensorList(bogus, 1), nullptr);

    EXPECT_EQ(aclDestroyTensorList(list), ACL_SUCCESS);
    EXPECT_EQ(aclDestroyTensorList(list), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(ascendopt_twin_int_array(reinterpret_cast<const aclIntArray*>(b), &n), nullptr) << "a bool array is not an int array";
    EXPECT_EQ(aclDestroyIntArray(a), ACL_SUCCESS);
    EXPECT_EQ(aclDestroyBoolArray(b), ACL_SUCCESS);
    EXPECT_EQ(aclDestroyFloatArray(f), ACL_SUCCESS);
    EXPECT_EQ(aclDestroyTensor(t), ACL_SUCCESS);
}

}  // namespace
