//! The Intel context: what a compiler object builds once per device, and the one place that
//! decides which backend compiles a shader. Before Gen8 the hardware runs vertex threads
//! SIMD4x2, so Gen6 and Gen7 vertex shaders (and Gen7 geometry and tessellation-evaluation
//! shaders) go to the vec4 backend; everything else goes to the scalar
//! backend, whose widths [`simd`](super::simd) chooses. Both backends take the same
//! [`Options`] and return the same [`Kernel`].

use crate::debug;
use crate::error::CompileError;
use crate::intel::backend::options::Options;
use crate::intel::backend::simd;
use crate::intel::flow::FlowTemplates;
use crate::intel::kernel::Kernel;
use crate::intel::{fs, vec4, DevInfo};
use crate::nir;

/// The Intel backend of one device, built once per compiler object and shared by every
/// compile: the scalar backend's state and the vec4 backend's align16 flow templates.
#[derive(Debug, Clone)]
pub struct Context {
    devinfo: &'static DevInfo,
    scalar: fs::Device,
    /// The vec4 backend's align16 templates (Gen6 and Gen7 vertex shaders).
    flow16: Option<FlowTemplates>,
}

impl Context {
    /// Builds the context for `devinfo` (expensive: do it once per compiler object).
    pub fn new(devinfo: &'static DevInfo) -> Context {
        let flow16 = if matches!(devinfo.ver, 45 | 60 | 70 | 75) {
            FlowTemplates::new(devinfo, true).ok()
        } else {
            None
        };
        Context {
            devinfo,
            scalar: fs::Device::new(devinfo),
            flow16,
        }
    }

    /// The device.
    pub fn devinfo(&self) -> &'static DevInfo {
        self.devinfo
    }

    /// Compiles a shader: a Gen7 vertex shader with the vec4 backend, anything else with the
    /// scalar backend at every width in `opts` that fits (see [`simd`](super::simd)).
    pub fn compile(&self, shader: &nir::Shader, opts: &Options) -> Result<Kernel, CompileError> {
        fs::limits::check_header(shader)?;
        let shader = fs::pipeline::prepare_nir(shader, opts.debug);
        // Before Gen8 vertex, geometry and domain threads run SIMD4x2: the vec4 backend
        // compiles them.
        let vec4_stage = matches!(
            shader.stage(),
            nir::Stage::Vertex | nir::Stage::Geometry | nir::Stage::TessEval | nir::Stage::TessCtrl
        );
        let kernel = if vec4_stage && self.devinfo.ver < 80 {
            let flow = self.flow16.as_ref().ok_or_else(|| {
                CompileError::Unsupported(format!(
                    "vec4 vertex shaders on {} (the vec4 backend targets Gen6 and Gen7)",
                    self.devinfo.name
                ))
            })?;
            vec4::compile(self.devinfo, flow, &shader, opts)?
        } else {
            simd::compile_scalar(&self.scalar, &shader, opts)?
        };
        if opts.debug.contains(debug::Flags::ASM) {
            eprint!(
                "=== {} assembly\n{}",
                self.devinfo.name,
                kernel.disassemble(self.devinfo)
            );
        }
        if opts.debug.contains(debug::Flags::STATS) {
            for v in &kernel.simd {
                eprintln!("{}", v.stats);
            }
            eprint!("{}", kernel.binding_text());
        }
        Ok(kernel)
    }
}
