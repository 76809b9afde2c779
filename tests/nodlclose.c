/* nodlclose.c - preloaded into vkbench in the sanitizer build only: dlclose does nothing, so the Vulkan driver
 * and layers the loader unloads at vkDestroyInstance stay mapped and LeakSanitizer can name the module of
 * an allocation made inside them (tests/lsan.supp); otherwise it reports "<unknown module>". */
int dlclose(void *handle);

int dlclose(void *handle)
{
    (void)handle;
    return 0;
}
