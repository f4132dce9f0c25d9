/* A plain OpenCL host program, linked with -lOpenCL: it finds clift through
 * the ICD loader, creates a context, a profiling queue and a 64 MiB buffer,
 * writes it, copies it, maps the copy, reads it back, checks every byte, and
 * checks that the profiling timestamps of each command are in order. Then it
 * builds an OpenCL C kernel from source (clCreateProgramWithSource), runs it
 * over 1M elements and checks every result against the host's.
 * Exit status 0 means every check passed. */
#define CL_TARGET_OPENCL_VERSION 220
#include <CL/cl.h>
#include <math.h>
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

static const char *kernel_source =
    "__kernel void blend(__global const float *x, __global float *y, float a) {\n"
    "    size_t i = get_global_id(0);\n"
    "    y[i] = a * x[i] + sqrt(y[i]);\n"
    "}\n";

/* Builds `kernel_source`, runs it over n elements and compares with the host. */
static int run_kernel(cl_context ctx, cl_device_id dev, cl_command_queue q) {
    cl_int err;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &kernel_source, NULL, &err);
    CHECK(err);
    err = clBuildProgram(prog, 1, &dev, "-cl-std=CL2.0", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        fprintf(stderr, "clBuildProgram failed (%d):\n%s\n", err, log);
        return 0;
    }
    cl_kernel k = clCreateKernel(prog, "blend", &err);
    CHECK(err);
    const size_t n = 1 << 20;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *out = malloc(n * sizeof *out);
    for (size_t i = 0; i < n; i++) {
        x[i] = (float)(i % 1000) * 0.25f;
        y[i] = (float)(i % 77);
    }
    cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *x, x, &err);
    CHECK(err);
    cl_mem by = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof *y, y, &err);
    CHECK(err);
    float a = 1.5f;
    CHECK(clSetKernelArg(k, 0, sizeof bx, &bx));
    CHECK(clSetKernelArg(k, 1, sizeof by, &by));
    CHECK(clSetKernelArg(k, 2, sizeof a, &a));
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, by, CL_TRUE, 0, n * sizeof *out, out, 0, NULL, NULL));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        /* sqrt is correctly rounded; OpenCL C lets the compiler contract
         * a * x + s into one fused multiply-add (FP_CONTRACT is on by
         * default), so either rounding is right. */
        volatile float s = sqrtf(y[i]);
        volatile float ax = a * x[i];
        float separate = ax + s, fused = fmaf(a, x[i], s);
        if (out[i] != separate && out[i] != fused)
            bad++;
    }
    printf("OpenCL C kernel built from source, run over %zu elements: %s\n", n,
           bad == 0 ? "every result matches the host" : "WRONG RESULTS");
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    free(x);
    free(y);
    free(out);
    return bad == 0;
}

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

    int kernel_ok = run_kernel(ctx, dev, q);

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
    int ok = mapped_ok && read_ok && prof_ok && kernel_ok;
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
