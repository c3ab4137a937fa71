/* The C builder and the driver contract as a driver adapter uses them: the shaders of
 * examples/intel/gradient.fs.nir (argv[1]) and examples/etnaviv/gradient.fs.nir (argv[2])
 * built call by call, with Mesa's own numbers and packed index words, never through text.
 * Each must print exactly as the text import of its file prints and compile (ivb, gc7000) to
 * the same bytes. Then the errors: unknown names, missing indices, structure and use errors,
 * each naming the call and the value, and sticky until the finish. Then Intel under Mesa's
 * binding model, as iris drives it: final binding-table slots, UBO ranges with pull loads
 * past them, the shader-db line through the log callback; every figure worked by hand. */
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
   return check_report("builder");
}
