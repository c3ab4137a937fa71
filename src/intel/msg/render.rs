//! Render-target writes (the render cache, SFID 5; Mesa's `brw_fb_write_desc`).

use super::dataport::{DataPortDesc, Gen4DpWriteDesc};
use super::fields::{flag, get, set, Lengths};

/// Render-target write subtypes (`BRW_DATAPORT_RENDER_TARGET_WRITE_*`, message-control
/// bits 2:0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RtSubtype {
    /// SIMD16, one colour.
    #[default]
    Simd16,
    /// SIMD16 replicating one colour to every pixel.
    Simd16Replicated,
    /// SIMD8 dual-source write of subspans 0-1.
    Simd8DualLow,
    /// SIMD8 dual-source write of subspans 2-3.
    Simd8DualHigh,
    /// SIMD8, one colour.
    Simd8,
    /// SIMD8 image write.
    Simd8ImageWrite,
    /// Subtype 6 (reserved).
    Reserved6,
    /// SIMD16 replicated, 1:1:1 (Gen9).
    Simd16Replicated111,
}

impl RtSubtype {
    const ALL: [RtSubtype; 8] = [
        RtSubtype::Simd16,
        RtSubtype::Simd16Replicated,
        RtSubtype::Simd8DualLow,
        RtSubtype::Simd8DualHigh,
        RtSubtype::Simd8,
        RtSubtype::Simd8ImageWrite,
        RtSubtype::Reserved6,
        RtSubtype::Simd16Replicated111,
    ];

    /// The 3-bit field value.
    pub fn bits(self) -> u32 {
        self as u32
    }

    /// The subtype of a 3-bit field value.
    pub fn from_bits(v: u32) -> RtSubtype {
        RtSubtype::ALL[(v & 7) as usize]
    }

    /// A single-source write of `exec_size` channels (8 or 16).
    pub fn single(exec_size: u8) -> RtSubtype {
        if exec_size == 16 {
            RtSubtype::Simd16
        } else {
            RtSubtype::Simd8
        }
    }

    /// The dual-source SIMD8 write of the channels starting at `group` (0 or 8 within a
    /// 16-channel slot group).
    pub fn dual(group: u8) -> RtSubtype {
        if group % 16 == 8 {
            RtSubtype::Simd8DualHigh
        } else {
            RtSubtype::Simd8DualLow
        }
    }

    /// Whether the message carries two colours (dual-source blending).
    pub fn is_dual_source(self) -> bool {
        matches!(self, RtSubtype::Simd8DualLow | RtSubtype::Simd8DualHigh)
    }
}

/// A render-target write descriptor. From Gen6 it is a data-port descriptor of message type
/// 12 whose message control holds the subtype (10:8), the slot group (11: channels 16-31 of
/// a SIMD32 thread) and the last-render-target bit (12); Gen6 also has write commit (17).
/// Gen4/5 use message type 4 in 14:12, the subtype in 10:8, last render target in 11 and
/// write commit in 15.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RenderTargetWriteDesc {
    /// Message length, response length, header.
    pub len: Lengths,
    /// Binding-table index of the render target.
    pub binding_table_index: u32,
    /// Subtype: width and single or dual source.
    pub subtype: RtSubtype,
    /// Gen6+: the message is for slot group 1 (channels 16-31).
    pub slot_group_high: bool,
    /// The last render-target write of the thread.
    pub last_render_target: bool,
    /// Gen4–6: write commit.
    pub write_commit: bool,
}

impl RenderTargetWriteDesc {
    /// The data-port message type of a render-target write on `ver`.
    pub fn msg_type(ver: u32) -> u32 {
        if ver >= 60 {
            12
        } else {
            4
        }
    }

    /// The descriptor on generation `ver`.
    pub fn encode(&self, ver: u32) -> u32 {
        if ver >= 60 {
            let control = self.subtype.bits()
                | set(self.slot_group_high as u32, 3, 3)
                | set(self.last_render_target as u32, 4, 4);
            DataPortDesc {
                len: self.len,
                binding_table_index: self.binding_table_index,
                msg_type: Self::msg_type(ver),
                msg_control: control,
                send_commit: self.write_commit,
            }
            .encode(ver)
        } else {
            debug_assert!(!self.slot_group_high, "Gen4/5 have no slot groups");
            Gen4DpWriteDesc {
                len: self.len,
                binding_table_index: self.binding_table_index,
                msg_type: Self::msg_type(ver),
                msg_control: self.subtype.bits() | set(self.last_render_target as u32, 3, 3),
                send_commit: self.write_commit,
            }
            .encode(ver)
        }
    }

    /// The fields of `desc` read as a render-target write on generation `ver`.
    pub fn decode(ver: u32, desc: u32) -> RenderTargetWriteDesc {
        if ver >= 60 {
            let d = DataPortDesc::decode(ver, desc);
            RenderTargetWriteDesc {
                len: d.len,
                binding_table_index: d.binding_table_index,
                subtype: RtSubtype::from_bits(get(d.msg_control, 2, 0)),
                slot_group_high: flag(d.msg_control, 3),
                last_render_target: flag(d.msg_control, 4),
                write_commit: d.send_commit,
            }
        } else {
            let d = Gen4DpWriteDesc::decode(ver, desc);
            RenderTargetWriteDesc {
                len: d.len,
                binding_table_index: d.binding_table_index,
                subtype: RtSubtype::from_bits(get(d.msg_control, 2, 0)),
                slot_group_high: false,
                last_render_target: flag(d.msg_control, 3),
                write_commit: d.send_commit,
            }
        }
    }
}
