//! Draw-path tests: hand-built command streams with hand-assembled shaders, and results
//! derived by hand.

use super::super::capture::Capture;
use super::super::Gpu;
use crate::etnaviv::specs::Specs;

/// Replays the capture named by GPUCC_ETNA_REPLAY (a development aid: captures stay outside
/// the repository) and prints what the draws produced.
#[test]
fn replay_a_capture_from_the_environment() {
    let Ok(path) = std::env::var("GPUCC_ETNA_REPLAY") else {
        return;
    };
    let core = std::env::var("GPUCC_ETNA_CORE").unwrap_or_else(|_| "gc2000".into());
    let cap = Capture::read_from(&mut std::fs::File::open(&path).unwrap()).unwrap();
    let mut mem = cap.memory();
    let mut gpu = Gpu::new(Specs::from_name(&core).unwrap());
    gpu.fragment_log = Some(Vec::new());
    let r = gpu.execute(&mut mem, &cap.stream);
    let log = gpu.fragment_log.take().unwrap();
    println!("{r:?}\n{}", gpu.report_text());
    println!("{} fragments", log.len());
    let mut colors = std::collections::BTreeMap::new();
    for f in &log {
        *colors.entry((f.colors[0], f.z.to_bits())).or_insert(0) += 1;
    }
    for ((c, z), n) in colors.iter().take(20) {
        println!(
            "{n} x colour {:?} z {}",
            c.map(f32::from_bits),
            f32::from_bits(*z)
        );
    }
    let (xs, ys): (Vec<u32>, Vec<u32>) = log.iter().map(|f| (f.x, f.y)).unzip();
    println!(
        "x {:?}..{:?} y {:?}..{:?}",
        xs.iter().min(),
        xs.iter().max(),
        ys.iter().min(),
        ys.iter().max()
    );
}
