//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod capi;
pub mod compute;
pub mod crocus;
pub mod etna;
pub mod expect;
pub mod intel_fs;
pub mod mesa_asm;
pub mod stage_corpus;

use std::path::PathBuf;

/// The `shared/` data directory beside the clone (or `$GPUCC_SHARED`), if it is there.
///
/// Tests that walk the corpus or the vectors call this and return early when it is absent, so
/// a fresh clone without the data still builds and runs every other test. The skip is printed
/// in the normal test output ([`skip`]); with `GPUCC_REQUIRE_SHARED=1` (CI, where the data is
/// always beside the clone) missing data fails the test instead.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("GPUCC_SHARED") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    };
    if dir.join("README.md").is_file() {
        Some(dir)
    } else {
        missing(&format!("{} not found", dir.display()));
        None
    }
}

/// A sub-path of `shared/` that exists, or `None` (after [`missing`]) when it does not.
pub fn shared_path(rel: &str) -> Option<PathBuf> {
    let p = shared_dir()?.join(rel);
    if p.exists() {
        Some(p)
    } else {
        missing(&format!("{} not found", p.display()));
        None
    }
}

/// Whether missing shared data fails the test (`GPUCC_REQUIRE_SHARED=1`) rather than skips it.
pub fn shared_required() -> bool {
    std::env::var_os("GPUCC_REQUIRE_SHARED").is_some_and(|v| v != "0" && !v.is_empty())
}

/// Shared data the running test needs is absent: fails the test under
/// `GPUCC_REQUIRE_SHARED=1`, else prints the skip.
pub fn missing(what: &str) {
    assert!(
        !shared_required(),
        "{what}, and GPUCC_REQUIRE_SHARED is set: the shared data must be present"
    );
    skip(&format!("{what}; shared data test skipped"));
}

/// Prints `SKIP <test>: <why>` where `cargo test` shows it without `--nocapture`: libtest
/// captures only the print macros, not writes to the stderr handle itself. The test name is
/// the thread's, which libtest sets to the test's path.
pub fn skip(why: &str) {
    use std::io::Write as _;
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("?");
    // One write per line: stderr is unbuffered, and libtest writes its own lines to stdout
    // from other threads, so a line written in pieces comes out interleaved.
    let _ = std::io::stderr().write_all(format!("SKIP {test}: {why}\n").as_bytes());
    record_skip(test, why);
}

/// The folder where the test binaries of one `cargo test` run record their skips: cargo is the
/// parent of every test binary it runs, so its pid names the run, and every test binary sits
/// in the profile's `deps/`, so `<profile>/gpucc-skips/<pid>` is one folder for the run (the
/// library's own unit tests, which cannot see this module, write the same lines there).
/// `tests/zz_skip_count.rs`, the last binary cargo runs, reads it and prints the total.
pub fn skip_log_dir(cargo_pid: u32) -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_default();
    let profile = exe
        .parent()
        .and_then(|d| d.parent())
        .unwrap_or(std::path::Path::new("."));
    profile.join("gpucc-skips").join(cargo_pid.to_string())
}

/// Appends one line per skip to this binary's file in [`skip_log_dir`]. Losing the record only
/// loses the count, never the visible SKIP line, so errors are ignored.
fn record_skip(test: &str, why: &str) {
    use std::io::Write as _;
    let dir = skip_log_dir(std::os::unix::process::parent_id());
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    let exe = std::env::current_exe().ok();
    let bin = exe
        .as_deref()
        .and_then(|e| e.file_name())
        .map_or_else(|| "?".into(), |n| n.to_string_lossy().into_owned());
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join(format!("{bin}.{}", std::process::id())));
    if let Ok(mut f) = file {
        // One write of one line, appended: concurrent tests' lines stay whole.
        let _ = f.write_all(format!("{test}\t{why}\n").as_bytes());
    }
}

/// The directory holding the kernel's DRM uapi headers `needed` (drm.h, i915_drm.h,
/// etnaviv_drm.h): `$GPUCC_DRM_INCLUDE`, /usr/include/drm, the uapi tree of a kernel header
/// package under /usr/src (Debian 12's linux-libc-dev lacks i915 and etnaviv), or libdrm's
/// copy. Absent, the test skips visibly naming the package, and fails instead under
/// `GPUCC_REQUIRE_DRM_HEADERS=1` (CI installs the headers and sets it).
pub fn drm_uapi_headers(needed: &[&str]) -> Option<PathBuf> {
    let has = |d: &std::path::Path| needed.iter().all(|h| d.join(h).is_file());
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(d) = std::env::var_os("GPUCC_DRM_INCLUDE") {
        candidates.push(PathBuf::from(d));
    } else {
        candidates.push(PathBuf::from("/usr/include/drm"));
        if let Ok(rd) = std::fs::read_dir("/usr/src") {
            let mut dirs: Vec<PathBuf> = rd
                .flatten()
                .map(|e| e.path().join("include/uapi/drm"))
                .collect();
            dirs.sort();
            candidates.extend(dirs.into_iter().rev());
        }
        candidates.push(PathBuf::from("/usr/include/libdrm"));
    }
    if let Some(d) = candidates.into_iter().find(|d| has(d)) {
        return Some(d);
    }
    let why = format!(
        "kernel DRM uapi headers ({}) not found in /usr/include/drm, /usr/src/*/include/uapi/drm \
         or /usr/include/libdrm; install them with `apt-get install linux-headers-amd64` \
         (Debian 12; Ubuntu: linux-libc-dev) or set GPUCC_DRM_INCLUDE to a directory holding them",
        needed.join(", ")
    );
    let required =
        std::env::var_os("GPUCC_REQUIRE_DRM_HEADERS").is_some_and(|v| !v.is_empty() && v != "0");
    assert!(!required, "{why}, and GPUCC_REQUIRE_DRM_HEADERS is set");
    skip(&format!("{why}; DRM header test skipped"));
    None
}

/// Every file under `dir` (recursively) whose name ends with `suffix`, sorted.
pub fn files_with_suffix(dir: &std::path::Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(suffix) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The C compiler the tests use (`$CC`, else `cc`).
pub fn cc() -> String {
    std::env::var("CC").unwrap_or_else(|_| "cc".into())
}

/// The directory holding the libgpucc.so built together with the running test: cargo builds
/// every crate type of the library into `deps/`, beside the test binary, and only `cargo build`
/// copies them up one level.
pub fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().to_path_buf()
}

/// Compiles tests/c/<name>.c with the flags of a strict driver build, against include/gpucc.h
/// and the libgpucc.so of this test run; returns the executable's path.
pub fn build_c_program(name: &str) -> PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    build_c_source(&root.join("tests/c").join(format!("{name}.c")), name)
}

/// Builds the C program `source` (named `name` for its output file) as [`build_c_program`]
/// does.
#[allow(dead_code)]
pub fn build_c_source(source: &std::path::Path, name: &str) -> PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = lib_dir();
    assert!(
        lib.join("libgpucc.so").is_file(),
        "{} has no libgpucc.so",
        lib.display()
    );
    // Linked as README tells a user of the cargo build to: -L, -lgpucc and an rpath to the
    // same directory; cargo's library has no SONAME, so nothing else is needed to start.
    // Tests run in parallel and may build the same program: each build gets its own file.
    static BUILDS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = BUILDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("c-{name}-{}-{n}", std::process::id()));
    let status = std::process::Command::new(cc())
        .args(["-Wall", "-Wextra", "-Werror", "-std=c11", "-pthread"])
        .arg(format!("-I{}", root.join("include").display()))
        .arg(source)
        .arg("-o")
        .arg(&out)
        .arg(format!("-L{}", lib.display()))
        .arg("-lgpucc")
        // DT_RPATH (not RUNPATH) so that the library of this build wins over the stale copy
        // cargo may leave one level up, which LD_LIBRARY_PATH of `cargo test` lists first.
        .arg(format!("-Wl,--disable-new-dtags,-rpath,{}", lib.display()))
        .status()
        .unwrap_or_else(|e| panic!("cannot run the C compiler '{}': {e}", cc()));
    assert!(status.success(), "compiling {} failed", source.display());
    out
}

/// One row of Mesa's statistics (shared/corpus/mesa-stats/PLATFORM.csv); empty cells are 0.
#[allow(dead_code)]
pub struct MesaStats {
    pub shader: String,
    pub stage: String,
    pub simd: u32,
    pub instructions: u64,
    pub cycles: u64,
    pub spills: u64,
    pub fills: u64,
    pub sends: u64,
}

/// Every row of Mesa's statistics for `platform`, columns found by the header's names; `None`
/// (after the visible skip) when the data is missing.
#[allow(dead_code)]
pub fn mesa_stats(platform: &str) -> Option<Vec<MesaStats>> {
    let path = shared_path(&format!("corpus/mesa-stats/{platform}.csv"))?;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let col = |n: &str| {
        header
            .iter()
            .position(|h| *h == n)
            .unwrap_or_else(|| panic!("{}: no column {n}", path.display()))
    };
    let c = [
        "shader",
        "stage",
        "simd",
        "instructions",
        "cycles",
        "spills",
        "fills",
        "sends",
    ]
    .map(col);
    Some(
        lines
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                let text = |i: usize| f.get(c[i]).copied().unwrap_or("").to_string();
                let num = |i: usize| f.get(c[i]).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
                MesaStats {
                    shader: text(0),
                    stage: text(1),
                    simd: num(2) as u32,
                    instructions: num(3),
                    cycles: num(4),
                    spills: num(5),
                    fills: num(6),
                    sends: num(7),
                }
            })
            .collect(),
    )
}

/// Mesa's vertex-shader statistics per shader name, from the rows of `platform`'s statistics
/// that `keep` selects (a SIMD width, or the vec4 rows).
pub fn mesa_vs_stats(
    platform: &str,
    keep: impl Fn(&MesaStats) -> bool,
) -> Option<std::collections::HashMap<String, MesaStats>> {
    let rows = mesa_stats(platform)?;
    Some(
        rows.into_iter()
            .filter(|r| r.stage == "vs" && keep(r))
            .map(|r| (r.shader.clone(), r))
            .collect(),
    )
}

/// The VUE map Mesa printed after a corpus vertex shader's text.
pub fn printed_vue_map(text: &str) -> Option<String> {
    let start = text.find("VS Output VUE map")?;
    let mut s = String::new();
    for line in text[start..].lines() {
        if line.trim().is_empty() {
            break;
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    Some(s)
}
