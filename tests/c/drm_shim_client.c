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

   /* A dispatch of the blob as a SIMD8 kernel over one buffer: the shim checks the
    * execbuffer's shape (batch last, with relocations, qword-aligned length). */
   gpucc_bo *data = NULL;
   CHECK_STATUS(gpucc_device_upload(dev, code, sizeof(code), &data), GPUCC_STATUS_OK, "");
   gpucc_compute_dispatch desc;
   memset(&desc, 0, sizeof(desc));
   desc.simd_width = 8;
   desc.local_size = 8;
   desc.groups[0] = 2;
   desc.groups[1] = 1;
   desc.groups[2] = 1;
   const gpucc_bo *bound[1] = {data};
   CHECK_STATUS(gpucc_device_dispatch_compute(dev, bo, &desc, bound, 1), GPUCC_STATUS_OK, "");
   desc.simd_width = 12;
   CHECK_STATUS(gpucc_device_dispatch_compute(dev, bo, &desc, bound, 1),
                GPUCC_STATUS_INVALID_ARGUMENT, "SIMD width 12");

   CHECK_STATUS(gpucc_bo_destroy(dev, data), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_bo_destroy(dev, bo), GPUCC_STATUS_OK, "");

   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create_for_device(dev, &compiler), GPUCC_STATUS_OK, "");
   CHECK(compiler && strcmp(gpucc_compiler_target(compiler), "ivb") == 0);
   gpucc_compiler_destroy(compiler);
   gpucc_device_destroy(dev);
   return check_report("drm_shim_client");
}
