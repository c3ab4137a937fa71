//! The process-wide table of custom Vivante cores stays as large as the number of distinct
//! cores described, however often they are described. (Its own test binary, so that no other
//! test adds cores while it counts.)

use gpucc::etnaviv::specs::{CoreError, CoreParams, Specs, MAX_CUSTOM_CORES};

fn core(i: u32) -> CoreParams {
    let mut p = Specs::from_name("gc2000").unwrap().params();
    p.thread_count = 10_000 + i;
    p
}

#[test]
fn table_is_bounded_by_distinct_cores() {
    assert_eq!(Specs::custom_count(), 0);
    // Presets do not enter the table.
    for s in Specs::all() {
        Specs::from_params(&s.params()).unwrap();
    }
    assert_eq!(Specs::custom_count(), 0);

    let first: Vec<&'static Specs> = (0..200)
        .map(|i| Specs::from_params(&core(i)).unwrap())
        .collect();
    assert_eq!(Specs::custom_count(), 200);
    for _ in 0..5 {
        for (i, s) in first.iter().enumerate() {
            assert!(std::ptr::eq(
                Specs::from_params(&core(i as u32)).unwrap(),
                *s
            ));
        }
    }
    assert_eq!(Specs::custom_count(), 200);
    let mut names: Vec<&str> = first.iter().map(|s| s.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), 200, "distinct values, distinct names");

    // Up to the bound, then a named refusal; the cores already made are still found.
    for i in 200..MAX_CUSTOM_CORES as u32 {
        Specs::from_params(&core(i)).unwrap();
    }
    assert_eq!(Specs::custom_count(), MAX_CUSTOM_CORES);
    let e = Specs::from_params(&core(MAX_CUSTOM_CORES as u32)).unwrap_err();
    assert_eq!(e, CoreError::TableFull);
    assert!(
        e.to_string().contains("1024 distinct custom Vivante cores"),
        "{e}"
    );
    assert!(std::ptr::eq(
        Specs::from_params(&core(7)).unwrap(),
        first[7]
    ));
    // A preset still resolves with the table full.
    assert_eq!(
        Specs::from_params(&Specs::from_name("gc3000").unwrap().params())
            .unwrap()
            .name,
        "gc3000"
    );
    assert_eq!(Specs::custom_count(), MAX_CUSTOM_CORES);
}
