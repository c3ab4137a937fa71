/* Deeply nested control flow on a small thread stack: 199 nested ifs (the parser's limit is
 * 200 levels) parsed, printed and compiled for an Intel and a Vivante target on a thread with a
 * 128 KiB stack, the size many driver worker threads (and musl's default) have. gpucc's
 * recursive walks move onto heap segments when the stack runs low (src/util/stack.rs); before
 * that, 150 levels crashed the process inside gpucc_shader_from_nir_text. */
#include "check.h"

#include <pthread.h>
#include <stdarg.h>

#define DEPTH 199

struct text {
   char *buf;
   size_t len, cap;
};

static void
put(struct text *t, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
   va_end(ap);
   if (n > 0 && t->len + (size_t)n < t->cap)
      t->len += (size_t)n;
}

/* `if %c { block; <nested>; block } else { block }`, DEPTH deep. Intel form reads its input
 * with load_interpolated_input and writes with store_output; etnaviv form (as etnaviv
 * receives NIR) with load_input and store_deref. */
static void
nested(struct text *t, int depth, unsigned *block)
{
   put(t, "    if %%4 {\n        block b%u:  // preds:\n        // succs:\n", (*block)++);
   if (depth > 1) {
      nested(t, depth - 1, block);
      put(t, "        block b%u:  // preds:\n        // succs:\n", (*block)++);
   }
   put(t, "    } else {\n        block b%u:  // preds:\n        // succs:\n    }\n", (*block)++);
}

static char *
shader(int etnaviv, size_t *len)
{
   struct text t = {malloc(1 << 20), 0, 1 << 20};
   put(&t, "shader: MESA_SHADER_FRAGMENT\nname: deep\ninputs: 1\noutputs: 1\nuniforms: 0\n");
   if (etnaviv)
      put(&t, "decl_var shader_in INTERP_MODE_NONE none vec4 c (VARYING_SLOT_VAR0.xyzw, 0, 0)\n"
              "decl_var shader_out INTERP_MODE_NONE none vec4 o (FRAG_RESULT_COLOR.xyzw, 0, 0)\n");
   else
      put(&t, "decl_var shader_in INTERP_MODE_SMOOTH none vec4 c (VARYING_SLOT_VAR0.xyzw, 32, 0)\n"
              "decl_var shader_out INTERP_MODE_NONE none vec4 o (FRAG_RESULT_DATA0.xyzw, 0, 0)\n");
   put(&t, "decl_function main (0 params)\n\nimpl main {\n    block b0:  // preds:\n"
           "    32 %%0 = load_const (0x00000000)\n");
   if (etnaviv)
      put(&t, "    32 %%2 = @load_input (%%0 (0x0)) (base=0, range=1, component=0, "
              "dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)\n");
   else
      put(&t, "    32x2 %%1 = @load_barycentric_pixel () (interp_mode=1)\n"
              "    32 %%2 = @load_interpolated_input (%%1, %%0) (base=32, component=0, "
              "dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)\n");
   /* The comparison as each family's NIR spells it: 1-bit booleans (Intel), 32-bit integer
    * booleans (GC7000), float booleans (GC2000, which lacks integers). */
   const char *compare = !etnaviv ? "1 %%4 = flt" : etnaviv == 2 ? "32 %%4 = flt32" : "32 %%4 = slt";
   put(&t, "    32 %%3 = load_const (0x3f000000)\n    ");
   put(&t, compare);
   put(&t, " %%2, %%3\n    // succs:\n");
   unsigned block = 1;
   nested(&t, DEPTH, &block);
   put(&t, "    block b%u:  // preds:\n", block++);
   put(&t, "    32x4 %%5 = vec4 %%2, %%2, %%2, %%2\n");
   if (etnaviv)
      put(&t, "    32 %%6 = deref_var &o (shader_out vec4)\n"
              "    @store_deref (%%6, %%5) (wrmask=xyzw, access=none)\n");
   else
      put(&t, "    @store_output (%%5, %%0) (base=0, range=1, wrmask=xyzw, component=0, "
              "src_type=float32, io location=FRAG_RESULT_DATA0 slots=1, xfb(), xfb2())\n");
   put(&t, "    // succs:\n    block b%u:\n}\n", block);
   *len = t.len;
   return t.buf;
}

static void *
run(void *arg)
{
   const char *target = arg;
   /* 0 Intel, 1 GC2000 (float booleans), 2 GC7000 (integer booleans). */
   int etnaviv = target[0] != 'g' ? 0 : strcmp(target, "gc7000") == 0 ? 2 : 1;
   size_t len = 0;
   char *text = shader(etnaviv, &len);
   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create(target, &compiler), GPUCC_STATUS_OK, "");
   gpucc_shader *s = NULL;
   CHECK_STATUS(gpucc_shader_from_nir_text(text, len, &s), GPUCC_STATUS_OK, "");
   if (s) {
      char *printed = NULL;
      CHECK_STATUS(gpucc_shader_print(s, &printed), GPUCC_STATUS_OK, "");
      /* The printed form holds every level: the innermost `if` is indented DEPTH times. */
      CHECK(printed && strstr(printed, "if %4") != NULL);
      gpucc_string_free(printed);
      gpucc_program *p = NULL;
      CHECK_STATUS(gpucc_compile(compiler, s, NULL, &p), GPUCC_STATUS_OK, "");
      gpucc_program_destroy(p);
      gpucc_shader_destroy(s);
   }
   gpucc_compiler_destroy(compiler);
   free(text);
   return NULL;
}

int
main(void)
{
   const char *targets[] = {"ivb", "bdw", "gc7000", "gc2000"};
   for (unsigned i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
      pthread_attr_t attr;
      pthread_attr_init(&attr);
      CHECK(pthread_attr_setstacksize(&attr, 128 * 1024) == 0);
      pthread_t thread;
      CHECK(pthread_create(&thread, &attr, run, (void *)targets[i]) == 0);
      pthread_join(thread, NULL);
      pthread_attr_destroy(&attr);
   }
   return check_report("deep_nesting");
}
