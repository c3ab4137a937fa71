/* Binding an Intel vertex program to a fragment program from the program objects alone, as a
 * Gen8+ driver programs 3DSTATE_SBE / 3DSTATE_SBE_SWIZ: each fragment input's varying is
 * looked up in the vertex program's VUE map; the SBE reads from the slot after the header and
 * position (read offset 1, in pairs of slots), so attribute i's swizzle source is its slot
 * minus 2, and flat inputs set their bit of the constant-interpolation mask.
 *
 * The vertex shader writes gl_Position, VAR1 and VAR0; the VUE map orders generic varyings
 * by number (Mesa's brw_compute_vue_map): [0] header, [1] POS, [2] VAR0, [3] VAR1. The
 * fragment shader reads VAR1 (flat) before VAR0, so its attribute 0 is VAR1 (source 1,
 * flat) and attribute 1 VAR0 (source 0). Also: a caller built against a shorter gpucc_vs_info
 * gets only the fields it knows. */
#include "check.h"

#include <stddef.h>
#include <stdint.h>

#define VARYING_SLOT_POS 0
#define VARYING_SLOT_PSIZ 12
#define VARYING_SLOT_VAR0 32
#define VARYING_SLOT_VAR1 33

static const char vs_text[] =
   "shader: MESA_SHADER_VERTEX\n"
   "name: vs\n"
   "inputs_read: 15-16\n"
   "inputs: 2\n"
   "outputs: 3\n"
   "uniforms: 0\n"
   "decl_function main (0 params)\n"
   "\n"
   "impl main {\n"
   "    block b0:   // preds:\n"
   "    32     %0 = load_const (0x00000000)\n"
   "    32x4   %1 = @load_input (%0) (base=0, range=1, component=0, dest_type=float32, "
   "io location=VERT_ATTRIB_GENERIC0 slots=1)\n"
   "    32x4   %2 = @load_input (%0) (base=1, range=1, component=0, dest_type=float32, "
   "io location=VERT_ATTRIB_GENERIC1 slots=1)\n"
   "    @store_output (%1, %0) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, "
   "io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())\n"
   "    @store_output (%2, %0) (base=33, range=1, wrmask=xyzw, component=0, src_type=float32, "
   "io location=VARYING_SLOT_VAR1 slots=1, xfb(), xfb2())\n"
   "    @store_output (%1, %0) (base=32, range=1, wrmask=xyzw, component=0, src_type=float32, "
   "io location=VARYING_SLOT_VAR0 slots=1, xfb(), xfb2())\n"
   "    // succs: b1\n"
   "    block b1:\n"
   "}\n";

static const char fs_text[] =
   "shader: MESA_SHADER_FRAGMENT\n"
   "name: fs\n"
   "inputs: 2\n"
   "outputs: 1\n"
   "uniforms: 0\n"
   "decl_var shader_in INTERP_MODE_FLAT none vec4 b (VARYING_SLOT_VAR1.xyzw, 33, 0)\n"
   "decl_var shader_in INTERP_MODE_SMOOTH none vec4 a (VARYING_SLOT_VAR0.xyzw, 32, 0)\n"
   "decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)\n"
   "decl_function main (0 params)\n"
   "\n"
   "impl main {\n"
   "    block b0:   // preds:\n"
   "    32     %0 = load_const (0x00000000)\n"
   "    32x4   %1 = @load_input (%0) (base=33, range=1, component=0, dest_type=float32, "
   "io location=VARYING_SLOT_VAR1 slots=1)\n"
   "    32x2   %2 = @load_barycentric_pixel () (interp_mode=1)\n"
   "    32x4   %3 = @load_interpolated_input (%2, %0) (base=32, component=0, "
   "dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)\n"
   "    32x4   %4 = fadd %1, %3\n"
   "    @store_output (%4, %0) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, "
   "io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n"
   "    // succs: b1\n"
   "    block b1:\n"
   "}\n";

int
main(void)
{
   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create("skl", &compiler), GPUCC_STATUS_OK, "");
   gpucc_program *vs = compile_text(compiler, vs_text, sizeof(vs_text) - 1);
   gpucc_program *fs = compile_text(compiler, fs_text, sizeof(fs_text) - 1);
   if (!vs || !fs)
      return check_report("bind_vs_fs");

   gpucc_vs_info vsi;
   memset(&vsi, 0xab, sizeof(vsi));
   vsi.struct_size = sizeof(vsi);
   CHECK_STATUS(gpucc_program_vs_info(vs, &vsi), GPUCC_STATUS_OK, "");
   CHECK(vsi.nr_attribute_slots == 2);
   CHECK(vsi.inputs_read == (3ull << 15));
   CHECK(vsi.num_vue_slots == 4);
   CHECK(vsi.vue_slots_valid == ((1ull << VARYING_SLOT_POS) | (1ull << VARYING_SLOT_VAR0) |
                                 (1ull << VARYING_SLOT_VAR1)));
   CHECK(vsi.urb_read_length == 1);
   CHECK(vsi.urb_entry_size == 1);
   CHECK(vsi.dispatch_grf_start == 2);
   CHECK(vsi.grfs > 0 && vsi.grfs <= 128);
   CHECK(!vsi.uses_vertexid && !vsi.uses_instanceid && !vsi.uses_drawid);
   /* skl runs vertex shaders SIMD8 (DISPATCH_MODE_SIMD8 = 3); no clip or cull distances. */
   CHECK(vsi.dispatch_mode == 3 && vsi.clip_distance_mask == 0 && vsi.cull_distance_mask == 0);

   const int32_t expected_map[4] = {VARYING_SLOT_PSIZ, VARYING_SLOT_POS, VARYING_SLOT_VAR0,
                                    VARYING_SLOT_VAR1};
   for (uint32_t s = 0; s < vsi.num_vue_slots && s < 4; s++) {
      int32_t varying = -2;
      CHECK_STATUS(gpucc_program_vue_slot(vs, s, &varying), GPUCC_STATUS_OK, "");
      CHECK(varying == expected_map[s]);
   }
   int32_t varying = 0;
   CHECK_STATUS(gpucc_program_vue_slot(vs, 4, &varying), GPUCC_STATUS_INVALID_ARGUMENT,
                "slot 4 of a 4-slot VUE map");

   /* The SBE programming, from the two program objects only. */
   gpucc_program_info fsi = {.struct_size = sizeof(gpucc_program_info)};
   CHECK_STATUS(gpucc_program_get_info(fs, &fsi), GPUCC_STATUS_OK, "");
   CHECK(fsi.inputs == 2);
   const uint32_t read_offset = 1; /* pairs of slots: skip the header and position */
   int32_t source[2] = {-1, -1};
   uint32_t const_interp = 0;
   for (uint32_t i = 0; i < fsi.inputs && i < 2; i++) {
      gpucc_fs_input in = {.struct_size = sizeof(in)};
      CHECK_STATUS(gpucc_program_fs_input(fs, i, &in), GPUCC_STATUS_OK, "");
      int32_t slot = -1;
      CHECK_STATUS(gpucc_program_vue_slot_of(vs, in.varying, &slot), GPUCC_STATUS_OK, "");
      CHECK(slot >= 0);
      source[i] = slot - 2 * (int32_t)read_offset;
      if (in.flat)
         const_interp |= 1u << i;
      CHECK(!in.noperspective);
   }
   /* Attribute setup in varying-slot order, as Mesa's calculate_urb_setup lays it out
    * (whatever order the shader reads them in): VAR0 (VUE slot 2, source 0) first, then the
    * flat VAR1 (VUE slot 3, source 1), so the constant-interpolation bit is attribute 1's. */
   CHECK(source[0] == 0 && source[1] == 1);
   CHECK(const_interp == 2);
   gpucc_fs_input bad = {.struct_size = sizeof(bad)};
   CHECK_STATUS(gpucc_program_fs_input(fs, 2, &bad), GPUCC_STATUS_INVALID_ARGUMENT,
                "index 2 of 2 inputs");

   /* A caller that knows only the fields up to num_vue_slots: nothing after is written. */
   gpucc_vs_info old;
   memset(&old, 0xab, sizeof(old));
   old.struct_size = offsetof(gpucc_vs_info, vue_separate);
   CHECK_STATUS(gpucc_program_vs_info(vs, &old), GPUCC_STATUS_OK, "");
   CHECK(old.num_vue_slots == 4);
   CHECK(old.struct_size == sizeof(gpucc_vs_info));
   CHECK(old.vue_separate == 0xabababab && old.uses_drawid == 0xabababab);
   old.struct_size = 4;
   CHECK_STATUS(gpucc_program_vs_info(vs, &old), GPUCC_STATUS_INVALID_ARGUMENT,
                "struct_size 4");

   /* The wrong stage is named. */
   CHECK_STATUS(gpucc_program_vs_info(fs, &vsi), GPUCC_STATUS_INVALID_ARGUMENT,
                "not a vertex program");

   gpucc_program_destroy(vs);
   gpucc_program_destroy(fs);
   gpucc_compiler_destroy(compiler);
   return check_report("bind_vs_fs");
}
