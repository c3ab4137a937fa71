/* A Vivante compiler from a core's values (gpucc_etna_core, as the kernel's
 * DRM_ETNAVIV_PARAM_GPU_* report them): GC2000's published values are the gc2000 preset, a
 * smaller instruction count is another core with its own name and limit, an older (smaller)
 * struct and a newer (larger) one are read as the header says, and invalid values are refused
 * naming the field. */
#include <stddef.h>
#include <stdint.h>

#include "check.h"

/* GC2000 r5108 as Mesa 23.3's drm-shim reports it (src/etnaviv/drm-shim/etnaviv_noop.c). */
static gpucc_etna_core
gc2000(void)
{
   gpucc_etna_core c;
   memset(&c, 0, sizeof c);
   c.struct_size = sizeof c;
   c.model = 0x2000;
   c.revision = 0x5108;
   c.features[0] = 0xe0296cad;
   c.features[1] = 0xc9799eff;
   c.features[2] = 0x2efbf2d9;
   c.register_max = 0x40;
   c.instruction_count = 0x200;
   c.num_constants = 0xa8;
   c.num_varyings = 0xb;
   c.thread_count = 0x400;
   c.shader_core_count = 0x4;
   c.pixel_pipes = 0x2;
   return c;
}

/* A fragment shader of `n` dependent ffma: n + 1 instructions on gc2000. */
static char *
ffma_chain(unsigned n)
{
   size_t cap = 1024 + 64 * (size_t)n, len = 0;
   char *t = malloc(cap);
   if (!t)
      return NULL;
   len += (size_t)snprintf(
      t + len, cap - len,
      "shader: MESA_SHADER_FRAGMENT\nname: chain\ninputs: 1\noutputs: 1\nuniforms: 0\n"
      "decl_var shader_in INTERP_MODE_NONE none vec2 uv (VARYING_SLOT_VAR0.xy, 0, 0)\n"
      "decl_var shader_out INTERP_MODE_NONE none vec4 color (FRAG_RESULT_COLOR.xyzw, 0, 0)\n"
      "decl_function main (0 params)\n\nimpl main {\n    block b0:  // preds: \n"
      "    32    %%0 = load_const (0x00000000 = 0.000000)\n"
      "    32x2  %%1 = @load_input (%%0 (0x0)) (base=0, range=1, component=0, "
      "dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)\n"
      "    32    %%2 = ffma %%1.x, %%1.y, %%1.x\n");
   for (unsigned i = 1; i < n; i++)
      len += (size_t)snprintf(t + len, cap - len, "    32    %%%u = ffma %%%u, %%1.y, %%1.x\n",
                              i + 2, i + 1);
   snprintf(t + len, cap - len,
            "    32x4  %%%u = vec4 %%%u, %%1.y, %%1.x, %%1.y\n"
            "    32    %%%u = deref_var &color (shader_out vec4)\n"
            "               @store_deref (%%%u, %%%u) (wrmask=xyzw, access=none)\n"
            "               // succs: b1 \n    block b1:\n}\n",
            n + 2, n + 1, n + 3, n + 3, n + 2);
   return t;
}

/* Compiles `text`; returns the status, the program in *out on success. (Destroying the shader
 * clears the last error: check_compile reads it before.) */
static gpucc_status
try_compile(const gpucc_compiler *c, const char *text, gpucc_program **out)
{
   gpucc_shader *s = NULL;
   gpucc_status st = gpucc_shader_from_nir_text(text, strlen(text), &s);
   if (st == GPUCC_STATUS_OK)
      st = gpucc_compile(c, s, NULL, out);
   gpucc_shader_destroy(s);
   return st;
}

/* Compiles `text`, expecting `status` and `needle` in the error; destroys the program. */
static void
check_compile(const gpucc_compiler *c, const char *text, gpucc_status status, const char *needle)
{
   gpucc_shader *s = NULL;
   gpucc_program *p = NULL;
   CHECK_STATUS(gpucc_shader_from_nir_text(text, strlen(text), &s), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_compile(c, s, NULL, &p), status, needle);
   CHECK((p != NULL) == (status == GPUCC_STATUS_OK));
   gpucc_program_destroy(p);
   gpucc_shader_destroy(s);
}

/* Whether two compilers give the same code for `text`. */
static int
same_code(const gpucc_compiler *a, const gpucc_compiler *b, const char *text)
{
   gpucc_program *pa = NULL, *pb = NULL;
   const uint8_t *ca = NULL, *cb = NULL;
   size_t na = 0, nb = 0;
   int same = try_compile(a, text, &pa) == GPUCC_STATUS_OK &&
              try_compile(b, text, &pb) == GPUCC_STATUS_OK &&
              gpucc_program_code(pa, &ca, &na) == GPUCC_STATUS_OK &&
              gpucc_program_code(pb, &cb, &nb) == GPUCC_STATUS_OK && na == nb && na > 0 &&
              memcmp(ca, cb, na) == 0;
   gpucc_program_destroy(pa);
   gpucc_program_destroy(pb);
   return same;
}

/* Creates a compiler for `core`, expecting `status` and `needle` in the error. */
static gpucc_compiler *
create(const void *core, gpucc_status status, const char *needle)
{
   gpucc_compiler *c = NULL;
   CHECK_STATUS(gpucc_compiler_create_etnaviv((const gpucc_etna_core *)core, &c), status,
                needle);
   return c;
}

int
main(void)
{
   char *chain150 = ffma_chain(150);
   CHECK(chain150 != NULL);
   if (!chain150)
      return check_report("etna_core");

   gpucc_compiler *preset = NULL;
   CHECK_STATUS(gpucc_compiler_create("gc2000", &preset), GPUCC_STATUS_OK, "");

   /* GC2000's published values: the preset, by name and by code. */
   gpucc_etna_core core = gc2000();
   gpucc_compiler *from_values = create(&core, GPUCC_STATUS_OK, "");
   CHECK(strcmp(gpucc_compiler_target(from_values), "gc2000") == 0);
   gpucc_family family = GPUCC_FAMILY_INTEL;
   CHECK_STATUS(gpucc_compiler_family(from_values, &family), GPUCC_STATUS_OK, "");
   CHECK(family == GPUCC_FAMILY_ETNAVIV);
   CHECK(same_code(preset, from_values, chain150));
   gpucc_compiler_destroy(from_values);

   /* Same words, instruction_count 128: its own name, the same on every call, and a limit
    * of 128 instructions where gc2000 has a window of 256. */
   core.instruction_count = 128;
   gpucc_compiler *small = create(&core, GPUCC_STATUS_OK, "");
   gpucc_compiler *small_again = create(&core, GPUCC_STATUS_OK, "");
   CHECK(strcmp(gpucc_compiler_target(small), "gc2000-r5108-23675626") == 0);
   CHECK(strcmp(gpucc_compiler_target(small_again), gpucc_compiler_target(small)) == 0);
   check_compile(preset, chain150, GPUCC_STATUS_OK, "");
   check_compile(small, chain150, GPUCC_STATUS_INVALID_ARGUMENT,
                 "151 instructions exceed the 128 of gc2000-r5108-23675626's instruction memory");
   /* The custom name is a target name in this process. */
   gpucc_compiler *by_name = NULL;
   CHECK_STATUS(gpucc_compiler_create("gc2000-r5108-23675626", &by_name), GPUCC_STATUS_OK, "");
   CHECK(by_name && strcmp(gpucc_compiler_target(by_name), "gc2000-r5108-23675626") == 0);
   gpucc_compiler_destroy(by_name);
   gpucc_compiler_destroy(small_again);
   gpucc_compiler_destroy(small);

   /* An older, smaller struct that ends after num_constants: the fields it lacks are 0 (the
    * bytes past struct_size are not read), which makes another core than gc2000, compiling
    * gc2000's code. */
   core = gc2000();
   core.struct_size = offsetof(gpucc_etna_core, num_varyings);
   core.num_varyings = core.thread_count = core.shader_core_count = core.pixel_pipes = 0xdeadbeef;
   gpucc_compiler *older = create(&core, GPUCC_STATUS_OK, "");
   gpucc_etna_core zeroed = gc2000();
   zeroed.num_varyings = zeroed.thread_count = zeroed.shader_core_count = zeroed.pixel_pipes = 0;
   gpucc_compiler *zero_tail = create(&zeroed, GPUCC_STATUS_OK, "");
   CHECK(strncmp(gpucc_compiler_target(older), "gc2000-r5108-", 13) == 0);
   CHECK(strcmp(gpucc_compiler_target(older), gpucc_compiler_target(zero_tail)) == 0);
   CHECK(same_code(preset, older, chain150));
   gpucc_compiler_destroy(zero_tail);
   gpucc_compiler_destroy(older);

   /* A newer, larger struct: zero bytes past this library's struct are accepted, others are
    * a field this library does not know. */
   union {
      gpucc_etna_core core;
      uint32_t words[sizeof(gpucc_etna_core) / 4 + 2];
   } newer;
   memset(&newer, 0, sizeof newer);
   newer.core = gc2000();
   newer.core.struct_size = sizeof newer;
   gpucc_compiler *larger = create(&newer, GPUCC_STATUS_OK, "");
   CHECK(larger && strcmp(gpucc_compiler_target(larger), "gc2000") == 0);
   gpucc_compiler_destroy(larger);
   newer.words[sizeof(gpucc_etna_core) / 4 + 1] = 1;
   create(&newer, GPUCC_STATUS_INVALID_ARGUMENT, "beyond it is not zero");

   /* Invalid arguments and values, each named. */
   gpucc_compiler *untouched = (gpucc_compiler *)0x1;
   CHECK_STATUS(gpucc_compiler_create_etnaviv(NULL, &untouched), GPUCC_STATUS_INVALID_ARGUMENT,
                "gpucc_compiler_create_etnaviv: core is NULL");
   CHECK(untouched == (gpucc_compiler *)0x1);
   core = gc2000();
   CHECK_STATUS(gpucc_compiler_create_etnaviv(&core, NULL), GPUCC_STATUS_INVALID_ARGUMENT,
                "out is NULL");
   core.struct_size = 40;
   create(&core, GPUCC_STATUS_INVALID_ARGUMENT, "core->struct_size 40");
   core.struct_size = offsetof(gpucc_etna_core, num_varyings) + 2;
   create(&core, GPUCC_STATUS_INVALID_ARGUMENT, "a multiple of 4");
   core = gc2000();
   core.model = 0;
   create(&core, GPUCC_STATUS_INVALID_ARGUMENT, "core->model is 0");
   core = gc2000();
   core.features[0] &= ~0x4u;
   create(&core, GPUCC_STATUS_INVALID_ARGUMENT,
          "core->features[0] (chipFeatures) is 0xe0296ca9, without PIPE_3D");
   core = gc2000();
   core.register_max = 0;
   create(&core, GPUCC_STATUS_INVALID_ARGUMENT,
          "core->register_max is 0: the core would have no temporary registers");
   core = gc2000();
   core.instruction_count = 0;
   create(&core, GPUCC_STATUS_INVALID_ARGUMENT, "core->instruction_count is 0");

   gpucc_compiler_destroy(preset);
   free(chain150);
   return check_report("etna_core");
}
