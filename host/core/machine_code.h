/* machine_code.h - the GPU machine code behind each pipeline (--sass DIR): NVIDIA pipeline-cache records
 * decoded (zstd through libzstd, loaded at run time), disassembled with nvdisasm, the CUDA twin's from
 * cuobjdump, and both summarised by instruction class. Best effort: the cache format is undocumented. */
#ifndef VKB_MACHINE_CODE_H
#define VKB_MACHINE_CODE_H

#include <stddef.h>
#include <stdint.h>

#include "plan.h"

/* Instruction classes a summary counts (names in vkb_mc_class_names, the JSON keys). */
enum {
    VKB_MC_INSTRUCTIONS, /* every instruction but NOP */
    VKB_MC_HMMA_F32,     /* warp tensor-core mma, fp32 accumulator (HMMA.16816.F32...) */
    VKB_MC_HMMA_F16,     /* ... fp16 accumulator */
    VKB_MC_HGMMA_F32,    /* Hopper warpgroup mma, fp32 accumulator */
    VKB_MC_HGMMA_F16,
    VKB_MC_LDG_32, /* global loads of 32 bits or narrower */
    VKB_MC_LDG_64,
    VKB_MC_LDG_128,
    VKB_MC_STG_32,
    VKB_MC_STG_64,
    VKB_MC_STG_128,
    VKB_MC_LDGSTS, /* asynchronous global-to-shared copies (cp.async) */
    VKB_MC_LDS,    /* shared loads (LDS, LDSM) */
    VKB_MC_STS,
    VKB_MC_FFMA,
    VKB_MC_LDL, /* local memory: register spills or arrays indexed at run time */
    VKB_MC_STL,
    VKB_MC_ATOMICS,  /* ATOM, ATOMG, ATOMS, RED, REDG */
    VKB_MC_SHUFFLES, /* SHFL */
    VKB_MC_BRANCHES, /* BRA, BRX, JMP, JMX */
    VKB_MC_BARRIERS, /* BAR */
    VKB_MC_NCLASS
};
extern const char *const vkb_mc_class_names[VKB_MC_NCLASS];

typedef struct vkb_mc_summary {
    int valid;       /* 1 when COUNT was read from a disassembly */
    char source[12]; /* "nvdisasm" (a Vulkan pipeline) or "cuobjdump" (a CUDA kernel) */
    unsigned count[VKB_MC_NCLASS];
} vkb_mc_summary;

/* Count the instruction classes in TEXT, the output of nvdisasm or cuobjdump -sass (one function). */
void vkb_mc_summarize(const char *text, vkb_mc_summary *out);

/* Call FN for the machine code of each NVIDIA shader record ("NVDANVVMNVuc") in DATA: a VkPipelineCache's
 * data, a driver disk-cache file (zstd frames), or one decompressed record. Returns how many records were
 * found, or -1 with WHY when a zstd frame was seen and libzstd cannot be loaded. */
int vkb_mc_nv_records(const void *data, size_t size, void (*fn)(const uint8_t *code, size_t bytes, void *user),
                      void *user, char *why, size_t len);

/* --sass DIR: machine code is to be written into DIR (checked, not created yet). Exits 6 when it cannot be. */
void vkb_mc_open(const char *dir);
/* Create --sass's folder (and the folders above it): once the request has passed its checks against the device,
 * so that a refused request creates nothing. Exits 6 when it cannot. */
void vkb_mc_make_folder(void);
/* Whether DIR can be --sass's folder (not a file, not too long for the names written under it), creating
 * nothing: 0, or -1 with WHY. */
int vkb_mc_check(const char *dir, char *why, size_t len);
int vkb_mc_enabled(void);
/* Name the passes that follow (files FAMILY_VARIANT[constants].*); the runner calls it before preparing. */
void vkb_mc_set_label(const char *family, const char *variant);
/* Where the device cannot show its machine code: one line, once per run. */
void vkb_mc_unavailable(const char *device, const char *reason);
/* A Vulkan pipeline of PASS was created on DEVICE (VENDOR id) with a pipeline cache whose data is DATA:
 * write FAMILY_VARIANT[constants].cache/.bin/.sass and fill OUT (valid 0 when the format is not recognised). */
void vkb_mc_vulkan(const char *device, uint32_t vendor, const vkb_pass *pass, const void *data, size_t size,
                   vkb_mc_summary *out);
/* The CUDA twin of PASS in the module at MODULE_PATH: FAMILY_VARIANT[constants].cuda.sass and OUT. */
void vkb_mc_cuda(const char *module_path, const vkb_pass *pass, vkb_mc_summary *out);
/* The CUDA twin of PASS in TEXT (cuobjdump -sass output): the function whose name is the pass's kernel name
 * or an underscore-bounded part of it, with the pass's constants as template arguments. A pointer into TEXT
 * and its length in *LEN, or NULL. */
const char *vkb_mc_cuda_function(const char *text, const vkb_pass *pass, size_t *len);

#endif
