/* A tessellation-control program's 3DSTATE_HS facts from the program object alone, on a
 * Gen8+ target and on Ivy Bridge.
 * The shader: four output vertices (one SINGLE_PATCH thread, instance count 1), each copying
 * its input vertex's position, and one patch varying (VARYING_SLOT_PATCH0). The patch URB
 * entry: the two header slots and the patch varying (3 slots), then one slot per vertex,
 * 7 slots of 16 bytes = 112 bytes, two 64-byte units. The payload is g0 and the four
 * registers of input vertex handles: dispatch GRF start 5; nothing of the inputs is pushed.
 * On Ivy Bridge the vec4 backend runs SIMD4x2 threads of two output vertices: two instance
 * threads, the same patch entry and payload, and the input patch taken as four vertices (the
 * handles the first instance releases) without a key, three with `tcs_input_vertices` = 3. */
#include "check.h"

#include <stddef.h>
#include <stdint.h>

static const char tcs_text[] =
   "shader: MESA_SHADER_TESS_CTRL\n"
   "name: tcs\n"
   "outputs_written: 0\n"
   "patch_outputs_written: 0x00000001\n"
   "system_values_read: 0x00000000'00000000'00040000\n"
   "tcs_vertices_out: 4\n"
   "inputs: 1\n"
   "outputs: 5\n"
   "uniforms: 0\n"
   "decl_function main (0 params)\n"
   "\n"
   "impl main {\n"
   "    block b0:   // preds:\n"
   "    32     %0 = @load_invocation_id () ()\n"
   "    32     %1 = load_const (0x00000000)\n"
   "    32x4   %2 = @load_per_vertex_input (%0, %1) (base=0, range=1, component=0, "
   "dest_type=float32, io location=VARYING_SLOT_POS slots=1)\n"
   "    @store_per_vertex_output (%2, %0, %0) (base=3, range=1, wrmask=xyzw, component=0, "
   "src_type=float32, io location=VARYING_SLOT_POS slots=1)\n"
   "    32x4   %3 = load_const (0x3f800000, 0x40000000, 0x40400000, 0x40800000)\n"
   "    @store_output (%3, %1) (base=2, range=1, wrmask=xyzw, component=0, src_type=float32, "
   "io location=VARYING_SLOT_PATCH0 slots=1, xfb(), xfb2())\n"
   "    // succs: b1\n"
   "    block b1:\n"
   "}\n";

int main(void)
{
   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create("bdw", &compiler), GPUCC_STATUS_OK, "");
   gpucc_program *tcs = compile_text(compiler, tcs_text, sizeof(tcs_text) - 1);
   if (!tcs)
      return check_report("tcs_info");

   gpucc_tcs_info t;
   memset(&t, 0xab, sizeof(t));
   t.struct_size = sizeof(t);
   CHECK_STATUS(gpucc_program_tcs_info(tcs, &t), GPUCC_STATUS_OK, "");
   CHECK(t.instances == 1);
   CHECK(t.output_vertices == 4);
   CHECK(t.include_primitive_id == 0);
   CHECK(t.include_vertex_handles == 1);
   CHECK(t.dispatch_mode == 0);
   CHECK(t.dispatch_grf_start == 5);
   CHECK(t.urb_read_length == 0);
   CHECK(t.num_per_patch_slots == 3 && t.num_per_vertex_slots == 1);
   CHECK(t.urb_entry_size == 2);

   /* Not a TES, nor a vertex program: refused. */
   gpucc_tes_info e = {.struct_size = sizeof(e)};
   CHECK_STATUS(gpucc_program_tes_info(tcs, &e), GPUCC_STATUS_INVALID_ARGUMENT, "");
   gpucc_vs_info v = {.struct_size = sizeof(v)};
   CHECK_STATUS(gpucc_program_vs_info(tcs, &v), GPUCC_STATUS_INVALID_ARGUMENT, "");

   CHECK(t.simd4x2 == 0 && t.input_vertices == 0);

   gpucc_program_destroy(tcs);
   gpucc_compiler_destroy(compiler);

   gpucc_compiler *ivb = NULL;
   CHECK_STATUS(gpucc_compiler_create("ivb", &ivb), GPUCC_STATUS_OK, "");
   gpucc_program *tcs7 = compile_text(ivb, tcs_text, sizeof(tcs_text) - 1);
   if (!tcs7)
      return check_report("tcs_info");
   memset(&t, 0xab, sizeof(t));
   t.struct_size = sizeof(t);
   CHECK_STATUS(gpucc_program_tcs_info(tcs7, &t), GPUCC_STATUS_OK, "");
   CHECK(t.simd4x2 == 1);
   CHECK(t.instances == 2);
   CHECK(t.output_vertices == 4);
   CHECK(t.input_vertices == 4);
   CHECK(t.include_primitive_id == 0);
   CHECK(t.include_vertex_handles == 1);
   CHECK(t.dispatch_mode == 0);
   CHECK(t.dispatch_grf_start == 5);
   CHECK(t.urb_read_length == 0);
   CHECK(t.num_per_patch_slots == 3 && t.num_per_vertex_slots == 1);
   CHECK(t.urb_entry_size == 2);

   /* An older caller's struct, cut after num_per_vertex_slots: the new fields stay as the
    * caller left them. */
   gpucc_tcs_info old;
   memset(&old, 0xab, sizeof(old));
   old.struct_size = (uint32_t)offsetof(gpucc_tcs_info, simd4x2);
   CHECK_STATUS(gpucc_program_tcs_info(tcs7, &old), GPUCC_STATUS_OK, "");
   CHECK(old.instances == 2 && old.num_per_vertex_slots == 1);
   CHECK(old.simd4x2 == 0xabababab && old.input_vertices == 0xabababab);

   /* crocus keys the TCS with the draw's patch size (`key.input_vertices`): three input
    * vertices for four output vertices. The program is built for three. */
   gpucc_shader *shader = NULL;
   CHECK_STATUS(gpucc_shader_from_nir_text(tcs_text, sizeof(tcs_text) - 1, &shader), GPUCC_STATUS_OK,
                "");
   gpucc_compile_options opts;
   memset(&opts, 0, sizeof(opts));
   opts.struct_size = sizeof(opts);
   opts.tcs_input_vertices = 3;
   gpucc_program *keyed = NULL;
   CHECK_STATUS(gpucc_compile(ivb, shader, &opts, &keyed), GPUCC_STATUS_OK, "");
   if (keyed) {
      memset(&t, 0xab, sizeof(t));
      t.struct_size = sizeof(t);
      CHECK_STATUS(gpucc_program_tcs_info(keyed, &t), GPUCC_STATUS_OK, "");
      CHECK(t.input_vertices == 3 && t.output_vertices == 4 && t.instances == 2);
      gpucc_program_destroy(keyed);
   }
   /* A patch has at most 32 vertices. */
   opts.tcs_input_vertices = 33;
   CHECK_STATUS(gpucc_compile(ivb, shader, &opts, &keyed), GPUCC_STATUS_INVALID_ARGUMENT,
                "tcs_input_vertices=33");
   gpucc_shader_destroy(shader);

   gpucc_program_destroy(tcs7);
   gpucc_compiler_destroy(ivb);
   return check_report("tcs_info");
}
