/* A plain OpenCL host program, linked with -lOpenCL: it finds clift through
 * the ICD loader, creates a context, a profiling queue and a 64 MiB buffer,
 * writes it, copies it, maps the copy, reads it back, checks every byte, and
 * checks that the profiling timestamps of each command are in order.
 * Exit status 0 means every check passed. */
#define CL_TARGET_OPENCL_VERSION 220
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                            \
    do {                                                                       \
        cl_int err_ = (call);                                                  \
        if (err_ != CL_SUCCESS) {                                              \
            fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__,      \
                    #call, err_);                                              \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

static int check_profile(cl_event e, const char *what) {
    cl_ulong t[4];
    cl_profiling_info p[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                              CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
    for (int i = 0; i < 4; i++)
        CHECK(clGetEventProfilingInfo(e, p[i], sizeof(cl_ulong), &t[i], NULL));
    int ok = t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3];
    printf("  %-6s queued->end %8.3f ms  %s\n", what, (t[3] - t[0]) / 1e6,
           ok ? "(timestamps in order)" : "(TIMESTAMPS OUT OF ORDER)");
    return ok;
}

int main(void) {
    cl_uint n = 0;
    CHECK(clGetPlatformIDs(0, NULL, &n));
    cl_platform_id *ids = calloc(n, sizeof *ids);
    CHECK(clGetPlatformIDs(n, ids, NULL));
    cl_platform_id platform = NULL;
    char name[256], version[256];
    for (cl_uint i = 0; i < n; i++) {
        CHECK(clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof name, name, NULL));
        if (strcmp(name, "clift") == 0)
            platform = ids[i];
    }
    if (!platform) {
        fprintf(stderr, "no platform named clift: is OCL_ICD_VENDORS set, or clift.icd installed?\n");
        return 1;
    }
    CHECK(clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof version, version, NULL));
    printf("platform: %s (%s)\n", "clift", version);

    cl_device_id dev;
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &dev, NULL));
    cl_uint units;
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL));
    CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL));
    printf("device:   %s, %u compute units\n", name, units);

    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
    CHECK(err);

    const size_t size = 64u << 20;
    unsigned char *src = malloc(size), *dst = malloc(size);
    for (size_t i = 0; i < size; i++)
        src[i] = (unsigned char)(i * 2654435761u >> 13);
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size, NULL, &err);
    CHECK(err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size, NULL, &err);
    CHECK(err);

    cl_event ew, ec, em, er;
    CHECK(clEnqueueWriteBuffer(q, a, CL_FALSE, 0, size, src, 0, NULL, &ew));
    CHECK(clEnqueueCopyBuffer(q, a, b, 0, 0, size, 1, &ew, &ec));
    unsigned char *mapped = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, 0, size, 1, &ec, &em, &err);
    CHECK(err);
    int mapped_ok = memcmp(mapped, src, size) == 0;
    CHECK(clEnqueueUnmapMemObject(q, b, mapped, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, size, dst, 0, NULL, &er));
    CHECK(clFinish(q));
    int read_ok = memcmp(dst, src, size) == 0;

    printf("64 MiB buffer: write, copy, map %s, read back %s\n", mapped_ok ? "intact" : "CORRUPT",
           read_ok ? "intact" : "CORRUPT");
    int prof_ok = check_profile(ew, "write") & check_profile(ec, "copy") & check_profile(em, "map") &
                  check_profile(er, "read");

    clReleaseEvent(ew);
    clReleaseEvent(ec);
    clReleaseEvent(em);
    clReleaseEvent(er);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(src);
    free(dst);
    free(ids);
    int ok = mapped_ok && read_ok && prof_ok;
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
