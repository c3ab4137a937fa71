/* Describing a Broadwell compute program from the program object alone, as a driver
 * programs the interface descriptor, MEDIA_CURBE_LOAD and GPGPU_WALKER, with every
 * gpucc_cs_info field checked against values worked out by hand from the shader:
 *
 * - workgroup 8x4x1 = 32 invocations: more than one SIMD8 thread, so SIMD16 is compiled as
 *   well and dispatched: 2 threads, the last one full (right mask 0xffff);
 * - each thread's push block: local ids, 3 registers (x, y, z) per 8 channels = 6 registers,
 *   48 dwords; then the 3 uniform dwords the shader reads (bytes 4, 12, 8 of UBO 0) in one
 *   more register: 51 dwords, 7 registers, 224 bytes; 448 bytes for the group; nothing is
 *   cross-thread; the uniforms start after g0 and the ids: g7;
 * - a workgroup barrier and 256 bytes of shared memory; nothing spills.
 *
 * Also: the push bytes gpucc_program_cs_curbe builds (thread 1, channel 3 is invocation 19,
 * local id (3, 2, 0); the uniforms are UBO dwords 1, 3, 2), a caller built against an older,
 * shorter gpucc_cs_info (only its prefix is written, canary bytes after it stay), and a
 * fragment program named as the wrong stage. */
#include "check.h"

#include <stddef.h>
#include <stdint.h>

static const char cs_text[] =
   "shader: MESA_SHADER_COMPUTE\n"
   "name: cs\n"
   "workgroup_size: 8, 4, 1\n"
   "shared_size: 256\n"
   "inputs: 0\n"
   "outputs: 0\n"
   "uniforms: 0\n"
   "decl_function main (0 params)\n"
   "\n"
   "impl main {\n"
   "    block b0:  // preds:\n"
   "    32    %0 = @load_local_invocation_index () ()\n"
   "    32    %1 = load_const (0x00000000)\n"
   "    32    %2 = load_const (0x00000004)\n"
   "    32    %3 = load_const (0x0000000c)\n"
   "    32    %4 = load_const (0x00000008)\n"
   "    32    %5 = @load_ubo (%1, %2) (access=none, align_mul=4, align_offset=0, "
   "range_base=0, range=-1)\n"
   "    32    %6 = @load_ubo (%1, %3) (access=none, align_mul=4, align_offset=0, "
   "range_base=0, range=-1)\n"
   "    32    %7 = @load_ubo (%1, %4) (access=none, align_mul=4, align_offset=0, "
   "range_base=0, range=-1)\n"
   "    32    %8 = imul %0, %2\n"
   "    32    %9 = iadd %5, %0\n"
   "    @store_shared (%9, %8) (base=0, wrmask=x, align_mul=4, align_offset=0)\n"
   "    @barrier () (execution_scope=WORKGROUP, memory_scope=WORKGROUP, "
   "memory_semantics=ACQ|REL, memory_modes=shared)\n"
   "    32    %10 = @load_shared (%8) (base=0, align_mul=4, align_offset=0)\n"
   "    32    %11 = iadd %10, %6\n"
   "    32    %12 = imul %11, %7\n"
   "    @store_ssbo (%12, %1, %8) (wrmask=x, access=none, align_mul=4, align_offset=0)\n"
   "    // succs: b1\n"
   "    block b1:\n"
   "}\n";

static uint32_t
dword_at(const unsigned char *bytes, size_t at)
{
   return (uint32_t)bytes[at] | (uint32_t)bytes[at + 1] << 8 | (uint32_t)bytes[at + 2] << 16 |
          (uint32_t)bytes[at + 3] << 24;
}

/* The first fields of gpucc_cs_info, as a header from before `threads` was added declared
 * them. */
struct old_cs_info {
   uint32_t struct_size;
   uint32_t local_size[3];
   uint32_t simd_width;
   uint32_t kernel_offset;
};

int
main(void)
{
   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create("bdw", &compiler), GPUCC_STATUS_OK, "");
   gpucc_program *cs = compile_text(compiler, cs_text, sizeof(cs_text) - 1);
   gpucc_program *fs = compile_text(compiler, tiny_shader, sizeof(tiny_shader) - 1);
   if (!cs || !fs)
      return check_report("bind_cs");

   gpucc_program_info pi = {.struct_size = sizeof(pi)};
   CHECK_STATUS(gpucc_program_get_info(cs, &pi), GPUCC_STATUS_OK, "");
   CHECK(pi.stage == GPUCC_STAGE_COMPUTE);

   gpucc_cs_info info;
   memset(&info, 0xab, sizeof(info));
   info.struct_size = sizeof(info);
   CHECK_STATUS(gpucc_program_cs_info(cs, &info), GPUCC_STATUS_OK, "");
   CHECK(info.struct_size == sizeof(gpucc_cs_info));
   CHECK(info.local_size[0] == 8 && info.local_size[1] == 4 && info.local_size[2] == 1);
   CHECK(info.simd_width == 16);
   /* SIMD8 comes first at 0; SIMD16 after it, 64-byte aligned. */
   CHECK(pi.simd8_offset == 0);
   CHECK(info.kernel_offset == pi.simd16_offset);
   CHECK(info.kernel_offset > 0 && info.kernel_offset % 64 == 0);
   CHECK(info.threads == 2);
   CHECK(info.right_mask == 0xffff);
   CHECK(info.uses_barrier == 1);
   CHECK(info.shared_size == 256);
   CHECK(info.per_thread_dwords == 51);
   CHECK(info.per_thread_regs == 7);
   CHECK(info.cross_thread_dwords == 0);
   CHECK(info.cross_thread_regs == 0);
   CHECK(info.local_id_regs == 6);
   CHECK(info.uniform_dwords == 3);
   CHECK(info.curbe_size == 448);
   CHECK(info.dispatch_grf_start == 7);
   CHECK(info.grfs > 7 && info.grfs <= 128);
   CHECK(info.grfs == pi.registers); /* the dispatched variant is the widest */
   CHECK(info.scratch_size == 0);
   CHECK(info.ssbo_binding_base == 128);
   CHECK(info.slm_binding == 254);

   /* The push data for one workgroup, from UBO 0 = dwords 100, 107, 114, 121, ... */
   unsigned char ubo[64];
   for (uint32_t d = 0; d < 16; d++) {
      uint32_t v = 100 + 7 * d;
      for (int b = 0; b < 4; b++)
         ubo[4 * d + b] = (unsigned char)(v >> (8 * b));
   }
   unsigned char curbe[449];
   memset(curbe, 0xcd, sizeof(curbe));
   CHECK_STATUS(gpucc_program_cs_curbe(cs, ubo, sizeof(ubo), curbe, sizeof(curbe)),
                GPUCC_STATUS_OK, "");
   const size_t t1 = 224; /* thread 1's block */
   CHECK(dword_at(curbe, t1 + 0 * 32 + 12) == 3); /* x of channel 3 */
   CHECK(dword_at(curbe, t1 + 1 * 32 + 12) == 2); /* y */
   CHECK(dword_at(curbe, t1 + 2 * 32 + 12) == 0); /* z */
   CHECK(dword_at(curbe, 6 * 32 + 0) == 107);
   CHECK(dword_at(curbe, 6 * 32 + 4) == 121);
   CHECK(dword_at(curbe, 6 * 32 + 8) == 114);
   CHECK(dword_at(curbe, t1 + 6 * 32 + 4) == 121);
   CHECK(curbe[448] == 0xcd);
   CHECK_STATUS(gpucc_program_cs_curbe(cs, ubo, 8, curbe, sizeof(curbe)),
                GPUCC_STATUS_INVALID_ARGUMENT, "bytes 12..16 of UBO block 0");

   /* A caller built against the older, shorter struct: only its 24 bytes are written. */
   union {
      struct old_cs_info old;
      unsigned char bytes[sizeof(gpucc_cs_info)];
   } u;
   memset(&u, 0x5a, sizeof(u));
   u.old.struct_size = sizeof(struct old_cs_info);
   CHECK_STATUS(gpucc_program_cs_info(cs, (gpucc_cs_info *)&u), GPUCC_STATUS_OK, "");
   CHECK(u.old.local_size[0] == 8 && u.old.local_size[1] == 4 && u.old.local_size[2] == 1);
   CHECK(u.old.simd_width == 16);
   CHECK(u.old.kernel_offset == info.kernel_offset);
   for (size_t i = sizeof(struct old_cs_info); i < sizeof(u.bytes); i++)
      CHECK(u.bytes[i] == 0x5a);
   CHECK(offsetof(gpucc_cs_info, threads) == sizeof(struct old_cs_info));
   u.old.struct_size = 4;
   CHECK_STATUS(gpucc_program_cs_info(cs, (gpucc_cs_info *)&u), GPUCC_STATUS_INVALID_ARGUMENT,
                "struct_size 4");

   /* The wrong stage is named. */
   CHECK_STATUS(gpucc_program_cs_info(fs, &info), GPUCC_STATUS_INVALID_ARGUMENT,
                "a MESA_SHADER_FRAGMENT program, not a compute program");
   CHECK_STATUS(gpucc_program_cs_info(NULL, &info), GPUCC_STATUS_INVALID_ARGUMENT,
                "program is NULL");

   gpucc_program_destroy(cs);
   gpucc_program_destroy(fs);
   gpucc_compiler_destroy(compiler);
   return check_report("bind_cs");
}
