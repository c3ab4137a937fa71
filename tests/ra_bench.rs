//! Prints the register allocator benchmarks (`gpucc bench ra` runs the same code):
//! `cargo test --release --test ra_bench -- --ignored --nocapture`.

#[test]
#[ignore = "benchmark: run explicitly in release mode"]
fn print_ra_benchmarks() {
    for r in gpucc::ra::bench::run_benchmarks() {
        println!("{r}");
    }
}
