/* same_gpu.c - which Vulkan listings are one GPU, from their PCI address and UUID. */
#include "same_gpu.h"

#include <stdio.h>
#include <string.h>

#include "util.h"

static int uuid_known(const vkb_caps *c)
{
    for (size_t i = 0; i < sizeof c->uuid; i++)
        if (c->uuid[i])
            return 1;
    return 0;
}

int vkb_same_gpu(const vkb_caps *a, const vkb_caps *b)
{
    if (a->is_cpu || b->is_cpu)
        return 0;
    if (a->pci_bus[0] && b->pci_bus[0])
        return strcmp(a->pci_bus, b->pci_bus) == 0;
    return uuid_known(a) && memcmp(a->uuid, b->uuid, sizeof a->uuid) == 0;
}

int vkb_same_gpu_count(const vkb_caps *caps, int n, int *first)
{
    int gpus = 0;
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j < i && !vkb_same_gpu(&caps[j], &caps[i]))
            j++;
        gpus += j == i;
        if (first)
            first[i] = j;
    }
    return gpus;
}

void vkb_same_gpu_say(const vkb_caps *caps, int again, int first, char *buf, size_t len)
{
    const vkb_caps *a = &caps[again], *f = &caps[first];
    size_t used = strlen(buf);
    char uuid[40];
    if (used >= len)
        return;
    if (a->pci_bus[0] && f->pci_bus[0])
        snprintf(buf + used, len - used, "%sdevice %d is device %d (pci %s)", used ? ", " : "", again, first,
                 a->pci_bus);
    else
        snprintf(buf + used, len - used, "%sdevice %d is device %d (uuid %s)", used ? ", " : "", again, first,
                 vkb_fmt_uuid(a->uuid, uuid, sizeof uuid));
}

void vkb_same_gpu_warn(const char *again)
{
    if (again[0])
        vkb_warn("the Vulkan loader lists a GPU more than once, and each GPU runs once, as its first listing: %s",
                 again);
}
