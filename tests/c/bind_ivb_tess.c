/* Binding a Gen7 (ivb) vertex -> tessellation control -> tessellation evaluation ->
 * fragment pipeline from the program objects alone, as crocus's gfx7 state upload does:
 * 3DSTATE_VS, 3DSTATE_HS, 3DSTATE_TE and 3DSTATE_DS, 3DSTATE_SBE from the programs' facts,
 * the URB entry size of each stage for the URB allocation, and each stage's input layout
 * against the previous stage's output layout. The programs are the bundled examples
 * (examples/intel, the directory is argv[1]): transform.vs.nir, relay.tcs.nir, relay.tes.nir,
 * gradient.fs.nir; the TCS is keyed with the draw's patch size, 3, as crocus keys it
 * (`key.input_vertices = vertices_per_patch`).
 *
 * Expected values follow Mesa 23.3's brw_compile_vs / brw_compile_tcs / brw_compile_tes on
 * the vec4 backend by hand:
 *  - VS: reads GENERIC0 and GENERIC1 (2 attribute slots, read length ceil(2 / 2) = 1),
 *    writes POS and VAR0: VUE [0] header (PSIZ), [1] POS, [2] VAR0; entry
 *    ceil(max(2, 3) / 4) = 1 unit of 64 bytes; SIMD4x2 dual object (dispatch mode 2),
 *    push data from g1 (vec4_visitor::setup_uniforms after g0).
 *  - TCS: 3 output vertices, two per SIMD4x2 thread: ceil(3 / 2) = 2 instances,
 *    SINGLE_PATCH (0); the payload is g0 and the input vertex handles in g1-g4: push data
 *    from g5 (vec4_tcs_visitor::setup_payload); inputs pulled (read length 0); the input
 *    patch is the key's 3 vertices. Patch URB entry: the two header slots (tess levels; no
 *    patch varyings), then per vertex POS and VAR0: (2 + 3 x 2) x 16 = 128 bytes -> 2 units.
 *  - TES: triangles (domain 1), equal spacing (partitioning 0), counter-clockwise in GL is
 *    the hardware's clockwise (topology 2); its inputs are patch slots 2-7 at constant
 *    offsets, pushed (vec4_tes_visitor pushes slots below 24): read length
 *    ceil((7 + 1) / 2) = 4, offset 0; the payload is g0 and g1 (URB handles and the domain
 *    point): push data from g2; its VUE is header, POS, VAR0 (3 slots, 48 bytes -> one
 *    unit); no primitive id.
 *  - FS: reads VAR0, at TES output slot 2: SBE source 2 - 2 x read offset 1 = 0. */
#include "check.h"

#include <stdint.h>
#include <stdio.h>

#define VARYING_SLOT_POS 0
#define VARYING_SLOT_PSIZ 12
#define VARYING_SLOT_VAR0 32

static gpucc_program *
compile_tcs(gpucc_compiler *compiler, const char *dir, uint32_t input_vertices)
{
   char path[4096];
   snprintf(path, sizeof(path), "%s/relay.tcs.nir", dir);
   size_t len = 0;
   char *text = read_file(path, &len);
   CHECK(text != NULL);
   if (!text)
      return NULL;
   gpucc_shader *shader = NULL;
   CHECK_STATUS(gpucc_shader_from_nir_text(text, len, &shader), GPUCC_STATUS_OK, "");
   free(text);
   gpucc_compile_options opts;
   memset(&opts, 0, sizeof(opts));
   opts.struct_size = sizeof(opts);
   opts.tcs_input_vertices = input_vertices;
   gpucc_program *p = NULL;
   CHECK_STATUS(gpucc_compile(compiler, shader, &opts, &p), GPUCC_STATUS_OK, "");
   gpucc_shader_destroy(shader);
   return p;
}

int
main(int argc, char **argv)
{
   CHECK(argc == 2);
   if (argc != 2)
      return check_report("bind_ivb_tess");
   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create("ivb", &compiler), GPUCC_STATUS_OK, "");
   gpucc_program *vs = compile_file(compiler, argv[1], "transform.vs.nir");
   gpucc_program *tcs = compile_tcs(compiler, argv[1], 3);
   gpucc_program *tes = compile_file(compiler, argv[1], "relay.tes.nir");
   gpucc_program *fs = compile_file(compiler, argv[1], "gradient.fs.nir");
   if (!vs || !tcs || !tes || !fs)
      return check_report("bind_ivb_tess");

   /* Each program says which stage it is. */
   const struct {
      gpucc_program *p;
      uint32_t stage;
   } stages[] = {
      {vs, GPUCC_STAGE_VERTEX},
      {tcs, GPUCC_STAGE_TESS_CTRL},
      {tes, GPUCC_STAGE_TESS_EVAL},
      {fs, GPUCC_STAGE_FRAGMENT},
   };
   for (unsigned i = 0; i < 4; i++) {
      gpucc_program_info pi = {.struct_size = sizeof(pi)};
      CHECK_STATUS(gpucc_program_get_info(stages[i].p, &pi), GPUCC_STATUS_OK, "");
      CHECK(pi.stage == stages[i].stage);
   }

   /* 3DSTATE_VS. */
   gpucc_vs_info vsi = {.struct_size = sizeof(vsi)};
   CHECK_STATUS(gpucc_program_vs_info(vs, &vsi), GPUCC_STATUS_OK, "");
   CHECK(vsi.nr_attribute_slots == 2 && vsi.urb_read_length == 1);
   CHECK(vsi.num_vue_slots == 3 && vsi.urb_entry_size == 1);
   CHECK(vsi.dispatch_mode == 2 && vsi.dispatch_grf_start == 1);
   int32_t slot = -2;
   CHECK_STATUS(gpucc_program_vue_slot_of(vs, VARYING_SLOT_POS, &slot), GPUCC_STATUS_OK, "");
   CHECK(slot == 1);
   CHECK_STATUS(gpucc_program_vue_slot_of(vs, VARYING_SLOT_VAR0, &slot), GPUCC_STATUS_OK, "");
   CHECK(slot == 2);

   /* 3DSTATE_HS: Instance Count = instances - 1; the URB handles it releases are the
    * draw's 3 input vertices. */
   gpucc_tcs_info tcsi = {.struct_size = sizeof(tcsi)};
   CHECK_STATUS(gpucc_program_tcs_info(tcs, &tcsi), GPUCC_STATUS_OK, "");
   CHECK(tcsi.simd4x2 == 1);
   CHECK(tcsi.output_vertices == 3 && tcsi.instances == 2 && tcsi.input_vertices == 3);
   CHECK(tcsi.dispatch_mode == 0 && tcsi.dispatch_grf_start == 5);
   CHECK(tcsi.include_vertex_handles == 1 && tcsi.urb_read_length == 0);
   CHECK(tcsi.num_per_patch_slots == 2 && tcsi.num_per_vertex_slots == 2);
   CHECK(tcsi.urb_entry_size == 2);
   uint32_t patch_slots = tcsi.num_per_patch_slots + 3 * tcsi.num_per_vertex_slots;
   CHECK(patch_slots == 8 && patch_slots * 16 <= tcsi.urb_entry_size * 64);

   /* 3DSTATE_TE and 3DSTATE_DS: the pushed patch slots lie within the TCS's entry. */
   gpucc_tes_info tesi = {.struct_size = sizeof(tesi)};
   CHECK_STATUS(gpucc_program_tes_info(tes, &tesi), GPUCC_STATUS_OK, "");
   CHECK(tesi.domain == 1 && tesi.partitioning == 0 && tesi.output_topology == 2);
   CHECK(tesi.include_primitive_id == 0);
   CHECK(tesi.urb_read_length == 4 && tesi.urb_read_offset == 0);
   CHECK(2 * tesi.urb_read_length <= patch_slots);
   CHECK(tesi.dispatch_grf_start == 2);
   CHECK(tesi.num_vue_slots == 3 && tesi.urb_entry_size == 1);
   CHECK(tesi.vue_slots_valid == ((1ull << VARYING_SLOT_POS) | (1ull << VARYING_SLOT_VAR0)));
   const int32_t expected_map[3] = {VARYING_SLOT_PSIZ, VARYING_SLOT_POS, VARYING_SLOT_VAR0};
   for (uint32_t s = 0; s < tesi.num_vue_slots && s < 3; s++) {
      int32_t varying = -2;
      CHECK_STATUS(gpucc_program_vue_slot(tes, s, &varying), GPUCC_STATUS_OK, "");
      CHECK(varying == expected_map[s]);
   }

   /* 3DSTATE_SBE from the last geometry stage, the TES. */
   gpucc_fs_input in = {.struct_size = sizeof(in)};
   CHECK_STATUS(gpucc_program_fs_input(fs, 0, &in), GPUCC_STATUS_OK, "");
   CHECK(in.varying == VARYING_SLOT_VAR0);
   CHECK_STATUS(gpucc_program_vue_slot_of(tes, in.varying, &slot), GPUCC_STATUS_OK, "");
   const int32_t read_offset = 1; /* pairs of slots: skip the header and position */
   CHECK(slot - 2 * read_offset == 0);

   /* A draw with another patch size needs another variant: four input vertices. */
   gpucc_program *tcs4 = compile_tcs(compiler, argv[1], 4);
   if (tcs4) {
      gpucc_tcs_info t4 = {.struct_size = sizeof(t4)};
      CHECK_STATUS(gpucc_program_tcs_info(tcs4, &t4), GPUCC_STATUS_OK, "");
      CHECK(t4.input_vertices == 4 && t4.output_vertices == 3 && t4.instances == 2);
      gpucc_program_destroy(tcs4);
   }

   gpucc_program_destroy(vs);
   gpucc_program_destroy(tcs);
   gpucc_program_destroy(tes);
   gpucc_program_destroy(fs);
   gpucc_compiler_destroy(compiler);
   return check_report("bind_ivb_tess");
}
