//! Where an Intel program's surfaces sit in the binding table and how it pushes uniform data:
//! one layout for both backends, so a driver binds a scalar and a vec4 program alike.

use crate::intel::ubo_ranges::DriverRanges;

/// Binding-table index of UBO block 0 under gpucc's own layout (pull-constant loads).
pub const UBO_SURFACE_BASE: u32 = 64;

/// Binding-table index of SSBO block 0 under gpucc's own layout (untyped surface messages).
pub const SSBO_SURFACE_BASE: u32 = 128;

/// Binding-table index of shared local memory (Mesa's `BRW_SLM_SURFACE_INDEX`): SSBO slots
/// end below it.
pub const SLM_SURFACE_INDEX: u32 = 254;

/// The binding-table index of SSBO block `block` when block 0 sits at `base`; an error
/// naming the last block there is room for when it would reach the shared-local-memory
/// slot.
pub fn ssbo_binding_table_index(base: u32, block: u64) -> Result<u32, String> {
    let room = SLM_SURFACE_INDEX.saturating_sub(base);
    if block >= u64::from(room) {
        return Err(format!(
            "SSBO block {block} (at most {})",
            room.saturating_sub(1)
        ));
    }
    Ok(base + block as u32)
}

/// Intel: where a program's surfaces sit in the binding table and how it pushes uniform
/// data. Vivante programs are the same under both (sampler units and the uniform file are
/// Mesa's already).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BindingModel {
    /// gpucc's own layout, for its tools and tests: texture indices are binding-table slots,
    /// UBO block b is slot 64 + b and SSBO block b slot 128 + b; uniform data is pushed a
    /// dword at a time in order of first use, up to 32 registers, and pulled past that.
    #[default]
    Gpucc,
    /// Mesa's (crocus, iris): texture, UBO and SSBO indices in the NIR are the final
    /// binding-table slots the driver assigned (`crocus_setup_binding_table`); uniform data
    /// is pushed as up to four ranges of 32-byte registers chosen as
    /// `brw_nir_analyze_ubo_ranges` chooses them, within 64 registers, and pulled outside.
    Mesa,
    /// Mesa's, pushing the UBO ranges the driver chose itself rather than gpucc's choice.
    MesaDriverRanges(DriverRanges),
}

impl BindingModel {
    /// Mesa's binding model, with gpucc's ranges or the driver's.
    pub fn is_mesa(&self) -> bool {
        !matches!(self, BindingModel::Gpucc)
    }

    /// The driver's own UBO ranges, when it gave them.
    pub fn driver_ranges(&self) -> Option<&DriverRanges> {
        match self {
            BindingModel::MesaDriverRanges(r) => Some(r),
            _ => None,
        }
    }
}
