/* Imports a NIR shader (argv[1]) through the C ABI, prints it, and checks that the printed
 * text imports again and prints identically (printing is a fixed point). */
#include "check.h"

int
main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: %s FILE.nir\n", argv[0]);
      return 2;
   }
   size_t len;
   char *text = read_file(argv[1], &len);
   if (!text) {
      fprintf(stderr, "cannot read %s\n", argv[1]);
      return 1;
   }

   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create("ivb", &compiler), GPUCC_STATUS_OK, "");
   CHECK(compiler != NULL && strcmp(gpucc_compiler_target(compiler), "ivb") == 0);
   gpucc_family family = GPUCC_FAMILY_ETNAVIV;
   CHECK_STATUS(gpucc_compiler_family(compiler, &family), GPUCC_STATUS_OK, "");
   CHECK(family == GPUCC_FAMILY_INTEL);

   gpucc_shader *shader = NULL;
   CHECK_STATUS(gpucc_shader_from_nir_text(text, len, &shader), GPUCC_STATUS_OK, "");
   char *printed = NULL;
   if (shader)
      CHECK_STATUS(gpucc_shader_print(shader, &printed), GPUCC_STATUS_OK, "");

   if (printed) {
      gpucc_shader *again = NULL;
      CHECK_STATUS(gpucc_shader_from_nir_text(printed, strlen(printed), &again),
                   GPUCC_STATUS_OK, "");
      char *printed_again = NULL;
      if (again)
         CHECK_STATUS(gpucc_shader_print(again, &printed_again), GPUCC_STATUS_OK, "");
      CHECK(printed_again && strcmp(printed, printed_again) == 0);
      CHECK(strncmp(printed, "shader: MESA_SHADER_", 20) == 0);
      fputs(printed, stdout);
      gpucc_string_free(printed_again);
      gpucc_shader_destroy(again);
   }

   gpucc_string_free(printed);
   gpucc_shader_destroy(shader);
   gpucc_compiler_destroy(compiler);
   free(text);
   return check_report("import_print");
}
