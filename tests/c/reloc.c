/* Relocations through the C ABI: a bdw shader that reads its constant data through the
 * relocated constant-data address reports the data's size and one relocation per SIMD
 * variant, each pointing at the dword a driver patches (holding Mesa's placeholder
 * immediate until then); an index out of range is an error naming it. */
#include "check.h"

#include <stdint.h>

static const char shader_text[] =
   "shader: MESA_SHADER_FRAGMENT\n"
   "name: reloc\n"
   "stage: 4\n"
   "inputs: 0\n"
   "outputs: 1\n"
   "uniforms: 0\n"
   "constants: 64\n"
   "decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)\n"
   "decl_function main (0 params)\n"
   "\n"
   "impl main {\n"
   "    block b0:   // preds:\n"
   "    con 32     %0 = load_const (0x00000000)\n"
   "    con 32     %1 = @load_reloc_const_intel () (param_idx=0)\n"
   "    con 32     %2 = load_const (0x00000010)\n"
   "    con 32     %3 = iadd %1, %2\n"
   "    con 64     %4 = u2u64 %3\n"
   "    con 32x4   %5 = @load_global_constant (%4) (access=none, align_mul=4, align_offset=0)\n"
   "                    @store_output (%5, %0 (0x0)) (base=4, range=1, wrmask=xyzw, "
   "component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())\n"
   "                    // succs: b1\n"
   "    block b1:\n"
   "}\n";

/* Mesa's placeholder for relocated immediates (brw_eu_emit.c, DEFAULT_PATCH_IMM). */
#define MESA_PATCH_IMM 0x4a7cc037u

static uint32_t
dword_at(const uint8_t *code, uint32_t offset)
{
   return (uint32_t)code[offset] | (uint32_t)code[offset + 1] << 8 |
          (uint32_t)code[offset + 2] << 16 | (uint32_t)code[offset + 3] << 24;
}

int
main(void)
{
   gpucc_shader *shader = NULL;
   CHECK_STATUS(gpucc_shader_from_nir_text(shader_text, sizeof(shader_text) - 1, &shader),
                GPUCC_STATUS_OK, "");
   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create("bdw", &compiler), GPUCC_STATUS_OK, "");
   gpucc_compile_options opts = {.struct_size = sizeof(gpucc_compile_options), .simd_mask = 1 | 2};
   gpucc_program *program = NULL;
   CHECK_STATUS(gpucc_compile(compiler, shader, &opts, &program), GPUCC_STATUS_OK, "");
   if (!program)
      return check_report("reloc");

   gpucc_program_info info = {.struct_size = sizeof(gpucc_program_info)};
   CHECK_STATUS(gpucc_program_get_info(program, &info), GPUCC_STATUS_OK, "");
   const uint8_t *code = NULL;
   size_t size = 0;
   CHECK_STATUS(gpucc_program_code(program, &code, &size), GPUCC_STATUS_OK, "");
   CHECK(info.constant_data_size == 64);
   CHECK(info.simd16_offset != UINT32_MAX);
   CHECK(info.num_relocs == 2);
   for (uint32_t i = 0; i < info.num_relocs && i < 2; i++) {
      gpucc_reloc r;
      CHECK_STATUS(gpucc_program_reloc(program, i, &r), GPUCC_STATUS_OK, "");
      CHECK(r.id == 0 && r.delta == 0);
      CHECK(r.offset % 4 == 0 && r.offset + 4 <= size);
      /* the first in the SIMD8 code, the second in the SIMD16 code */
      CHECK(i == 0 ? r.offset < info.simd16_offset : r.offset > info.simd16_offset);
      if (r.offset + 4 <= size)
         CHECK(dword_at(code, r.offset) == MESA_PATCH_IMM);
   }
   gpucc_reloc r;
   CHECK_STATUS(gpucc_program_reloc(program, 2, &r), GPUCC_STATUS_INVALID_ARGUMENT,
                "index 2 out of range");
   CHECK_STATUS(gpucc_program_reloc(NULL, 0, &r), GPUCC_STATUS_INVALID_ARGUMENT,
                "program is NULL");
   gpucc_program_destroy(program);

   /* Ivybridge has no A64 messages: UNSUPPORTED naming the intrinsic */
   gpucc_compiler_destroy(compiler);
   CHECK_STATUS(gpucc_compiler_create("ivb", &compiler), GPUCC_STATUS_OK, "");
   program = NULL;
   CHECK_STATUS(gpucc_compile(compiler, shader, &opts, &program), GPUCC_STATUS_UNSUPPORTED,
                "load_reloc_const_intel");
   gpucc_program_destroy(program);
   gpucc_compiler_destroy(compiler);
   gpucc_shader_destroy(shader);
   return check_report("reloc");
}
