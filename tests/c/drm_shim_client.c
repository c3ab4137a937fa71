/* Runs under tests/c/drm_shim.c (LD_PRELOAD): opens the pretend Ivy Bridge node through the C
 * ABI, uploads a blob, dispatches a compiled compute program and creates a compiler for it. With the argument "amdgpu" the shim
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

   /* A dispatch of a compiled compute program over one buffer, from the program object and
    * the group counts alone: the shim checks the execbuffer's shape (batch last, with
    * relocations, qword-aligned length). */
   static const char cs_text[] =
      "shader: MESA_SHADER_COMPUTE\n"
      "name: cs\n"
      "workgroup_size: 8, 1, 1\n"
      "inputs: 0\n"
      "outputs: 0\n"
      "uniforms: 0\n"
      "decl_function main (0 params)\n"
      "\n"
      "impl main {\n"
      "    block b0:  // preds:\n"
      "    32    %0 = @load_local_invocation_index () ()\n"
      "    32    %1 = load_const (0x00000000)\n"
      "    32    %2 = load_const (0x00000004)\n"
      "    32    %3 = imul %0, %2\n"
      "    @store_ssbo (%0, %1, %3) (wrmask=x, access=none, align_mul=4, align_offset=0)\n"
      "    // succs: b1\n"
      "    block b1:\n"
      "}\n";
   gpucc_compiler *cc = NULL;
   gpucc_shader *shader = NULL;
   gpucc_program *program = NULL;
   CHECK_STATUS(gpucc_compiler_create_for_device(dev, &cc), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_shader_from_nir_text(cs_text, sizeof(cs_text) - 1, &shader),
                GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_compile(cc, shader, NULL, &program), GPUCC_STATUS_OK, "");
   gpucc_bo *code_bo = NULL, *data = NULL;
   CHECK_STATUS(gpucc_program_upload(dev, program, &code_bo), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_device_upload(dev, code, sizeof(code), &data), GPUCC_STATUS_OK, "");
   gpucc_compute_launch launch;
   memset(&launch, 0, sizeof(launch));
   launch.struct_size = sizeof(launch);
   launch.groups[0] = 2;
   launch.groups[1] = 1;
   launch.groups[2] = 1;
   const gpucc_bo *bound[1] = {data};
   CHECK_STATUS(gpucc_device_dispatch_compute(dev, program, code_bo, &launch, bound, 1),
                GPUCC_STATUS_OK, "");
   launch.struct_size = 8;
   CHECK_STATUS(gpucc_device_dispatch_compute(dev, program, code_bo, &launch, bound, 1),
                GPUCC_STATUS_INVALID_ARGUMENT, "launch->struct_size is 8");
   CHECK_STATUS(gpucc_bo_destroy(dev, code_bo), GPUCC_STATUS_OK, "");
   gpucc_program_destroy(program);
   gpucc_shader_destroy(shader);
   gpucc_compiler_destroy(cc);

   CHECK_STATUS(gpucc_bo_destroy(dev, data), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_bo_destroy(dev, bo), GPUCC_STATUS_OK, "");

   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create_for_device(dev, &compiler), GPUCC_STATUS_OK, "");
   CHECK(compiler && strcmp(gpucc_compiler_target(compiler), "ivb") == 0);
   gpucc_compiler_destroy(compiler);
   gpucc_device_destroy(dev);
   return check_report("drm_shim_client");
}
