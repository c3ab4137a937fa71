/* Every entry point's error paths: NULL arguments, malformed text, unknown target. */
#include "check.h"

int
main(void)
{
   /* compiler_create */
   gpucc_compiler *compiler = (gpucc_compiler *)0x1;
   CHECK_STATUS(gpucc_compiler_create(NULL, &compiler), GPUCC_STATUS_INVALID_ARGUMENT,
                "target is NULL");
   CHECK_STATUS(gpucc_compiler_create("ivb", NULL), GPUCC_STATUS_INVALID_ARGUMENT, "out is NULL");
   CHECK_STATUS(gpucc_compiler_create("gen12", &compiler), GPUCC_STATUS_INVALID_ARGUMENT,
                "unknown target 'gen12'");
   /* the message lists the valid names */
   CHECK(strstr(gpucc_last_error(), "ivb") && strstr(gpucc_last_error(), "gc7000"));
   CHECK(compiler == (gpucc_compiler *)0x1); /* untouched on failure */
   CHECK_STATUS(gpucc_compiler_create("\xff", &compiler), GPUCC_STATUS_INVALID_ARGUMENT,
                "not UTF-8");
   static const char *targets[] = {"brw", "g4x", "ilk", "snb", "ivb", "hsw",
                                   "bdw", "skl", "gc2000", "gc3000", "gc7000"};
   for (unsigned i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
      compiler = NULL;
      CHECK_STATUS(gpucc_compiler_create(targets[i], &compiler), GPUCC_STATUS_OK, "");
      CHECK(compiler && strcmp(gpucc_compiler_target(compiler), targets[i]) == 0);
      gpucc_compiler_destroy(compiler);
   }
   gpucc_compiler_destroy(NULL);
   CHECK(strcmp(gpucc_compiler_target(NULL), "") == 0);
   gpucc_family family;
   CHECK_STATUS(gpucc_compiler_family(NULL, &family), GPUCC_STATUS_INVALID_ARGUMENT,
                "compiler is NULL");
   CHECK_STATUS(gpucc_compiler_create("gc3000", &compiler), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_compiler_family(compiler, NULL), GPUCC_STATUS_INVALID_ARGUMENT,
                "out is NULL");
   CHECK_STATUS(gpucc_compiler_family(compiler, &family), GPUCC_STATUS_OK, "");
   CHECK(family == GPUCC_FAMILY_ETNAVIV);
   gpucc_compiler_destroy(compiler);

   /* shader_from_nir_text */
   gpucc_shader *shader = NULL;
   CHECK_STATUS(gpucc_shader_from_nir_text(NULL, 10, &shader), GPUCC_STATUS_INVALID_ARGUMENT,
                "text is NULL");
   CHECK_STATUS(gpucc_shader_from_nir_text(tiny_shader, strlen(tiny_shader), NULL),
                GPUCC_STATUS_INVALID_ARGUMENT, "out is NULL");
   CHECK_STATUS(gpucc_shader_from_nir_text("", 0, &shader), GPUCC_STATUS_PARSE_ERROR, "1:1");
   CHECK_STATUS(gpucc_shader_from_nir_text("shader: MESA_SHADER_FRAGMENT\nbogus line\n", 41,
                                           &shader),
                GPUCC_STATUS_PARSE_ERROR, "2:1");
   /* only `len` bytes are read: the same text cut short is truncated input */
   CHECK_STATUS(gpucc_shader_from_nir_text(tiny_shader, strlen(tiny_shader) - 3, &shader),
                GPUCC_STATUS_PARSE_ERROR, ":");
   CHECK_STATUS(gpucc_shader_from_nir_text("shader: \xc3\x28", 10, &shader),
                GPUCC_STATUS_PARSE_ERROR, "1:9: invalid UTF-8");
   CHECK(shader == NULL);
   /* an undefined SSA value is a parse (validation) error with a location */
   static const char undefined[] = "shader: MESA_SHADER_FRAGMENT\n"
                                   "name: bad\n"
                                   "inputs: 0\n"
                                   "outputs: 0\n"
                                   "uniforms: 0\n"
                                   "decl_function main (0 params)\n"
                                   "\n"
                                   "impl main {\n"
                                   "    block b0:   // preds:\n"
                                   "    con 32     %1 = fadd %7, %7\n"
                                   "                    // succs: b1\n"
                                   "    block b1:\n"
                                   "}\n";
   CHECK_STATUS(gpucc_shader_from_nir_text(undefined, strlen(undefined), &shader),
                GPUCC_STATUS_PARSE_ERROR, "10:");
   CHECK_STATUS(gpucc_shader_from_nir_text(tiny_shader, strlen(tiny_shader), &shader), GPUCC_STATUS_OK, "");

   /* shader_print */
   char *str = NULL;
   CHECK_STATUS(gpucc_shader_print(NULL, &str), GPUCC_STATUS_INVALID_ARGUMENT, "shader is NULL");
   CHECK_STATUS(gpucc_shader_print(shader, NULL), GPUCC_STATUS_INVALID_ARGUMENT, "out is NULL");
   CHECK_STATUS(gpucc_shader_print(shader, &str), GPUCC_STATUS_OK, "");
   CHECK(str && strstr(str, "load_const"));
   gpucc_string_free(str);
   gpucc_string_free(NULL);
   gpucc_shader_destroy(shader);
   gpucc_shader_destroy(NULL);

   /* a failure leaves its message; a later success clears it */
   CHECK_STATUS(gpucc_compiler_create("nope", &compiler), GPUCC_STATUS_INVALID_ARGUMENT, "nope");
   CHECK_STATUS(gpucc_compiler_create("bdw", &compiler), GPUCC_STATUS_OK, "");
   CHECK(strcmp(gpucc_last_error(), "") == 0);
   gpucc_compiler_destroy(compiler);
   return check_report("errors");
}
