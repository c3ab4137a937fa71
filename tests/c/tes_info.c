/* A Gen8+ tessellation-evaluation program's 3DSTATE_TE / 3DSTATE_DS facts from the program
 * object alone. The shader: triangle domain, counter-clockwise in GL (the hardware's
 * clockwise, topology 2), equal spacing (partitioning 0), reads the primitive id, pushes
 * patch slots 2 and 5 (three registers of two slots from slot 0), and writes gl_Position and
 * VAR0: VUE [0] header, [1] POS, [2] VAR0, 48 bytes, one 64-byte unit. The payload is
 * g0, the u/v/w registers and the output handles: dispatch GRF start 5. */
#include "check.h"

#include <stdint.h>

static const char tes_text[] =
   "shader: MESA_SHADER_TESS_EVAL\n"
   "name: tes\n"
   "outputs_written: 0,32\n"
   "system_values_read: 0x00000000'00000001'40000000\n"
   "primitive_mode: 1\n"
   "spacing: 1\n"
   "ccw: true\n"
   "inputs: 2\n"
   "outputs: 2\n"
   "uniforms: 0\n"
   "decl_function main (0 params)\n"
   "\n"
   "impl main {\n"
   "    block b0:   // preds:\n"
   "    32     %0 = load_const (0x00000000)\n"
   "    32x3   %1 = @load_tess_coord () ()\n"
   "    32x4   %2 = @load_input (%0) (base=2, range=1, component=0, dest_type=float32, "
   "io location=VARYING_SLOT_PATCH0 slots=1)\n"
   "    32x4   %3 = @load_input (%0) (base=5, range=1, component=0, dest_type=float32, "
   "io location=VARYING_SLOT_PATCH3 slots=1)\n"
   "    32     %4 = @load_primitive_id () ()\n"
   "    32x4   %5 = vec4 %1.x, %1.y, %1.z, %4\n"
   "    32x4   %6 = fadd %2, %3\n"
   "    @store_output (%5, %0) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, "
   "io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())\n"
   "    @store_output (%6, %0) (base=32, range=1, wrmask=xyzw, component=0, src_type=float32, "
   "io location=VARYING_SLOT_VAR0 slots=1, xfb(), xfb2())\n"
   "    // succs: b1\n"
   "    block b1:\n"
   "}\n";

int main(void)
{
   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create("bdw", &compiler), GPUCC_STATUS_OK, "");
   gpucc_program *tes = compile_text(compiler, tes_text, sizeof(tes_text) - 1);
   if (!tes)
      return check_report("tes_info");

   gpucc_tes_info t;
   memset(&t, 0xab, sizeof(t));
   t.struct_size = sizeof(t);
   CHECK_STATUS(gpucc_program_tes_info(tes, &t), GPUCC_STATUS_OK, "");
   CHECK(t.domain == 1);
   CHECK(t.partitioning == 0);
   CHECK(t.output_topology == 2);
   CHECK(t.include_primitive_id == 1);
   CHECK(t.urb_read_length == 3 && t.urb_read_offset == 0);
   CHECK(t.dispatch_grf_start == 5);
   CHECK(t.num_vue_slots == 3 && t.urb_entry_size == 1);
   CHECK(t.vue_slots_valid == ((1ull << 0) | (1ull << 32)));
   CHECK(t.dispatch_mode == 3);

   /* Its output VUE map, slot by slot and by varying, as a vertex program's is read. */
   const int32_t expected_map[3] = {12 /* PSIZ */, 0 /* POS */, 32 /* VAR0 */};
   for (uint32_t s = 0; s < 3; s++) {
      int32_t varying = -2;
      CHECK_STATUS(gpucc_program_vue_slot(tes, s, &varying), GPUCC_STATUS_OK, "");
      CHECK(varying == expected_map[s]);
   }
   int32_t slot = -2;
   CHECK_STATUS(gpucc_program_vue_slot_of(tes, 32, &slot), GPUCC_STATUS_OK, "");
   CHECK(slot == 2);
   CHECK_STATUS(gpucc_program_vue_slot_of(tes, 33, &slot), GPUCC_STATUS_OK, "");
   CHECK(slot == -1);

   /* Not a TES: refused. */
   gpucc_vs_info v = {.struct_size = sizeof(v)};
   CHECK_STATUS(gpucc_program_vs_info(tes, &v), GPUCC_STATUS_INVALID_ARGUMENT, "");

   gpucc_program_destroy(tes);
   gpucc_compiler_destroy(compiler);

   /* The same shader on Gen7 (vec4, two domain points per thread): the payload is g0 and g1
    * (points, patch handle, primitive id), so the URB data starts at g2; the same facts and
    * VUE map otherwise. */
   CHECK_STATUS(gpucc_compiler_create("ivb", &compiler), GPUCC_STATUS_OK, "");
   tes = compile_text(compiler, tes_text, sizeof(tes_text) - 1);
   if (!tes)
      return check_report("tes_info");
   memset(&t, 0xab, sizeof(t));
   t.struct_size = sizeof(t);
   CHECK_STATUS(gpucc_program_tes_info(tes, &t), GPUCC_STATUS_OK, "");
   CHECK(t.domain == 1 && t.partitioning == 0 && t.output_topology == 2);
   CHECK(t.include_primitive_id == 1);
   CHECK(t.urb_read_length == 3 && t.urb_read_offset == 0);
   CHECK(t.dispatch_grf_start == 2);
   CHECK(t.num_vue_slots == 3 && t.urb_entry_size == 1);
   CHECK(t.dispatch_mode == 2);
   CHECK_STATUS(gpucc_program_vue_slot_of(tes, 32, &slot), GPUCC_STATUS_OK, "");
   CHECK(slot == 2);
   gpucc_program_destroy(tes);
   gpucc_compiler_destroy(compiler);
   return check_report("tes_info");
}
