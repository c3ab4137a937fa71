//! What the scalar backend builds once per device and shares across compiles: its
//! allocator's register classes (with their q-values, the expensive part) and its align1
//! flow-instruction templates.

use std::sync::Arc;

use crate::intel::flow::FlowTemplates;
use crate::intel::DevInfo;

use super::regalloc::RegFile;

/// The scalar backend's per-device state.
#[derive(Debug, Clone)]
pub struct Device {
    pub devinfo: &'static DevInfo,
    pub regs: Arc<RegFile>,
    /// `None` before Gen6, which the scalar backend does not target.
    pub flow: Option<FlowTemplates>,
}

impl Device {
    /// Builds the state for `devinfo` (expensive: do it once per compiler object).
    pub fn new(devinfo: &'static DevInfo) -> Device {
        let flow = if devinfo.ver >= 60 {
            FlowTemplates::new(devinfo, false).ok()
        } else {
            None
        };
        Device {
            devinfo,
            regs: Arc::new(RegFile::new(devinfo.grf_count as usize)),
            flow,
        }
    }
}
