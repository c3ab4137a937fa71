/* A panic forced inside each entry point (GPUCC_TEST_PANIC names it) comes back as
 * GPUCC_STATUS_INTERNAL with a message, and never aborts or unwinds into C. */
#define _POSIX_C_SOURCE 200112L
#include <stdlib.h>

#include "check.h"

static void
force(const char *entry)
{
   setenv("GPUCC_TEST_PANIC", entry, 1);
}

int
main(void)
{
   gpucc_compiler *compiler = NULL;
   gpucc_shader *shader = NULL;
   gpucc_family family;
   char *str = NULL;

   force("gpucc_compiler_create");
   CHECK_STATUS(gpucc_compiler_create("ivb", &compiler), GPUCC_STATUS_INTERNAL,
                "forced panic in gpucc_compiler_create");
   CHECK(compiler == NULL);
   force("");
   CHECK_STATUS(gpucc_compiler_create("ivb", &compiler), GPUCC_STATUS_OK, "");

   force("gpucc_compiler_family");
   CHECK_STATUS(gpucc_compiler_family(compiler, &family), GPUCC_STATUS_INTERNAL,
                "internal error in gpucc_compiler_family");

   force("gpucc_shader_from_nir_text");
   CHECK_STATUS(gpucc_shader_from_nir_text(tiny_shader, strlen(tiny_shader), &shader), GPUCC_STATUS_INTERNAL,
                "forced panic");
   force("");
   CHECK_STATUS(gpucc_shader_from_nir_text(tiny_shader, strlen(tiny_shader), &shader), GPUCC_STATUS_OK, "");

   force("gpucc_shader_print");
   CHECK_STATUS(gpucc_shader_print(shader, &str), GPUCC_STATUS_INTERNAL, "forced panic");
   CHECK(str == NULL);

   /* void entry points swallow the panic but keep the message */
   force("gpucc_shader_destroy");
   gpucc_shader_destroy(NULL);
   CHECK(strstr(gpucc_last_error(), "forced panic in gpucc_shader_destroy") != NULL);
   force("gpucc_string_free");
   gpucc_string_free(NULL);
   CHECK(strstr(gpucc_last_error(), "gpucc_string_free") != NULL);
   force("gpucc_compiler_destroy");
   gpucc_compiler_destroy(NULL);
   CHECK(strstr(gpucc_last_error(), "gpucc_compiler_destroy") != NULL);

   force("");
   gpucc_shader_destroy(shader);
   gpucc_compiler_destroy(compiler);
   return check_report("panic");
}
