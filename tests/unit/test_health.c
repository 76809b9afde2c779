/* test_health.c - the health check's host-side rules (host/app/health.c): one row's speed (inside its bound, a
 * warning, or out of service), the baseline's rule for names and numbers, labels that join dcgm-exporter's, host
 * text made valid UTF-8, display-class GPUs on the PCI bus, a GPU the loader lists twice counted once. The battery's verdicts run on a device in
 * tests/cli/health_test.py. */
#include "health.h"
#include "test_listing.h"
#include "unit.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* The bound: 6 noise widths (the row's and the GPU's shared noise together) and at least 20% of the median. */
static void bound(void)
{
    ASSERT(vkb_health_row_speed(100, 100, 1, 0, 1) == 0);
    ASSERT(vkb_health_row_speed(80.5, 100, 1, 0, 1) == 0); /* 20% is the floor where the noise is small */
    ASSERT(vkb_health_row_speed(79.5, 100, 1, 0, 1) == 1);
    ASSERT(vkb_health_row_speed(71, 100, 3, 4, 1) == 0); /* 6 x 5 = 30: wider than the floor */
    ASSERT(vkb_health_row_speed(69, 100, 3, 4, 1) == 1);
    ASSERT(vkb_health_row_speed(1e9, 100, 1, 0, 1) == 0); /* faster is never slow */
}

/* A row alone takes the GPU out only below half its median: the H100's pinned host copy read 0.54x and 0.65x of
 * its baseline in 2 of 10 healthy runs (docs/tooling.md); a link at half speed or worse is a sick node. */
static void out_of_service_below_half(void)
{
    ASSERT(vkb_health_row_speed(54, 100, 0.5, 0, 1) == 1);
    ASSERT(vkb_health_row_speed(65, 100, 0.5, 0, 1) == 1);
    ASSERT(vkb_health_row_speed(48, 100, 0.5, 0, 1) == 2); /* 48 / (100 - 4 x 0.5) */
    ASSERT(vkb_health_row_speed(0, 100, 0.5, 0, 1) == 2);
}

/* Out of service only on evidence beyond both noises: the fastest the run's quartiles allow (its time's median
 * over its first quartile) over the slowest the baseline's noise allows (4 noise widths below its median). */
static void drain_beyond_both_noises(void)
{
    ASSERT(vkb_health_row_speed(45, 100, 0, 0, 1) == 2);
    ASSERT(vkb_health_row_speed(45, 100, 0, 0, 1.2) == 1); /* 45 x 1.2 = 54: a noisy run could be at 0.54x */
    ASSERT(vkb_health_row_speed(45, 100, 0, 0, 1.1) == 2); /* 49.5 */
    ASSERT(vkb_health_row_speed(45, 100, 3, 0, 1) == 1);   /* 45 / (100 - 12) = 0.51 */
    ASSERT(vkb_health_row_speed(40, 100, 3, 0, 1) == 2);   /* 40 / 88 = 0.45 */
    ASSERT(vkb_health_row_speed(45, 100, 2, 2, 1) == 1);   /* shared noise too: 45 / (100 - 4 x 2.83) = 0.507 */
    ASSERT(vkb_health_row_speed(40, 100, 2, 2, 1) == 2);   /* 0.451 */
}

static vkb_caps nvidia(const char *uuid_hex, const char *pci)
{
    vkb_caps c;
    memset(&c, 0, sizeof c);
    c.vendor_id = 0x10de;
    for (int i = 0, k = 0; i < 16; k++) {
        unsigned byte;
        if (uuid_hex[k] == '-')
            continue;
        sscanf(uuid_hex + k, "%2x", &byte);
        c.uuid[i++] = (uint8_t)byte;
        k++;
    }
    snprintf(c.pci_bus, sizeof c.pci_bus, "%s", pci); /* as host/backends/vulkan/context.c writes it */
    return c;
}

/* The labels join dcgm-exporter's: its documented output (dcgm-exporter's own tests, a Tesla T4 node) names a GPU
 * UUID="GPU-0781f3bb-da15-f334-d5db-37b3f19542d0",pci_bus_id="00000000:00:1B.0"; the same GPU as Vulkan reports it
 * (its UUID's bytes, VK_EXT_pci_bus_info's domain 0, bus 0, device 0x1b) must get those values byte for byte. */
static void labels_join_dcgm(void)
{
    static const char dcgm[] = "DCGM_FI_DEV_SM_CLOCK{gpu=\"0\",UUID=\"GPU-0781f3bb-da15-f334-d5db-37b3f19542d0\","
                               "pci_bus_id=\"00000000:00:1B.0\",device=\"nvidia0\",modelName=\"Tesla T4\","
                               "Hostname=\"ip-172-31-16-106\"} 1365";
    vkb_caps c = nvidia("0781f3bb-da15-f334-d5db-37b3f19542d0", "0000:00:1b.0");
    char uuid[48], pci[24], want[80];
    const char *at;
    at = strstr(dcgm, "UUID=\"");
    snprintf(want, sizeof want, "%.*s", (int)strcspn(at + 6, "\""), at + 6);
    ASSERT(strcmp(vkb_health_uuid(&c, uuid), want) == 0);
    at = strstr(dcgm, "pci_bus_id=\"");
    snprintf(want, sizeof want, "%.*s", (int)strcspn(at + 12, "\""), at + 12);
    ASSERT(strcmp(vkb_health_pci(&c, pci), want) == 0);
    c = nvidia("15704b32-f531-14ce-0530-1ac21e4b68e6", "0000:53:00.0"); /* an H100 node's, the same format */
    ASSERT(strcmp(vkb_health_pci(&c, pci), "00000000:53:00.0") == 0);
    ASSERT(strcmp(vkb_health_uuid(&c, uuid), "GPU-15704b32-f531-14ce-0530-1ac21e4b68e6") == 0);
    c.vendor_id = 0x1002; /* not NVIDIA: the Vulkan UUID and PCI address as they are */
    ASSERT(strcmp(vkb_health_uuid(&c, uuid), "15704b32-f531-14ce-0530-1ac21e4b68e6") == 0);
    ASSERT(strcmp(vkb_health_pci(&c, pci), "0000:53:00.0") == 0);
    c.pci_bus[0] = 0; /* lavapipe: no PCI address, no label; never "" */
    ASSERT(vkb_health_pci(&c, pci) == NULL);
}

/* Host text as the docs say: valid UTF-8 always, control characters as '?', a character the length would cut
 * left out whole. */
static void host_text(void)
{
    char out[16];
    ASSERT(strcmp(vkb_health_clean("node-7", out, sizeof out), "node-7") == 0);
    ASSERT(strcmp(vkb_health_clean("a\xff"
                                   "b\xc3",
                                   out, sizeof out),
                  "a?b?") == 0);
    ASSERT(strcmp(vkb_health_clean("a\tb\nc\x7f", out, sizeof out), "a?b?c?") == 0);
    ASSERT(strcmp(vkb_health_clean("\xc3\xa9\xc3\xa9", out, sizeof out), "\xc3\xa9\xc3\xa9") == 0);
    ASSERT(strcmp(vkb_health_clean("abcdefghijklmn\xc3\xa9", out, sizeof out), "abcdefghijklmn") == 0);
    ASSERT(strcmp(vkb_health_clean("\xed\xa0\x80", out, sizeof out), "???") == 0); /* a UTF-16 surrogate */
}

/* The baseline's numbers: decimal, as strict as the rest of vkbench. */
static void baseline_numbers(void)
{
    double v;
    ASSERT(vkb_health_number("5.40341", 0, &v) == 0 && v == 5.40341);
    ASSERT(vkb_health_number("1e+300", 0, &v) == 0 && v == 1e300);
    ASSERT(vkb_health_number(".5", 0, &v) == 0 && v == 0.5);
    ASSERT(vkb_health_number("0", 1, &v) == 0 && v == 0);
    ASSERT(vkb_health_number("0", 0, &v) == -1); /* a median is above 0 */
    ASSERT(vkb_health_number("1e301", 0, &v) == -1);
    ASSERT(vkb_health_number("0x10", 0, &v) == -1);
    ASSERT(vkb_health_number(" 5", 0, &v) == -1);
    ASSERT(vkb_health_number("5 ", 0, &v) == -1);
    ASSERT(vkb_health_number("-5", 1, &v) == -1);
    ASSERT(vkb_health_number("+5", 0, &v) == -1);
    ASSERT(vkb_health_number("inf", 0, &v) == -1);
    ASSERT(vkb_health_number("nan", 1, &v) == -1);
    ASSERT(vkb_health_number("5e", 0, &v) == -1);
    ASSERT(vkb_health_number("", 0, &v) == -1);
    ASSERT(vkb_health_number(".", 0, &v) == -1);
}

static int parse(const char *text, size_t len, char *why)
{
    vkb_health_golden *g;
    int n, rc = vkb_health_baseline_parse(text, len, "t", &g, &n, why, 300);
    free(g);
    return rc ? rc : n;
}

#define P(text) parse(text, sizeof(text) - 1, why)

/* The baseline's names and lines: the reader refuses what the writer (tools/fleet.py) refuses, naming the line. */
static void baseline_names(void)
{
    char why[300], text[600];
    const char head[] = "# vkbench baseline 1\n";
    ASSERT(P("# vkbench baseline 1\nm\td\tcopy/vec4\t5\t0.1\n# c\n\n#m\td\tr\t1\t0\n") == 1);
    ASSERT(P("# vkbench baseline 1\nm\td\tr\t5\t0.1\nm\td\tr\t5\t0.1\n") == -1 && strstr(why, "line 3"));
    ASSERT(P("# vkbench baseline 1\nm\r\td\tr\t5\t0\n") == -1 && strstr(why, "line 2: a carriage"));
    ASSERT(P("# vkbench baseline 1\nm\0x\td\tr\t5\t0\n") == -1 && strstr(why, "line 2: a NUL"));
    ASSERT(P("# vkbench baseline 1\nm\td\tr\t5\t0\tx\n") == -1 && strstr(why, "separated by tabs"));
    ASSERT(P("# vkbench baseline 1\nm\x01\td\tr\t5\t0\n") == -1 && strstr(why, "control character"));
    ASSERT(P("# vkbench baseline 1\nm\xff\td\tr\t5\t0\n") == -1 && strstr(why, "UTF-8"));
    ASSERT(P("# vkbench baseline 1\n\td\tr\t5\t0\n") == -1 && strstr(why, "model is empty"));
    ASSERT(P("") == -1 && strstr(why, "empty"));
    ASSERT(P("# vkbench baseline 2\n") == -1 && strstr(why, "not a baseline"));
    /* a model of 127 bytes is the most the reader holds; 128 is refused */
    for (int len = 127; len <= 128; len++) {
        size_t used = (size_t)snprintf(text, sizeof text, "%s", head);
        memset(text + used, 'M', (size_t)len);
        used += (size_t)len;
        used += (size_t)snprintf(text + used, sizeof text - used, "\td\tr\t5\t0\n");
        ASSERT(parse(text, used, why) == (len == 127 ? 1 : -1));
    }
}

/* Display-class GPUs on the PCI bus that Vulkan does not show: a GPU vendor's 0x03xxxx devices, not a server's
 * BMC VGA, each matched by its address. */
static void pci_bus(void)
{
    char root[] = "/tmp/vkb_pci_XXXXXX", path[200], missing[200];
    static const char *const devs[][3] = {{"0000:3b:00.0", "0x030200", "0x10de"},  /* a 3D controller, NVIDIA */
                                          {"0000:5e:00.0", "0x030000", "0x1002"},  /* a VGA controller, AMD */
                                          {"0000:02:00.0", "0x030000", "0x1a03"},  /* ASPEED's BMC VGA */
                                          {"0000:00:1f.0", "0x060100", "0x8086"}}; /* a bridge */
    const char *seen_one[] = {"0000:3b:00.0"}, *seen_none[] = {""};
    ASSERT(mkdtemp(root) != NULL);
    for (int i = 0; i < 4; i++) {
        FILE *f;
        for (int k = 0; k < 5; k++) {
            static const char *const parts[] = {"/sys", "/sys/bus", "/sys/bus/pci", "/sys/bus/pci/devices", ""};
            snprintf(path, sizeof path, "%s%s", root, parts[k]);
            if (k == 4)
                snprintf(path, sizeof path, "%s/sys/bus/pci/devices/%s", root, devs[i][0]);
            mkdir(path, 0755);
        }
        for (int k = 1; k < 3; k++) {
            snprintf(path, sizeof path, "%s/sys/bus/pci/devices/%s/%s", root, devs[i][0], k == 1 ? "class" : "vendor");
            ASSERT((f = fopen(path, "w")) != NULL);
            fprintf(f, "%s\n", devs[i][k]);
            fclose(f);
        }
    }
    ASSERT(vkb_health_pci_scan(root, seen_one, 1, missing, sizeof missing) == 2);
    ASSERT(strcmp(missing, "0000:5e:00.0") == 0);
    ASSERT(vkb_health_pci_scan(root, NULL, 0, missing, sizeof missing) == 2);
    ASSERT(strstr(missing, "0000:5e:00.0") && strstr(missing, "0000:3b:00.0") && !strstr(missing, "02:00"));
    /* a Vulkan GPU without its PCI address stands for one of them: only the count can tell */
    ASSERT(vkb_health_pci_scan(root, seen_none, 1, missing, sizeof missing) == 2 && strchr(missing, ',') == NULL &&
           missing[0]);
    ASSERT(vkb_health_pci_scan("/nonexistent", NULL, 0, missing, sizeof missing) == 0 && !missing[0]);
}

/* One GPU two driver manifests list is one GPU of the node: --expect 2 finds one, and the other is missing; three
 * lavapipes with --allow-cpu (the tests' node of three) are three. */
static void listed_twice_counts_once(void)
{
    static vkb_health h;
    char again[200], why[200];
    int total;
    memset(&h, 0, sizeof h);
    h.caps[0] = h.caps[1] = test_listing_gpu("NVIDIA H100", "0000:65:00.0", 0xa1);
    h.caps[2] = test_listing_lavapipe();
    h.ndevices = 3;
    ASSERT(vkb_health_gpus(&h, 0, again, sizeof again) == 0);
    ASSERT(h.ngpus == 1 && h.gpus[0] == 0 && strcmp(h.device_list, "0") == 0);
    ASSERT(strcmp(again, "device 1 is device 0 (pci 0000:65:00.0)") == 0);
    ASSERT(vkb_health_expect(&h, "2", &total, why, sizeof why) == 1 && total == 2);
    ASSERT(strcmp(why, "expected 2 GPUs, found 1") == 0);
    ASSERT(vkb_health_expect(&h, "1", &total, why, sizeof why) == 0);

    h.caps[0] = h.caps[1] = h.caps[2] = test_listing_lavapipe();
    ASSERT(vkb_health_gpus(&h, 1, again, sizeof again) == 1);
    ASSERT(h.ngpus == 3 && strcmp(h.device_list, "0,1,2") == 0 && again[0] == 0);
    ASSERT(vkb_health_gpus(&h, 0, again, sizeof again) == 1 && h.ngpus == 0 && h.device_list[0] == 0);
}

UNIT_TESTS({"bound", bound}, {"out_of_service_below_half", out_of_service_below_half},
           {"drain_beyond_both_noises", drain_beyond_both_noises}, {"labels_join_dcgm", labels_join_dcgm},
           {"host_text", host_text}, {"baseline_numbers", baseline_numbers}, {"baseline_names", baseline_names},
           {"pci_bus", pci_bus}, {"listed_twice_counts_once", listed_twice_counts_once})
