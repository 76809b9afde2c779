/* matmul_blas.cuh - the cuBLAS ceilings' shared parts (matmul.cu, matmul_tc.cu): one handle per host thread and
 * cuBLAS's status as the module's error. */
#ifndef VKB_MATMUL_BLAS_CUH
#define VKB_MATMUL_BLAS_CUH

#include <cstdio>

#include <cublas_v2.h>

#include "kernels.h"
#include "matmul/matmul.h"

/* One cuBLAS handle per host thread (a handle belongs to the GPU that was current where it was made: with
 * --device LIST each GPU's thread its own), made on first use, set to stream S and math mode MODE; the pass's
 * sizes in M, N, K. */
inline cublasHandle_t blas(const vkb_pass *p, cudaStream_t s, cublasMath_t mode, int *m, int *n, int *k)
{
    static thread_local cublasHandle_t h;
    matmul_push pc = vkb_push_as<matmul_push>(p);
    *m = (int)pc.m, *n = (int)pc.n, *k = (int)pc.k;
    if (!h && cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
        return nullptr;
    cublasSetStream(h, s);
    cublasSetMathMode(h, mode);
    return h;
}

inline cudaError_t blas_result(cublasStatus_t st, const char *what)
{
    if (st == CUBLAS_STATUS_SUCCESS)
        return cudaSuccess;
    fprintf(stderr, "vkbench: %s: %s\n", what, cublasGetStatusString(st));
    return cudaErrorUnknown;
}

#endif
