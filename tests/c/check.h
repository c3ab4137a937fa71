/* Tiny assertion helpers shared by the C ABI tests (test scaffolding only; the tests use no
 * gpucc interface but include/gpucc.h). */
#ifndef GPUCC_TEST_CHECK_H
#define GPUCC_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucc.h"

static int check_failures;

/* The smallest valid fragment shader: one constant, no inputs or outputs. */
static const char tiny_shader[] = "shader: MESA_SHADER_FRAGMENT\n"
                                  "name: tiny\n"
                                  "inputs: 0\n"
                                  "outputs: 0\n"
                                  "uniforms: 0\n"
                                  "decl_function main (0 params)\n"
                                  "\n"
                                  "impl main {\n"
                                  "    block b0:   // preds:\n"
                                  "    con 32     %0 = load_const (0x00000000)\n"
                                  "                    // succs: b1\n"
                                  "    block b1:\n"
                                  "}\n";

#define CHECK(cond)                                                                    \
   do {                                                                                \
      if (!(cond)) {                                                                   \
         fprintf(stderr, "%s:%d: check failed: %s (last error: '%s')\n", __FILE__,    \
                 __LINE__, #cond, gpucc_last_error());                                 \
         check_failures++;                                                             \
      }                                                                                \
   } while (0)

/* Checks a call's status and that the last-error text contains `needle` (or is empty for OK). */
#define CHECK_STATUS(call, expected, needle)                                           \
   do {                                                                                \
      gpucc_status s_ = (call);                                                        \
      if (s_ != (expected)) {                                                          \
         fprintf(stderr, "%s:%d: %s returned %s, expected %s (last error: '%s')\n",   \
                 __FILE__, __LINE__, #call, gpucc_status_name(s_),                     \
                 gpucc_status_name(expected), gpucc_last_error());                     \
         check_failures++;                                                             \
      } else if ((expected) == GPUCC_STATUS_OK && gpucc_last_error()[0] != '\0') {     \
         fprintf(stderr, "%s:%d: %s succeeded but left error '%s'\n", __FILE__,       \
                 __LINE__, #call, gpucc_last_error());                                 \
         check_failures++;                                                             \
      } else if (strstr(gpucc_last_error(), (needle)) == NULL) {                       \
         fprintf(stderr, "%s:%d: %s: error '%s' does not mention '%s'\n", __FILE__,  \
                 __LINE__, #call, gpucc_last_error(), (needle));                       \
         check_failures++;                                                             \
      }                                                                                \
   } while (0)

static inline int
check_report(const char *name)
{
   if (check_failures) {
      fprintf(stderr, "%s: %d check(s) failed\n", name, check_failures);
      return 1;
   }
   printf("%s: ok\n", name);
   return 0;
}

/* Reads a whole file; returns NULL on failure. The caller frees the buffer. */
static inline char *
read_file(const char *path, size_t *len)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   size_t cap = 4096, n = 0;
   char *buf = malloc(cap);
   size_t got;
   while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
      n += got;
      if (n == cap) {
         cap *= 2;
         char *bigger = realloc(buf, cap);
         if (!bigger) {
            free(buf);
            buf = NULL;
         }
         buf = bigger;
      }
   }
   fclose(f);
   *len = n;
   return buf;
}

/* Parses and compiles a NIR text, checking both succeed; NULL (and a failed check) if not. */
static inline gpucc_program *
compile_text(gpucc_compiler *compiler, const char *text, size_t len)
{
   gpucc_shader *shader = NULL;
   CHECK_STATUS(gpucc_shader_from_nir_text(text, len, &shader), GPUCC_STATUS_OK, "");
   gpucc_program *program = NULL;
   CHECK_STATUS(gpucc_compile(compiler, shader, NULL, &program), GPUCC_STATUS_OK, "");
   gpucc_shader_destroy(shader);
   return program;
}

/* Reads and compiles file `name` of directory `dir` (the bundled examples); NULL (and a
 * failed check) if either fails. */
static inline gpucc_program *
compile_file(gpucc_compiler *compiler, const char *dir, const char *name)
{
   char path[4096];
   snprintf(path, sizeof(path), "%s/%s", dir, name);
   size_t len = 0;
   char *text = read_file(path, &len);
   CHECK(text != NULL);
   if (!text)
      return NULL;
   gpucc_program *p = compile_text(compiler, text, len);
   free(text);
   return p;
}

#endif
