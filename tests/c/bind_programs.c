/* Binding programs of both families from the program object alone, every info field checked
 * against values worked out by hand from the shaders below (comments give the reasoning).
 *
 * 1. An Ivy Bridge fragment shader, SIMD8 and SIMD16: a smooth vec2 input (VAR0), a flat
 *    float input (VAR1), a vec4 from the default uniform block (UBO 1, pushed), one texture.
 * 2. A GC3000 vertex + fragment pair: the vertex attribute, position and a vec2 varying; the
 *    fragment shader adds a user uniform to the varying.
 * 3. A caller built against an older, shorter gpucc_program_info gets only its prefix. */
#include "check.h"

#include <stddef.h>
#include <stdint.h>

#define VARYING_SLOT_POS 0
#define VARYING_SLOT_VAR0 32
#define VARYING_SLOT_VAR1 33
#define VERT_ATTRIB_POS 0
#define FRAG_RESULT_COLOR 2

static const char ivb_fs[] =
   "shader: MESA_SHADER_FRAGMENT\n"
   "name: fs\n"
   "inputs: 2\n"
   "outputs: 1\n"
   "uniforms: 0\n"
   "decl_var uniform INTERP_MODE_NONE none sampler2D tex (0, 0, 0)\n"
   "decl_var shader_in INTERP_MODE_SMOOTH none vec2 uv (VARYING_SLOT_VAR0.xy, 32, 0)\n"
   "decl_var shader_in INTERP_MODE_FLAT none float k (VARYING_SLOT_VAR1.x, 33, 0)\n"
   "decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)\n"
   "decl_function main (0 params)\n"
   "\n"
   "impl main {\n"
   "    block b0:   // preds:\n"
   "    32     %0 = load_const (0x00000000)\n"
   "    32     %1 = load_const (0x00000001)\n"
   "    32x2   %2 = @load_barycentric_pixel () (interp_mode=1)\n"
   "    32x2   %3 = @load_interpolated_input (%2, %0) (base=32, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)\n"
   "    32     %4 = @load_input (%0) (base=33, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_VAR1 slots=1)\n"
   "    32x4   %5 = @load_ubo (%1, %0) (access=none, align_mul=1073741824, align_offset=0, range_base=0, range=16)\n"
   "    32x4   %6 = (float32)tex %3 (coord), 1 (texture), 0 (sampler)\n"
   "    32x4   %7 = fmul %6, %5\n"
   "    32x4   %8 = fadd %7, %4.xxxx\n"
   "    @store_output (%8, %0) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n"
   "    // succs: b1\n"
   "    block b1:\n"
   "}\n";

/* gc_vs's attribute plus the instance id, stored as a float into the varying. */
static const char gc_ids_vs[] =
   "shader: MESA_SHADER_VERTEX\n"
   "name: ids\n"
   "inputs: 1\n"
   "outputs: 2\n"
   "uniforms: 0\n"
   "decl_var shader_in INTERP_MODE_NONE none vec4 gl_Vertex (VERT_ATTRIB_POS.xyzw, 0, 0)\n"
   "decl_var shader_out INTERP_MODE_NONE none vec4 gl_Position (VARYING_SLOT_POS.xyzw, 0, 0)\n"
   "decl_var shader_out INTERP_MODE_NONE none float id (VARYING_SLOT_VAR0.x, 1, 0)\n"
   "decl_function main (0 params)\n"
   "\n"
   "impl main {\n"
   "    block b0:  // preds:\n"
   "    32    %0 = load_const (0x00000000)\n"
   "    32x4  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_POS slots=1)\n"
   "    32    %2 = deref_var &gl_Position (shader_out vec4)\n"
   "               @store_deref (%2, %1) (wrmask=xyzw, access=none)\n"
   "    32    %3 = @load_instance_id () ()\n"
   "    32    %4 = i2f32 %3\n"
   "    32    %5 = deref_var &id (shader_out float)\n"
   "               @store_deref (%5, %4) (wrmask=x, access=none)\n"
   "               // succs: b1\n"
   "    block b1:\n"
   "}\n";

static const char gc_vs[] =
   "shader: MESA_SHADER_VERTEX\n"
   "name: vs\n"
   "inputs: 1\n"
   "outputs: 2\n"
   "uniforms: 0\n"
   "decl_var shader_in INTERP_MODE_NONE none vec4 gl_Vertex (VERT_ATTRIB_POS.xyzw, 0, 0)\n"
   "decl_var shader_out INTERP_MODE_NONE none vec4 gl_Position (VARYING_SLOT_POS.xyzw, 0, 0)\n"
   "decl_var shader_out INTERP_MODE_NONE none vec2 uv (VARYING_SLOT_VAR0.xy, 1, 0)\n"
   "decl_function main (0 params)\n"
   "\n"
   "impl main {\n"
   "    block b0:  // preds:\n"
   "    32    %0 = load_const (0x00000000)\n"
   "    32x4  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_POS slots=1)\n"
   "    32    %2 = deref_var &gl_Position (shader_out vec4)\n"
   "               @store_deref (%2, %1) (wrmask=xyzw, access=none)\n"
   "    32    %3 = load_const (0x3f000000 = 0.500000)\n"
   "    32x2  %4 = fmul %1.xy, %3.xx\n"
   "    32    %5 = deref_var &uv (shader_out vec2)\n"
   "               @store_deref (%5, %4) (wrmask=xy, access=none)\n"
   "               // succs: b1\n"
   "    block b1:\n"
   "}\n";

static const char gc_fs[] =
   "shader: MESA_SHADER_FRAGMENT\n"
   "name: fs\n"
   "inputs: 1\n"
   "outputs: 1\n"
   "uniforms: 1\n"
   "decl_var uniform INTERP_MODE_NONE none vec4 color (0, 0, 0)\n"
   "decl_var shader_in INTERP_MODE_NONE none vec2 uv (VARYING_SLOT_VAR0.xy, 0, 0)\n"
   "decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n"
   "decl_function main (0 params)\n"
   "\n"
   "impl main {\n"
   "    block b0:  // preds:\n"
   "    32    %0 = load_const (0x00000000)\n"
   "    32x2  %1 = @load_input (%0 (0x0)) (base=0, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)\n"
   "    32x4  %2 = @load_uniform (%0 (0x0)) (base=0, range=1, dest_type=float32)\n"
   "    32x4  %3 = vec4 %1.x, %1.y, %2.z, %2.w\n"
   "    32x4  %4 = fadd %3, %2\n"
   "    32    %5 = deref_var &gl_FragColor (shader_out vec4)\n"
   "               @store_deref (%5, %4) (wrmask=xyzw, access=none)\n"
   "               // succs: b1\n"
   "    block b1:\n"
   "}\n";

/* What the log callback received: statistics lines and performance warnings. */
struct log_record {
   int calls;
   int perf;
   char lines[8][512];
   void *user_data;
};

static void
record_log(void *user_data, gpucc_log_kind kind, const char *message)
{
   struct log_record *r = user_data;
   r->user_data = user_data;
   if (kind == GPUCC_LOG_KIND_PERF) {
      r->perf++;
      return;
   }
   if (r->calls < 8)
      snprintf(r->lines[r->calls], sizeof(r->lines[0]), "%s", message);
   r->calls++;
}

/* One of brw_fs_generator's shader-db lines (Mesa 23.3's format string), read back. */
static int
read_fs_stats_line(const char *line, unsigned *simd, unsigned *inst, unsigned *loops,
                   unsigned *cycles, unsigned *spills, unsigned *fills, unsigned *sends)
{
   char mode[32];
   unsigned promoted, before, after;
   int n = sscanf(line,
                  "FS SIMD%u shader: %u inst, %u loops, %u cycles, %u:%u spills:fills, %u sends, "
                  "scheduled with mode %31[^,], Promoted %u constants, compacted %u to %u bytes.",
                  simd, inst, loops, cycles, spills, fills, sends, mode, &promoted, &before,
                  &after);
   return n == 11 && before >= after && after % 8 == 0;
}

/* "SIMD16 shader: N instructions." of the statistics text, or -1. */
static long
stats_instructions(const gpucc_program *p, const char *prefix)
{
   char *text = NULL;
   if (gpucc_program_stats(p, &text) != GPUCC_STATUS_OK)
      return -1;
   long n = -1;
   const char *at = strstr(text, prefix);
   if (at)
      n = strtol(at + strlen(prefix), NULL, 10);
   gpucc_string_free(text);
   return n;
}

static void
check_ivb_fs(void)
{
   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create("ivb", &compiler), GPUCC_STATUS_OK, "");
   struct log_record log = {0};
   CHECK_STATUS(gpucc_compiler_set_log_callback(compiler, record_log, &log), GPUCC_STATUS_OK,
                "");
   gpucc_program *p = compile_text(compiler, ivb_fs, sizeof(ivb_fs) - 1);
   if (!p) {
      gpucc_compiler_destroy(compiler);
      return;
   }

   gpucc_program_info info;
   memset(&info, 0xab, sizeof(info));
   info.struct_size = sizeof(info);
   CHECK_STATUS(gpucc_program_get_info(p, &info), GPUCC_STATUS_OK, "");
   CHECK(info.struct_size == sizeof(info));
   CHECK(info.family == GPUCC_FAMILY_INTEL);
   CHECK(info.stage == GPUCC_STAGE_FRAGMENT);
   /* Both widths compile: SIMD8 first at 0, SIMD16 at the next 64-byte boundary. The SIMD8
    * kernel is 12 instructions (see below), under 256 bytes, so SIMD16 starts at 64..192. */
   CHECK(info.simd8_offset == 0);
   CHECK(info.simd16_offset % 64 == 0 && info.simd16_offset >= 64 && info.simd16_offset <= 192);
   CHECK(info.simd32_offset == UINT32_MAX);
   CHECK(info.code_size > info.simd16_offset && info.code_size % 64 == 0);
   /* SIMD8 payload: g0, g1, then perspective pixel barycentrics (2 GRFs): push at g4. */
   CHECK(info.dispatch_grf_start == 4);
   /* Gen7: the EOT render-target write sits in g112-g127, so the top GRF is touched. */
   CHECK(info.registers == 128);
   CHECK(info.scratch_size == 0);
   /* The four dwords of the vec4 in UBO 1 are pushed. */
   CHECK(info.uniforms == 4);
   CHECK(info.inputs == 2);
   CHECK(!info.uses_discard && !info.computes_depth && !info.dual_source_blend);
   CHECK(info.barycentric_modes == 1); /* perspective pixel only */
   CHECK(!info.needs_icache);
   /* Written (the struct was filled with 0xab): IEEE floating-point mode, as brw builds. */
   CHECK(info.use_alt_mode == 0);
   /* Per width: 2 PLN (uv), 1 sample, 4 MUL, 4 ADD, 1 render-target write. */
   CHECK(info.instructions == 12);
   CHECK(stats_instructions(p, "SIMD16 shader: ") == 12);
   CHECK(stats_instructions(p, "SIMD8 shader: ") == 12);
   CHECK(info.loops == 0 && info.spills == 0 && info.fills == 0);
   CHECK(info.sends == 2);
   CHECK(info.cycles > 0);
   /* The log got one shader-db line per width, SIMD8 then SIMD16, each with the counts
    * worked out above, and no performance warning (nothing was dropped or spilled). */
   CHECK(log.calls == 2 && log.perf == 0 && log.user_data == &log);
   for (int w = 0; w < 2 && w < log.calls; w++) {
      unsigned simd, inst, loops, cycles, spills, fills, sends;
      CHECK(read_fs_stats_line(log.lines[w], &simd, &inst, &loops, &cycles, &spills, &fills,
                               &sends));
      CHECK(simd == (w == 0 ? 8u : 16u));
      CHECK(inst == 12 && loops == 0 && spills == 0 && fills == 0 && sends == 2);
      if (w == 1)
         CHECK(cycles == info.cycles); /* the info holds the widest variant's */
      /* Each width's own statistics, as its log line has them. */
      gpucc_width_stats ws = {.struct_size = sizeof ws};
      CHECK_STATUS(gpucc_program_width_stats(p, (uint32_t)w, &ws), GPUCC_STATUS_OK, "");
      CHECK(ws.simd == simd && ws.instructions == inst && ws.cycles == cycles &&
            ws.loops == 0 && ws.spills == 0 && ws.fills == 0 && ws.sends == 2);
   }
   CHECK(info.num_widths == 2);
   gpucc_width_stats past = {.struct_size = sizeof past};
   CHECK_STATUS(gpucc_program_width_stats(p, 2, &past), GPUCC_STATUS_INVALID_ARGUMENT,
                "index 2 of 2 widths");
   /* Without a callback, nothing more is logged. */
   CHECK_STATUS(gpucc_compiler_set_log_callback(compiler, NULL, NULL), GPUCC_STATUS_OK, "");
   gpucc_program *again = compile_text(compiler, ivb_fs, sizeof(ivb_fs) - 1);
   CHECK(log.calls == 2);
   gpucc_program_destroy(again);
   CHECK_STATUS(gpucc_compiler_set_log_callback(NULL, record_log, &log),
                GPUCC_STATUS_INVALID_ARGUMENT, "compiler is NULL");
   CHECK(info.num_relocs == 0 && info.constant_data_size == 0);
   /* Render target 0, texture 1 (at binding-table index 1: the NIR's texture_index is the
    * driver's own index), sampler state 0. The pushed UBO needs no surface. */
   CHECK(info.num_bindings == 3);

   const struct {
      gpucc_binding_kind kind;
      uint32_t index, slot;
   } bindings[3] = {
      {GPUCC_BINDING_KIND_RENDER_TARGET, 0, 0},
      {GPUCC_BINDING_KIND_TEXTURE, 1, 1},
      {GPUCC_BINDING_KIND_SAMPLER, 0, 0},
   };
   for (uint32_t i = 0; i < 3; i++) {
      gpucc_binding b = {.struct_size = sizeof(b)};
      CHECK_STATUS(gpucc_program_binding(p, i, &b), GPUCC_STATUS_OK, "");
      CHECK(b.kind == bindings[i].kind && b.index == bindings[i].index &&
            b.slot == bindings[i].slot);
   }
   gpucc_binding nb = {.struct_size = sizeof(nb)};
   CHECK_STATUS(gpucc_program_binding(p, 3, &nb), GPUCC_STATUS_INVALID_ARGUMENT,
                "index 3 of 3 bindings");

   for (uint32_t i = 0; i < 4; i++) {
      gpucc_push_param q = {.struct_size = sizeof(q)};
      CHECK_STATUS(gpucc_program_push_param(p, i, &q), GPUCC_STATUS_OK, "");
      CHECK(q.block == 1 && q.offset == 4 * i);
   }
   gpucc_push_param nq = {.struct_size = sizeof(nq)};
   CHECK_STATUS(gpucc_program_push_param(p, 4, &nq), GPUCC_STATUS_INVALID_ARGUMENT,
                "index 4 of 4 pushed dwords");

   gpucc_fs_info fsi;
   memset(&fsi, 0xab, sizeof(fsi));
   fsi.struct_size = sizeof(fsi);
   CHECK_STATUS(gpucc_program_fs_info(p, &fsi), GPUCC_STATUS_OK, "");
   CHECK(fsi.dispatch_8 == 1 && fsi.dispatch_16 == 1 && fsi.dispatch_32 == 0);
   CHECK(fsi.prog_offset_16 == info.simd16_offset && fsi.prog_offset_32 == 0);
   /* SIMD16 barycentrics take 4 GRFs: push at g6. */
   CHECK(fsi.dispatch_grf_start_reg == 4 && fsi.dispatch_grf_start_reg_16 == 6 &&
         fsi.dispatch_grf_start_reg_32 == 0);
   CHECK(fsi.num_render_targets == 1);
   CHECK(fsi.computed_depth_mode == 0);
   CHECK(fsi.uses_omask == 0 && fsi.uses_kill == 0 && fsi.uses_src_depth == 0 &&
         fsi.uses_src_w == 0 && fsi.uses_sample_mask == 0 && fsi.persample_dispatch == 0 &&
         fsi.dual_src_blend == 0);
   CHECK(fsi.barycentric_interp_modes == 1);
   CHECK(fsi.num_varying_inputs == 2);
   CHECK(fsi.flat_inputs == 2); /* slot 1, VAR1 */
   CHECK(fsi.noperspective_inputs == 0);
   /* No memory writes, no early-tests qualifier, no stencil, no per-sample offsets; the
    * vector mask, as brw always sets it before XeHP. */
   CHECK(fsi.has_side_effects == 0 && fsi.early_fragment_tests == 0 &&
         fsi.computed_stencil == 0 && fsi.uses_pos_offset == 0 && fsi.uses_vmask == 1);

   const uint32_t varyings[2] = {VARYING_SLOT_VAR0, VARYING_SLOT_VAR1};
   for (uint32_t i = 0; i < 2; i++) {
      gpucc_fs_input in = {.struct_size = sizeof(in)};
      CHECK_STATUS(gpucc_program_fs_input(p, i, &in), GPUCC_STATUS_OK, "");
      CHECK(in.varying == varyings[i] && in.flat == (i == 1) && in.noperspective == 0 &&
            in.read == 1);
   }
   /* Mesa's slot-indexed form: VAR0 in attribute 0, VAR1 in 1, every other varying none. */
   CHECK(fsi.inputs_read == ((1ull << VARYING_SLOT_VAR0) | (1ull << VARYING_SLOT_VAR1)));
   CHECK(fsi.urb_setup_attribs_count == 2);
   for (uint32_t v = 0; v < 64; v++) {
      int32_t slot = 99;
      CHECK_STATUS(gpucc_program_fs_urb_setup(p, v, &slot), GPUCC_STATUS_OK, "");
      CHECK(slot == (v == VARYING_SLOT_VAR0 ? 0 : v == VARYING_SLOT_VAR1 ? 1 : -1));
   }
   int32_t past_slot = 0;
   CHECK_STATUS(gpucc_program_fs_urb_setup(p, 64, &past_slot), GPUCC_STATUS_INVALID_ARGUMENT,
                "index 64 of 64");
   for (uint32_t i = 0; i < 2; i++) {
      uint32_t v = 0;
      CHECK_STATUS(gpucc_program_fs_urb_setup_attrib(p, i, &v), GPUCC_STATUS_OK, "");
      CHECK(v == varyings[i]);
   }
   uint32_t none = 0;
   CHECK_STATUS(gpucc_program_fs_urb_setup_attrib(p, 2, &none), GPUCC_STATUS_INVALID_ARGUMENT,
                "index 2 of 2 attributes");

   /* Intel programs have no Vivante facts, fragment programs no vertex facts. */
   gpucc_etna_info ei = {.struct_size = sizeof(ei)};
   CHECK_STATUS(gpucc_program_etna_info(p, &ei), GPUCC_STATUS_INVALID_ARGUMENT,
                "not a Vivante program");

   /* An older caller that knew gpucc_program_info up to `uniforms`: the rest is untouched. */
   gpucc_program_info old;
   memset(&old, 0xab, sizeof(old));
   old.struct_size = offsetof(gpucc_program_info, inputs);
   CHECK_STATUS(gpucc_program_get_info(p, &old), GPUCC_STATUS_OK, "");
   CHECK(old.uniforms == 4 && old.dispatch_grf_start == 4);
   CHECK(old.inputs == 0xabababab && old.num_bindings == 0xabababab);
   CHECK(old.instructions == 0xabababab);
   old.struct_size = 2;
   CHECK_STATUS(gpucc_program_get_info(p, &old), GPUCC_STATUS_INVALID_ARGUMENT, "struct_size 2");
   /* The same for gpucc_fs_info: a caller that stops before the flat mask. */
   gpucc_fs_info oldfs;
   memset(&oldfs, 0xab, sizeof(oldfs));
   oldfs.struct_size = offsetof(gpucc_fs_info, flat_inputs);
   CHECK_STATUS(gpucc_program_fs_info(p, &oldfs), GPUCC_STATUS_OK, "");
   CHECK(oldfs.num_varying_inputs == 2 && oldfs.flat_inputs == 0xababababababababull);

   gpucc_program_destroy(p);
   gpucc_compiler_destroy(compiler);
}

static void
check_gc3000_pair(void)
{
   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create("gc3000", &compiler), GPUCC_STATUS_OK, "");
   struct log_record log = {0};
   CHECK_STATUS(gpucc_compiler_set_log_callback(compiler, record_log, &log), GPUCC_STATUS_OK,
                "");
   gpucc_program *vs = compile_text(compiler, gc_vs, sizeof(gc_vs) - 1);
   /* etnaviv_shader.c's shader-db line for the two-instruction vertex program below. */
   CHECK(log.calls >= 1 && strcmp(log.lines[0], "VERT shader: 2 instructions, 2 temps, "
                                                "0 immediates, 0 loops") == 0);
   gpucc_program *fs = compile_text(compiler, gc_fs, sizeof(gc_fs) - 1);
   if (!vs || !fs)
      goto done;

   gpucc_program_info info = {.struct_size = sizeof(info)};
   CHECK_STATUS(gpucc_program_get_info(vs, &info), GPUCC_STATUS_OK, "");
   CHECK(info.family == GPUCC_FAMILY_ETNAVIV && info.stage == GPUCC_STAGE_VERTEX);
   /* Two instructions of four dwords: copy the attribute to the position register, scale it
    * into the varying (GC3000 encodes the 0.5 as an immediate: no uniform is needed). */
   CHECK(info.code_size == 32 && info.instructions == 2);
   CHECK(info.simd8_offset == UINT32_MAX && info.dispatch_grf_start == 0);
   CHECK(info.uniforms == 0 && info.inputs == 1 && info.num_bindings == 0);
   /* The attribute and the position are both live after the first instruction. */
   CHECK(info.registers == 2);

   gpucc_etna_info vi;
   memset(&vi, 0xab, sizeof(vi));
   vi.struct_size = sizeof(vi);
   CHECK_STATUS(gpucc_program_etna_info(vs, &vi), GPUCC_STATUS_OK, "");
   CHECK(vi.num_temps == 2 && vi.num_loops == 0 && vi.num_uniform_slots == 0);
   CHECK(vi.num_inputs == 1 && vi.num_outputs == 2);
   CHECK(vi.vs_pointsize_out_reg == -1 && vi.ps_color_out_reg == -1 &&
         vi.ps_depth_out_reg == -1);
   CHECK(vi.needs_icache == 0 && vi.uses_discard == 0);
   /* No vertex or instance id read: no id register. */
   CHECK(vi.vs_id_in_reg == -1);
   /* With the instance id: the register after the one attribute (t0), t1. */
   gpucc_program *ids = compile_text(compiler, gc_ids_vs, sizeof(gc_ids_vs) - 1);
   if (ids) {
      gpucc_etna_info ii;
      memset(&ii, 0xab, sizeof(ii));
      ii.struct_size = sizeof(ii);
      CHECK_STATUS(gpucc_program_etna_info(ids, &ii), GPUCC_STATUS_OK, "");
      CHECK(ii.num_inputs == 1 && ii.vs_id_in_reg == 1);
      gpucc_program_destroy(ids);
   }

   gpucc_etna_io io = {.struct_size = sizeof(io)};
   /* Vertex attributes sit in t0, t1, ... in attribute order. */
   CHECK_STATUS(gpucc_program_etna_input(vs, 0, &io), GPUCC_STATUS_OK, "");
   CHECK(io.reg == 0 && io.slot == VERT_ATTRIB_POS && io.location == 0 &&
         io.component_mask == 0xf);
   CHECK_STATUS(gpucc_program_etna_input(vs, 1, &io), GPUCC_STATUS_INVALID_ARGUMENT,
                "index 1 of 1 registers");
   int32_t pos_reg = -1, var0_reg = -1;
   for (uint32_t i = 0; i < vi.num_outputs && i < 2; i++) {
      CHECK_STATUS(gpucc_program_etna_output(vs, i, &io), GPUCC_STATUS_OK, "");
      CHECK(io.reg < vi.num_temps);
      if (io.slot == VARYING_SLOT_POS) {
         pos_reg = (int32_t)io.reg;
         CHECK(io.location == 0 && io.component_mask == 0xf);
      } else if (io.slot == VARYING_SLOT_VAR0) {
         var0_reg = (int32_t)io.reg;
         CHECK(io.location == 1 && io.component_mask == 0x3);
      }
   }
   CHECK(pos_reg >= 0 && var0_reg >= 0 && pos_reg != var0_reg);
   CHECK(vi.vs_pos_out_reg == pos_reg);

   /* The fragment side: the varying arrives in t1 (t0 holds the position), the colour is
    * the varying plus the user uniform, written in place. */
   gpucc_etna_info fi = {.struct_size = sizeof(fi)};
   CHECK_STATUS(gpucc_program_etna_info(fs, &fi), GPUCC_STATUS_OK, "");
   CHECK(fi.num_temps == 2 && fi.num_uniform_slots == 1);
   CHECK(fi.num_inputs == 1 && fi.num_outputs == 1);
   CHECK(fi.vs_pos_out_reg == -1 && fi.vs_pointsize_out_reg == -1 && fi.ps_depth_out_reg == -1);
   CHECK_STATUS(gpucc_program_etna_input(fs, 0, &io), GPUCC_STATUS_OK, "");
   CHECK(io.reg == 1 && io.slot == VARYING_SLOT_VAR0 && io.location == 0 &&
         io.component_mask == 0x3);
   CHECK_STATUS(gpucc_program_etna_output(fs, 0, &io), GPUCC_STATUS_OK, "");
   CHECK(io.slot == FRAG_RESULT_COLOR && io.component_mask == 0xf);
   CHECK(fi.ps_color_out_reg == (int32_t)io.reg);
   /* u0.xyzw is the application's vec4: dwords 0..3 of the default uniform block. */
   for (uint32_t c = 0; c < 4; c++) {
      gpucc_etna_uniform u = {.struct_size = sizeof(u)};
      CHECK_STATUS(gpucc_program_etna_uniform(fs, c, &u), GPUCC_STATUS_OK, "");
      CHECK(u.kind == GPUCC_ETNA_UNIFORM_KIND_USER && u.value == c);
   }
   gpucc_etna_uniform nu = {.struct_size = sizeof(nu)};
   CHECK_STATUS(gpucc_program_etna_uniform(fs, 4, &nu), GPUCC_STATUS_INVALID_ARGUMENT,
                "index 4 of 4 uniform components");

   /* Vivante programs have no Intel fragment facts. */
   gpucc_fs_info no = {.struct_size = sizeof(no)};
   CHECK_STATUS(gpucc_program_fs_info(fs, &no), GPUCC_STATUS_INVALID_ARGUMENT,
                "not an Intel fragment program");

done:
   gpucc_program_destroy(vs);
   gpucc_program_destroy(fs);
   gpucc_compiler_destroy(compiler);
}

int
main(void)
{
   check_ivb_fs();
   check_gc3000_pair();
   return check_report("bind_programs");
}
