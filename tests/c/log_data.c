/* The log callback receives each compile's own log_data (gpucc_compile_options.log_data,
 * Mesa's per-compile brw_compile_params::log_data), and the compiler's user data when a
 * compile gives none: with NULL options, with log_data NULL, and from a caller built against
 * the header before the field (a struct_size that ends before it). Two threads compiling at
 * once with one compiler each get only their own pointer, on their own thread. */
#include <pthread.h>
#include <stddef.h>

#include "check.h"

/* What one log_data (or the compiler's user data) received. */
struct sink {
   const char *name;
   int calls;
   int stats;
   int wrong_thread;
   pthread_t owner;
};

static void
record(void *user_data, gpucc_log_kind kind, const char *message)
{
   struct sink *s = user_data;
   s->calls++;
   if (kind == GPUCC_LOG_KIND_STATS && message[0] != '\0')
      s->stats++;
   if (!pthread_equal(s->owner, pthread_self()))
      s->wrong_thread++;
}

/* Compiles the tiny shader on `compiler` with `options` (NULL for none); returns the number
 * of compiled widths, each of which logs one statistics line. */
static unsigned
compile_widths(gpucc_compiler *compiler, const gpucc_compile_options *options)
{
   gpucc_shader *shader = NULL;
   CHECK_STATUS(gpucc_shader_from_nir_text(tiny_shader, sizeof(tiny_shader) - 1, &shader),
                GPUCC_STATUS_OK, "");
   gpucc_program *program = NULL;
   CHECK_STATUS(gpucc_compile(compiler, shader, options, &program), GPUCC_STATUS_OK, "");
   gpucc_program_info info = {.struct_size = sizeof info};
   unsigned widths = 0;
   if (program) {
      CHECK_STATUS(gpucc_program_get_info(program, &info), GPUCC_STATUS_OK, "");
      widths = info.num_widths;
   }
   gpucc_program_destroy(program);
   gpucc_shader_destroy(shader);
   return widths;
}

static void
check_target(const char *target)
{
   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create(target, &compiler), GPUCC_STATUS_OK, "");
   if (!compiler)
      return;
   struct sink screen = {.name = "screen", .owner = pthread_self()};
   struct sink context = {.name = "context", .owner = pthread_self()};
   CHECK_STATUS(gpucc_compiler_set_log_callback(compiler, record, &screen), GPUCC_STATUS_OK,
                "");

   /* The compile's log_data: every message goes to it, none to the compiler's. */
   gpucc_compile_options o = {.struct_size = sizeof o, .log_data = &context};
   unsigned widths = compile_widths(compiler, &o);
   /* Intel fragment programs come in SIMD8 and SIMD16 (no SIMD32 without a throughput
    * gain), a Vivante program in one variant; each logs one statistics line. */
   CHECK(widths >= 1);
   CHECK(context.stats == (int)widths && context.calls == context.stats);
   CHECK(screen.calls == 0);

   /* No options, or log_data NULL: the compiler's user data. */
   context.calls = context.stats = 0;
   CHECK(compile_widths(compiler, NULL) == widths);
   CHECK(screen.stats == (int)widths && context.calls == 0);
   gpucc_compile_options none = {.struct_size = sizeof none};
   CHECK(compile_widths(compiler, &none) == widths);
   CHECK(screen.stats == 2 * (int)widths && context.calls == 0);

   /* A caller built before the field: its struct ends before log_data, so whatever lies
    * beyond (here our pointer) is not read. */
   screen.calls = screen.stats = 0;
   gpucc_compile_options older = {.struct_size = offsetof(gpucc_compile_options, log_data),
                                  .log_data = &context};
   CHECK(compile_widths(compiler, &older) == widths);
   CHECK(screen.stats == (int)widths && context.calls == 0);

   CHECK(screen.wrong_thread == 0 && context.wrong_thread == 0);
   gpucc_compiler_destroy(compiler);
}

struct worker {
   gpucc_compiler *compiler;
   struct sink sink;
   unsigned widths;
};

static void *
work(void *arg)
{
   struct worker *w = arg;
   w->sink.owner = pthread_self();
   gpucc_compile_options o = {.struct_size = sizeof o, .log_data = &w->sink};
   for (int i = 0; i < 8; i++)
      w->widths += compile_widths(w->compiler, &o);
   return NULL;
}

/* Two threads, one compiler: each compile's messages reach its own log_data only. */
static void
check_threads(void)
{
   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create("bdw", &compiler), GPUCC_STATUS_OK, "");
   if (!compiler)
      return;
   struct sink screen = {.name = "screen", .owner = pthread_self()};
   CHECK_STATUS(gpucc_compiler_set_log_callback(compiler, record, &screen), GPUCC_STATUS_OK,
                "");
   struct worker a = {.compiler = compiler, .sink = {.name = "a"}};
   struct worker b = {.compiler = compiler, .sink = {.name = "b"}};
   pthread_t ta, tb;
   CHECK(pthread_create(&ta, NULL, work, &a) == 0);
   CHECK(pthread_create(&tb, NULL, work, &b) == 0);
   pthread_join(ta, NULL);
   pthread_join(tb, NULL);
   CHECK(a.widths >= 8 && b.widths >= 8);
   CHECK(a.sink.stats == (int)a.widths && a.sink.calls == a.sink.stats);
   CHECK(b.sink.stats == (int)b.widths && b.sink.calls == b.sink.stats);
   CHECK(a.sink.wrong_thread == 0 && b.sink.wrong_thread == 0);
   CHECK(screen.calls == 0);
   gpucc_compiler_destroy(compiler);
}

int
main(void)
{
   check_target("ivb");
   check_target("gc7000");
   check_threads();
   return check_report("log_data");
}
