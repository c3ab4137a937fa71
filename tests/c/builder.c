/* The C builder and the driver contract as a driver adapter uses them: the shaders of
 * examples/intel/gradient.fs.nir (argv[1]) and examples/etnaviv/gradient.fs.nir (argv[2])
 * built call by call, with Mesa's own numbers and packed index words, never through text.
 * Each must print exactly as the text import of its file prints and compile (ivb, gc7000) to
 * the same bytes. Then the errors: unknown names, missing indices, structure and use errors,
 * each naming the call and the value, and sticky until the finish. Then Intel under Mesa's
 * binding model, as iris drives it: final binding-table slots, UBO ranges with pull loads
 * past them, the shader-db line through the log callback; every figure worked by hand. Last,
 * a compute shader under Mesa's binding model on ivb, hsw, bdw and skl: its push layout
 * (params, cross-thread and per-thread blocks) against hand-worked values, its CURBE built as
 * iris builds it, and a dispatch on the simulated render node. */
#include "check.h"

/* nir_alu_type values (nir.h): nir_type_float | 32. */
#define FLOAT32 160u
/* nir_io_semantics words packed by hand: location | num_slots << 7. VARYING_SLOT_VAR0 is 32,
 * FRAG_RESULT_COLOR is 2. */
#define IO_VAR0 (32u | 1u << 7)
#define IO_COLOR (2u | 1u << 7)

static gpucc_builder_def
def(uint32_t index, uint32_t comps, uint32_t divergent)
{
   gpucc_builder_def d = {index, comps, 32, divergent};
   return d;
}

static void
konst(gpucc_builder *b, uint32_t index, uint64_t bits)
{
   CHECK_STATUS(gpucc_builder_add_load_const(b, def(index, 1, 0), &bits), GPUCC_STATUS_OK, "");
}

static void
alu(gpucc_builder *b, const char *op, gpucc_builder_def d, const gpucc_builder_alu_src *srcs,
    uint32_t n)
{
   gpucc_builder_alu a = {op, d, srcs, n, 0};
   CHECK_STATUS(gpucc_builder_add_alu(b, &a), GPUCC_STATUS_OK, "");
}

static gpucc_builder_alu_src
src(uint32_t value, uint8_t first)
{
   /* Channel 0 reads component `first`; the other channels are identity (they matter only
    * for wider ops, which these tests do not build). */
   gpucc_builder_alu_src s = {value, {0}};
   for (int i = 0; i < 16; i++)
      s.swizzle[i] = (uint8_t)i;
   s.swizzle[0] = first;
   return s;
}

static void
intrinsic(gpucc_builder *b, const char *name, int has_def, gpucc_builder_def d,
          const uint32_t *srcs, uint32_t nsrcs, const gpucc_builder_index *idx, uint32_t nidx)
{
   gpucc_builder_intrinsic x = {name, has_def, d, srcs, nsrcs, idx, nidx};
   CHECK_STATUS(gpucc_builder_add_intrinsic(b, &x), GPUCC_STATUS_OK, "");
}

static void
info(gpucc_builder *b, const char *const *kv)
{
   for (; kv[0]; kv += 2)
      CHECK_STATUS(gpucc_builder_set_info(b, kv[0], kv[1]), GPUCC_STATUS_OK, "");
}

/* A fragment-shader builder (MESA_SHADER_FRAGMENT is 4) with its header lines (key, value
 * pairs ending in NULL) and nir_shader sizes set. */
static gpucc_builder *
fragment(const char *const *fields, uint32_t inputs, uint32_t outputs, uint32_t uniforms)
{
   gpucc_builder *b = NULL;
   CHECK_STATUS(gpucc_builder_create(4, &b), GPUCC_STATUS_OK, "");
   info(b, fields);
   CHECK_STATUS(gpucc_builder_set_sizes(b, inputs, outputs, uniforms, 0), GPUCC_STATUS_OK, "");
   return b;
}

static void
variable(gpucc_builder *b, const char *mode, const char *type, const char *name, int32_t location,
         uint32_t driver_location, uint32_t interpolation)
{
   gpucc_builder_variable v = {mode, type, name, location, 0, driver_location, 0,
                               interpolation, 0, 0, 0, NULL, NULL};
   CHECK_STATUS(gpucc_builder_add_variable(b, &v), GPUCC_STATUS_OK, "");
}

static void
ubo_load(gpucc_builder *b, uint32_t def_index, uint32_t block_value, uint32_t offset_value)
{
   uint32_t srcs[] = {block_value, offset_value};
   gpucc_builder_index idx[] = {{"access", 0, NULL},
                                {"align_mul", 16, NULL},
                                {"align_offset", 0, NULL},
                                {"range_base", 0, NULL},
                                {"range", 16, NULL}};
   intrinsic(b, "load_ubo", 1, def(def_index, 4, 0), srcs, 2, idx, 5);
}

static void
store_color(gpucc_builder *b, uint32_t value, uint32_t zero)
{
   uint32_t srcs[] = {value, zero};
   gpucc_builder_index idx[] = {{"base", 4, NULL},          {"range", 1, NULL},
                                {"write_mask", 0xf, NULL},  {"component", 0, NULL},
                                {"src_type", FLOAT32, NULL}, {"io_semantics", IO_COLOR, NULL},
                                {"io_xfb", 0, NULL},        {"io_xfb2", 0, NULL}};
   intrinsic(b, "store_output", 0, def(0, 0, 0), srcs, 2, idx, 8);
}

static gpucc_builder_alu_src
whole(uint32_t value)
{
   gpucc_builder_alu_src s = {value, {0}};
   for (int i = 0; i < 16; i++)
      s.swizzle[i] = (uint8_t)i;
   return s;
}

/* Finishes the builder into a shader (NULL after a failed check). */
static gpucc_shader *
finished(gpucc_builder *b)
{
   gpucc_shader *shader = NULL;
   CHECK_STATUS(gpucc_builder_finish(b, &shader), GPUCC_STATUS_OK, "");
   gpucc_builder_destroy(b);
   return shader;
}

/* examples/intel/gradient.fs.nir, as brw's final form holds it. */
static gpucc_shader *
build_intel(void)
{
   static const char *const fields[] = {
      "name", "gradient", "internal", "false", "stage", "4", "next_stage", "4",
      "num_ubos", "1", "inputs_read", "32", "outputs_written", "2", "subgroup_size", "1",
      "divergence_analysis_run", "true", "first_ubo_is_default_ubo", "true", NULL};
   gpucc_builder *b = fragment(fields, 1, 1, 0);
   variable(b, "uniform", "vec4", "tint", 0, 0, 0);
   variable(b, "shader_in", "vec2", "uv", 32, 32, 1 /* INTERP_MODE_SMOOTH */);
   variable(b, "shader_out", "vec4", "color", 2, 4, 0);
   variable(b, "ubo", "vec4[1]", "uniform_0", 0, 0, 0);
   CHECK_STATUS(gpucc_builder_begin_function(b, "main", 0, 1), GPUCC_STATUS_OK, "");

   CHECK_STATUS(gpucc_builder_block(b, 0), GPUCC_STATUS_OK, "");
   konst(b, 0, 0);
   konst(b, 1, 0x3f000000);
   konst(b, 2, 0x3f800000);
   gpucc_builder_index bary[] = {{"interp_mode", 1, NULL}};
   gpucc_builder_def d3 = {3, 2, 32, 1};
   intrinsic(b, "load_barycentric_pixel", 1, d3, NULL, 0, bary, 1);
   uint32_t in_srcs[] = {3, 0};
   gpucc_builder_index in_idx[] = {{"io_semantics", IO_VAR0, NULL},
                                   {"dest_type", FLOAT32, NULL},
                                   {"component", 0, NULL},
                                   {"base", 32, NULL}};
   gpucc_builder_def d4 = {4, 2, 32, 1};
   intrinsic(b, "load_interpolated_input", 1, d4, in_srcs, 2, in_idx, 4);
   gpucc_builder_alu_src lt[] = {src(4, 0), src(1, 0)};
   alu(b, "flt32", def(5, 1, 1), lt, 2);

   CHECK_STATUS(gpucc_builder_begin_if(b, 5, GPUCC_BUILDER_IF_CONTROL_NONE), GPUCC_STATUS_OK,
                "");
   CHECK_STATUS(gpucc_builder_block(b, 1), GPUCC_STATUS_OK, "");
   gpucc_builder_alu_src add[] = {src(4, 0), src(4, 0)};
   alu(b, "fadd", def(6, 1, 1), add, 2);
   CHECK_STATUS(gpucc_builder_begin_else(b), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_builder_block(b, 2), GPUCC_STATUS_OK, "");
   konst(b, 7, 1);
   uint32_t ubo_srcs[] = {7, 0};
   gpucc_builder_index ubo_idx[] = {{"access", 0, NULL},
                                    {"align_mul", 1073741824, NULL},
                                    {"align_offset", 0, NULL},
                                    {"range_base", 0, NULL},
                                    {"range", 16, NULL}};
   intrinsic(b, "load_ubo", 1, def(8, 4, 0), ubo_srcs, 2, ubo_idx, 5);
   gpucc_builder_alu_src mul[] = {src(4, 1), src(8, 0)};
   alu(b, "fmul", def(9, 1, 1), mul, 2);
   CHECK_STATUS(gpucc_builder_end_if(b), GPUCC_STATUS_OK, "");

   CHECK_STATUS(gpucc_builder_block(b, 3), GPUCC_STATUS_OK, "");
   gpucc_builder_phi_src phi[] = {{1, 6}, {2, 9}};
   CHECK_STATUS(gpucc_builder_add_phi(b, def(10, 1, 1), phi, 2), GPUCC_STATUS_OK, "");
   gpucc_builder_alu_src vec[] = {src(10, 0), src(4, 1), src(0, 0), src(2, 0)};
   alu(b, "vec4", def(11, 4, 1), vec, 4);
   store_color(b, 11, 0);
   CHECK_STATUS(gpucc_builder_end_function(b, 4, 12), GPUCC_STATUS_OK, "");

   return finished(b);
}

/* examples/etnaviv/gradient.fs.nir, as etnaviv's form holds it. */
static gpucc_shader *
build_etnaviv(void)
{
   static const char *const fields[] = {"name", "gradient", "internal", "false", "stage", "4",
                                        "next_stage", "4", "inputs_read", "32",
                                        "outputs_written", "2", "subgroup_size", "1", NULL};
   gpucc_builder *b = fragment(fields, 1, 1, 1);
   variable(b, "uniform", "vec4", "tint", 0, 0, 0);
   variable(b, "shader_in", "vec2", "uv", 32, 0, 0);
   variable(b, "shader_out", "vec4", "color", 2, 0, 0);
   CHECK_STATUS(gpucc_builder_begin_function(b, "main", 0, 1), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_builder_block(b, 0), GPUCC_STATUS_OK, "");
   konst(b, 0, 0);
   konst(b, 1, 0x3f000000);
   konst(b, 2, 0x3f800000);
   uint32_t in_srcs[] = {0};
   gpucc_builder_index in_idx[] = {{"base", 0, NULL},
                                   {"range", 1, NULL},
                                   {"component", 0, NULL},
                                   {"dest_type", FLOAT32, NULL},
                                   {"io_semantics", IO_VAR0, NULL}};
   intrinsic(b, "load_input", 1, def(3, 2, 0), in_srcs, 1, in_idx, 5);
   gpucc_builder_alu_src lt[] = {src(3, 0), src(1, 0)};
   alu(b, "flt32", def(4, 1, 0), lt, 2);
   CHECK_STATUS(gpucc_builder_begin_if(b, 4, GPUCC_BUILDER_IF_CONTROL_NONE), GPUCC_STATUS_OK,
                "");
   CHECK_STATUS(gpucc_builder_block(b, 1), GPUCC_STATUS_OK, "");
   gpucc_builder_alu_src add[] = {src(3, 0), src(3, 0)};
   alu(b, "fadd", def(5, 1, 0), add, 2);
   CHECK_STATUS(gpucc_builder_begin_else(b), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_builder_block(b, 2), GPUCC_STATUS_OK, "");
   uint32_t uni_srcs[] = {0};
   gpucc_builder_index uni_idx[] = {
      {"base", 0, NULL}, {"range", 1, NULL}, {"dest_type", FLOAT32, NULL}};
   intrinsic(b, "load_uniform", 1, def(6, 4, 0), uni_srcs, 1, uni_idx, 3);
   gpucc_builder_alu_src mul[] = {src(3, 1), src(6, 0)};
   alu(b, "fmul", def(7, 1, 0), mul, 2);
   CHECK_STATUS(gpucc_builder_end_if(b), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_builder_block(b, 3), GPUCC_STATUS_OK, "");
   gpucc_builder_phi_src phi[] = {{1, 5}, {2, 7}};
   CHECK_STATUS(gpucc_builder_add_phi(b, def(8, 1, 0), phi, 2), GPUCC_STATUS_OK, "");
   gpucc_builder_alu_src vec[] = {src(8, 0), src(3, 1), src(0, 0), src(2, 0)};
   alu(b, "vec4", def(9, 4, 0), vec, 4);
   gpucc_builder_deref deref = {def(10, 1, 0), "color", 0, 0, "shader_out", "vec4"};
   CHECK_STATUS(gpucc_builder_add_deref(b, &deref), GPUCC_STATUS_OK, "");
   uint32_t st_srcs[] = {10, 9};
   gpucc_builder_index st_idx[] = {{"write_mask", 0xf, NULL}, {"access", 0, NULL}};
   intrinsic(b, "store_deref", 0, def(0, 0, 0), st_srcs, 2, st_idx, 2);
   CHECK_STATUS(gpucc_builder_end_function(b, 4, 11), GPUCC_STATUS_OK, "");
   return finished(b);
}

/* The built shader prints as the text import of `path` prints and compiles for `target` to
 * the same bytes. */
static void
same_as_text(gpucc_shader *built, const char *path, const char *target)
{
   size_t len;
   char *text = read_file(path, &len);
   CHECK(text != NULL);
   if (!text || !built)
      return;
   gpucc_shader *parsed = NULL;
   CHECK_STATUS(gpucc_shader_from_nir_text(text, len, &parsed), GPUCC_STATUS_OK, "");
   char *a = NULL, *b = NULL;
   CHECK_STATUS(gpucc_shader_print(parsed, &a), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_shader_print(built, &b), GPUCC_STATUS_OK, "");
   CHECK(a && b && strcmp(a, b) == 0);
   if (a && b && strcmp(a, b) != 0)
      fprintf(stderr, "--- text import:\n%s--- builder:\n%s", a, b);

   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create(target, &compiler), GPUCC_STATUS_OK, "");
   gpucc_program *pa = NULL, *pb = NULL;
   CHECK_STATUS(gpucc_compile(compiler, parsed, NULL, &pa), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_compile(compiler, built, NULL, &pb), GPUCC_STATUS_OK, "");
   const uint8_t *ca = NULL, *cb = NULL;
   size_t sa = 0, sb = 0;
   if (pa && pb) {
      CHECK_STATUS(gpucc_program_code(pa, &ca, &sa), GPUCC_STATUS_OK, "");
      CHECK_STATUS(gpucc_program_code(pb, &cb, &sb), GPUCC_STATUS_OK, "");
      CHECK(sa > 0 && sa == sb && memcmp(ca, cb, sa) == 0);
   }
   gpucc_program_destroy(pa);
   gpucc_program_destroy(pb);
   gpucc_compiler_destroy(compiler);
   gpucc_string_free(a);
   gpucc_string_free(b);
   gpucc_shader_destroy(parsed);
   free(text);
}

/* A builder holding one block of a fragment shader, ready for instructions. */
static gpucc_builder *
started(void)
{
   gpucc_builder *b = NULL;
   CHECK_STATUS(gpucc_builder_create(4, &b), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_builder_begin_function(b, "main", 0, 1), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_builder_block(b, 0), GPUCC_STATUS_OK, "");
   return b;
}

static void
errors(void)
{
   gpucc_shader *shader = NULL;

   CHECK_STATUS(gpucc_builder_create(9, NULL), GPUCC_STATUS_INVALID_ARGUMENT,
                "9 is no gl_shader_stage");

   /* An unknown op names itself and the call; the error sticks until the finish. */
   gpucc_builder *b = started();
   gpucc_builder_alu_src s[] = {src(0, 0)};
   gpucc_builder_alu bad = {"fbogus", def(1, 1, 0), s, 1, 0};
   CHECK_STATUS(gpucc_builder_add_alu(b, &bad), GPUCC_STATUS_INVALID_ARGUMENT,
                "gpucc_builder_add_alu: unknown ALU op `fbogus`");
   uint64_t zero = 0; /* a good call still reports the first error */
   CHECK_STATUS(gpucc_builder_add_load_const(b, def(0, 1, 0), &zero),
                GPUCC_STATUS_INVALID_ARGUMENT, "fbogus");
   CHECK_STATUS(gpucc_builder_finish(b, &shader), GPUCC_STATUS_INVALID_ARGUMENT, "fbogus");
   CHECK(shader == NULL);
   gpucc_builder_destroy(b);

   /* Every index of the intrinsic must be given. */
   b = started();
   konst(b, 0, 0);
   uint32_t in_srcs[] = {0};
   gpucc_builder_index partial[] = {{"base", 0, NULL}, {"range", 1, NULL}};
   gpucc_builder_intrinsic x = {"load_input", 1, def(1, 4, 0), in_srcs, 1, partial, 2};
   CHECK_STATUS(gpucc_builder_add_intrinsic(b, &x), GPUCC_STATUS_INVALID_ARGUMENT,
                "load_input: index `component` not given");
   gpucc_builder_destroy(b);

   /* A word that is no nir_alu_type. */
   b = started();
   konst(b, 0, 0);
   gpucc_builder_index badtype[] = {{"base", 0, NULL},
                                    {"range", 1, NULL},
                                    {"component", 0, NULL},
                                    {"dest_type", 130 | 32, NULL},
                                    {"io_semantics", IO_VAR0, NULL}};
   gpucc_builder_intrinsic y = {"load_input", 1, def(1, 4, 0), in_srcs, 1, badtype, 5};
   CHECK_STATUS(gpucc_builder_add_intrinsic(b, &y), GPUCC_STATUS_INVALID_ARGUMENT,
                "index `dest_type`: 0xa2 is no nir_alu_type");
   gpucc_builder_destroy(b);

   /* A value used but never defined, named at the end of the function. */
   b = started();
   gpucc_builder_alu_src undef_src[] = {src(7, 0), src(7, 0)};
   alu(b, "fadd", def(1, 1, 0), undef_src, 2);
   CHECK_STATUS(gpucc_builder_end_function(b, 1, 0), GPUCC_STATUS_INVALID_ARGUMENT,
                "uses %7, which nothing defines");
   gpucc_builder_destroy(b);

   /* Structure: an if must follow a block's instructions, not open a list. */
   b = NULL;
   CHECK_STATUS(gpucc_builder_create(4, &b), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_builder_begin_function(b, "main", 0, 1), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_builder_begin_if(b, 0, GPUCC_BUILDER_IF_CONTROL_NONE),
                GPUCC_STATUS_INVALID_ARGUMENT, "an if must follow a block");
   gpucc_builder_destroy(b);

   /* A value defined twice. */
   b = started();
   konst(b, 0, 0);
   CHECK_STATUS(gpucc_builder_add_load_const(b, def(0, 1, 0), &zero),
                GPUCC_STATUS_INVALID_ARGUMENT, "%0 defined twice");
   gpucc_builder_destroy(b);

   /* A phi naming a block the walk never started. */
   b = started();
   konst(b, 0, 0);
   gpucc_builder_phi_src phi[] = {{5, 0}};
   CHECK_STATUS(gpucc_builder_add_phi(b, def(1, 1, 0), phi, 1), GPUCC_STATUS_INVALID_ARGUMENT,
                "phi after a non-phi");
   gpucc_builder_destroy(b);

   gpucc_builder_destroy(NULL);
}


/* ---- The driver contract on Intel, as iris would drive it (Mesa's binding model) ---- */

struct log_record {
   int calls, perf;
   char lines[4][512];
};

static void
record_log(void *user_data, gpucc_log_kind kind, const char *message)
{
   struct log_record *r = user_data;
   if (kind == GPUCC_LOG_KIND_PERF) {
      r->perf++;
      return;
   }
   if (r->calls < 4)
      snprintf(r->lines[r->calls], sizeof(r->lines[0]), "%s", message);
   r->calls++;
}

/* A fragment shader as iris hands it over after crocus_setup_binding_table-style renumbering:
 * render target 0 at slot 0, its texture at slot 1 (sampler 0), and five UBOs at slots 2-6,
 * one vec4 read from the start of each. It samples the texture at the varying VAR0 and adds
 * the five vec4s. */
static gpucc_shader *
build_iris_fs(void)
{
   static const char *const fields[] = {
      "name", "contract", "internal", "false", "stage", "4", "next_stage", "4",
      "num_textures", "1", "num_ubos", "5", "inputs_read", "32", "outputs_written", "2",
      "subgroup_size", "1", "first_ubo_is_default_ubo", "true", NULL};
   gpucc_builder *b = fragment(fields, 1, 1, 0);
   variable(b, "uniform", "sampler2D", "tex", 0, 0, 0);
   variable(b, "shader_in", "vec2", "uv", 32, 32, 1);
   variable(b, "shader_out", "vec4", "color", 2, 4, 0);
   CHECK_STATUS(gpucc_builder_begin_function(b, "main", 0, 1), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_builder_block(b, 0), GPUCC_STATUS_OK, "");
   konst(b, 0, 0);
   for (uint32_t slot = 2; slot <= 6; slot++) {
      konst(b, slot - 1, slot);          /* %1..%5: the UBO slots */
      ubo_load(b, slot + 4, slot - 1, 0); /* %6..%10: their first vec4 */
   }
   gpucc_builder_index bary[] = {{"interp_mode", 1, NULL}};
   intrinsic(b, "load_barycentric_pixel", 1, def(11, 2, 0), NULL, 0, bary, 1);
   uint32_t in_srcs[] = {11, 0};
   gpucc_builder_index in_idx[] = {{"base", 32, NULL},
                                   {"component", 0, NULL},
                                   {"dest_type", FLOAT32, NULL},
                                   {"io_semantics", IO_VAR0, NULL}};
   intrinsic(b, "load_interpolated_input", 1, def(12, 2, 0), in_srcs, 2, in_idx, 4);
   gpucc_builder_tex_src coord[] = {{"coord", 12}};
   gpucc_builder_tex tex = {"tex", def(13, 4, 0), FLOAT32, coord, 1, 1, 0, 0, {{0}}, 0};
   CHECK_STATUS(gpucc_builder_add_tex(b, &tex), GPUCC_STATUS_OK, "");
   uint32_t sum = 6;
   for (uint32_t v = 7; v <= 10; v++) {
      gpucc_builder_alu_src add[] = {whole(sum), whole(v)};
      alu(b, "fadd", def(v + 7, 4, 0), add, 2); /* %14..%17 */
      sum = v + 7;
   }
   gpucc_builder_alu_src last[] = {whole(sum), whole(13)};
   alu(b, "fadd", def(18, 4, 0), last, 2);
   store_color(b, 18, 0);
   CHECK_STATUS(gpucc_builder_end_function(b, 1, 19), GPUCC_STATUS_OK, "");
   return finished(b);
}

/* A fragment shader reading 70 registers of UBO slot 7 at constant offsets (one vec4 at
 * the start of each 32-byte register) and adding them up: more than Mesa's 64-register push
 * block. */
static gpucc_shader *
build_big_ubo_fs(void)
{
   static const char *const fields[] = {"name", "big-ubo", "stage", "4", "next_stage", "4",
                                        "outputs_written", "2", NULL};
   gpucc_builder *b = fragment(fields, 0, 1, 0);
   variable(b, "shader_out", "vec4", "color", 2, 4, 0);
   CHECK_STATUS(gpucc_builder_begin_function(b, "main", 0, 1), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_builder_block(b, 0), GPUCC_STATUS_OK, "");
   konst(b, 0, 0);
   konst(b, 1, 7);
   uint32_t next = 2, sum = 0;
   for (uint32_t r = 0; r < 70; r++) {
      konst(b, next, 32 * r);
      ubo_load(b, next + 1, 1, next);
      if (r == 0) {
         sum = next + 1;
      } else {
         gpucc_builder_alu_src add[] = {whole(sum), whole(next + 1)};
         alu(b, "fadd", def(next + 2, 4, 0), add, 2);
         sum = next + 2;
      }
      next += 3;
   }
   store_color(b, sum, 0);
   CHECK_STATUS(gpucc_builder_end_function(b, 1, next), GPUCC_STATUS_OK, "");
   return finished(b);
}

static void
check_binding(const gpucc_program *p, uint32_t i, gpucc_binding_kind kind, uint32_t index,
              uint32_t slot)
{
   gpucc_binding bnd = {.struct_size = sizeof bnd};
   CHECK_STATUS(gpucc_program_binding(p, i, &bnd), GPUCC_STATUS_OK, "");
   CHECK(bnd.kind == kind && bnd.index == index && bnd.slot == slot);
   if (!(bnd.kind == kind && bnd.index == index && bnd.slot == slot))
      fprintf(stderr, "binding %u: kind %d index %u slot %u\n", i, bnd.kind, bnd.index, bnd.slot);
}

static void
check_range(const gpucc_program *p, uint32_t i, uint32_t block, uint32_t start, uint32_t length)
{
   gpucc_ubo_range r = {.struct_size = sizeof r};
   CHECK_STATUS(gpucc_program_ubo_range(p, i, &r), GPUCC_STATUS_OK, "");
   CHECK(r.block == block && r.start == start && r.length == length);
}

static void
check_push(const gpucc_program *p, uint32_t i, uint32_t block, uint32_t offset)
{
   gpucc_push_param q = {.struct_size = sizeof q};
   CHECK_STATUS(gpucc_program_push_param(p, i, &q), GPUCC_STATUS_OK, "");
   CHECK(q.block == block && q.offset == offset);
}

static void
contract_intel(void)
{
   gpucc_compiler *bdw = NULL;
   CHECK_STATUS(gpucc_compiler_create("bdw", &bdw), GPUCC_STATUS_OK, "");
   struct log_record log = {0};
   CHECK_STATUS(gpucc_compiler_set_log_callback(bdw, record_log, &log), GPUCC_STATUS_OK, "");
   gpucc_shader *fs = build_iris_fs();
   gpucc_compile_options mesa = {.struct_size = sizeof mesa,
                                 .simd_mask = 1,
                                 .binding_model = GPUCC_BINDING_MODEL_MESA};
   gpucc_program *p = NULL;
   CHECK_STATUS(gpucc_compile(bdw, fs, &mesa, &p), GPUCC_STATUS_OK, "");
   if (p) {
      gpucc_program_info info = {.struct_size = sizeof info};
      CHECK_STATUS(gpucc_program_get_info(p, &info), GPUCC_STATUS_OK, "");
      /* Five one-register runs score 2 * 1 - 1 each; ties go to the higher block, and four
       * ranges fit: slots 6, 5, 4, 3 are pushed in that order, slot 2 is pulled. */
      CHECK(info.num_ubo_ranges == 4);
      for (uint32_t i = 0; i < 4; i++)
         check_range(p, i, 6 - i, 0, 1);
      CHECK(info.uniforms == 32);
      check_push(p, 0, 6, 0);
      check_push(p, 7, 6, 28);
      check_push(p, 8, 5, 0);
      check_push(p, 31, 3, 28);
      /* The NIR's indices are the slots: render target 0 at 0, texture 1 at 1, sampler 0,
       * and the pulled UBO at its own slot 2 (no base added). Sorted by kind. */
      CHECK(info.num_bindings == 4);
      check_binding(p, 0, GPUCC_BINDING_KIND_RENDER_TARGET, 0, 0);
      check_binding(p, 1, GPUCC_BINDING_KIND_TEXTURE, 1, 1);
      check_binding(p, 2, GPUCC_BINDING_KIND_SAMPLER, 0, 0);
      check_binding(p, 3, GPUCC_BINDING_KIND_UNIFORM_BUFFER, 2, 2);
      /* One shader-db line, SIMD8, in Mesa's wording: three sends (the pull load of slot 2,
       * the texture sample, the render-target write). */
      CHECK(log.calls == 1);
      unsigned simd = 0, inst = 0, loops = 0, cycles = 0, spills = 0, fills = 0, sends = 0;
      char mode[32];
      unsigned promoted, before, after;
      int n = sscanf(log.lines[0],
                     "FS SIMD%u shader: %u inst, %u loops, %u cycles, %u:%u spills:fills, %u "
                     "sends, scheduled with mode %31[^,], Promoted %u constants, compacted %u "
                     "to %u bytes.",
                     &simd, &inst, &loops, &cycles, &spills, &fills, &sends, mode, &promoted,
                     &before, &after);
      CHECK(n == 11 && simd == 8 && sends == 3 && loops == 0 && spills == 0);
      CHECK(inst == info.instructions);
   }
   gpucc_program_destroy(p);

   /* The same shader under gpucc's own model: every UBO pushed, no ranges, no UBO bindings. */
   gpucc_compile_options own = {.struct_size = sizeof own, .simd_mask = 1};
   p = NULL;
   CHECK_STATUS(gpucc_compile(bdw, fs, &own, &p), GPUCC_STATUS_OK, "");
   if (p) {
      gpucc_program_info info = {.struct_size = sizeof info};
      CHECK_STATUS(gpucc_program_get_info(p, &info), GPUCC_STATUS_OK, "");
      CHECK(info.num_ubo_ranges == 0 && info.uniforms == 20 && info.num_bindings == 3);
   }
   gpucc_program_destroy(p);
   gpucc_shader_destroy(fs);

   /* Past the push block: 70 registers of slot 7 read at constant offsets. Mesa's analysis
    * sees the first 64 (a 64-bit chunk mask): one range of 64 registers, the last 6 loads
    * pulled from slot 7 itself. On ivb and bdw alike. */
   gpucc_shader *big = build_big_ubo_fs();
   const char *targets[] = {"ivb", "bdw"};
   for (int t = 0; t < 2; t++) {
      gpucc_compiler *c = NULL;
      CHECK_STATUS(gpucc_compiler_create(targets[t], &c), GPUCC_STATUS_OK, "");
      p = NULL;
      CHECK_STATUS(gpucc_compile(c, big, &mesa, &p), GPUCC_STATUS_OK, "");
      if (p) {
         gpucc_program_info info = {.struct_size = sizeof info};
         CHECK_STATUS(gpucc_program_get_info(p, &info), GPUCC_STATUS_OK, "");
         CHECK(info.num_ubo_ranges == 1 && info.uniforms == 64 * 8);
         check_range(p, 0, 7, 0, 64);
         check_push(p, 511, 7, 64 * 32 - 4);
         CHECK(info.num_bindings == 2);
         check_binding(p, 0, GPUCC_BINDING_KIND_RENDER_TARGET, 0, 0);
         check_binding(p, 1, GPUCC_BINDING_KIND_UNIFORM_BUFFER, 7, 7);
      }
      gpucc_program_destroy(p);
      gpucc_compiler_destroy(c);
   }
   gpucc_shader_destroy(big);

   gpucc_compile_options bad = {.struct_size = sizeof bad, .binding_model = 2};
   gpucc_shader *tiny = NULL;
   CHECK_STATUS(gpucc_shader_from_nir_text(tiny_shader, strlen(tiny_shader), &tiny),
                GPUCC_STATUS_OK, "");
   p = NULL;
   CHECK_STATUS(gpucc_compile(bdw, tiny, &bad, &p), GPUCC_STATUS_INVALID_ARGUMENT,
                "binding_model=2");
   gpucc_shader_destroy(tiny);
   gpucc_compiler_destroy(bdw);
}

/* ---- A compute shader under Mesa's binding model, as iris or crocus would dispatch it ---- */

/* MESA_SHADER_COMPUTE in gl_shader_stage. */
#define STAGE_COMPUTE 5u

static void
ubo_dword(gpucc_builder *b, uint32_t def_index, uint32_t block_value, uint32_t offset_value)
{
   uint32_t srcs[] = {block_value, offset_value};
   gpucc_builder_index idx[] = {{"access", 0, NULL},
                                {"align_mul", 4, NULL},
                                {"align_offset", 0, NULL},
                                {"range_base", 0, NULL},
                                {"range", 0xffffffffu, NULL}};
   intrinsic(b, "load_ubo", 1, def(def_index, 1, 0), srcs, 2, idx, 5);
}

/* An 8x4x1 compute shader as iris lays its binding table out for it: constant buffer 0 (the
 * uniforms) at slot 0, its one SSBO at slot 1. Invocation g = 32 * workgroup.x + local index
 * stores g * u[1] + u[3] + u[2] at dword g of the SSBO, reading the uniform dwords at bytes
 * 4, 12 and 8 of slot 0; without uniforms it stores g. */
static gpucc_shader *
build_iris_cs(int with_uniforms)
{
   static const char *const fields[] = {
      "name", "cs-contract", "internal", "false", "workgroup-size", "8, 4, 1",
      "shared-size", "0", "stage", "5", "next_stage", "5", "num_ubos", "1", "num_ssbos", "1",
      "subgroup_size", "1", NULL};
   gpucc_builder *b = NULL;
   CHECK_STATUS(gpucc_builder_create(STAGE_COMPUTE, &b), GPUCC_STATUS_OK, "");
   info(b, fields);
   CHECK_STATUS(gpucc_builder_set_sizes(b, 0, 0, 0, 0), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_builder_begin_function(b, "main", 0, 1), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_builder_block(b, 0), GPUCC_STATUS_OK, "");
   intrinsic(b, "load_local_invocation_index", 1, def(0, 1, 1), NULL, 0, NULL, 0);
   intrinsic(b, "load_workgroup_id", 1, def(1, 3, 0), NULL, 0, NULL, 0);
   konst(b, 2, 0);  /* slot 0: constant buffer 0 */
   konst(b, 3, 1);  /* slot 1: the SSBO */
   konst(b, 4, 4);
   konst(b, 5, 12);
   konst(b, 6, 8);
   konst(b, 7, 32); /* invocations per workgroup */
   gpucc_builder_alu_src wg[] = {src(1, 0), src(7, 0)};
   alu(b, "imul", def(8, 1, 0), wg, 2);
   gpucc_builder_alu_src global[] = {src(8, 0), src(0, 0)};
   alu(b, "iadd", def(9, 1, 1), global, 2);
   gpucc_builder_alu_src addr[] = {src(9, 0), src(4, 0)};
   alu(b, "imul", def(10, 1, 1), addr, 2);
   uint32_t value = 9;
   if (with_uniforms) {
      ubo_dword(b, 11, 2, 4);  /* u[1] */
      ubo_dword(b, 12, 2, 5);  /* u[3] */
      ubo_dword(b, 13, 2, 6);  /* u[2] */
      gpucc_builder_alu_src mul[] = {src(9, 0), src(11, 0)};
      alu(b, "imul", def(14, 1, 1), mul, 2);
      gpucc_builder_alu_src add1[] = {src(14, 0), src(12, 0)};
      alu(b, "iadd", def(15, 1, 1), add1, 2);
      gpucc_builder_alu_src add2[] = {src(15, 0), src(13, 0)};
      alu(b, "iadd", def(16, 1, 1), add2, 2);
      value = 16;
   }
   uint32_t store_srcs[] = {value, 3, 10};
   gpucc_builder_index store_idx[] = {{"write_mask", 1, NULL},
                                      {"access", 0, NULL},
                                      {"align_mul", 4, NULL},
                                      {"align_offset", 0, NULL}};
   intrinsic(b, "store_ssbo", 0, def(0, 0, 0), store_srcs, 3, store_idx, 4);
   CHECK_STATUS(gpucc_builder_end_function(b, 1, 17), GPUCC_STATUS_OK, "");
   return finished(b);
}

static uint32_t
le32(const uint8_t *p)
{
   return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void
put32(uint8_t *p, uint32_t v)
{
   for (int i = 0; i < 4; i++)
      p[i] = (uint8_t)(v >> (8 * i));
}

/* The CURBE of one workgroup built as iris's and crocus's *_fill_cs_push_const_buffer would
 * build it from the program's params: the cross-thread params once, then per thread t the
 * per-thread params with the subgroup id set to t. `ubo` is constant buffer 0. */
static void
fill_curbe_as_iris(const gpucc_program *p, const gpucc_cs_info *info, const uint8_t *ubo,
                   size_t ubo_size, uint8_t *curbe)
{
   memset(curbe, 0, info->curbe_size);
   const uint32_t cross_size = 32 * info->cross_thread_regs;
   const uint32_t per_size = 32 * info->per_thread_regs;
   for (uint32_t i = 0; i < info->num_params; i++) {
      gpucc_cs_param q = {.struct_size = sizeof q};
      CHECK_STATUS(gpucc_program_cs_param(p, i, &q), GPUCC_STATUS_OK, "");
      uint32_t v = 0;
      if (q.kind == GPUCC_CS_PARAM_KIND_UNIFORM) {
         CHECK(q.block == 0 && q.offset + 4 <= ubo_size);
         if (q.block == 0 && q.offset + 4 <= ubo_size)
            v = le32(ubo + q.offset);
      }
      if (i < info->cross_thread_dwords) {
         CHECK(q.kind == GPUCC_CS_PARAM_KIND_UNIFORM);
         put32(curbe + 4 * i, v);
         continue;
      }
      const uint32_t j = i - info->cross_thread_dwords;
      for (uint32_t t = 0; t < info->threads; t++)
         put32(curbe + cross_size + t * per_size + 4 * j,
               q.kind == GPUCC_CS_PARAM_KIND_SUBGROUP_ID ? t : v);
   }
}

/* The shader of build_iris_cs on each Gen7-9 platform, compiled under Mesa's binding model,
 * its push layout checked against values worked out by hand from Mesa's rules, its CURBE
 * built as iris builds it, and two workgroups dispatched on the simulated render node.
 *
 * By hand: 32 invocations need more than one SIMD8 thread, so SIMD16 is compiled and
 * dispatched (2 threads, the last full). The three uniform loads touch 32-byte chunk 0 of
 * slot 0 only: one UBO range (slot 0, start 0, length 1), whose 8 dwords are params 0-7 (byte
 * offsets 0, 4, ..., 28); the subgroup id is param 8, so nr_params = 9. brw's split on
 * Gen7.5+: cross-thread = 8 * (8 / 8) = 8 dwords (1 register), per-thread = 9 - 8 = 1 dword
 * (1 register), CURBE = 32 + 2 * 32 = 96 bytes. On Gen7 (no cross-thread data): per-thread =
 * 9 dwords (2 registers), CURBE = 2 * 64 = 128 bytes. No local-id registers: the params start
 * at g1. Without uniform loads the only param is the subgroup id: 1 per-thread dword, no
 * cross-thread data (the layout stock iris and crocus assert). */
static void
contract_intel_cs(void)
{
   gpucc_shader *cs = build_iris_cs(1);
   gpucc_shader *plain = build_iris_cs(0);
   uint8_t ubo[64];
   for (uint32_t d = 0; d < 16; d++)
      put32(ubo + 4 * d, 100 + 7 * d);
   gpucc_compile_options mesa = {.struct_size = sizeof mesa,
                                 .binding_model = GPUCC_BINDING_MODEL_MESA};
   const char *targets[] = {"ivb", "hsw", "bdw", "skl"};
   for (int ti = 0; ti < 4; ti++) {
      const int gen7 = ti == 0;
      char node[16];
      snprintf(node, sizeof node, "sim:%s", targets[ti]);
      gpucc_device *dev = NULL;
      CHECK_STATUS(gpucc_device_open(node, &dev), GPUCC_STATUS_OK, "");
      gpucc_compiler *c = NULL;
      CHECK_STATUS(gpucc_compiler_create_for_device(dev, &c), GPUCC_STATUS_OK, "");
      gpucc_program *p = NULL;
      CHECK_STATUS(gpucc_compile(c, cs, &mesa, &p), GPUCC_STATUS_OK, "");
      if (!p) {
         fprintf(stderr, "%s: %s\n", targets[ti], gpucc_last_error());
         gpucc_compiler_destroy(c);
         gpucc_device_destroy(dev);
         continue;
      }
      gpucc_cs_info info;
      memset(&info, 0xab, sizeof info);
      info.struct_size = sizeof info;
      CHECK_STATUS(gpucc_program_cs_info(p, &info), GPUCC_STATUS_OK, "");
      CHECK(info.push_layout == GPUCC_CS_PUSH_LAYOUT_MESA);
      CHECK(info.simd_width == 16 && info.threads == 2 && info.right_mask == 0xffff);
      CHECK(info.local_id_regs == 0);
      CHECK(info.uniform_dwords == 8);
      CHECK(info.num_params == 9);
      CHECK(info.subgroup_id_param == 8);
      CHECK(info.dispatch_grf_start == 1);
      CHECK(info.ssbo_binding_base == 0);
      if (gen7) {
         CHECK(info.cross_thread_dwords == 0 && info.cross_thread_regs == 0);
         CHECK(info.per_thread_dwords == 9 && info.per_thread_regs == 2);
         CHECK(info.curbe_size == 128);
      } else {
         CHECK(info.cross_thread_dwords == 8 && info.cross_thread_regs == 1);
         CHECK(info.per_thread_dwords == 1 && info.per_thread_regs == 1);
         CHECK(info.curbe_size == 96);
      }
      gpucc_program_info pi = {.struct_size = sizeof pi};
      CHECK_STATUS(gpucc_program_get_info(p, &pi), GPUCC_STATUS_OK, "");
      CHECK(pi.num_ubo_ranges == 1);
      check_range(p, 0, 0, 0, 1);
      for (uint32_t i = 0; i < 8; i++) {
         gpucc_cs_param q = {.struct_size = sizeof q};
         CHECK_STATUS(gpucc_program_cs_param(p, i, &q), GPUCC_STATUS_OK, "");
         CHECK(q.kind == GPUCC_CS_PARAM_KIND_UNIFORM && q.block == 0 && q.offset == 4 * i);
      }
      gpucc_cs_param sg = {.struct_size = sizeof sg};
      CHECK_STATUS(gpucc_program_cs_param(p, 8, &sg), GPUCC_STATUS_OK, "");
      CHECK(sg.kind == GPUCC_CS_PARAM_KIND_SUBGROUP_ID);
      CHECK_STATUS(gpucc_program_cs_param(p, 9, &sg), GPUCC_STATUS_INVALID_ARGUMENT,
                   "index 9 of 9 params");

      /* The CURBE as iris fills it, then gpucc's own, which must be the same bytes. */
      uint8_t iris[128], mine[129], from_block0[128];
      fill_curbe_as_iris(p, &info, ubo, sizeof ubo, iris);
      if (gen7) {
         /* Thread 0: u[0..7], then its subgroup id 0; thread 1 from byte 64. */
         CHECK(le32(iris + 4) == 107 && le32(iris + 32) == 0);
         CHECK(le32(iris + 64 + 28) == 149 && le32(iris + 64 + 32) == 1);
      } else {
         /* u[0..7] once, then thread 0's register (subgroup id 0), then thread 1's. */
         CHECK(le32(iris + 4) == 107 && le32(iris + 28) == 149);
         CHECK(le32(iris + 32) == 0 && le32(iris + 64) == 1);
      }
      memset(mine, 0xcd, sizeof mine);
      gpucc_uniform_block blocks[] = {{0, ubo, sizeof ubo}};
      CHECK_STATUS(gpucc_program_cs_curbe_blocks(p, blocks, 1, mine, sizeof mine),
                   GPUCC_STATUS_OK, "");
      CHECK(memcmp(mine, iris, info.curbe_size) == 0);
      CHECK(mine[info.curbe_size] == 0xcd);
      CHECK_STATUS(gpucc_program_cs_curbe(p, ubo, sizeof ubo, from_block0, sizeof from_block0),
                   GPUCC_STATUS_OK, "");
      CHECK(memcmp(from_block0, iris, info.curbe_size) == 0);
      gpucc_uniform_block other[] = {{3, ubo, sizeof ubo}};
      CHECK_STATUS(gpucc_program_cs_curbe_blocks(p, other, 1, mine, sizeof mine),
                   GPUCC_STATUS_INVALID_ARGUMENT, "param 0 reads UBO 0, which is not given");

      /* Two workgroups on the simulated render node: the SSBO at slot 1 (buffers[1]; slot 0
       * is constant buffer 0, pushed, so its buffer is never read), the uniforms pushed from
       * the launch's bytes of block 0. */
      gpucc_bo *code = NULL, *unused = NULL, *out = NULL;
      uint8_t zero[256] = {0};
      CHECK_STATUS(gpucc_program_upload(dev, p, &code), GPUCC_STATUS_OK, "");
      CHECK_STATUS(gpucc_device_upload(dev, zero, sizeof zero, &unused), GPUCC_STATUS_OK, "");
      CHECK_STATUS(gpucc_device_upload(dev, zero, sizeof zero, &out), GPUCC_STATUS_OK, "");
      gpucc_compute_launch launch;
      memset(&launch, 0, sizeof launch);
      launch.struct_size = sizeof launch;
      launch.groups[0] = 2;
      launch.groups[1] = 1;
      launch.groups[2] = 1;
      launch.uniforms = ubo;
      launch.uniforms_size = sizeof ubo;
      const gpucc_bo *buffers[2] = {unused, out};
      CHECK_STATUS(gpucc_device_dispatch_compute(dev, p, code, &launch, buffers, 2),
                   GPUCC_STATUS_OK, "");
      uint8_t result[256];
      CHECK_STATUS(gpucc_bo_read(dev, out, 0, result, sizeof result), GPUCC_STATUS_OK, "");
      int wrong = 0;
      for (uint32_t g = 0; g < 64; g++)
         wrong += le32(result + 4 * g) != g * 107 + 121 + 114;
      CHECK(wrong == 0);
      if (wrong)
         fprintf(stderr, "%s: %d of 64 invocations stored the wrong value\n", targets[ti],
                 wrong);
      gpucc_bo_destroy(dev, out);
      gpucc_bo_destroy(dev, unused);
      gpucc_bo_destroy(dev, code);
      gpucc_program_destroy(p);

      /* No uniform data: the subgroup id alone, one per-thread dword. */
      p = NULL;
      CHECK_STATUS(gpucc_compile(c, plain, &mesa, &p), GPUCC_STATUS_OK, "");
      if (p) {
         gpucc_cs_info only = {.struct_size = sizeof only};
         CHECK_STATUS(gpucc_program_cs_info(p, &only), GPUCC_STATUS_OK, "");
         CHECK(only.num_params == 1 && only.subgroup_id_param == 0 && only.uniform_dwords == 0);
         CHECK(only.cross_thread_dwords == 0 && only.cross_thread_regs == 0);
         CHECK(only.per_thread_dwords == 1 && only.per_thread_regs == 1);
         CHECK(only.curbe_size == 64);
         gpucc_cs_param q = {.struct_size = sizeof q};
         CHECK_STATUS(gpucc_program_cs_param(p, 0, &q), GPUCC_STATUS_OK, "");
         CHECK(q.kind == GPUCC_CS_PARAM_KIND_SUBGROUP_ID);
         uint8_t curbe[64];
         CHECK_STATUS(gpucc_program_cs_curbe_blocks(p, NULL, 0, curbe, sizeof curbe),
                      GPUCC_STATUS_OK, "");
         CHECK(le32(curbe) == 0 && le32(curbe + 32) == 1);
      }
      gpucc_program_destroy(p);

      /* As iris and crocus compile compute shaders: they analyse no UBO ranges, so the
       * driver gives none and the CURBE holds only the subgroup id; the three uniform dwords
       * are pulled from constant buffer 0 at slot 0. */
      gpucc_compile_options no_ranges = mesa;
      no_ranges.ubo_ranges_given = 1;
      p = NULL;
      CHECK_STATUS(gpucc_compile(c, cs, &no_ranges, &p), GPUCC_STATUS_OK, "");
      if (p) {
         gpucc_cs_info only = {.struct_size = sizeof only};
         CHECK_STATUS(gpucc_program_cs_info(p, &only), GPUCC_STATUS_OK, "");
         CHECK(only.num_params == 1 && only.subgroup_id_param == 0 && only.uniform_dwords == 0);
         CHECK(only.cross_thread_dwords == 0 && only.per_thread_dwords == 1);
         gpucc_program_info pi2 = {.struct_size = sizeof pi2};
         CHECK_STATUS(gpucc_program_get_info(p, &pi2), GPUCC_STATUS_OK, "");
         CHECK(pi2.num_ubo_ranges == 0);
         /* The uniforms are pulled with sampler messages from slot 0, which the simulated
          * render node does not model (gpucc's DRM layer binds RAW buffers only), so this
          * program is run by the Rust tests' simulator (tests/cs_mesa_handover.rs). */
      }
      gpucc_program_destroy(p);
      gpucc_compiler_destroy(c);
      gpucc_device_destroy(dev);
   }

   /* Driver ranges are Mesa's model only, and are given on purpose. */
   {
      gpucc_compiler *ivb = NULL;
      CHECK_STATUS(gpucc_compiler_create("ivb", &ivb), GPUCC_STATUS_OK, "");
      gpucc_program *none = NULL;
      gpucc_compile_options stray = mesa;
      stray.ubo_ranges[1][2] = 2;
      CHECK_STATUS(gpucc_compile(ivb, cs, &stray, &none), GPUCC_STATUS_INVALID_ARGUMENT,
                   "ubo_ranges set without ubo_ranges_given");
      gpucc_compile_options own_model = {.struct_size = sizeof own_model, .ubo_ranges_given = 1};
      CHECK_STATUS(gpucc_compile(ivb, cs, &own_model, &none), GPUCC_STATUS_INVALID_ARGUMENT,
                   "ubo_ranges_given needs binding_model");
      gpucc_compile_options past = mesa;
      past.ubo_ranges_given = 1;
      past.ubo_ranges[0][0] = 0;
      past.ubo_ranges[0][1] = 60;
      past.ubo_ranges[0][2] = 8;
      CHECK_STATUS(gpucc_compile(ivb, cs, &past, &none), GPUCC_STATUS_INVALID_ARGUMENT,
                   "ubo_ranges[0]");
      gpucc_compiler_destroy(ivb);
   }

   /* The same shader under gpucc's own model keeps its local-id layout: 3 registers of ids
    * per 8 channels (6 at SIMD16), then the 3 uniform dwords it reads, in one register. */
   gpucc_compiler *bdw = NULL;
   CHECK_STATUS(gpucc_compiler_create("bdw", &bdw), GPUCC_STATUS_OK, "");
   gpucc_program *own = NULL;
   CHECK_STATUS(gpucc_compile(bdw, cs, NULL, &own), GPUCC_STATUS_OK, "");
   if (own) {
      gpucc_cs_info info = {.struct_size = sizeof info};
      CHECK_STATUS(gpucc_program_cs_info(own, &info), GPUCC_STATUS_OK, "");
      CHECK(info.push_layout == GPUCC_CS_PUSH_LAYOUT_LOCAL_IDS);
      CHECK(info.local_id_regs == 6 && info.uniform_dwords == 3 && info.num_params == 3);
      CHECK(info.subgroup_id_param == -1);
      CHECK(info.per_thread_dwords == 51 && info.cross_thread_dwords == 0);
   }
   gpucc_program_destroy(own);
   gpucc_compiler_destroy(bdw);
   gpucc_shader_destroy(plain);
   gpucc_shader_destroy(cs);
}

int
main(int argc, char **argv)
{
   if (argc != 3) {
      fprintf(stderr, "usage: %s INTEL.fs.nir ETNAVIV.fs.nir\n", argv[0]);
      return 2;
   }
   gpucc_shader *intel = build_intel();
   same_as_text(intel, argv[1], "ivb");
   gpucc_shader_destroy(intel);
   gpucc_shader *etna = build_etnaviv();
   same_as_text(etna, argv[2], "gc7000");
   gpucc_shader_destroy(etna);
   errors();
   contract_intel();
   contract_intel_cs();
   return check_report("builder");
}
