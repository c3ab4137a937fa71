/* The compile key through gpucc_compile_options: struct_size versions (an older, smaller
 * struct; a newer, larger one), flat_shade seen through gpucc_program_fs_input on NIR at
 * Mesa's hand-over point (where Mesa has applied it) and with apply_nir_keys (where gpucc
 * applies it), and keys gpucc does not implement refused by name. */
#include <stddef.h>

#include "check.h"

/* gl_Color copied to gl_FragColor, its interpolation left unspecified (INTERP_MODE_NONE). */
static const char color_fs[] =
   "shader: MESA_SHADER_FRAGMENT\nname: color\ninputs: 1\noutputs: 1\nuniforms: 0\n"
   "decl_var shader_in INTERP_MODE_NONE none vec4 gl_Color (VARYING_SLOT_COL0.xyzw, 1, 0)\n"
   "decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)\n"
   "decl_function main (0 params)\n\nimpl main {\n    block b0:      // preds: \n"
   "    div 32x2  %0 = @load_barycentric_pixel () (interp_mode=0)\n"
   "    con 32    %1 = load_const (0x00000000)\n"
   "    div 32x4  %2 = @load_interpolated_input (%0, %1 (0x0)) (base=1, component=0, "
   "dest_type=float32, io location=VARYING_SLOT_COL0 slots=1)\n"
   "                   @store_output (%2, %1 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, "
   "src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n"
   "                   // succs: b1 \n    block b1:\n}\n";

/* The same shader as Mesa hands it over: brw_nir_lower_fs_inputs gave gl_Color a mode, smooth
 * without flat_shade, flat with it (then read with load_input, no barycentric). */
static const char smooth_fs[] =
   "shader: MESA_SHADER_FRAGMENT\nname: color\ninputs: 1\noutputs: 1\nuniforms: 0\n"
   "decl_var shader_in INTERP_MODE_SMOOTH none vec4 gl_Color (VARYING_SLOT_COL0.xyzw, 1, 0)\n"
   "decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)\n"
   "decl_function main (0 params)\n\nimpl main {\n    block b0:      // preds: \n"
   "    div 32x2  %0 = @load_barycentric_pixel () (interp_mode=1)\n"
   "    con 32    %1 = load_const (0x00000000)\n"
   "    div 32x4  %2 = @load_interpolated_input (%0, %1 (0x0)) (base=1, component=0, "
   "dest_type=float32, io location=VARYING_SLOT_COL0 slots=1)\n"
   "                   @store_output (%2, %1 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, "
   "src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n"
   "                   // succs: b1 \n    block b1:\n}\n";
static const char flat_fs[] =
   "shader: MESA_SHADER_FRAGMENT\nname: color\ninputs: 1\noutputs: 1\nuniforms: 0\n"
   "decl_var shader_in INTERP_MODE_FLAT none vec4 gl_Color (VARYING_SLOT_COL0.xyzw, 1, 0)\n"
   "decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)\n"
   "decl_function main (0 params)\n\nimpl main {\n    block b0:      // preds: \n"
   "    con 32    %1 = load_const (0x00000000)\n"
   "    div 32x4  %2 = @load_input (%1 (0x0)) (base=1, range=1, component=0, "
   "dest_type=float32, io location=VARYING_SLOT_COL0 slots=1)\n"
   "                   @store_output (%2, %1 (0x0)) (base=4, range=1, wrmask=xyzw, component=0, "
   "src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n"
   "                   // succs: b1 \n    block b1:\n}\n";

/* VARYING_SLOT_COL0 in Mesa's gl_varying_slot. */
#define VARYING_SLOT_COL0 1

/* Compiles with `opts`; returns the program or NULL, having checked the status. */
static gpucc_program *
compile(const gpucc_compiler *c, const gpucc_shader *s, const void *opts, gpucc_status expected,
        const char *needle)
{
   gpucc_program *p = NULL;
   CHECK_STATUS(gpucc_compile(c, s, (const gpucc_compile_options *)opts, &p), expected, needle);
   return p;
}

/* flat of input 0, or -1 on failure. */
static int
input0_flat(const gpucc_program *p)
{
   gpucc_fs_input in = {.struct_size = sizeof in};
   if (gpucc_program_fs_input(p, 0, &in) != GPUCC_STATUS_OK)
      return -1;
   CHECK(in.varying == VARYING_SLOT_COL0);
   return (int)in.flat;
}

int
main(void)
{
   gpucc_compiler *ivb = NULL;
   gpucc_shader *shader = NULL;
   CHECK_STATUS(gpucc_compiler_create("ivb", &ivb), GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_shader_from_nir_text(color_fs, strlen(color_fs), &shader), GPUCC_STATUS_OK,
                "");

   /* No key: the colour is interpolated. */
   gpucc_program *p = compile(ivb, shader, NULL, GPUCC_STATUS_OK, "");
   CHECK(p && input0_flat(p) == 0);
   gpucc_program_destroy(p);

   /* flat_shade at the hand-over (apply_nir_keys 0): a colour still INTERP_MODE_NONE means
    * the NIR was cut before Mesa applied the key; refused naming the key, slot and remedy. */
   gpucc_compile_options o = {.struct_size = sizeof o, .flat_shade = 1};
   p = compile(ivb, shader, &o, GPUCC_STATUS_INVALID_ARGUMENT, "flat_shade=1");
   CHECK(p == NULL);
   CHECK(strstr(gpucc_last_error(), "VARYING_SLOT_COL0"));
   CHECK(strstr(gpucc_last_error(), "apply_nir_keys=1"));

   /* apply_nir_keys: gpucc applies flat_shade, the same input is constant-interpolated. */
   o.apply_nir_keys = 1;
   p = compile(ivb, shader, &o, GPUCC_STATUS_OK, "");
   CHECK(p && input0_flat(p) == 1);
   gpucc_program_info info = {.struct_size = sizeof(info)};
   /* Nothing left to interpolate. */
   CHECK(p && gpucc_program_get_info(p, &info) == GPUCC_STATUS_OK &&
         info.barycentric_modes == 0);
   gpucc_program_destroy(p);
   o.apply_nir_keys = 0;

   /* Mesa's hand-over NIR with the driver's key: the modes Mesa chose are reported. */
   gpucc_shader *smooth = NULL, *flat = NULL;
   CHECK_STATUS(gpucc_shader_from_nir_text(smooth_fs, strlen(smooth_fs), &smooth),
                GPUCC_STATUS_OK, "");
   CHECK_STATUS(gpucc_shader_from_nir_text(flat_fs, strlen(flat_fs), &flat), GPUCC_STATUS_OK,
                "");
   p = compile(ivb, smooth, &o, GPUCC_STATUS_OK, "");
   CHECK(p && input0_flat(p) == 0);
   gpucc_program_destroy(p);
   p = compile(ivb, flat, &o, GPUCC_STATUS_OK, "");
   CHECK(p && input0_flat(p) == 1);
   gpucc_program_destroy(p);
   gpucc_shader_destroy(smooth);
   gpucc_shader_destroy(flat);

   /* A caller built against the header before apply_nir_keys: its struct ends before the
    * field, so a 1 in the bytes after it is not read and the key is taken at the hand-over. */
   gpucc_compile_options prev = {.struct_size = offsetof(gpucc_compile_options, apply_nir_keys),
                                 .flat_shade = 1,
                                 .apply_nir_keys = 1};
   p = compile(ivb, shader, &prev, GPUCC_STATUS_INVALID_ARGUMENT, "flat_shade=1");
   CHECK(p == NULL);

   /* A caller built against the first header: {struct_size, simd_mask} only. The bytes
    * after it (here a flat_shade of 1 in a larger buffer) are not read. */
   gpucc_compile_options old = {.struct_size = offsetof(gpucc_compile_options, nr_color_regions),
                                .simd_mask = 1,
                                .flat_shade = 1};
   CHECK(old.struct_size == 8);
   p = compile(ivb, shader, &old, GPUCC_STATUS_OK, "");
   CHECK(p && input0_flat(p) == 0);
   if (p && gpucc_program_get_info(p, &info) == GPUCC_STATUS_OK)
      CHECK(info.simd8_offset == 0 && info.simd16_offset == UINT32_MAX);
   gpucc_program_destroy(p);

   /* A caller built against a newer header: a larger struct whose extra bytes are zero
    * works; a non-zero extra byte is a key this library cannot honour. */
   struct {
      gpucc_compile_options known;
      uint32_t future[2];
   } newer = {{.struct_size = sizeof newer, .flat_shade = 1, .apply_nir_keys = 1}, {0, 0}};
   p = compile(ivb, shader, &newer, GPUCC_STATUS_OK, "");
   CHECK(p && input0_flat(p) == 1);
   gpucc_program_destroy(p);
   newer.future[1] = 1;
   p = compile(ivb, shader, &newer, GPUCC_STATUS_INVALID_ARGUMENT, "not zero");
   CHECK(p == NULL);

   /* Sizes no header ever had. */
   gpucc_compile_options bad = {.struct_size = 0};
   compile(ivb, shader, &bad, GPUCC_STATUS_INVALID_ARGUMENT, "struct_size 0");
   bad.struct_size = 10;
   compile(ivb, shader, &bad, GPUCC_STATUS_INVALID_ARGUMENT, "struct_size 10");

   /* Booleans are 0 or 1. */
   o.flat_shade = 2;
   compile(ivb, shader, &o, GPUCC_STATUS_INVALID_ARGUMENT, "flat_shade=2");
   o.flat_shade = 0;
   o.apply_nir_keys = 2;
   compile(ivb, shader, &o, GPUCC_STATUS_INVALID_ARGUMENT, "apply_nir_keys=2");

   /* Keys gpucc does not implement, or of the other family: UNSUPPORTED naming the field. */
   gpucc_compile_options a2c = {.struct_size = sizeof a2c, .alpha_to_coverage = 1};
   compile(ivb, shader, &a2c, GPUCC_STATUS_UNSUPPORTED, "alpha_to_coverage=1");
   gpucc_compile_options swap = {.struct_size = sizeof swap, .frag_rb_swap = 1};
   compile(ivb, shader, &swap, GPUCC_STATUS_UNSUPPORTED, "frag_rb_swap=1");
   gpucc_compile_options clip = {.struct_size = sizeof clip, .nr_userclip_plane_consts = 4};
   compile(ivb, shader, &clip, GPUCC_STATUS_UNSUPPORTED, "nr_userclip_plane_consts=4");
   gpucc_compile_options alpha = {.struct_size = sizeof alpha, .alpha_test_func = 3};
   compile(ivb, shader, &alpha, GPUCC_STATUS_INVALID_ARGUMENT, "without emit_alpha_test");
   alpha.emit_alpha_test = 1;
   compile(ivb, shader, &alpha, GPUCC_STATUS_UNSUPPORTED, "alpha_test_func=3");

   /* The keys Mesa applies before the hand-over, or whose backend effect this shader
    * cannot show, leave its code as it is without them (README's key table). */
   gpucc_program *plain = compile(ivb, shader, NULL, GPUCC_STATUS_OK, "");
   gpucc_compile_options same = {.struct_size = sizeof same,
                                 .color_outputs_valid = 0x1,
                                 .input_slots_valid = (1ull << VARYING_SLOT_COL0) | 1,
                                 .multisample_fbo = 2, /* BRW_ALWAYS */
                                 .alpha_test_replicate_alpha = 1,
                                 .tex_swizzle_mask = 0x3};
   p = compile(ivb, shader, &same, GPUCC_STATUS_OK, "");
   const uint8_t *code0 = NULL, *code1 = NULL;
   size_t size0 = 0, size1 = 0;
   if (p && plain && gpucc_program_code(plain, &code0, &size0) == GPUCC_STATUS_OK &&
       gpucc_program_code(p, &code1, &size1) == GPUCC_STATUS_OK)
      CHECK(size0 == size1 && memcmp(code0, code1, size0) == 0);
   gpucc_program_destroy(p);
   gpucc_program_destroy(plain);
   /* Where they would change code gpucc does not build, or ask gpucc to apply them. */
   gpucc_compile_options msaa = {.struct_size = sizeof msaa, .multisample_fbo = 1};
   compile(ivb, shader, &msaa, GPUCC_STATUS_UNSUPPORTED, "BRW_SOMETIMES");
   msaa.multisample_fbo = 3;
   compile(ivb, shader, &msaa, GPUCC_STATUS_INVALID_ARGUMENT, "brw_sometimes");
   gpucc_compile_options rep = {.struct_size = sizeof rep,
                                .alpha_test_replicate_alpha = 1,
                                .nr_color_regions = 3};
   compile(ivb, shader, &rep, GPUCC_STATUS_UNSUPPORTED, "render target 1");
   gpucc_compile_options swz = {.struct_size = sizeof swz,
                                .tex_swizzle_mask = 1,
                                .apply_nir_keys = 1};
   compile(ivb, shader, &swz, GPUCC_STATUS_UNSUPPORTED, "tex_swizzle_mask=0x1");
   gpucc_compile_options shadow = {.struct_size = sizeof shadow, .sample_tex_compare = 1};
   compile(ivb, shader, &shadow, GPUCC_STATUS_UNSUPPORTED, "an etnaviv key");
   gpucc_compile_options cov = {.struct_size = sizeof cov, .color_outputs_valid = 0x100};
   compile(ivb, shader, &cov, GPUCC_STATUS_INVALID_ARGUMENT, "0-0xff");

   /* nr_color_regions: three regions get gl_FragColor each; none still ends the thread
    * with one write to render target 0. */
   gpucc_compile_options mrt = {.struct_size = sizeof mrt, .simd_mask = 1, .nr_color_regions = 3};
   p = compile(ivb, shader, &mrt, GPUCC_STATUS_OK, "");
   char *text = NULL;
   if (p && gpucc_program_disassemble(p, &text) == GPUCC_STATUS_OK) {
      CHECK(strstr(text, "RT write SIMD8 Surface = 1 "));
      CHECK(strstr(text, "RT write SIMD8 LastRT Surface = 2 "));
      gpucc_string_free(text);
   }
   gpucc_program_destroy(p);
   mrt.nr_color_regions = GPUCC_NO_COLOR_REGIONS;
   p = compile(ivb, shader, &mrt, GPUCC_STATUS_OK, "");
   if (p && gpucc_program_disassemble(p, &text) == GPUCC_STATUS_OK) {
      CHECK(strstr(text, "RT write SIMD8 LastRT Surface = 0 "));
      CHECK(strstr(text, "Surface = 1") == NULL);
      gpucc_string_free(text);
   }
   gpucc_program_destroy(p);

   gpucc_shader_destroy(shader);
   gpucc_compiler_destroy(ivb);
   return check_report("compile_key");
}
