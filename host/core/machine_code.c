/* machine_code.c - the GPU machine code behind each pipeline: NVIDIA cache records, nvdisasm, cuobjdump. */
#include "machine_code.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu_facts.h"
#include "util.h"

const char *const vkb_mc_class_names[VKB_MC_NCLASS] = {
    "instructions", "hmma_f32", "hmma_f16", "hgmma_f32", "hgmma_f16", "ldg_32",   "ldg_64",
    "ldg_128",      "stg_32",   "stg_64",   "stg_128",   "ldgsts",    "lds",      "sts",
    "ffma",         "ldl",      "stl",      "atomics",   "shuffles",  "branches", "barriers"};

/* ---- summary of a disassembly ---- */

/* Width in bits of a memory opcode from its modifiers: LDG.E.128 -> 128, LDG.E.U16 -> 32 (narrow). */
static int op_width(const char *op)
{
    for (const char *p = strchr(op, '.'); p; p = strchr(p + 1, '.')) {
        if (strncmp(p, ".128", 4) == 0 && !isalnum((unsigned char)p[4]))
            return 128;
        if (strncmp(p, ".64", 3) == 0 && !isalnum((unsigned char)p[3]))
            return 64;
    }
    return 32;
}

/* The accumulator type of an mma opcode: the modifier after the shape (HMMA.16816.F32.BF16 -> F32). */
static int acc_f16(const char *op)
{
    const char *p = strchr(op, '.');
    p = p ? strchr(p + 1, '.') : NULL;
    return p && strncmp(p, ".F16", 4) == 0;
}

static int base_is(const char *op, size_t base_len, const char *name)
{
    return strlen(name) == base_len && strncmp(op, name, base_len) == 0;
}

static void count_op(const char *op, vkb_mc_summary *s)
{
    size_t b = strcspn(op, ".");
    unsigned *c = s->count;
    if (base_is(op, b, "NOP"))
        return;
    c[VKB_MC_INSTRUCTIONS]++;
    if (base_is(op, b, "HMMA"))
        c[acc_f16(op) ? VKB_MC_HMMA_F16 : VKB_MC_HMMA_F32]++;
    else if (base_is(op, b, "HGMMA"))
        c[acc_f16(op) ? VKB_MC_HGMMA_F16 : VKB_MC_HGMMA_F32]++;
    else if (base_is(op, b, "LDG"))
        c[op_width(op) == 128 ? VKB_MC_LDG_128 : op_width(op) == 64 ? VKB_MC_LDG_64 : VKB_MC_LDG_32]++;
    else if (base_is(op, b, "STG"))
        c[op_width(op) == 128 ? VKB_MC_STG_128 : op_width(op) == 64 ? VKB_MC_STG_64 : VKB_MC_STG_32]++;
    else if (base_is(op, b, "LDGSTS"))
        c[VKB_MC_LDGSTS]++;
    else if (base_is(op, b, "LDS") || base_is(op, b, "LDSM"))
        c[VKB_MC_LDS]++;
    else if (base_is(op, b, "STS"))
        c[VKB_MC_STS]++;
    else if (base_is(op, b, "FFMA"))
        c[VKB_MC_FFMA]++;
    else if (base_is(op, b, "LDL"))
        c[VKB_MC_LDL]++;
    else if (base_is(op, b, "STL"))
        c[VKB_MC_STL]++;
    else if (base_is(op, b, "ATOM") || base_is(op, b, "ATOMG") || base_is(op, b, "ATOMS") || base_is(op, b, "RED") ||
             base_is(op, b, "REDG"))
        c[VKB_MC_ATOMICS]++;
    else if (base_is(op, b, "SHFL"))
        c[VKB_MC_SHUFFLES]++;
    else if (base_is(op, b, "BRA") || base_is(op, b, "BRX") || base_is(op, b, "JMP") || base_is(op, b, "JMX"))
        c[VKB_MC_BRANCHES]++;
    else if (base_is(op, b, "BAR"))
        c[VKB_MC_BARRIERS]++;
}

/* An instruction line of either tool starts with its address in a comment, then an optional predicate and
 * the opcode with its modifiers ("@!P0 LDG.E.128 R4, desc[UR4][R2.64] ;"). */
void vkb_mc_summarize(const char *text, vkb_mc_summary *out)
{
    const char *line = text;
    memset(out, 0, sizeof *out);
    while (line && *line) {
        const char *end = strchr(line, '\n'), *p = line;
        char op[48];
        size_t n;
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncmp(p, "/*", 2) == 0 && isxdigit((unsigned char)p[2])) {
            const char *q = p + 2;
            while (isxdigit((unsigned char)*q))
                q++;
            if (strncmp(q, "*/", 2) == 0 && !(p[2] == '0' && p[3] == 'x')) {
                q += 2;
                while (*q == ' ' || *q == '\t')
                    q++;
                if (*q == '{') /* dual-issue braces of older architectures */
                    q++;
                while (*q == ' ')
                    q++;
                if (*q == '@') { /* predicate */
                    q += strcspn(q, " \t");
                    while (*q == ' ' || *q == '\t')
                        q++;
                }
                n = strcspn(q, " \t;\n");
                if (n > 0 && n < sizeof op && isupper((unsigned char)*q)) {
                    memcpy(op, q, n);
                    op[n] = 0;
                    count_op(op, out);
                }
            }
        }
        line = end ? end + 1 : NULL;
    }
    out->valid = 1;
}

/* ---- NVIDIA cache records ---- */

#define NV_MAGIC "NVDANVVMNVuc"
#define ZSTD_MAGIC "\x28\xb5\x2f\xfd"

static uint32_t u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The code section of one record: u32 at 0x30 = header size h, u32 at 0x4C = code size c, code at h + 0x18
 * (seen on driver 580). 0 when REC is not such a record or the sizes do not fit. */
static int nv_code(const uint8_t *rec, size_t n, const uint8_t **code, size_t *bytes)
{
    uint64_t h, c;
    if (n < 0x50 || memcmp(rec, NV_MAGIC, 12) != 0)
        return 0;
    h = u32le(rec + 0x30);
    c = u32le(rec + 0x4C);
    if (c == 0 || c % 16 || h + 0x18 + c > n)
        return 0;
    *code = rec + h + 0x18;
    *bytes = (size_t)c;
    return 1;
}

/* libzstd, loaded on first use so that vkbench starts without it */
static struct {
    int tried;
    size_t (*decompress)(void *dst, size_t cap, const void *src, size_t n);
    unsigned long long (*content_size)(const void *src, size_t n);
    size_t (*frame_size)(const void *src, size_t n);
    unsigned (*is_error)(size_t code);
} zstd;

static int zstd_load(void)
{
    if (!zstd.tried) {
        void *h = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
        zstd.tried = 1;
        if (!h)
            h = dlopen("libzstd.so", RTLD_NOW | RTLD_LOCAL);
        if (h) {
            void *f[4] = {dlsym(h, "ZSTD_decompress"), dlsym(h, "ZSTD_getFrameContentSize"),
                          dlsym(h, "ZSTD_findFrameCompressedSize"), dlsym(h, "ZSTD_isError")};
            if (f[0] && f[1] && f[2] && f[3]) {
                /* POSIX: dlsym's object pointer holds a function pointer */
                memcpy(&zstd.decompress, &f[0], sizeof f[0]);
                memcpy(&zstd.content_size, &f[1], sizeof f[1]);
                memcpy(&zstd.frame_size, &f[2], sizeof f[2]);
                memcpy(&zstd.is_error, &f[3], sizeof f[3]);
            }
        }
    }
    return zstd.decompress != NULL;
}

int vkb_mc_nv_records(const void *data, size_t size, void (*fn)(const uint8_t *code, size_t bytes, void *user),
                      void *user, char *why, size_t len)
{
    const uint8_t *d = data, *code;
    size_t bytes, i = 0;
    int found = 0;
    if (nv_code(d, size, &code, &bytes)) {
        fn(code, bytes, user);
        return 1;
    }
    while (size >= 4 && i <= size - 4) {
        const uint8_t *hit = memchr(d + i, 0x28, size - 3 - i);
        size_t frame;
        unsigned long long out_bytes;
        uint8_t *rec;
        if (!hit)
            break;
        i = (size_t)(hit - d);
        if (memcmp(hit, ZSTD_MAGIC, 4) != 0) {
            i++;
            continue;
        }
        if (!zstd_load()) {
            snprintf(why, len, "libzstd.so.1 cannot be loaded (install libzstd1) to decompress the cache");
            return -1;
        }
        frame = zstd.frame_size(hit, size - i);
        if (zstd.is_error(frame)) {
            i += 4;
            continue;
        }
        out_bytes = zstd.content_size(hit, frame);
        if (out_bytes == (unsigned long long)-1) /* size unknown: a generous bound */
            out_bytes = 64u << 20;
        if (out_bytes == (unsigned long long)-2 || out_bytes > (256u << 20) || out_bytes == 0) {
            i += frame;
            continue;
        }
        rec = vkb_alloc((size_t)out_bytes);
        bytes = zstd.decompress(rec, (size_t)out_bytes, hit, frame);
        if (!zstd.is_error(bytes) && nv_code(rec, bytes, &code, &bytes)) {
            fn(code, bytes, user);
            found++;
        }
        free(rec);
        i += frame;
    }
    return found;
}

/* ---- the --sass session ---- */

#define MAX_SEEN 1024
#define MC_PATH 4096

static struct {
    int on;
    char dir[3072];
    char label[160];
    int vk_pass, cu_pass; /* dispatch passes seen since the label was set */
    int said_unavailable, said_no_nvdisasm, said_nvdisasm_failed, said_no_arch, said_no_twin;
    char *cuda_text; /* cuobjdump -sass of the CUDA module, read once */
    int cuda_tried;
    struct seen {
        char base[200];
        uint64_t hash;
        vkb_mc_summary s;
    } * seen;
    int nseen;
    int nvulkan, ncuda; /* pipelines and twins written */
} mc;

/* One line at exit: what --sass wrote, and where. */
static void say_written(void)
{
    if (mc.nvulkan || mc.ncuda)
        fprintf(stderr, "vkbench: --sass: machine code of %d Vulkan pipeline%s and %d CUDA kernel%s in %s\n",
                mc.nvulkan, mc.nvulkan == 1 ? "" : "s", mc.ncuda, mc.ncuda == 1 ? "" : "s", mc.dir);
}

int vkb_mc_check(const char *dir, char *why, size_t len)
{
    struct stat st;
    /* room for FAMILY_VARIANT[...].cuda.sass under it: a longer path would be cut, never refused later */
    if (strlen(dir) >= sizeof mc.dir - 256) {
        snprintf(why, len, "a folder path of %zu characters, longer than %zu", strlen(dir), sizeof mc.dir - 257);
        return -1;
    }
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        snprintf(why, len, "%s is not a folder", dir);
        return -1;
    }
    return 0;
}

void vkb_mc_open(const char *dir)
{
    char why[200];
    if (vkb_mc_check(dir, why, sizeof why))
        vkb_die(VKB_EXIT_OUTPUT, "--sass: %s", why);
    snprintf(mc.dir, sizeof mc.dir, "%s", dir);
    mc.on = 1;
    mc.seen = vkb_calloc(MAX_SEEN, sizeof *mc.seen);
    atexit(say_written);
}

void vkb_mc_make_folder(void)
{
    char path[MC_PATH];
    if (!mc.on)
        return;
    snprintf(path, sizeof path, "%s", mc.dir);
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(path, 0777);
            *p = '/';
        }
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        vkb_die(VKB_EXIT_OUTPUT, "--sass: cannot create %s: %s", mc.dir, strerror(errno));
}

int vkb_mc_enabled(void)
{
    return mc.on;
}

void vkb_mc_set_label(const char *family, const char *variant)
{
    if (!mc.on)
        return; /* without --sass nothing reads it (and --device LIST, which refuses --sass, runs threads) */
    snprintf(mc.label, sizeof mc.label, "%s_%s", family, variant);
    mc.vk_pass = mc.cu_pass = 0;
}

void vkb_mc_unavailable(const char *device, const char *reason)
{
    if (mc.said_unavailable++)
        return;
    fprintf(stderr, "vkbench: --sass: not available on this driver (%s: %s); the run goes on\n", device, reason);
}

/* FAMILY_VARIANT[local,spec...] for the first dispatch pass, FAMILY_VARIANT.KERNEL[...] for later ones. */
static void base_name(const vkb_pass *pass, int index, char *out, size_t len)
{
    size_t n = (size_t)snprintf(out, len, "%s", mc.label[0] ? mc.label : pass->kernel);
    if (index > 0 && n < len)
        n += (size_t)snprintf(out + n, len - n, ".%s", pass->kernel);
    if (n < len)
        n += (size_t)snprintf(out + n, len - n, "[%ux%ux%u", pass->local[0], pass->local[1], pass->local[2]);
    for (int i = 0; i < pass->nspec && n < len; i++)
        n += (size_t)snprintf(out + n, len - n, ",%u", pass->spec[i]);
    if (n < len)
        snprintf(out + n, len - n, "]");
}

static uint64_t fnv(const void *data, size_t n)
{
    const uint8_t *p = data;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static struct seen *seen_find(const char *base, uint64_t hash)
{
    for (int i = 0; i < mc.nseen; i++)
        if (mc.seen[i].hash == hash && strcmp(mc.seen[i].base, base) == 0)
            return &mc.seen[i];
    return NULL;
}

static void seen_add(const char *base, uint64_t hash, const vkb_mc_summary *s)
{
    struct seen *e;
    if (mc.nseen >= MAX_SEEN)
        return;
    e = &mc.seen[mc.nseen++];
    snprintf(e->base, sizeof e->base, "%s", base);
    e->hash = hash;
    e->s = *s;
}

static int write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, 1, n, f) == n;
    if (f)
        ok &= fclose(f) == 0;
    if (!ok)
        vkb_warn("--sass: cannot write %s", path);
    return ok;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    text = vkb_alloc((size_t)(n > 0 ? n : 0) + 1);
    n = (long)fread(text, 1, (size_t)(n > 0 ? n : 0), f);
    text[n > 0 ? n : 0] = 0;
    fclose(f);
    return text;
}

/* NAME on PATH, else in the CUDA toolkit's bin. */
static int find_tool(const char *name, char *out, size_t len)
{
    const char *path = getenv("PATH");
    char dirs[4096];
    snprintf(dirs, sizeof dirs, "%s:/usr/local/cuda/bin", path ? path : "");
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(out, len, "%s/%s", d, name);
        if (access(out, X_OK) == 0)
            return 1;
    }
    return 0;
}

/* Run ARGV with stdout (and stderr) into OUT_PATH; 1 when it exited 0. */
static int run_to_file(char *const argv[], const char *out_path)
{
    pid_t pid = fork();
    int status = 0;
    if (pid < 0)
        return 0;
    if (pid == 0) {
        int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fd < 0)
            _exit(127);
        dup2(fd, 1);
        dup2(fd, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    if (waitpid(pid, &status, 0) < 0)
        return 0;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* The SM of an NVIDIA device from its name (Vulkan does not report the compute capability);
 * VKB_SASS_ARCH=SM90 overrides. NULL when unknown. */
static const char *nv_arch(const char *device)
{
    const vkb_gpu_model *m = vkb_gpu_model_find(device);
    const char *env = getenv("VKB_SASS_ARCH");
    if (env && *env)
        return env;
    return m ? m->sass : NULL;
}

static void print_summary(const char *base, const char *what, const vkb_mc_summary *s)
{
    if (!vkb_verbose || !s->valid)
        return;
    fprintf(stderr, "vkbench: sass %s (%s):", base, what);
    for (int k = 0; k < VKB_MC_NCLASS; k++)
        if (s->count[k] || k == VKB_MC_INSTRUCTIONS)
            fprintf(stderr, " %s=%u", vkb_mc_class_names[k], s->count[k]);
    fputc('\n', stderr);
}

typedef struct vk_capture {
    const char *base, *arch;
    int n;
    vkb_mc_summary best;
} vk_capture;

/* One record: BASE.bin (BASE.rN.bin for the Nth after the first), disassembled to .sass when it can be;
 * the summary kept is the longest program's. */
static void capture_record(const uint8_t *code, size_t bytes, void *user)
{
    vk_capture *c = user;
    char bin[MC_PATH], sass[MC_PATH], tool[MC_PATH], suffix[16] = "";
    if (c->n)
        snprintf(suffix, sizeof suffix, ".r%d", c->n);
    c->n++;
    snprintf(bin, sizeof bin, "%s/%s%s.bin", mc.dir, c->base, suffix);
    snprintf(sass, sizeof sass, "%s/%s%s.sass", mc.dir, c->base, suffix);
    if (!write_file(bin, code, bytes))
        return;
    if (!c->arch) {
        if (!mc.said_no_arch++)
            fprintf(stderr, "vkbench: --sass: unknown SM for this device (set VKB_SASS_ARCH=SM90 or the like): "
                            "raw code written, not disassembled\n");
        return;
    }
    if (!find_tool("nvdisasm", tool, sizeof tool)) {
        if (!mc.said_no_nvdisasm++)
            fprintf(stderr, "vkbench: --sass: nvdisasm not found (PATH, /usr/local/cuda/bin): raw code written, "
                            "not disassembled\n");
        return;
    }
    {
        char *argv[] = {tool, "-b", (char *)c->arch, bin, NULL};
        char *text;
        vkb_mc_summary s;
        if (!run_to_file(argv, sass)) {
            if (!mc.said_nvdisasm_failed++)
                vkb_warn("--sass: nvdisasm -b %s failed on %s (see %s; further failures not shown)", c->arch, bin,
                         sass);
            return;
        }
        text = read_file(sass);
        vkb_mc_summarize(text ? text : "", &s);
        free(text);
        snprintf(s.source, sizeof s.source, "nvdisasm");
        if (!c->best.valid || s.count[VKB_MC_INSTRUCTIONS] > c->best.count[VKB_MC_INSTRUCTIONS])
            c->best = s;
    }
}

void vkb_mc_vulkan(const char *device, uint32_t vendor, const vkb_pass *pass, const void *data, size_t size,
                   vkb_mc_summary *out)
{
    char base[200], path[MC_PATH], why[200];
    vk_capture cap = {0};
    struct seen *seen;
    uint64_t hash = fnv(data, size);
    int index = mc.vk_pass++, n;

    memset(out, 0, sizeof *out);
    if (!mc.on)
        return;
    if (vendor != 0x10DE) {
        vkb_mc_unavailable(device, "only NVIDIA's pipeline-cache format is recognised");
        return;
    }
    base_name(pass, index, base, sizeof base);
    if ((seen = seen_find(base, hash))) {
        *out = seen->s;
        return;
    }
    snprintf(path, sizeof path, "%s/%s.cache", mc.dir, base);
    write_file(path, data, size);
    cap.base = base;
    cap.arch = nv_arch(device);
    n = vkb_mc_nv_records(data, size, capture_record, &cap, why, sizeof why);
    if (n < 0) {
        vkb_mc_unavailable(device, why);
        return;
    }
    if (n == 0) {
        vkb_mc_unavailable(device, "the pipeline cache holds no record in a format vkbench recognises");
        return;
    }
    *out = cap.best;
    seen_add(base, hash, out);
    mc.nvulkan++;
    print_summary(base, pass->kernel, out);
}

/* A mangled kernel name, "_ZN<namespace>15transpose_tiledILj32ELj8ELj1EEEvPKfPf..." (anonymous namespaces
 * included): the function's own name (into NAME), its first type argument ('f' float, 'j' unsigned...; 0
 * when none) and its integer template arguments. Returns how many integers, or -1 when it cannot be read. */
typedef struct mangled {
    const char *name;
    size_t name_len;
    char type;
    long long vals[16];
} mangled;

static int demangle(const char *m, mangled *out)
{
    const char *p = m;
    int k = 0;
    memset(out, 0, sizeof *out);
    if (strncmp(p, "_Z", 2) != 0)
        return -1;
    p += 2 + (p[2] == 'N');
    while (isdigit((unsigned char)*p)) { /* source names: the last one before I or E is the function's */
        char *end;
        unsigned long n = strtoul(p, &end, 10);
        if (strlen(end) < n)
            return -1;
        out->name = end;
        out->name_len = n;
        p = end + n;
    }
    if (!out->name)
        return -1;
    if (*p != 'I')
        return 0;
    for (p++; *p && *p != 'E' && k < 16;) {
        if (*p == 'L') {
            char *end;
            int neg = p[2] == 'n';
            out->vals[k] = strtoll(p + 2 + neg, &end, 10) * (neg ? -1 : 1);
            if (end == p + 2 + neg || *end != 'E')
                return k;
            k++;
            p = end + 1;
        } else if (strchr("fdjimlhtbsacxy", *p)) { /* a builtin type argument */
            if (!out->type)
                out->type = *p;
            p++;
        } else {
            break;
        }
    }
    return k;
}

/* The CUDA twin of a Vulkan kernel: its name is KERNEL or a part of it between underscores
 * ("reduce_unroll_complete_f32" -> unroll_complete), the longest that exists; a _f32 / _i32 suffix picks
 * the float / integer instantiation; the integer template arguments are the pass's constants, optionally
 * followed by its workgroup size (matmul_block<..., 256>, unroll_complete<float, 256>). */
static int twin_score(const mangled *m, int nvals, const vkb_pass *pass)
{
    const char *k = pass->kernel, *hit;
    size_t klen = strlen(k);
    int bounded = 0;
    if (nvals < 0 || m->name_len == 0)
        return -1;
    for (hit = k; (size_t)(hit - k) + m->name_len <= klen; hit++) {
        if (strncmp(hit, m->name, m->name_len) == 0 && (hit == k || hit[-1] == '_') &&
            (hit[m->name_len] == 0 || hit[m->name_len] == '_')) {
            bounded = 1;
            break;
        }
    }
    if (!bounded)
        return -1;
    if (klen > 4 && strcmp(k + klen - 4, "_f32") == 0 && m->type && m->type != 'f')
        return -1;
    if (klen > 4 && strcmp(k + klen - 4, "_i32") == 0 && m->type && m->type != 'j' && m->type != 'i')
        return -1;
    if (nvals > pass->nspec + 1)
        return -1;
    for (int i = 0; i < nvals; i++)
        if (m->vals[i] != (long long)(i < pass->nspec ? pass->spec[i] : pass->local[0]))
            return -1;
    return (int)m->name_len * 32 + nvals;
}

const char *vkb_mc_cuda_function(const char *text, const vkb_pass *pass, size_t *len)
{
    const char *best = NULL, *p = text;
    int best_score = -1;
    while ((p = strstr(p, "Function : "))) {
        char name[1024];
        mangled m;
        size_t n;
        int score;
        p += 11;
        n = strcspn(p, " \t\r\n");
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
        score = twin_score(&m, demangle(name, &m), pass);
        if (score > best_score) {
            best_score = score;
            best = p - 11;
        }
    }
    if (best) {
        const char *next = strstr(best + 11, "Function : ");
        const char *stop = strstr(best, "\n\t\t..........");
        if (stop && (!next || stop < next))
            next = stop;
        *len = next ? (size_t)(next - best) : strlen(best);
    }
    return best;
}

void vkb_mc_cuda(const char *module_path, const vkb_pass *pass, vkb_mc_summary *out)
{
    char base[200], path[MC_PATH], tool[MC_PATH];
    const char *fn;
    size_t len;
    int index = mc.cu_pass++;
    struct seen *seen;

    memset(out, 0, sizeof *out);
    if (!mc.on || pass->kind != VKB_PASS_DISPATCH)
        return;
    if (!mc.cuda_tried) {
        mc.cuda_tried = 1;
        snprintf(path, sizeof path, "%s/cuobjdump.sass", mc.dir);
        if (!find_tool("cuobjdump", tool, sizeof tool)) {
            fprintf(stderr, "vkbench: --sass: cuobjdump not found (PATH, /usr/local/cuda/bin): no CUDA machine code\n");
        } else {
            char *argv[] = {tool, "-sass", (char *)module_path, NULL};
            if (run_to_file(argv, path))
                mc.cuda_text = read_file(path);
            else
                vkb_warn("--sass: cuobjdump -sass %s failed (see %s)", module_path, path);
        }
    }
    if (!mc.cuda_text)
        return;
    base_name(pass, index, base, sizeof base);
    if ((seen = seen_find(base, 0))) {
        *out = seen->s;
        return;
    }
    fn = vkb_mc_cuda_function(mc.cuda_text, pass, &len);
    if (!fn) {
        if (!mc.said_no_twin++)
            vkb_warn("--sass: no twin of %s in the CUDA module's machine code (more may follow)", pass->kernel);
        return;
    }
    snprintf(path, sizeof path, "%s/%s.cuda.sass", mc.dir, base);
    write_file(path, fn, len);
    {
        char *text = vkb_alloc(len + 1);
        memcpy(text, fn, len);
        text[len] = 0;
        vkb_mc_summarize(text, out);
        free(text);
    }
    snprintf(out->source, sizeof out->source, "cuobjdump");
    seen_add(base, 0, out);
    mc.ncuda++;
    print_summary(base, "cuda", out);
}
