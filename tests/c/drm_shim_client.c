/* Runs under tests/c/drm_shim.c (LD_PRELOAD): opens the pretend Ivy Bridge node through the C
 * ABI, uploads a blob and creates a compiler for it. With the argument "amdgpu" the shim
 * reports that driver instead and the open must fail naming it. */
#include "check.h"

#define NODE "/gpucc-shim/renderD128"

int
main(int argc, char **argv)
{
   gpucc_device *dev = NULL;
   if (argc > 1 && strcmp(argv[1], "amdgpu") == 0) {
      CHECK_STATUS(gpucc_device_open(NODE, &dev), GPUCC_STATUS_UNSUPPORTED,
                   NODE " is driven by 'amdgpu', not i915 or etnaviv");
      CHECK(dev == NULL);
      return check_report("drm_shim_client amdgpu");
   }

   CHECK_STATUS(gpucc_device_open(NODE, &dev), GPUCC_STATUS_OK, "");
   if (!dev)
      return check_report("drm_shim_client");
   CHECK(strcmp(gpucc_device_target(dev), "ivb") == 0);

   unsigned char code[100];
   memset(code, 0x5a, sizeof(code));
   gpucc_bo *bo = NULL;
   CHECK_STATUS(gpucc_device_upload(dev, code, sizeof(code), &bo), GPUCC_STATUS_OK, "");
   CHECK(gpucc_bo_handle(bo) == 1);        /* the EINTR'd first attempt was retried */
   CHECK(gpucc_bo_size(bo) == 4096);       /* rounded up to a page */
   CHECK(gpucc_bo_gpu_address(bo) == 0);   /* Gen7: the kernel places buffers */
   CHECK_STATUS(gpucc_bo_destroy(dev, bo), GPUCC_STATUS_OK, "");

   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create_for_device(dev, &compiler), GPUCC_STATUS_OK, "");
   CHECK(compiler && strcmp(gpucc_compiler_target(compiler), "ivb") == 0);
   gpucc_compiler_destroy(compiler);
   gpucc_device_destroy(dev);
   return check_report("drm_shim_client");
}
