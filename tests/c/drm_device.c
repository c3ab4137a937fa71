/* The device entry points from C on a machine without a supported GPU: every failure is a
 * status and a message, never a crash. Pass "no-nodes" when /dev/dri has no render nodes to
 * also check the message for opening the first node. */
#include "check.h"

int
main(int argc, char **argv)
{
   gpucc_device *dev = (gpucc_device *)0x1;

   CHECK_STATUS(gpucc_device_open("/nonexistent/renderD128", &dev), GPUCC_STATUS_DEVICE_ERROR,
                "cannot open /nonexistent/renderD128: No such file or directory");
   CHECK(dev == (gpucc_device *)0x1); /* untouched on failure */

   CHECK_STATUS(gpucc_device_open("/dev/null", &dev), GPUCC_STATUS_DEVICE_ERROR,
                "DRM_IOCTL_VERSION failed");
   CHECK_STATUS(gpucc_device_open(NULL, NULL), GPUCC_STATUS_INVALID_ARGUMENT, "out is NULL");

   if (argc > 1 && strcmp(argv[1], "no-nodes") == 0) {
      CHECK_STATUS(gpucc_device_open(NULL, &dev), GPUCC_STATUS_DEVICE_ERROR,
                   "no i915 or etnaviv render node found");
      CHECK(dev == (gpucc_device *)0x1);
   }

   CHECK(strcmp(gpucc_device_target(NULL), "") == 0);
   gpucc_device_destroy(NULL);

   gpucc_bo *bo = NULL;
   CHECK_STATUS(gpucc_device_upload(NULL, NULL, 0, &bo), GPUCC_STATUS_INVALID_ARGUMENT,
                "dev is NULL");
   CHECK(gpucc_bo_handle(NULL) == 0 && gpucc_bo_gpu_address(NULL) == 0);
   CHECK_STATUS(gpucc_bo_destroy(NULL, NULL), GPUCC_STATUS_OK, "");

   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create_for_device(NULL, &compiler), GPUCC_STATUS_INVALID_ARGUMENT,
                "dev is NULL");
   CHECK(compiler == NULL);

   return check_report("drm_device");
}
