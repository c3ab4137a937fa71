/* A shader header that declares more constant data or default uniforms than the target can
 * hold is an INVALID_ARGUMENT status naming the header line, through gpucc_compile: such a
 * header once made the library grow buffers of that size and abort the calling process
 * (shared/fuzz-repro intel-constants-header.nir; issue 24). */
#include "check.h"

static gpucc_shader *
import_with_header(const char *header)
{
   char text[1024];
   snprintf(text, sizeof(text),
            "shader: MESA_SHADER_FRAGMENT\n"
            "name: header\n"
            "inputs: 0\n"
            "outputs: 0\n"
            "%s"
            "decl_function main (0 params)\n"
            "\n"
            "impl main {\n"
            "    block b0:   // preds:\n"
            "    con 32     %%0 = load_const (0x00000000)\n"
            "                    // succs: b1\n"
            "    block b1:\n"
            "}\n",
            header);
   gpucc_shader *shader = NULL;
   CHECK_STATUS(gpucc_shader_from_nir_text(text, strlen(text), &shader), GPUCC_STATUS_OK, "");
   return shader;
}

static void
check_compile(const char *target, const char *header, gpucc_status expected, const char *needle)
{
   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create(target, &compiler), GPUCC_STATUS_OK, "");
   gpucc_shader *shader = import_with_header(header);
   gpucc_program *program = NULL;
   CHECK_STATUS(gpucc_compile(compiler, shader, NULL, &program), expected, needle);
   CHECK((program != NULL) == (expected == GPUCC_STATUS_OK));
   gpucc_program_destroy(program);
   gpucc_shader_destroy(shader);
   gpucc_compiler_destroy(compiler);
}

int
main(void)
{
   const char *intel[] = {"ivb", "hsw", "bdw", "skl"};
   for (unsigned i = 0; i < sizeof(intel) / sizeof(intel[0]); i++) {
      check_compile(intel[i], "uniforms: 0\nconstants: 4000000000\n",
                    GPUCC_STATUS_INVALID_ARGUMENT, "constants: 4000000000");
      check_compile(intel[i], "uniforms: 4000000000\n", GPUCC_STATUS_INVALID_ARGUMENT,
                    "uniforms: 4000000000");
      /* the bounds themselves: 1 GiB of constant data, 64 KiB of uniforms */
      check_compile(intel[i], "uniforms: 65536\nconstants: 1073741824\n", GPUCC_STATUS_OK, "");
      check_compile(intel[i], "uniforms: 65537\n", GPUCC_STATUS_INVALID_ARGUMENT,
                    "uniforms: 65537");
   }
   const char *vivante[] = {"gc2000", "gc3000", "gc7000"};
   for (unsigned i = 0; i < sizeof(vivante) / sizeof(vivante[0]); i++)
      check_compile(vivante[i], "uniforms: 4000000000\n", GPUCC_STATUS_INVALID_ARGUMENT,
                    "uniform slots");
   return check_report("header_limits");
}
