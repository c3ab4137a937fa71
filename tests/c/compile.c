/* Compiling through the C ABI: an Intel and a Vivante shader (argv[1], argv[2]) compile, the
 * program getters agree with each other, several threads compiling with one compiler get the
 * same bytes, and every error path returns a status with a message. */
#include <pthread.h>

#include "check.h"

struct job {
   const gpucc_compiler *compiler;
   const gpucc_shader *shader;
   gpucc_status status;
   size_t size;
   unsigned char code[65536];
};

static void *
compile_job(void *arg)
{
   struct job *j = arg;
   gpucc_program *p = NULL;
   j->status = gpucc_compile(j->compiler, j->shader, NULL, &p);
   if (j->status == GPUCC_STATUS_OK) {
      const uint8_t *code;
      gpucc_program_code(p, &code, &j->size);
      memcpy(j->code, code, j->size < sizeof(j->code) ? j->size : sizeof(j->code));
   }
   gpucc_program_destroy(p);
   return NULL;
}

static gpucc_shader *
import(const char *path)
{
   size_t len;
   char *text = read_file(path, &len);
   if (!text) {
      fprintf(stderr, "cannot read %s\n", path);
      exit(2);
   }
   gpucc_shader *shader = NULL;
   CHECK_STATUS(gpucc_shader_from_nir_text(text, len, &shader), GPUCC_STATUS_OK, "");
   free(text);
   return shader;
}

static void
check_intel(const gpucc_shader *shader, const char *target)
{
   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create(target, &compiler), GPUCC_STATUS_OK, "");
   gpucc_compile_options opts = {.struct_size = sizeof(gpucc_compile_options), .simd_mask = 1 | 2};
   gpucc_program *program = NULL;
   CHECK_STATUS(gpucc_compile(compiler, shader, &opts, &program), GPUCC_STATUS_OK, "");
   if (!program)
      return;

   gpucc_program_info info = {.struct_size = sizeof(gpucc_program_info)};
   CHECK_STATUS(gpucc_program_get_info(program, &info), GPUCC_STATUS_OK, "");
   const uint8_t *code = NULL;
   size_t size = 0;
   CHECK_STATUS(gpucc_program_code(program, &code, &size), GPUCC_STATUS_OK, "");
   CHECK(code != NULL && size > 0 && size == info.code_size);
   CHECK(info.family == GPUCC_FAMILY_INTEL && info.stage == GPUCC_STAGE_FRAGMENT);
   /* SIMD8 comes first; instructions are 16 bytes native or 8 compacted */
   CHECK(info.simd8_offset == 0 && info.simd8_offset != UINT32_MAX);
   CHECK(info.simd16_offset == UINT32_MAX || (info.simd16_offset > 0 && info.simd16_offset < size));
   CHECK(info.simd32_offset == UINT32_MAX);
   CHECK(size % 8 == 0 && info.instructions > 0 && info.sends >= 1);
   CHECK(info.inputs == 1);
   /* one smooth input: perspective pixel barycentrics only (Mesa's mode 0); one colour */
   CHECK(info.barycentric_modes == 1);
   CHECK(!info.dual_source_blend);

   char *stats = NULL, *asm_text = NULL;
   CHECK_STATUS(gpucc_program_stats(program, &stats), GPUCC_STATUS_OK, "");
   CHECK(stats && strncmp(stats, "SIMD8 shader: ", 14) == 0);
   CHECK_STATUS(gpucc_program_disassemble(program, &asm_text), GPUCC_STATUS_OK, "");
   CHECK(asm_text && strstr(asm_text, "sendc") && strstr(asm_text, "EOT"));
   gpucc_string_free(stats);
   gpucc_string_free(asm_text);
   gpucc_program_destroy(program);

   /* one compiler, four threads, identical bytes */
   struct job jobs[4];
   pthread_t threads[4];
   for (int i = 0; i < 4; i++) {
      jobs[i].compiler = compiler;
      jobs[i].shader = shader;
      pthread_create(&threads[i], NULL, compile_job, &jobs[i]);
   }
   for (int i = 0; i < 4; i++)
      pthread_join(threads[i], NULL);
   for (int i = 0; i < 4; i++) {
      CHECK(jobs[i].status == GPUCC_STATUS_OK && jobs[i].size == jobs[0].size);
      CHECK(memcmp(jobs[i].code, jobs[0].code, jobs[0].size) == 0);
   }
   gpucc_compiler_destroy(compiler);
}

static void
check_etnaviv(const gpucc_shader *shader)
{
   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create("gc3000", &compiler), GPUCC_STATUS_OK, "");
   gpucc_program *program = NULL;
   CHECK_STATUS(gpucc_compile(compiler, shader, NULL, &program), GPUCC_STATUS_OK, "");
   gpucc_program_info info = {.struct_size = sizeof(gpucc_program_info)};
   CHECK_STATUS(gpucc_program_get_info(program, &info), GPUCC_STATUS_OK, "");
   CHECK(info.family == GPUCC_FAMILY_ETNAVIV && info.stage == GPUCC_STAGE_FRAGMENT);
   /* four 32-bit words per instruction */
   CHECK(info.code_size == 16 * (size_t)info.instructions && info.instructions > 0);
   CHECK(info.registers >= 2 && info.simd8_offset == UINT32_MAX && info.inputs == 1);
   char *stats = NULL;
   CHECK_STATUS(gpucc_program_stats(program, &stats), GPUCC_STATUS_OK, "");
   CHECK(stats && strncmp(stats, "FRAG shader: ", 13) == 0);
   gpucc_string_free(stats);
   gpucc_program_destroy(program);
   gpucc_compiler_destroy(compiler);
}

int
main(int argc, char **argv)
{
   if (argc != 3) {
      fprintf(stderr, "usage: %s INTEL.nir ETNAVIV.nir\n", argv[0]);
      return 2;
   }
   gpucc_shader *intel = import(argv[1]);
   gpucc_shader *etna = import(argv[2]);
   check_intel(intel, "ivb");
   check_intel(intel, "bdw");
   check_etnaviv(etna);

   /* error paths */
   gpucc_compiler *compiler = NULL;
   gpucc_program *program = (gpucc_program *)0x1;
   CHECK_STATUS(gpucc_compiler_create("ivb", &compiler), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_compile(NULL, intel, NULL, &program), GPUCC_STATUS_INVALID_ARGUMENT,
                "compiler is NULL");
   CHECK_STATUS(gpucc_compile(compiler, NULL, NULL, &program), GPUCC_STATUS_INVALID_ARGUMENT,
                "shader is NULL");
   CHECK_STATUS(gpucc_compile(compiler, intel, NULL, NULL), GPUCC_STATUS_INVALID_ARGUMENT,
                "out is NULL");
   gpucc_compile_options bad = {.struct_size = sizeof bad, .simd_mask = 8};
   CHECK_STATUS(gpucc_compile(compiler, intel, &bad, &program), GPUCC_STATUS_INVALID_ARGUMENT,
                "simd_mask 0x8");
   CHECK(program == (gpucc_program *)0x1);
   gpucc_compiler_destroy(compiler);

   /* Gen4 has no scalar backend: UNSUPPORTED naming the reason */
   CHECK_STATUS(gpucc_compiler_create("brw", &compiler), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_compile(compiler, intel, NULL, &program), GPUCC_STATUS_UNSUPPORTED, "brw");
   gpucc_compiler_destroy(compiler);
   /* an Intel-flavoured shader on a GC2000 lacks what that core needs */
   CHECK_STATUS(gpucc_compiler_create("gc2000", &compiler), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_compile(compiler, etna, NULL, &program), GPUCC_STATUS_UNSUPPORTED,
                "gc2000");
   gpucc_compiler_destroy(compiler);

   gpucc_program_info info = {.struct_size = sizeof(gpucc_program_info)};
   const uint8_t *code;
   size_t size;
   char *str;
   CHECK_STATUS(gpucc_program_get_info(NULL, &info), GPUCC_STATUS_INVALID_ARGUMENT,
                "program is NULL");
   CHECK_STATUS(gpucc_program_code(NULL, &code, &size), GPUCC_STATUS_INVALID_ARGUMENT,
                "program is NULL");
   CHECK_STATUS(gpucc_program_stats(NULL, &str), GPUCC_STATUS_INVALID_ARGUMENT,
                "program is NULL");
   CHECK_STATUS(gpucc_program_disassemble(NULL, &str), GPUCC_STATUS_INVALID_ARGUMENT,
                "program is NULL");
   gpucc_program_destroy(NULL);

   gpucc_shader_destroy(intel);
   gpucc_shader_destroy(etna);
   return check_report("compile");
}
