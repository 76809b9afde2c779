/* test_same_gpu.c - which Vulkan listings are one GPU (host/core/same_gpu.c): a GPU two driver manifests list is
 * one GPU, two GPUs of one model are two, and lavapipe listed three times (how the tests make several devices) is
 * three devices. */
#include "same_gpu.h"
#include "test_listing.h"
#include "unit.h"

/* One GPU listed twice, by two manifests of its driver: one PCI address, one UUID; one GPU, its first listing first. */
static void one_pci_is_one(void)
{
    vkb_caps c[2] = {test_listing_gpu("NVIDIA H100", "0000:65:00.0", 0xa1),
                     test_listing_gpu("NVIDIA H100", "0000:65:00.0", 0xa1)};
    int first[2] = {-1, -1};
    ASSERT(vkb_same_gpu(&c[0], &c[1]));
    ASSERT(vkb_same_gpu_count(c, 2, first) == 1);
    ASSERT(first[0] == 0 && first[1] == 0);
}

/* Two GPUs of one model: two PCI addresses. */
static void two_pci_are_two(void)
{
    vkb_caps c[2] = {test_listing_gpu("NVIDIA H100", "0000:65:00.0", 0xa1),
                     test_listing_gpu("NVIDIA H100", "0000:b3:00.0", 0xb2)};
    int first[2];
    ASSERT(!vkb_same_gpu(&c[0], &c[1]));
    ASSERT(vkb_same_gpu_count(c, 2, first) == 2 && first[0] == 0 && first[1] == 1);
}

/* lavapipe three times: no PCI address, one UUID (its driver's version), a CPU implementation: three devices. */
static void lavapipe_three_are_three(void)
{
    vkb_caps c[3] = {test_listing_lavapipe(), test_listing_lavapipe(), test_listing_lavapipe()};
    int first[3];
    ASSERT(vkb_same_gpu_count(c, 3, first) == 3);
    ASSERT(first[0] == 0 && first[1] == 1 && first[2] == 2);
}

/* One UUID at two PCI addresses (a driver that makes its UUID from the model alone): the address decides. */
static void one_uuid_two_pci_are_two(void)
{
    vkb_caps c[2] = {test_listing_gpu("GPU", "0000:65:00.0", 0x11), test_listing_gpu("GPU", "0000:b3:00.0", 0x11)};
    ASSERT(!vkb_same_gpu(&c[0], &c[1]));
    ASSERT(vkb_same_gpu_count(c, 2, NULL) == 2);
}

/* Without both PCI addresses the UUID decides, unless it is all zero (a driver that reports none). */
static void uuid_without_pci(void)
{
    vkb_caps c[6] = {test_listing_gpu("GPU", "", 0x11),
                     test_listing_gpu("GPU", "", 0x11),             /* one GPU: its driver has no PCI address */
                     test_listing_gpu("GPU", "0000:65:00.0", 0x11), /* ... and its twin, through a layer, has one */
                     test_listing_gpu("GPU", "", 0x22),
                     test_listing_gpu("GPU", "", 0x00),
                     test_listing_gpu("GPU", "", 0x00)};
    int first[6];
    ASSERT(vkb_same_gpu_count(c, 6, first) == 4);
    ASSERT(first[1] == 0 && first[2] == 0 && first[3] == 3 && first[4] == 4 && first[5] == 5);
}

/* What the line says: which listing is which, by the identity that tells them one. */
static void says_which(void)
{
    vkb_caps c[4] = {test_listing_gpu("GPU", "0000:65:00.0", 0xa1), test_listing_gpu("GPU", "0000:65:00.0", 0xa1),
                     test_listing_gpu("GPU", "", 0x12), test_listing_gpu("GPU", "", 0x12)};
    char buf[200] = "";
    vkb_same_gpu_say(c, 1, 0, buf, sizeof buf);
    ASSERT(strcmp(buf, "device 1 is device 0 (pci 0000:65:00.0)") == 0);
    vkb_same_gpu_say(c, 3, 2, buf, sizeof buf);
    ASSERT(strcmp(buf, "device 1 is device 0 (pci 0000:65:00.0), device 3 is device 2 "
                       "(uuid 12121212-1212-1212-1212-121212121212)") == 0);
    vkb_same_gpu_say(c, 1, 0, buf, 10); /* full: left as it is */
    ASSERT(strlen(buf) > 10);
}

UNIT_TESTS({"one_pci_is_one", one_pci_is_one}, {"two_pci_are_two", two_pci_are_two},
           {"lavapipe_three_are_three", lavapipe_three_are_three},
           {"one_uuid_two_pci_are_two", one_uuid_two_pci_are_two}, {"uuid_without_pci", uuid_without_pci},
           {"says_which", says_which})
