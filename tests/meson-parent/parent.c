/* A driver-side smoke test: create a compiler for a target, import a shader, print it. */
#include <stdio.h>
#include <string.h>

#include "gpucc.h"

static const char text[] = "shader: MESA_SHADER_FRAGMENT\n"
                           "name: parent\n"
                           "inputs: 0\n"
                           "outputs: 0\n"
                           "uniforms: 0\n"
                           "decl_function main (0 params)\n"
                           "\n"
                           "impl main {\n"
                           "    block b0:   // preds:\n"
                           "    con 32     %0 = load_const (0x3f800000 = 1.000000)\n"
                           "                    // succs: b1\n"
                           "    block b1:\n"
                           "}\n";

int
main(void)
{
   gpucc_compiler *compiler;
   if (gpucc_compiler_create("bdw", &compiler) != GPUCC_STATUS_OK) {
      fprintf(stderr, "compiler: %s\n", gpucc_last_error());
      return 1;
   }
   gpucc_shader *shader;
   if (gpucc_shader_from_nir_text(text, strlen(text), &shader) != GPUCC_STATUS_OK) {
      fprintf(stderr, "import: %s\n", gpucc_last_error());
      return 1;
   }
   char *printed;
   if (gpucc_shader_print(shader, &printed) != GPUCC_STATUS_OK) {
      fprintf(stderr, "print: %s\n", gpucc_last_error());
      return 1;
   }
   printf("gpucc %s for %s:\n%s", gpucc_version(), gpucc_compiler_target(compiler), printed);
   int ok = strstr(printed, "name: parent") != NULL;
   gpucc_string_free(printed);
   gpucc_shader_destroy(shader);
   gpucc_compiler_destroy(compiler);
   return ok ? 0 : 1;
}
