/* test_listing.h - Vulkan devices as the loader lists them, their identity alone: for unit tests of which listings
 * are one GPU (test_same_gpu, test_devices, test_health). */
#ifndef VKB_TEST_LISTING_H
#define VKB_TEST_LISTING_H

#include <stdio.h>
#include <string.h>

#include "caps.h"

/* The UUID lavapipe of Mesa 22.3.6 reports on every listing: "mesa22.3.6", its driver's version. */
static const uint8_t test_lavapipe_uuid[16] = {0x6d, 0x65, 0x73, 0x61, 0x32, 0x32, 0x2e, 0x33, 0x2e, 0x36};

/* A GPU named NAME at PCI address PCI ("" where the driver reports none) whose UUID is 16 bytes of UUID_BYTE. */
static inline vkb_caps test_listing_gpu(const char *name, const char *pci, uint8_t uuid_byte)
{
    vkb_caps c;
    memset(&c, 0, sizeof c);
    snprintf(c.name, sizeof c.name, "%s", name);
    snprintf(c.pci_bus, sizeof c.pci_bus, "%s", pci);
    memset(c.uuid, uuid_byte, sizeof c.uuid);
    c.vendor_id = 0x10de;
    return c;
}

/* lavapipe: a CPU implementation, no PCI address, its driver's UUID. */
static inline vkb_caps test_listing_lavapipe(void)
{
    vkb_caps c;
    memset(&c, 0, sizeof c);
    snprintf(c.name, sizeof c.name, "llvmpipe (LLVM 15.0.6, 256 bits)");
    memcpy(c.uuid, test_lavapipe_uuid, sizeof c.uuid);
    c.vendor_id = 0x10005;
    c.is_cpu = 1;
    return c;
}

#endif
