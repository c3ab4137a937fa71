/* A minimal compute "driver" on gpucc: open a render node, compile a compute shader from NIR
 * text, put its code and a data buffer on the GPU, dispatch it, read the buffer back and
 * check every element.
 *
 * Usage: compute [NODE]. NODE is a render node path ("/dev/dri/renderD128") or a simulated
 * node ("sim:ivb", "sim:hsw", "sim:bdw", "sim:skl"). Without NODE the first i915 render node is used,
 * and gpucc's simulated Ivy Bridge node when the machine has none. The program is the same
 * on real hardware and on the simulated node.
 *
 * The shader: 4 workgroups of 64 invocations; invocation g (global index) replaces element g
 * of the buffer, d, by 3 d + g + u, where u is the first dword of the uniform data. */
#include <gpucc.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char shader_text[] =
   "shader: MESA_SHADER_COMPUTE\n"
   "name: scale-and-offset\n"
   "workgroup_size: 64, 1, 1\n"
   "shared_size: 0\n"
   "inputs: 0\n"
   "outputs: 0\n"
   "uniforms: 0\n"
   "decl_function main (0 params)\n"
   "\n"
   "impl main {\n"
   "    block b0:  // preds:\n"
   "    32    %0 = @load_local_invocation_index () ()\n"
   "    32x3  %1 = @load_workgroup_id () ()\n"
   "    32    %2 = load_const (0x00000000)\n"
   "    32    %3 = load_const (0x00000040)\n"
   "    32    %4 = load_const (0x00000004)\n"
   "    32    %5 = load_const (0x00000003)\n"
   "    32    %6 = imul %1.x, %3\n"
   "    32    %7 = iadd %6, %0\n"
   "    32    %8 = imul %7, %4\n"
   "    32    %9 = @load_ssbo (%2, %8) (access=none, align_mul=4, align_offset=0)\n"
   "    32    %10 = @load_ubo (%2, %2) (access=none, align_mul=4, align_offset=0, "
   "range_base=0, range=-1)\n"
   "    32    %11 = imul %9, %5\n"
   "    32    %12 = iadd %11, %7\n"
   "    32    %13 = iadd %12, %10\n"
   "    @store_ssbo (%13, %2, %8) (wrmask=x, access=none, align_mul=4, align_offset=0)\n"
   "    // succs: b1\n"
   "    block b1:\n"
   "}\n";

#define GROUPS 4
#define LOCAL 64
#define COUNT (GROUPS * LOCAL)

static int
failed(const char *what, gpucc_status s)
{
   fprintf(stderr, "compute: %s failed (status %d): %s\n", what, (int)s, gpucc_last_error());
   return 1;
}

int
main(int argc, char **argv)
{
   gpucc_device *dev = NULL;
   gpucc_status s;
   if (argc > 1) {
      s = gpucc_device_open(argv[1], &dev);
   } else {
      s = gpucc_device_open(NULL, &dev);
      if (s != GPUCC_STATUS_OK) {
         printf("no usable render node (%s); using the simulated one\n", gpucc_last_error());
         s = gpucc_device_open("sim:ivb", &dev);
      }
   }
   if (s != GPUCC_STATUS_OK)
      return failed("opening the device", s);
   printf("device: %s\n", gpucc_device_target(dev));

   gpucc_compiler *compiler = NULL;
   gpucc_shader *shader = NULL;
   gpucc_program *program = NULL;
   if ((s = gpucc_compiler_create_for_device(dev, &compiler)) != GPUCC_STATUS_OK)
      return failed("gpucc_compiler_create_for_device", s);
   if ((s = gpucc_shader_from_nir_text(shader_text, strlen(shader_text), &shader)) !=
       GPUCC_STATUS_OK)
      return failed("gpucc_shader_from_nir_text", s);
   if ((s = gpucc_compile(compiler, shader, NULL, &program)) != GPUCC_STATUS_OK)
      return failed("gpucc_compile", s);

   uint32_t data[COUNT];
   for (uint32_t i = 0; i < COUNT; i++)
      data[i] = 1000 + 7 * i;
   const uint32_t uniforms[4] = {500000, 0, 0, 0};

   gpucc_bo *code = NULL, *buffer = NULL;
   if ((s = gpucc_program_upload(dev, program, &code)) != GPUCC_STATUS_OK)
      return failed("gpucc_program_upload", s);
   if ((s = gpucc_device_upload(dev, (const uint8_t *)data, sizeof(data), &buffer)) != GPUCC_STATUS_OK)
      return failed("gpucc_device_upload", s);

   gpucc_compute_launch launch;
   memset(&launch, 0, sizeof(launch));
   launch.struct_size = sizeof(launch);
   launch.groups[0] = GROUPS;
   launch.groups[1] = 1;
   launch.groups[2] = 1;
   launch.uniforms = (const uint8_t *)uniforms;
   launch.uniforms_size = sizeof(uniforms);
   const gpucc_bo *buffers[1] = {buffer};
   if ((s = gpucc_device_dispatch_compute(dev, program, code, &launch, buffers, 1)) !=
       GPUCC_STATUS_OK)
      return failed("gpucc_device_dispatch_compute", s);

   uint32_t result[COUNT];
   if ((s = gpucc_bo_read(dev, buffer, 0, (uint8_t *)result, sizeof(result))) != GPUCC_STATUS_OK)
      return failed("gpucc_bo_read", s);

   int errors = 0;
   for (uint32_t g = 0; g < COUNT; g++) {
      uint32_t want = 3 * data[g] + g + uniforms[0];
      if (result[g] != want && errors++ < 8)
         fprintf(stderr, "element %u: expected %u, got %u\n", g, want, result[g]);
   }

   gpucc_bo_destroy(dev, buffer);
   gpucc_bo_destroy(dev, code);
   gpucc_program_destroy(program);
   gpucc_shader_destroy(shader);
   gpucc_compiler_destroy(compiler);
   gpucc_device_destroy(dev);
   if (errors) {
      fprintf(stderr, "compute: %d of %d elements wrong\n", errors, COUNT);
      return 1;
   }
   printf("compute: %d elements ok\n", COUNT);
   return 0;
}
