//! Bit layouts of the Gen7/7.5/8 GPGPU commands, against words derived by hand from the
//! genxml field tables (gen6.xml for the media loads, gen7.xml, gen75.xml, gen8.xml).
//!
//! Every render-engine header is Command Type (31:29) = 3, then Command SubType/Pipeline
//! (28:27), opcode (26:24), sub-opcode (23:16) and DWord Length (length − 2).

use gpucc::drm::i915::batch::{build_compute_batch, Addresses, ComputeDispatch, Target};
use gpucc::drm::i915::cmd::*;

#[test]
fn pipeline_select_selects_gpgpu() {
    // 3<<29 | 1<<27 | 1<<24 | 4<<16 | GPGPU(2) = 0x60000000+0x08000000+0x01000000+0x00040000+2.
    assert_eq!(pipeline_select_gpgpu(Gen::Gen7), [0x6904_0002]);
    assert_eq!(pipeline_select_gpgpu(Gen::Gen8), [0x6904_0002]);
}

#[test]
fn batch_buffer_end() {
    // MI command type 0, opcode 0x0A in bits 28:23: 0x0A << 23.
    assert_eq!(MI_BATCH_BUFFER_END, 0x0500_0000);
}

#[test]
fn media_loads_and_flush() {
    // Pipeline 2 (media) << 27 = 0x10000000; sub-opcodes 1 (CURBE), 2 (IDD), 4 (flush).
    assert_eq!(media_curbe_load(0x60, 0x140), [0x7001_0002, 0, 0x60, 0x140]);
    assert_eq!(
        media_interface_descriptor_load(32, 0x100),
        [0x7002_0002, 0, 32, 0x100]
    );
    assert_eq!(media_state_flush(0), [0x7004_0000, 0]);
    // Interface Descriptor Offset is bits 37:32, i.e. 5:0 of DW1.
    assert_eq!(media_state_flush(3), [0x7004_0000, 3]);
}

#[test]
fn state_base_address_gen7() {
    let sba = StateBaseAddress {
        general: 0,
        surface: 0x0001_0000,
        dynamic: 0x0002_0000,
        indirect: 0x0003_0000,
        instruction: 0x0004_0000,
        mocs: 1,
    };
    // DW0: 3<<29 | opcode 1<<24 | sub-opcode 1<<16 | length 8 = 0x61010008.
    // DW1: modify enable (bit 0) | stateless MOCS (7:4) = 1 | general MOCS (11:8) = 1.
    // DW2..5: base (31:12) | MOCS (11:8) | modify enable.
    // DW6..9: upper bound 0xfffff (31:12) | modify enable.
    assert_eq!(
        sba.encode(Gen::Gen7),
        vec![
            0x6101_0008,
            0x0000_0111,
            0x0001_0101,
            0x0002_0101,
            0x0003_0101,
            0x0004_0101,
            0xffff_f001,
            0xffff_f001,
            0xffff_f001,
            0xffff_f001,
        ]
    );
}

#[test]
fn state_base_address_gen8() {
    let sba = StateBaseAddress {
        general: 0,
        surface: 0x1_2345_6000,
        dynamic: 0x2000,
        indirect: 0,
        instruction: 0xffff_f000_0000,
        mocs: 0x78,
    };
    // 16 dwords, length 14. MOCS in bits 10:4 of each base's low dword (0x78 << 4 = 0x780),
    // stateless MOCS in bits 22:16 of DW3, 48-bit bases split low/high, buffer sizes DW12..15.
    assert_eq!(
        sba.encode(Gen::Gen8),
        vec![
            0x6101_000e,
            0x0000_0781,
            0,
            0x0078_0000,
            0x2345_6781,
            0x0000_0001,
            0x0000_2781,
            0,
            0x0000_0781,
            0,
            0xf000_0781,
            0x0000_ffff,
            0xffff_f001,
            0xffff_f001,
            0xffff_f001,
            0xffff_f001,
        ]
    );
}

#[test]
fn media_vfe_state() {
    let vfe = MediaVfeState {
        per_thread_scratch: 0,
        scratch_base: 0,
        max_threads: 64,
        urb_entries: 2,
        urb_entry_size: 2,
        curbe_size: 10,
        bypass_gateway: true,
        reset_gateway_timer: true,
    };
    // Gen7: DW0 = 3<<29 | 2<<27 | length 6 = 0x70000006.
    // DW2: max threads − 1 = 63 in 31:16, URB entries 2 in 15:8, reset timer bit 7,
    // bypass gateway bit 6, GPGPU mode bit 2 → 0x003f0000 | 0x200 | 0x80 | 0x40 | 0x4.
    // DW4: URB entry size 2 in 31:16, CURBE size 10 in 15:0.
    assert_eq!(
        vfe.encode(Gen::Gen7),
        vec![0x7000_0006, 0, 0x003f_02c4, 0, 0x0002_000a, 0, 0, 0]
    );

    // Gen8: 9 dwords; scratch pointer 47:10 across DW1/DW2, thread fields move to DW3 (no
    // GPGPU mode bit), sizes to DW5.
    let vfe8 = MediaVfeState {
        per_thread_scratch: 3,
        scratch_base: 0x1_0000_0400,
        ..vfe
    };
    assert_eq!(
        vfe8.encode(Gen::Gen8),
        vec![
            0x7000_0007,
            0x0000_0403,
            0x0000_0001,
            0x003f_02c0,
            0,
            0x0002_000a,
            0,
            0,
            0
        ]
    );
}

#[test]
fn interface_descriptor() {
    let idd = InterfaceDescriptor {
        kernel_start: 0x1000,
        binding_table: 0x2c0,
        binding_table_entries: 3,
        curbe_read_length: 2,
        curbe_read_offset: 0,
        threads_in_group: 8,
        slm_size: 0,
        barrier: true,
        cross_thread_read_length: 1,
        single_program_flow: false,
    };
    // Gen7: DW0 kernel start (31:6); DW3 binding table pointer (15:5) | entry count (4:0);
    // DW4 CURBE read length (31:16) | offset; DW5 barrier (bit 21) | threads (7:0).
    assert_eq!(
        idd.encode(Gen::Gen7),
        [0x1000, 0, 0, 0x2c3, 0x0002_0000, 0x0020_0008, 0, 0]
    );
    // Gen7.5 adds the cross-thread constant read length in DW6 (bits 199:192).
    assert_eq!(
        idd.encode(Gen::Gen75),
        [0x1000, 0, 0, 0x2c3, 0x0002_0000, 0x0020_0008, 1, 0]
    );
    // Gen8: 48-bit kernel pointer in DW0/DW1, everything else one dword later, SLM size in
    // DW6 bits 20:16 (4 << 16), threads in 9:0, cross-thread length in DW7.
    let idd8 = InterfaceDescriptor {
        kernel_start: 0x1_0000_1040,
        slm_size: 4,
        ..idd
    };
    assert_eq!(
        idd8.encode(Gen::Gen8),
        [0x1040, 1, 0, 0, 0x2c3, 0x0002_0000, 0x0024_0008, 1]
    );
}

#[test]
fn walker_layout() {
    let w = GpgpuWalker {
        idd: 0,
        simd: SimdSize::Simd16,
        thread_width_max: 3,
        thread_height_max: 0,
        thread_depth_max: 0,
        start: [0; 3],
        groups: [4, 2, 1],
        right_mask: 0xffff,
        bottom_mask: 0xffff_ffff,
    };
    // Gen7: 3<<29 | 2<<27 | opcode 1<<24 | sub-opcode 5<<16 | length 9 = 0x71050009;
    // DW2: SIMD16 (1) in 31:30 | width max 3; then start/dimension pairs for x, y, z.
    assert_eq!(
        w.encode(Gen::Gen7),
        vec![
            0x7105_0009,
            0,
            0x4000_0003,
            0,
            4,
            0,
            2,
            0,
            1,
            0xffff,
            0xffff_ffff
        ]
    );
    // Gen8: 15 dwords; indirect data length/address in DW2/DW3, thread counters in DW4,
    // X start DW5, X dimension DW7, Y start DW8, Y dimension DW10, Z DW11/DW12, masks DW13/14.
    assert_eq!(
        w.encode(Gen::Gen8),
        vec![
            0x7105_000d,
            0,
            0,
            0,
            0x4000_0003,
            0,
            0,
            4,
            0,
            0,
            2,
            0,
            1,
            0xffff,
            0xffff_ffff
        ]
    );
}

#[test]
fn buffer_surface_state() {
    let s = BufferSurface {
        address: 0x0012_3000,
        elements: 1000,
        pitch: 0,
        format: FORMAT_RAW,
        mocs: 1,
    };
    // 999 = 7 * 128 + 0x67: Width (6:0 of DW2) 0x67, Height (29:16 of DW2) 7, Depth 0.
    // DW0: SURFTYPE_BUFFER (4) << 29 | RAW (0x1ff) << 18 = 0x80000000 | 0x07fc0000.
    // Gen7 DW5: MOCS in bits 19:16. Gen7.5 DW7: shader channel selects R=4 (27:25), G=5
    // (24:22), B=6 (21:19), A=7 (18:16) = 0x08000000 | 0x01400000 | 0x00300000 | 0x00070000.
    assert_eq!(
        s.encode(Gen::Gen7).unwrap(),
        vec![
            0x87fc_0000,
            0x0012_3000,
            0x0007_0067,
            0,
            0,
            0x0001_0000,
            0,
            0
        ]
    );
    assert_eq!(
        s.encode(Gen::Gen75).unwrap(),
        vec![
            0x87fc_0000,
            0x0012_3000,
            0x0007_0067,
            0,
            0,
            0x0001_0000,
            0,
            0x0977_0000
        ]
    );
    // A 16 MiB buffer: 0xffffff → width 0x7f, height 0x3fff, depth (27:21 of DW3) 7.
    let big = BufferSurface {
        elements: 1 << 24,
        ..s
    };
    let words = big.encode(Gen::Gen7).unwrap();
    assert_eq!((words[2], words[3]), (0x3fff_007f, 0x00e0_0000));
    // Gen7 addresses at most 2^27 elements; zero elements is not a surface.
    assert!(BufferSurface {
        elements: (1 << 27) + 1,
        ..s
    }
    .encode(Gen::Gen7)
    .is_none());
    assert!(BufferSurface { elements: 0, ..s }
        .encode(Gen::Gen7)
        .is_none());

    // Gen8: HALIGN_4 (1 << 14) and VALIGN_4 (1 << 16) in DW0, MOCS 0x78 in DW1 bits 30:24,
    // 64-bit base address in DW8/DW9, channel selects in DW7.
    let s8 = BufferSurface {
        address: 0x1_0000_2000,
        mocs: 0x78,
        ..s
    };
    assert_eq!(
        s8.encode(Gen::Gen8).unwrap(),
        vec![
            0x87fd_4000,
            0x7800_0000,
            0x0007_0067,
            0,
            0,
            0,
            0,
            0x0977_0000,
            0x0000_2000,
            1,
            0,
            0,
            0,
            0,
            0,
            0
        ]
    );
}

fn dispatch() -> ComputeDispatch {
    ComputeDispatch {
        kernel_offset: 0,
        simd: SimdSize::Simd8,
        threads_in_group: 2,
        curbe: vec![1, 0, 0, 0, 2, 0, 0, 0],
        cross_thread_registers: 0,
        per_thread_registers: 1,
        buffer_sizes: vec![64, 128],
        first_binding: 0,
        groups: [3, 1, 1],
        max_threads: 56,
        slm_size: 0,
        barrier: false,
        right_mask: 0xff,
        mocs: 1,
    }
}

#[test]
fn gen7_batch_layout_and_relocations() {
    let addr = Addresses {
        batch: 0x10000,
        program: 0x20000,
        buffers: vec![0x30000, 0x40000],
    };
    let b = build_compute_batch(Gen::Gen7, &dispatch(), &addr).unwrap();
    let d = &b.dwords;
    // Command order and sizes: PIPELINE_SELECT (1) at 0, SBA (10) at 1, VFE (8) at 11,
    // CURBE load (4) at 19, IDD load (4) at 23, walker (11) at 27, flush (2) at 38, end at 40;
    // 41 dwords padded to 42 (qword), so batch_len is 168.
    assert_eq!(d[0], 0x6904_0002);
    assert_eq!(d[1], 0x6101_0008);
    assert_eq!(d[11], 0x7000_0006);
    assert_eq!(d[19], 0x7001_0002);
    assert_eq!(d[23], 0x7002_0002);
    assert_eq!(d[27], 0x7105_0009);
    assert_eq!(d[38], 0x7004_0000);
    assert_eq!(d[40], 0x0500_0000);
    assert_eq!(d[41], 0);
    assert_eq!(b.command_bytes, 168);
    // VFE: 56 threads (55 << 16), two URB entries, gateway bits and GPGPU mode (0xc4); URB
    // entry size 2 and a CURBE of 2 threads x 1 register, rounded to 2: 0x00020002.
    assert_eq!((d[13], d[15]), (0x0037_02c4, 0x0002_0002));
    // State follows at 64-byte alignment: IDD at 192, CURBE at 256, binding table at 320,
    // surface states at 384 and 416.
    assert_eq!((d[25], d[26]), (32, 192), "IDD length and start");
    assert_eq!((d[21], d[22]), (32, 256), "CURBE length and start");
    assert_eq!(d[192 / 4 + 3], 320 | 2, "binding table pointer and count");
    assert_eq!(d[256 / 4], 1);
    assert_eq!(d[256 / 4 + 1], 2);
    assert_eq!((d[320 / 4], d[320 / 4 + 1]), (384, 416));
    // Surface base addresses hold the buffers' presumed addresses.
    assert_eq!(d[384 / 4 + 1], 0x30000);
    assert_eq!(d[416 / 4 + 1], 0x40000);
    // Surface, dynamic and indirect bases point at the batch, instruction at the program,
    // each with MOCS 1 and modify enable (0x101).
    // SBA starts at dword 1, so its DW2..DW5 are dwords 3..6 (bytes 12..24).
    assert_eq!(&d[3..7], &[0x10101, 0x10101, 0x10101, 0x20101]);
    let relocs: Vec<(u32, Target, u32)> = b
        .relocs
        .iter()
        .map(|r| (r.offset, r.target, r.delta))
        .collect();
    assert_eq!(
        relocs,
        vec![
            (12, Target::Batch, 0x101),
            (16, Target::Batch, 0x101),
            (20, Target::Batch, 0x101),
            (24, Target::Program, 0x101),
            (388, Target::Buffer(0), 0),
            (420, Target::Buffer(1), 0),
        ]
    );
}

/// Buffers bound from a binding-table index above 0 (a gpucc program's SSBO blocks start at
/// 128): the entries below point at one null surface, the buffers' entries at their states.
#[test]
fn gen7_buffers_from_a_binding_base() {
    let addr = Addresses {
        batch: 0x10000,
        program: 0x20000,
        buffers: vec![0x30000, 0x40000],
    };
    let mut d = dispatch();
    d.first_binding = 128;
    let b = build_compute_batch(Gen::Gen7, &d, &addr).unwrap();
    let w = &b.dwords;
    // As gen7_batch_layout_and_relocations up to the binding table at 320, which now has
    // 130 entries (520 bytes): surface states from 320 + 520 = 840, aligned to 896; the null
    // surface there, the buffers' at 928 and 960. The prefetch count saturates at 31.
    assert_eq!(w[192 / 4 + 3], 320 | 31, "binding table pointer and count");
    let bt = &w[320 / 4..320 / 4 + 130];
    assert!(bt[..128].iter().all(|&e| e == 896), "{:?}", &bt[..4]);
    assert_eq!((bt[128], bt[129]), (928, 960));
    // SURFTYPE_NULL (7) with format B8G8R8A8_UNORM (0xc0).
    assert_eq!(w[896 / 4], 7 << 29 | 0xc0 << 18);
    assert_eq!((w[928 / 4 + 1], w[960 / 4 + 1]), (0x30000, 0x40000));
    let buffer_relocs: Vec<(u32, Target)> = b
        .relocs
        .iter()
        .filter(|r| matches!(r.target, Target::Buffer(_)))
        .map(|r| (r.offset, r.target))
        .collect();
    assert_eq!(
        buffer_relocs,
        vec![(932, Target::Buffer(0)), (964, Target::Buffer(1))]
    );
    assert_eq!(
        w.len(),
        992 / 4,
        "the batch ends after the last surface state"
    );
    // Entry 255 is the last: 128 + 129 buffers do not fit.
    d.first_binding = 255;
    d.buffer_sizes = vec![64];
    assert!(build_compute_batch(Gen::Gen7, &d, &addr).is_ok());
    d.buffer_sizes = vec![64, 64];
    assert!(build_compute_batch(Gen::Gen7, &d, &addr)
        .unwrap_err()
        .to_string()
        .contains("pass entry 255"));
}

#[test]
fn gen8_batch_uses_wide_addresses() {
    let addr = Addresses {
        batch: 0x1_0000_0000,
        program: 0x2_0000_0000,
        buffers: vec![0x3_0000_0000, 0x10_0000],
    };
    let b = build_compute_batch(Gen::Gen8, &dispatch(), &addr).unwrap();
    // 1 + 16 + 9 + 4 + 4 + 15 + 2 + 1 = 52 dwords, already qword aligned.
    assert_eq!(b.command_bytes, 208);
    assert_eq!(b.dwords[51], 0x0500_0000);
    assert!(b.relocs.iter().all(|r| r.wide));
    // Surface state base (DW4/DW5 of SBA at dword 1) = batch address | MOCS | enable.
    assert_eq!((b.dwords[5], b.dwords[6]), (0x0000_0011, 1));
    // Gen8 surface states are 64 bytes; their address is in DW8/DW9.
    let ss0 = b
        .relocs
        .iter()
        .find(|r| r.target == Target::Buffer(0))
        .unwrap()
        .offset as usize
        / 4;
    assert_eq!((b.dwords[ss0], b.dwords[ss0 + 1]), (0, 3));
}

#[test]
fn dispatch_rejects_bad_input() {
    let addr = Addresses::default();
    let mut d = dispatch();
    d.kernel_offset = 4;
    assert!(build_compute_batch(Gen::Gen7, &d, &addr)
        .unwrap_err()
        .to_string()
        .contains("aligned"));
    let mut d = dispatch();
    d.groups = [0, 1, 1];
    assert!(build_compute_batch(Gen::Gen7, &d, &addr).is_err());
    let mut d = dispatch();
    d.buffer_sizes = vec![4; 32];
    assert!(build_compute_batch(Gen::Gen7, &d, &addr)
        .unwrap_err()
        .to_string()
        .contains("31"));
}

#[test]
fn launch_lowering() {
    use gpucc::drm::i915::batch::{encode_slm_size, ComputeLaunch};
    let launch = ComputeLaunch {
        kernel_offset: 64,
        simd_width: 8,
        local_size: 20,
        per_thread_registers: 1,
        cross_thread_registers: 0,
        push_constants: vec![0; 96],
        groups: [5, 1, 1],
        shared_memory_bytes: 5000,
        barrier: true,
        first_binding: 0,
    };
    let d = launch.lower(Gen::Gen7, 56, vec![4096]).unwrap();
    // 20 invocations at SIMD8: 3 threads, the last one running 20 - 16 = 4 channels.
    assert_eq!((d.threads_in_group, d.right_mask), (3, 0xf));
    // 5000 bytes round up to 8 KiB: encoding 2. Gen7 MOCS: L3 cacheable (1).
    assert_eq!((d.slm_size, d.mocs), (2, 1));
    let full = ComputeLaunch {
        simd_width: 16,
        local_size: 64,
        ..launch.clone()
    };
    let d = full.lower(Gen::Gen8, 56, vec![]).unwrap();
    assert_eq!(
        (d.threads_in_group, d.right_mask, d.mocs),
        (4, 0xffff, 0x78)
    );
    let wide = ComputeLaunch {
        simd_width: 32,
        local_size: 32,
        push_constants: vec![],
        ..launch.clone()
    };
    assert_eq!(
        wide.lower(Gen::Gen8, 56, vec![]).unwrap().right_mask,
        0xffff_ffff
    );
    // 96 bytes of push constants do not fit one register per thread of a 1-thread group.
    let small = ComputeLaunch {
        local_size: 8,
        ..launch.clone()
    };
    assert!(small.lower(Gen::Gen7, 56, vec![]).is_err());
    assert!(ComputeLaunch {
        simd_width: 4,
        ..launch
    }
    .lower(Gen::Gen7, 56, vec![])
    .is_err());

    // SLM, from the PRMs' table: Gen7/8 in 4 KiB units (4 KiB minimum), Gen9 as
    // log2(size) - 9 (1 KiB minimum).
    for (bytes, gen8, gen9) in [
        (0, 0, 0),
        (1, 1, 1),
        (1024, 1, 1),
        (2048, 1, 2),
        (4096, 1, 3),
        (4097, 2, 4),
        (16384, 4, 5),
        (32768, 8, 6),
        (65536, 16, 7),
    ] {
        assert_eq!(encode_slm_size(Gen::Gen8, bytes).unwrap(), gen8, "{bytes}");
        assert_eq!(encode_slm_size(Gen::Gen7, bytes).unwrap(), gen8, "{bytes}");
        assert_eq!(encode_slm_size(Gen::Gen9, bytes).unwrap(), gen9, "{bytes}");
    }
    assert!(encode_slm_size(Gen::Gen8, 65537).is_err());
}
