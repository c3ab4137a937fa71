//! The vertex stage on the Intel simulator ([`run_vertices`]): SIMD8 threads of eight
//! vertices (Gen8+), or SIMD4x2 threads of two (Gen7, the last one alone when the count is
//! odd), each vertex's pushed elements in the payload, its outputs read back from its URB
//! entry through the program's VUE map — the only description of the layout the fragment
//! stage gets, as a driver programs the SBE from it.
//!
//! The geometry stage on the Intel simulator ([`run_geometry`]): the draw's primitives packed
//! into threads as the GS unit packs them for the program's dispatch mode
//! ([`crate::intel::sim::gs_dispatch`]), each input vertex laid out by the program's input
//! VUE map from the previous stage's named outputs, and each lane's output entry read back
//! as the clipper would: vertex count, vertices through the output VUE map, cut bits.
//!
//! The fragment stage on the Intel simulator: our backend's kernel, dispatched per triangle
//! in 2×2 subspans (SIMD16 when the kernel has that variant, else SIMD8) with the payload the
//! hardware builds: the back-facing bit (g0.0 bit 15), subspan positions and pixel mask, perspective barycentrics, source depth
//! and W, push constants, and per input slot the plane coefficients (a, b, c) of
//! `a·i + b·j + c`, which for a triangle with vertex values v0, v1, v2 are
//! (v1 − v0, v2 − v0, v0); flat slots carry the provoking vertex's value in c.

use super::raster::{Interp, Triangle, Vertex};
use super::texture::Bindings;
use crate::intel::devinfo::DevInfo;
use crate::intel::geometry::ControlDataFormat;
use crate::intel::kernel::SIMD4X2;
use crate::intel::sim::gs_dispatch::{gs_threads, GsDraw};
use crate::intel::sim::payload::{FsPayload, Layout, Vec4VsPayload, VsPayload};
use crate::intel::sim::shared::{AtomicOp, DefaultShared, RtWrite, SharedFunctions};
use crate::intel::sim::thread::Thread;
use crate::intel::sim::SimError;
use crate::intel::vue;
use crate::nir::interp::{Sampler, TexRequest};
use crate::nir::slots::varying_slot_name;
use crate::program::{BindingKind, Program};
use std::collections::BTreeMap;

/// The simulator's default shared functions with the test's textures: sampler messages
/// name the program's sampler slot, which [`Bindings`] maps to a texture unit.
struct WithTextures<'a> {
    inner: &'a mut DefaultShared,
    textures: &'a Bindings,
}

impl SharedFunctions for WithTextures<'_> {
    fn render_target_write(&mut self, w: &RtWrite) -> Result<(), String> {
        self.inner.render_target_write(w)
    }
    fn sample(&mut self, req: &TexRequest) -> Result<[f64; 4], String> {
        self.textures.sample(req)
    }
    fn texture_size(&mut self, texture: u32, lod: u32) -> [u32; 3] {
        self.textures.size(texture, lod)
    }
    fn texture_levels(&mut self, texture: u32) -> u32 {
        self.textures.levels(texture)
    }
    fn buffer_texel(&mut self, surface: u32, index: i64) -> Option<[u32; 4]> {
        self.inner.buffer_texel(surface, index)
    }
    fn scratch_read(&mut self, offset: usize, out: &mut [u8]) -> Result<(), String> {
        self.inner.scratch_read(offset, out)
    }
    fn scratch_write(&mut self, offset: usize, data: &[u8]) -> Result<(), String> {
        self.inner.scratch_write(offset, data)
    }
    fn untyped_read(&mut self, surface: u32, addr: u32) -> Result<u32, String> {
        self.inner.untyped_read(surface, addr)
    }
    fn untyped_write(&mut self, surface: u32, addr: u32, v: u32) -> Result<(), String> {
        self.inner.untyped_write(surface, addr, v)
    }
    fn untyped_atomic(
        &mut self,
        surface: u32,
        addr: u32,
        op: AtomicOp,
        a: u32,
        b: u32,
    ) -> Result<u32, String> {
        self.inner.untyped_atomic(surface, addr, op, a, b)
    }
    fn constant_read(&mut self, surface: u32, offset: usize, out: &mut [u8]) -> Result<(), String> {
        self.inner.constant_read(surface, offset, out)
    }
    fn barrier(&mut self) -> Result<(), String> {
        self.inner.barrier()
    }
    fn urb_write(&mut self, handle: u32, dword: u32, v: u32) -> Result<(), String> {
        self.inner.urb_write(handle, dword, v)
    }
    fn urb_vertex_count(&mut self, handle: u32, count: u32) -> Result<(), String> {
        self.inner.urb_vertex_count(handle, count)
    }
    fn urb_read(&mut self, handle: u32, dword: u32) -> Result<u32, String> {
        self.inner.urb_read(handle, dword)
    }
    fn urb_release(&mut self, handle: u32) -> Result<(), String> {
        self.inner.urb_release(handle)
    }
    fn global_read(&mut self, addr: u64) -> Result<u32, String> {
        self.inner.global_read(addr)
    }
    fn coordinate_count(&mut self, texture: u32) -> Option<usize> {
        self.inner.coordinate_count(texture)
    }
}

/// A subspan to shade: upper-left pixel and the pixels (bit i = pixel i of the quad) the
/// triangle covers.
pub type Subspan = ((u32, u32), u8);

/// The colour each covered pixel gets (`None` where the shader discarded it), per subspan.
pub fn shade(
    dev: &'static DevInfo,
    program: &Program,
    tri: &Triangle,
    verts: &[Vertex],
    subspans: &[Subspan],
    ubo: &[u8],
    textures: &Bindings,
) -> Result<Vec<[Option<[f32; 4]>; 4]>, String> {
    let (variant, code) = program
        .kernel_code(16)
        .or_else(|| program.kernel_code(8))
        .ok_or_else(|| "the program has no SIMD8 or SIMD16 kernel".to_string())?;
    let simd = variant.simd;
    let info = program
        .fragment_info()
        .ok_or("the program is not a fragment program")?;
    // Mesa's barycentric modes: bit 0 perspective pixel, bit 3 non-perspective pixel; the
    // centroid and sample modes (multisampling) are not modelled.
    let bary_pixel = info.barycentric_interp_modes & 1 != 0;
    let bary_linear = info.barycentric_interp_modes & 8 != 0;
    if info.barycentric_interp_modes & !9 != 0 {
        return Err(format!(
            "barycentric modes {:#x} (centroid or sample interpolation) are not modelled",
            info.barycentric_interp_modes
        ));
    }
    let (insts, offsets) =
        crate::intel::eu::decode_program_at(dev, code).map_err(|e| format!("decode: {e}"))?;
    let per = simd as usize / 4;
    let dword = |offset: u32| -> u32 {
        let o = offset as usize;
        ubo.get(o..o + 4)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    // Plane coefficients per input slot of the kernel.
    let mut attributes = Vec::new();
    for inp in program.fragment_inputs() {
        let name = varying_slot_name(inp.varying)
            .ok_or_else(|| format!("fragment input of unknown varying {}", inp.varying))?;
        // The layer is in the VUE header, which the vertex stage leaves 0 when it does not
        // write it; a Gen9 program without inputs gets it as its one (unread) input slot.
        let (vals, provoking) = match tri.slot_values(verts, name) {
            Some(v) => v,
            None if name == "VARYING_SLOT_LAYER" => ([[0; 4]; 3], [0; 4]),
            None => {
                return Err(format!(
                    "fragment input {name} is not written by the vertex stage"
                ))
            }
        };
        attributes.push([0, 1, 2, 3].map(|c| {
            if inp.flat {
                [0.0, 0.0, f32::from_bits(provoking[c])]
            } else {
                let v = vals.map(|b| f32::from_bits(b[c]));
                [v[1] - v[0], v[2] - v[0], v[0]]
            }
        }));
    }
    let mut out = Vec::with_capacity(subspans.len());
    for group in subspans.chunks(per) {
        let mut t = Thread::new(dev, simd).map_err(|e| format!("simulator: {e}"))?;
        let mut pixel_mask = 0u32;
        let mut bary = Vec::with_capacity(simd as usize);
        let mut linear = Vec::with_capacity(simd as usize);
        let mut depth = Vec::with_capacity(simd as usize);
        let mut src_w = Vec::with_capacity(simd as usize);
        for k in 0..per {
            // Unused subspans repeat the last one with no pixels enabled.
            let &((qx, qy), mask) = group.get(k).unwrap_or(&group[group.len() - 1]);
            if k < group.len() {
                pixel_mask |= u32::from(mask) << (4 * k);
            }
            for i in 0..4 {
                let (x, y) = (qx + (i & 1), qy + (i >> 1));
                let w = tri.weights(x, y, Interp::Smooth);
                bary.push((w[1], w[2]));
                let l = tri.weights(x, y, Interp::NoPerspective);
                linear.push((l[1], l[2]));
                let fc = tri.frag_coord(x, y, 0.0);
                depth.push(fc[2]);
                // Source W is the interpolated clip w; the shader takes its reciprocal.
                src_w.push(1.0 / fc[3]);
            }
        }
        let payload = FsPayload {
            subspans: (0..per)
                .map(|k| {
                    let ((x, y), _) = *group.get(k).unwrap_or(&group[group.len() - 1]);
                    (x as u16, y as u16)
                })
                .collect(),
            pixel_mask,
            barycentric: if bary_pixel { bary } else { Vec::new() },
            push_constants: Vec::new(),
            attributes: Vec::new(),
        };
        let sim = |e: crate::intel::sim::SimError| format!("simulator: {e}");
        payload.apply(&mut t).map_err(sim)?;
        // Helper pixels run too: the hardware dispatches every pixel of a subspan that has a
        // covered one (so derivatives see real neighbours); the payload's pixel mask keeps
        // the coverage that render-target writes and discards use.
        let helpers = (0..group.len()).fold(0u32, |m, k| m | 0xf << (4 * k));
        t.set_dispatch_mask(helpers);
        if !tri.front_facing {
            // g0.0 bit 15: the primitive is back-facing.
            t.set_grf(0, 0, &[1 << 15]).map_err(sim)?;
        }
        bind_uniform_buffers(&mut t, program, ubo);
        let mut next = if bary_pixel { 2 + 2 * simd / 8 } else { 2 };
        if bary_linear {
            // Non-perspective pixel barycentrics follow the perspective ones, in the same
            // form: per 8 channels one register of i, then one of j.
            for r in 0..simd / 8 {
                let s = 8 * r as usize..8 * r as usize + 8;
                let (i, j): (Vec<f32>, Vec<f32>) = linear[s].iter().copied().unzip();
                t.set_grf_f32(next + 2 * r, 0, &i).map_err(sim)?;
                t.set_grf_f32(next + 2 * r + 1, 0, &j).map_err(sim)?;
            }
            next += 2 * simd / 8;
        }
        if info.uses_src_depth {
            for r in 0..simd / 8 {
                let s = 8 * r as usize..8 * r as usize + 8;
                t.set_grf_f32(next + r, 0, &depth[s.clone()]).map_err(sim)?;
                t.set_grf_f32(next + simd / 8 + r, 0, &src_w[s])
                    .map_err(sim)?;
            }
            next += 2 * simd / 8;
        }
        if next != variant.dispatch_grf_start {
            return Err(format!(
                "payload ends at g{next} but the kernel's dispatch GRF start is g{}",
                variant.dispatch_grf_start
            ));
        }
        // Every block index shows the default uniform block (see the runner).
        let push: Vec<u32> = program
            .push_params()
            .iter()
            .map(|p| dword(p.offset))
            .collect();
        t.set_grf(next, 0, &push).map_err(sim)?;
        let attr_start = next + (push.len() as u32).div_ceil(8);
        for (slot, comps) in attributes.iter().enumerate() {
            for (c, abc) in comps.iter().enumerate() {
                let reg = attr_start + 2 * slot as u32 + (c / 2) as u32;
                let d = 4 * (c % 2) as u32;
                t.set_grf_f32(reg, d, &[abc[0], abc[1]]).map_err(sim)?;
                t.set_grf_f32(reg, d + 3, &[abc[2]]).map_err(sim)?;
            }
        }
        t.set_step_limit(2_000_000);
        let mut shared = std::mem::take(t.shared_mut());
        let got = t
            .run_with(
                &insts,
                &offsets,
                &mut WithTextures {
                    inner: &mut shared,
                    textures,
                },
            )
            .map_err(sim)?;
        let mut colors = vec![[None; 4]; group.len()];
        for w in got.rt_writes.iter().filter(|w| w.target == 0) {
            for (k, q) in colors.iter_mut().enumerate() {
                for (i, px) in q.iter_mut().enumerate() {
                    let c = 4 * k + i;
                    if w.pixel_mask & pixel_mask & (1 << c) != 0 {
                        *px = w.color.get(c).copied();
                    }
                }
            }
        }
        out.extend(colors);
    }
    Ok(out)
}

/// Runs a vertex kernel on `elements` (per vertex: pushed element index to its four raw
/// components) and returns each vertex's outputs by varying name, read from its URB entry at
/// the slots the kernel's VUE map names (point size, layer and viewport from the header).
pub fn run_vertices(
    dev: &'static DevInfo,
    program: &Program,
    elements: &[BTreeMap<u32, [u32; 4]>],
    ubo: &[u8],
    textures: &Bindings,
) -> Result<Vec<BTreeMap<String, [u32; 4]>>, String> {
    let info = program
        .vertex_info()
        .ok_or("the program is not a vertex program")?;
    let simd4x2 = program.intel_kernels().iter().any(|k| k.simd == SIMD4X2);
    let (per_thread, width) = if simd4x2 { (2, SIMD4X2) } else { (8, 8) };
    let (variant, code) = program
        .kernel_code(width)
        .ok_or("the vertex program has no SIMD8 or SIMD4x2 code")?;
    let (insts, offsets) =
        crate::intel::eu::decode_program_at(dev, code).map_err(|e| format!("decode: {e}"))?;
    let dword = |offset: u32| -> u32 {
        let o = offset as usize;
        ubo.get(o..o + 4)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let mut out = Vec::with_capacity(elements.len());
    for group in elements.chunks(per_thread) {
        let handles: Vec<u32> = (0..group.len() as u32).map(|v| 0x40 + 0x10 * v).collect();
        // Every block index shows the default uniform block (see the runner).
        let push_constants = program
            .push_params()
            .iter()
            .map(|p| dword(p.offset))
            .collect();
        let elements = (0..info.nr_attribute_slots)
            .map(|e| {
                group
                    .iter()
                    .map(|v| v.get(&e).copied().unwrap_or([0; 4]))
                    .collect()
            })
            .collect();
        let shared = run_thread(
            dev,
            program,
            variant,
            &insts,
            &offsets,
            ubo,
            textures,
            |t| {
                if simd4x2 {
                    Vec4VsPayload {
                        urb_handles: handles.clone(),
                        primitive_ids: None,
                        push_constants,
                        elements,
                    }
                    .apply(t)
                } else {
                    VsPayload {
                        urb_handles: handles.clone(),
                        push_constants,
                        elements,
                    }
                    .apply(t)
                }
            },
        )?;
        for h in handles {
            let entry = shared.urb.get(&h);
            let read = |d: u32| entry.and_then(|e| e.get(&d)).copied().unwrap_or(0);
            out.push(vue_outputs(&info.vue_map, read)?);
        }
    }
    Ok(out)
}

/// A vertex's outputs by varying name, read (`read` takes a dword of the vertex) at the
/// slots `map` names: point size, layer and viewport from the header slot.
fn vue_outputs(
    map: &vue::VueMap,
    read: impl Fn(u32) -> u32,
) -> Result<BTreeMap<String, [u32; 4]>, String> {
    let mut outputs = BTreeMap::new();
    for (slot, varying) in map.slots.iter().enumerate() {
        let Some(v) = *varying else { continue };
        let at = 4 * slot as u32;
        if v == vue::VARYING_SLOT_PSIZ {
            for (varying, d) in [
                (vue::VARYING_SLOT_LAYER, 1),
                (vue::VARYING_SLOT_VIEWPORT, 2),
                (vue::VARYING_SLOT_PSIZ, 3),
            ] {
                if map.slots_valid & 1 << varying != 0 {
                    let name = varying_slot_name(varying).unwrap_or_default();
                    outputs.insert(name.to_string(), [read(at + d), 0, 0, 0]);
                }
            }
            continue;
        }
        let name = varying_slot_name(v).ok_or_else(|| format!("varying slot {v}"))?;
        outputs.insert(name.to_string(), [0, 1, 2, 3].map(|c| read(at + c)));
    }
    Ok(outputs)
}

/// Runs one thread of `program` (its `variant`, decoded as `insts` at `offsets`) whose
/// payload `load` puts in place, with the test's uniforms and textures, and returns what the
/// shared functions hold after it (URB entries, vertex counts).
#[allow(clippy::too_many_arguments)]
fn run_thread(
    dev: &'static DevInfo,
    program: &Program,
    variant: crate::program::KernelCode,
    insts: &[crate::intel::eu::Inst],
    offsets: &[usize],
    ubo: &[u8],
    textures: &Bindings,
    load: impl FnOnce(&mut Thread) -> Result<Layout, SimError>,
) -> Result<DefaultShared, String> {
    let sim = |e: SimError| format!("simulator: {e}");
    let mut t = Thread::new(dev, 8).map_err(sim)?;
    let layout = load(&mut t).map_err(sim)?;
    if layout.push_constants != variant.dispatch_grf_start {
        return Err(format!(
            "push constants at g{} but the kernel's dispatch GRF start is g{}",
            layout.push_constants, variant.dispatch_grf_start
        ));
    }
    bind_uniform_buffers(&mut t, program, ubo);
    t.set_step_limit(2_000_000);
    let mut shared = std::mem::take(t.shared_mut());
    t.run_with(
        insts,
        offsets,
        &mut WithTextures {
            inner: &mut shared,
            textures,
        },
    )
    .map_err(sim)?;
    Ok(shared)
}

/// An emitted strip: each vertex's outputs by varying name.
pub type Strip = Vec<BTreeMap<String, [u32; 4]>>;

/// A geometry shader's input primitive: its vertices' outputs by varying name, and its
/// `gl_PrimitiveIDIn`.
pub type InputPrimitive<'a> = (Vec<&'a BTreeMap<String, [u32; 4]>>, u32);

/// Runs a geometry kernel over `prims` (each: the input vertices' outputs by varying name)
/// and returns the strips the lanes emitted (primitive-major, instances inner, as GL orders
/// them; each vertex its outputs by varying name), read from each output URB entry as the
/// next stage would: the vertex count, each vertex through the output VUE map, the cut bits
/// ending its strips.
pub fn run_geometry(
    dev: &'static DevInfo,
    program: &Program,
    prims: &[InputPrimitive],
    ubo: &[u8],
    textures: &Bindings,
) -> Result<Vec<Strip>, String> {
    let info = program
        .geometry_info()
        .ok_or("the program is not a geometry program")?;
    let simd4x2 = program.intel_kernels().iter().any(|k| k.simd == SIMD4X2);
    let (variant, code) = program
        .kernel_code(if simd4x2 { SIMD4X2 } else { 8 })
        .ok_or("the geometry program has no SIMD8 or SIMD4x2 code")?;
    let (insts, offsets) =
        crate::intel::eu::decode_program_at(dev, code).map_err(|e| format!("decode: {e}"))?;
    let dword = |offset: u32| -> u32 {
        let o = offset as usize;
        ubo.get(o..o + 4)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let push: Vec<u32> = program
        .push_params()
        .iter()
        .map(|p| dword(p.offset))
        .collect();
    // Slot s of the input VUE map, from the previous stage's named outputs: the header slot
    // holds layer, viewport and point size; a slot nobody wrote reads as zero.
    let input = |p: usize, v: usize, s: u32| -> [u32; 4] {
        let named = |varying: u32| {
            varying_slot_name(varying)
                .and_then(|n| prims[p].0[v].get(n))
                .copied()
                .unwrap_or([0; 4])
        };
        match info.input_vue_map.slots.get(s as usize).copied().flatten() {
            Some(vue::VARYING_SLOT_PSIZ) => [
                0,
                named(vue::VARYING_SLOT_LAYER)[0],
                named(vue::VARYING_SLOT_VIEWPORT)[0],
                named(vue::VARYING_SLOT_PSIZ)[0],
            ],
            Some(varying) => named(varying),
            None => [0; 4],
        }
    };
    let output_handle = |l: usize| 0x40 + 0x40 * l as u32;
    let input_handle = |p: usize, v: usize| 0x8000 + 0x10 * (8 * p + v) as u32;
    let primitive_id = |p: usize| prims[p].1;
    let draw = GsDraw {
        primitives: prims.len(),
        primitive_id: &primitive_id,
        input: &input,
        output_handle: &output_handle,
        input_handle: &input_handle,
        push_constants: &push,
    };
    let owords = 2 * info.output_vertex_size_hwords;
    let first = info.first_vertex_oword();
    let cut_base = if info.count_in_entry() { 8 } else { 0 };
    let cuts = info.control_data_format == ControlDataFormat::Cut
        && info.control_data_bits_per_vertex == 1;
    // The threads come in lane order, so the strips do.
    let mut strips = Vec::new();
    for thread in gs_threads(info, simd4x2, &draw) {
        let shared = run_thread(
            dev,
            program,
            variant,
            &insts,
            &offsets,
            ubo,
            textures,
            |t| thread.apply(t),
        )?;
        for l in thread.lanes.clone() {
            let h = output_handle(l);
            let entry = shared.urb.get(&h);
            let read = |d: u32| entry.and_then(|e| e.get(&d)).copied().unwrap_or(0);
            let count = match info.static_vertex_count {
                _ if simd4x2 => shared.urb_vertex_counts.get(&h).copied().unwrap_or(0),
                Some(c) => c,
                None => read(0),
            };
            let count = count.min(info.vertices_out);
            let mut strip = Vec::new();
            for k in 0..count {
                let base = 4 * (first + k * owords);
                strip.push(vue_outputs(&info.vue_map, |d| read(base + d))?);
                if k + 1 == count || cuts && read(cut_base + k / 32) >> (k % 32) & 1 != 0 {
                    strips.push(std::mem::take(&mut strip));
                }
            }
        }
    }
    Ok(strips)
}

/// Binds the uniform buffers the program pulls from, at the binding-table entries it names.
/// Every block shows the default uniform block's contents (see the runner).
fn bind_uniform_buffers(t: &mut Thread, program: &Program, ubo: &[u8]) {
    for b in program.bindings() {
        if b.kind == BindingKind::UniformBuffer {
            t.shared_mut().bind_constants(b.slot, ubo.to_vec());
        }
    }
}
