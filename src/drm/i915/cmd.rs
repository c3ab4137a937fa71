//! Typed builders for the GPGPU commands and states of Gen7, Gen7.5, Gen8 and Gen9.
//!
//! Field positions follow Mesa's genxml (gen6.xml for the media loads, which Gen7/8 keep
//! unchanged; gen7.xml, gen75.xml, gen8.xml for the rest), i.e. the PRMs' command tables.
//! Each builder returns the exact dwords; addresses are written as given (the presumed
//! address for relocations, the pinned address with softpin), and [`AddressSlot`]s say where
//! they sit so the batch can attach relocations.

/// The command layouts this module knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gen {
    /// Ivy Bridge / Bay Trail.
    Gen7,
    /// Haswell: Gen7 layouts plus shader channel selects and cross-thread constants.
    Gen75,
    /// Broadwell / Cherryview: 48-bit addresses, longer commands.
    Gen8,
    /// Skylake / Broxton: Gen8 layouts plus PIPELINE_SELECT mask bits, a longer
    /// STATE_BASE_ADDRESS (bindless surface state) and a finer SLM size encoding.
    Gen9,
}

impl Gen {
    /// From a generation ×10 (70, 75, 80); other generations have no builders here.
    pub fn from_ver(ver: u32) -> Option<Gen> {
        match ver {
            70 => Some(Gen::Gen7),
            75 => Some(Gen::Gen75),
            80 => Some(Gen::Gen8),
            90 => Some(Gen::Gen9),
            _ => None,
        }
    }

    /// The memory object control state Mesa's isl uses for its own buffers: L3 cacheable on
    /// Gen7/7.5, write-back in LLC/eLLC with L3 on Gen8; on Gen9 an index into the kernel's
    /// MOCS table (entry 2, write-back, in bits 6:1).
    pub fn default_mocs(self) -> u32 {
        match self {
            Gen::Gen7 | Gen::Gen75 => 1,
            Gen::Gen8 => 0x78,
            Gen::Gen9 => 2 << 1,
        }
    }

    /// Gen8 command and state layouts (48-bit addresses), which Gen9 keeps.
    fn is_gen8(self) -> bool {
        matches!(self, Gen::Gen8 | Gen::Gen9)
    }
}

/// Where an address field sits in a command: dword index and whether it is 64 bits wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddressSlot {
    pub dword: usize,
    pub wide: bool,
}

// Header fields shared by the render-engine commands: type 3 in bits 31:29, then the
// pipeline/subtype, opcode and sub-opcode fields.
const fn gfx_header(subtype: u32, opcode: u32, subopcode: u32, dword_length: u32) -> u32 {
    (3 << 29) | (subtype << 27) | (opcode << 24) | (subopcode << 16) | dword_length
}

/// `MI_BATCH_BUFFER_END`: MI command (type 0), opcode 0x0A in bits 28:23.
pub const MI_BATCH_BUFFER_END: u32 = 0x0A << 23;

/// `MI_NOOP`, used to pad a batch to an even number of dwords (qword alignment).
pub const MI_NOOP: u32 = 0;

/// `PIPELINE_SELECT` choosing the GPGPU pipeline (selection 2). Same layout on Gen7 and Gen8;
/// Gen9 only applies the fields whose mask bits (15:8) are set, so it sets those of the
/// pipeline selection (bits 1:0), as Mesa does.
pub fn pipeline_select_gpgpu(gen: Gen) -> [u32; 1] {
    let mask = if gen == Gen::Gen9 { 3 << 8 } else { 0 };
    [gfx_header(1, 1, 4, 0) | mask | 2]
}

/// `STATE_BASE_ADDRESS`: the bases that the other GPGPU state pointers are relative to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StateBaseAddress {
    pub general: u64,
    pub surface: u64,
    pub dynamic: u64,
    pub indirect: u64,
    pub instruction: u64,
    /// Memory object control state applied to every base (Gen7: 4 bits, Gen8: 7 bits).
    pub mocs: u32,
}

impl StateBaseAddress {
    /// Every base is written with its modify-enable bit set and, on Gen7, every upper bound
    /// (and on Gen8 every buffer size) at its maximum with modify enable, as Mesa does: the
    /// GPGPU path never relies on the hardware's bounds checks.
    pub fn encode(&self, gen: Gen) -> Vec<u32> {
        const ENABLE: u32 = 1;
        if gen.is_gen8() {
            let m = (self.mocs & 0x7f) << 4;
            let lo = |a: u64| (a as u32 & 0xffff_f000) | m | ENABLE;
            let hi = |a: u64| (a >> 32) as u32 & 0xffff;
            let mut v = vec![
                gfx_header(0, 1, 1, if gen == Gen::Gen9 { 17 } else { 14 }),
                lo(self.general),
                hi(self.general),
                (self.mocs & 0x7f) << 16,
                lo(self.surface),
                hi(self.surface),
                lo(self.dynamic),
                hi(self.dynamic),
                lo(self.indirect),
                hi(self.indirect),
                lo(self.instruction),
                hi(self.instruction),
                0xffff_f000 | ENABLE,
                0xffff_f000 | ENABLE,
                0xffff_f000 | ENABLE,
                0xffff_f000 | ENABLE,
            ];
            if gen == Gen::Gen9 {
                // The bindless surface state base, left alone (no modify enable): compute
                // dispatch uses binding tables.
                v.extend_from_slice(&[0, 0, 0]);
            }
            v
        } else {
            let m = (self.mocs & 0xf) << 8;
            let base = |a: u64| (a as u32 & 0xffff_f000) | m | ENABLE;
            vec![
                gfx_header(0, 1, 1, 8),
                // General state also carries the stateless data port MOCS in bits 7:4.
                base(self.general) | ((self.mocs & 0xf) << 4),
                base(self.surface),
                base(self.dynamic),
                base(self.indirect),
                base(self.instruction),
                0xffff_f000 | ENABLE,
                0xffff_f000 | ENABLE,
                0xffff_f000 | ENABLE,
                0xffff_f000 | ENABLE,
            ]
        }
    }

    /// Slots of (general, surface, dynamic, indirect, instruction) base addresses.
    pub fn slots(gen: Gen) -> [AddressSlot; 5] {
        let s = |dword, wide| AddressSlot { dword, wide };
        if gen.is_gen8() {
            [s(1, true), s(4, true), s(6, true), s(8, true), s(10, true)]
        } else {
            [
                s(1, false),
                s(2, false),
                s(3, false),
                s(4, false),
                s(5, false),
            ]
        }
    }
}

/// `MEDIA_VFE_STATE`: thread limits, URB/CURBE partitioning and scratch for the media pipe.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MediaVfeState {
    /// Scratch per thread, encoded as the hardware wants (log2(bytes / 1 KiB); 0 = 1 KiB).
    pub per_thread_scratch: u32,
    /// Scratch buffer address (1 KiB aligned); 0 when the program needs no scratch.
    pub scratch_base: u64,
    /// Hardware threads the VFE may dispatch (written as the value minus one).
    pub max_threads: u32,
    pub urb_entries: u32,
    /// URB entry size in 256-bit units.
    pub urb_entry_size: u32,
    /// CURBE space in 256-bit units.
    pub curbe_size: u32,
    /// Skip the OpenGateway/CloseGateway handshake (compute threads never use it).
    pub bypass_gateway: bool,
    /// Reset the gateway timer and latch the global timestamp.
    pub reset_gateway_timer: bool,
}

impl MediaVfeState {
    pub fn encode(&self, gen: Gen) -> Vec<u32> {
        let scratch_lo = (self.scratch_base as u32 & 0xffff_fc00) | (self.per_thread_scratch & 0xf);
        let threads = ((self.max_threads.saturating_sub(1)) & 0xffff) << 16
            | (self.urb_entries & 0xff) << 8
            | u32::from(self.reset_gateway_timer) << 7
            | u32::from(self.bypass_gateway) << 6;
        let sizes = (self.urb_entry_size & 0xffff) << 16 | (self.curbe_size & 0xffff);
        if gen.is_gen8() {
            vec![
                gfx_header(2, 0, 0, 7),
                scratch_lo,
                (self.scratch_base >> 32) as u32 & 0xffff,
                threads,
                0,
                sizes,
                0,
                0,
                0,
            ]
        } else {
            // Gen7's GPGPU Mode bit (bit 2) must be set when GPGPU_WALKER drives the pipe.
            vec![
                gfx_header(2, 0, 0, 6),
                scratch_lo,
                threads | (1 << 2),
                0,
                sizes,
                0,
                0,
                0,
            ]
        }
    }

    pub fn scratch_slot(gen: Gen) -> AddressSlot {
        AddressSlot {
            dword: 1,
            wide: gen.is_gen8(),
        }
    }
}

/// `MEDIA_CURBE_LOAD`: copies `length` bytes of push constants from `start` (relative to the
/// dynamic state base) into the CURBE.
pub fn media_curbe_load(length: u32, start: u32) -> [u32; 4] {
    [gfx_header(2, 0, 1, 2), 0, length & 0x1_ffff, start]
}

/// `MEDIA_INTERFACE_DESCRIPTOR_LOAD`: loads `length` bytes of interface descriptors from
/// `start` (relative to the dynamic state base).
pub fn media_interface_descriptor_load(length: u32, start: u32) -> [u32; 4] {
    [gfx_header(2, 0, 2, 2), 0, length & 0x1_ffff, start]
}

/// `MEDIA_STATE_FLUSH` for interface descriptor `idd`, without a watermark.
pub fn media_state_flush(idd: u32) -> [u32; 2] {
    [gfx_header(2, 0, 4, 0), idd & 0x3f]
}

/// `INTERFACE_DESCRIPTOR_DATA`: one compute kernel's entry point and resources (8 dwords).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InterfaceDescriptor {
    /// Kernel offset from the instruction base (64-byte aligned).
    pub kernel_start: u64,
    /// Binding table offset from the surface state base (32-byte aligned).
    pub binding_table: u32,
    /// Binding table entries to prefetch (0..31).
    pub binding_table_entries: u32,
    /// Per-thread push constants: registers to read and the offset to start at.
    pub curbe_read_length: u32,
    pub curbe_read_offset: u32,
    /// Threads in one thread group.
    pub threads_in_group: u32,
    /// Shared local memory, encoded (0: none, n: 2^(n-1) KiB on Gen7/8 up to 64 KiB).
    pub slm_size: u32,
    pub barrier: bool,
    /// Registers of constants shared by every thread (Gen7.5 and later).
    pub cross_thread_read_length: u32,
    /// Single program flow (no per-channel control flow): off for compute kernels.
    pub single_program_flow: bool,
}

impl InterfaceDescriptor {
    pub fn encode(&self, gen: Gen) -> [u32; 8] {
        let kernel_lo = self.kernel_start as u32 & 0xffff_ffc0;
        let flow = u32::from(self.single_program_flow) << 18;
        let bt = (self.binding_table & 0xffe0) | (self.binding_table_entries & 0x1f);
        let curbe = (self.curbe_read_length & 0xffff) << 16 | (self.curbe_read_offset & 0xffff);
        let group = (self.slm_size & 0x1f) << 16 | u32::from(self.barrier) << 21;
        match gen {
            Gen::Gen8 | Gen::Gen9 => [
                kernel_lo,
                (self.kernel_start >> 32) as u32 & 0xffff,
                flow,
                0,
                bt,
                curbe,
                group | (self.threads_in_group & 0x3ff),
                self.cross_thread_read_length & 0xff,
            ],
            Gen::Gen7 | Gen::Gen75 => [
                kernel_lo,
                flow,
                0,
                bt,
                curbe,
                group | (self.threads_in_group & 0xff),
                if gen == Gen::Gen75 {
                    self.cross_thread_read_length & 0xff
                } else {
                    0
                },
                0,
            ],
        }
    }
}

/// Dispatch width of a compute kernel (`SIMD Size` field values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimdSize {
    Simd8 = 0,
    Simd16 = 1,
    Simd32 = 2,
}

/// `GPGPU_WALKER`: launches a grid of thread groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpgpuWalker {
    pub idd: u32,
    pub simd: SimdSize,
    /// Threads per group minus one along x (the hardware walks width × height × depth).
    pub thread_width_max: u32,
    pub thread_height_max: u32,
    pub thread_depth_max: u32,
    pub start: [u32; 3],
    pub groups: [u32; 3],
    /// Channel masks of the last thread in x and y (for groups that are not SIMD multiples).
    pub right_mask: u32,
    pub bottom_mask: u32,
}

impl GpgpuWalker {
    pub fn encode(&self, gen: Gen) -> Vec<u32> {
        let threads = (self.simd as u32) << 30
            | (self.thread_depth_max & 0x3f) << 16
            | (self.thread_height_max & 0x3f) << 8
            | (self.thread_width_max & 0x3f);
        if gen.is_gen8() {
            vec![
                gfx_header(2, 1, 5, 13),
                self.idd & 0x3f,
                0,
                0,
                threads,
                self.start[0],
                0,
                self.groups[0],
                self.start[1],
                0,
                self.groups[1],
                self.start[2],
                self.groups[2],
                self.right_mask,
                self.bottom_mask,
            ]
        } else {
            vec![
                gfx_header(2, 1, 5, 9),
                self.idd & 0x1f,
                threads,
                self.start[0],
                self.groups[0],
                self.start[1],
                self.groups[1],
                self.start[2],
                self.groups[2],
                self.right_mask,
                self.bottom_mask,
            ]
        }
    }
}

/// `SURFTYPE_BUFFER`.
const SURFTYPE_BUFFER: u32 = 4;

/// `SURFTYPE_NULL`: reads return zero, writes are dropped.
const SURFTYPE_NULL: u32 = 7;

/// `RAW` surface format: untyped byte-addressed access (the format of SSBOs).
pub const FORMAT_RAW: u32 = 0x1ff;

/// `B8G8R8A8_UNORM`, the format null surfaces carry (any valid format does).
const FORMAT_B8G8R8A8_UNORM: u32 = 0x0c0;

/// A null `RENDER_SURFACE_STATE`, for binding-table entries below the first bound buffer
/// that the kernel never reads.
pub fn null_surface(gen: Gen) -> Vec<u32> {
    let mut s = vec![0; BufferSurface::size(gen) / 4];
    s[0] = SURFTYPE_NULL << 29 | FORMAT_B8G8R8A8_UNORM << 18;
    s
}

/// Identity shader channel selects (red=4, green=5, blue=6, alpha=7) in dword 7 (Gen7.5+).
const SCS_IDENTITY: u32 = 4 << 25 | 5 << 22 | 6 << 19 | 7 << 16;

/// A `RENDER_SURFACE_STATE` describing a buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BufferSurface {
    pub address: u64,
    /// Number of elements (bytes for RAW).
    pub elements: u32,
    /// Bytes per element minus one (0 for RAW).
    pub pitch: u32,
    pub format: u32,
    pub mocs: u32,
}

impl BufferSurface {
    /// Size of the encoded state in bytes (also its required alignment).
    pub fn size(gen: Gen) -> usize {
        if gen.is_gen8() {
            64
        } else {
            32
        }
    }

    /// The element count minus one is split over Width (7 bits), Height (14) and Depth.
    /// Returns None when the buffer exceeds what the surface can address.
    pub fn encode(&self, gen: Gen) -> Option<Vec<u32>> {
        let n = self.elements.checked_sub(1)?;
        let depth_bits = if gen.is_gen8() { 10 } else { 6 };
        if u64::from(n) >> (21 + depth_bits) != 0 {
            return None;
        }
        let dw2 = (n >> 7 & 0x3fff) << 16 | (n & 0x7f);
        let dw3 = (n >> 21) << 21 | (self.pitch & 0x3_ffff);
        let dw0 = SURFTYPE_BUFFER << 29 | (self.format & 0x1ff) << 18;
        Some(if gen.is_gen8() {
            // Gen8 requires a valid alignment even for buffers: HALIGN_4 and VALIGN_4.
            let mut s = vec![0; 16];
            s[0] = dw0 | 1 << 16 | 1 << 14;
            s[1] = (self.mocs & 0x7f) << 24;
            s[2] = dw2;
            s[3] = dw3;
            s[7] = SCS_IDENTITY;
            s[8] = self.address as u32;
            s[9] = (self.address >> 32) as u32 & 0xffff;
            s
        } else {
            let mut s = vec![0; 8];
            s[0] = dw0;
            s[1] = self.address as u32;
            s[2] = dw2;
            s[3] = dw3;
            s[5] = (self.mocs & 0xf) << 16;
            if gen == Gen::Gen75 {
                s[7] = SCS_IDENTITY;
            }
            s
        })
    }

    pub fn address_slot(gen: Gen) -> AddressSlot {
        if gen.is_gen8() {
            AddressSlot {
                dword: 8,
                wide: true,
            }
        } else {
            AddressSlot {
                dword: 1,
                wide: false,
            }
        }
    }
}
