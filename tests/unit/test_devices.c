/* test_devices.c - which devices --device names (vkb_devices_pick, host/app/devices.c) when the loader lists one GPU
 * twice: "all" and a name keep its first listing and say which was left out, a list naming both listings is exit 2
 * with one line; lavapipe listed three times stays three devices. */
#include "devices.h"
#include "test_listing.h"
#include "unit.h"

/* Two GPUs, each listed twice (the loader lists one driver manifest's devices, then the other's): 0 and 2 are
 * one, 1 and 3 another. */
static vkb_caps twice[4];

static void list_twice(void)
{
    twice[0] = twice[2] = test_listing_gpu("NVIDIA H100", "0000:65:00.0", 0xa1);
    twice[1] = twice[3] = test_listing_gpu("NVIDIA H100", "0000:b3:00.0", 0xb2);
}

static void all_keeps_first_listing(void)
{
    int out[VKB_MAX_DEVICES];
    char why[300], again[300];
    list_twice();
    ASSERT(vkb_devices_pick("all", twice, 4, out, why, sizeof why, again, sizeof again) == 2);
    ASSERT(out[0] == 0 && out[1] == 1);
    ASSERT(strcmp(again, "device 2 is device 0 (pci 0000:65:00.0), device 3 is device 1 (pci 0000:b3:00.0)") == 0);
    ASSERT(vkb_devices_pick("h100", twice, 4, out, why, sizeof why, again, sizeof again) == 2); /* a name alike */
    ASSERT(out[0] == 0 && out[1] == 1 && strstr(again, "device 3 is device 1"));
    ASSERT(vkb_devices_pick("1,0", twice, 4, out, why, sizeof why, again, sizeof again) == 2); /* two GPUs */
    ASSERT(out[0] == 1 && out[1] == 0 && again[0] == 0);
}

static void list_naming_both_is_usage(void)
{
    int out[VKB_MAX_DEVICES];
    char why[300], again[300];
    list_twice();
    ASSERT(vkb_devices_pick("0,2", twice, 4, out, why, sizeof why, again, sizeof again) == -VKB_EXIT_USAGE);
    ASSERT(strcmp(why, "--device '0,2' names one GPU twice: device 2 is device 0 (pci 0000:65:00.0)") == 0);
    ASSERT(vkb_devices_pick("3,all", twice, 4, out, why, sizeof why, again, sizeof again) == -VKB_EXIT_USAGE);
    ASSERT(strstr(why, "names one GPU twice: device 1 is device 3") && !strchr(why, '\n'));
    ASSERT(vkb_devices_pick("0,0", twice, 4, out, why, sizeof why, again, sizeof again) == -VKB_EXIT_USAGE);
    ASSERT(strcmp(why, "--device '0,0' names device 0 (NVIDIA H100) twice") == 0);
}

/* lavapipe three times, as the tests make a node of three devices: three devices, nothing said. */
static void lavapipe_stays_three(void)
{
    vkb_caps c[3] = {test_listing_lavapipe(), test_listing_lavapipe(), test_listing_lavapipe()};
    int out[VKB_MAX_DEVICES];
    char why[300], again[300];
    ASSERT(vkb_devices_pick("all", c, 3, out, why, sizeof why, again, sizeof again) == 3);
    ASSERT(out[0] == 0 && out[1] == 1 && out[2] == 2 && again[0] == 0);
    ASSERT(vkb_devices_pick("0,2", c, 3, out, why, sizeof why, again, sizeof again) == 2);
    ASSERT(vkb_devices_pick("7", c, 3, out, why, sizeof why, again, sizeof again) == -VKB_EXIT_NO_DEVICE);
    ASSERT(strstr(why, "no Vulkan device 7: there are 3 (0..2)"));
}

UNIT_TESTS({"all_keeps_first_listing", all_keeps_first_listing},
           {"list_naming_both_is_usage", list_naming_both_is_usage}, {"lavapipe_stays_three", lavapipe_stays_three})
