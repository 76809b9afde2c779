// cublas_probe.cu - what cuBLAS's fp16 GEMM reaches on this GPU, and why the matmul family's cublas_hgemm
// ceiling can read lower than a plain call: one binary that times cublasGemmEx and the algorithms
// cublasLt proposes, at the shapes given, for the layout, output type, data and clock state it is asked for,
// and reads the SM clock and the board power (NVML, loaded at run time) at the end of each timed block.
// A diagnostic for docs/performance.md, not part of vkbench. Build and run on the GPU machine:
//   nvcc -O2 -arch=sm_90 -o /tmp/cublas_probe tools/cublas_probe.cu -lcublas -lcublasLt -ldl
//   /tmp/cublas_probe 8192 4096
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x)                                                                                                          \
    do {                                                                                                               \
        cudaError_t e_ = (x);                                                                                          \
        if (e_ != cudaSuccess) {                                                                                       \
            fprintf(stderr, "cublas_probe: %s: %s\n", #x, cudaGetErrorString(e_));                                     \
            exit(5);                                                                                                   \
        }                                                                                                              \
    } while (0)
#define CB(x)                                                                                                          \
    do {                                                                                                               \
        cublasStatus_t s_ = (x);                                                                                       \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                                             \
            fprintf(stderr, "cublas_probe: %s: %s\n", #x, cublasGetStatusString(s_));                                  \
            exit(5);                                                                                                   \
        }                                                                                                              \
    } while (0)

// NVML, loaded at run time (no link against the driver's library)
typedef int (*nvml_fn0)(void);
typedef int (*nvml_handle_fn)(unsigned, void **);
typedef int (*nvml_clock_fn)(void *, int, unsigned *);
typedef int (*nvml_power_fn)(void *, unsigned *);
static void *nvml_dev;
static nvml_clock_fn nvml_clock;
static nvml_power_fn nvml_power;

static void nvml_open(void)
{
    void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW);
    if (!h)
        return;
    nvml_fn0 init = (nvml_fn0)dlsym(h, "nvmlInit_v2");
    nvml_handle_fn get = (nvml_handle_fn)dlsym(h, "nvmlDeviceGetHandleByIndex_v2");
    nvml_clock = (nvml_clock_fn)dlsym(h, "nvmlDeviceGetClockInfo");
    nvml_power = (nvml_power_fn)dlsym(h, "nvmlDeviceGetPowerUsage");
    if (!init || !get || init() != 0 || get(0, &nvml_dev) != 0)
        nvml_dev = nullptr;
}

static void nvml_read(unsigned *mhz, unsigned *watts)
{
    unsigned mw = 0;
    *mhz = *watts = 0;
    if (!nvml_dev)
        return;
    nvml_clock(nvml_dev, 1 /* NVML_CLOCK_SM */, mhz);
    nvml_power(nvml_dev, &mw);
    *watts = mw / 1000;
}

// uniform [-1, 1) from a 64-bit LCG (what the family's inputs are: uniform [-1, 1) rounded to fp16), or a
// constant, or zeros
static void fill(std::vector<__half> &v, int kind, unsigned long long seed)
{
    unsigned long long x = seed;
    for (auto &e : v) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        float u = (float)((x >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f;
        e = __float2half(kind == 0 ? u : kind == 1 ? 1.0f : 0.0f);
    }
}

struct bufs {
    void *a, *b, *c;
};

typedef void (*gemm_fn)(cudaStream_t, void *ctx);

// median and IQR of REPS timed calls, after WARM untimed ones; the clock and power after the block
static void time_it(const char *label, int m, int n, int k, gemm_fn fn, void *ctx, int warm, int reps)
{
    cudaEvent_t e0, e1;
    std::vector<float> t(reps);
    unsigned mhz, watts;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int i = 0; i < warm; i++)
        fn(0, ctx);
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < reps; i++) {
        CK(cudaEventRecord(e0));
        fn(0, ctx);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&t[i], e0, e1));
    }
    nvml_read(&mhz, &watts);
    std::sort(t.begin(), t.end());
    double med = t[reps / 2], q1 = t[reps / 4], q3 = t[3 * reps / 4];
    double tflops = 2.0 * m * n * k / (med * 1e-3) / 1e12;
    printf("%-44s %5d %5d %5d %9.1f %6.1f%% %5u MHz %4u W\n", label, m, n, k, tflops, 100.0 * (q3 - q1) / med, mhz,
           watts);
    fflush(stdout);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
}

struct ex_ctx {
    cublasHandle_t h;
    bufs *b;
    int m, n, k;
    cublasOperation_t ta;
    cudaDataType_t ctype;
};

// the family's call: row-major C = A B as column-major C^T = B^T A^T (operands swapped), or with TA = T the
// "TN" layout (B^T stored k-contiguous)
static void gemm_ex(cudaStream_t, void *p)
{
    ex_ctx *c = (ex_ctx *)p;
    const float one = 1.0f, zero = 0.0f;
    int ldb = c->ta == CUBLAS_OP_N ? c->n : c->k;
    CB(cublasGemmEx(c->h, c->ta, CUBLAS_OP_N, c->n, c->m, c->k, &one, c->b->b, CUDA_R_16F, ldb, c->b->a, CUDA_R_16F,
                    c->k, &zero, c->b->c, c->ctype, c->n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

struct lt_ctx {
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t la, lb, lc;
    cublasLtMatmulAlgo_t algo;
    bufs *b;
    void *ws;
    size_t ws_bytes;
};

static void gemm_lt(cudaStream_t s, void *p)
{
    lt_ctx *c = (lt_ctx *)p;
    const float one = 1.0f, zero = 0.0f;
    CB(cublasLtMatmul(c->lt, c->op, &one, c->b->b, c->la, c->b->a, c->lb, &zero, c->b->c, c->lc, c->b->c, c->lc,
                      &c->algo, c->ws, c->ws_bytes, s));
}

// cublasLt's heuristic list for the family's layout (NN, fp16 in, fp32 out, fp32 compute): each algorithm
// timed; the best and the first (what the default picks) printed
static void lt_search(bufs *b, int m, int n, int k, int warm, int reps)
{
    lt_ctx c = {};
    const int want = 8;
    cublasLtMatmulHeuristicResult_t res[want];
    int got = 0;
    cublasLtMatmulPreference_t pref;
    c.b = b;
    c.ws_bytes = 64u << 20;
    CK(cudaMalloc(&c.ws, c.ws_bytes));
    CB(cublasLtCreate(&c.lt));
    CB(cublasLtMatmulDescCreate(&c.op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    CB(cublasLtMatrixLayoutCreate(&c.la, CUDA_R_16F, n, k, n));
    CB(cublasLtMatrixLayoutCreate(&c.lb, CUDA_R_16F, k, m, k));
    CB(cublasLtMatrixLayoutCreate(&c.lc, CUDA_R_32F, n, m, n));
    CB(cublasLtMatmulPreferenceCreate(&pref));
    CB(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &c.ws_bytes,
                                            sizeof c.ws_bytes));
    CB(cublasLtMatmulAlgoGetHeuristic(c.lt, c.op, c.la, c.lb, c.lc, c.lc, pref, want, res, &got));
    for (int i = 0; i < got; i++) {
        char label[64];
        c.algo = res[i].algo;
        snprintf(label, sizeof label, "cublasLt NN fp32-out, heuristic #%d", i);
        time_it(label, m, n, k, gemm_lt, &c, warm, reps);
    }
    cublasLtMatmulPreferenceDestroy(pref);
    cublasLtMatrixLayoutDestroy(c.la);
    cublasLtMatrixLayoutDestroy(c.lb);
    cublasLtMatrixLayoutDestroy(c.lc);
    cublasLtMatmulDescDestroy(c.op);
    cublasLtDestroy(c.lt);
    cudaFree(c.ws);
}

int main(int argc, char **argv)
{
    nvml_open();
    printf("%-44s %5s %5s %5s %9s %7s %9s %6s\n", "what (fp16 in, fp32 compute)", "m", "n", "k", "TFLOP/s", "IQR",
           "SM clock", "power");
    for (int ai = 1; ai < argc; ai++) {
        int s = atoi(argv[ai]);
        size_t e = (size_t)s * s;
        bufs b;
        std::vector<__half> h(e);
        cublasHandle_t hd;
        CK(cudaMalloc(&b.a, e * 2));
        CK(cudaMalloc(&b.b, e * 2));
        CK(cudaMalloc(&b.c, e * 4));
        CB(cublasCreate(&hd));
        CB(cublasSetMathMode(hd, CUBLAS_DEFAULT_MATH));
        ex_ctx x = {hd, &b, s, s, s, CUBLAS_OP_N, CUDA_R_32F};
        const char *data_name[] = {"uniform [-1,1)", "all ones", "zeros"};
        for (int kind = 0; kind < 3; kind++) {
            char label[64];
            fill(h, kind, 1);
            CK(cudaMemcpy(b.a, h.data(), e * 2, cudaMemcpyHostToDevice));
            fill(h, kind, 2);
            CK(cudaMemcpy(b.b, h.data(), e * 2, cudaMemcpyHostToDevice));
            snprintf(label, sizeof label, "GemmEx NN fp32-out, %s", data_name[kind]);
            time_it(label, s, s, s, gemm_ex, &x, 10, 50);
            if (kind != 0)
                continue;
            // the same after 3 s of back-to-back calls (at ~600 TFLOP/s): the clock under sustained load
            time_it("GemmEx NN fp32-out, uniform, after 3 s", s, s, s, gemm_ex, &x,
                    (int)(3.0 / (2.0 * s * s * (double)s / 600e12)), 50);
            x.ctype = CUDA_R_16F;
            time_it("GemmEx NN fp16-out, uniform", s, s, s, gemm_ex, &x, 10, 50);
            x.ctype = CUDA_R_32F;
            x.ta = CUBLAS_OP_T;
            time_it("GemmEx TN fp32-out, uniform", s, s, s, gemm_ex, &x, 10, 50);
            x.ta = CUBLAS_OP_N;
            lt_search(&b, s, s, s, 10, 50);
        }
        cublasDestroy(hd);
        cudaFree(b.a);
        cudaFree(b.b);
        cudaFree(b.c);
    }
    return 0;
}
