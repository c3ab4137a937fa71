//! Exact corpus figures: what a corpus test measured, compared with the value checked in to
//! `tests/expectations/corpus.txt`.
//!
//! Why exact: a floor far below the measured value (or no assertion at all) lets a regression
//! through, e.g. a broken `fmin` that makes 14 shaders fail verification. Every figure a test
//! measures is held here instead, so any change fails a named test with the figure's old and new
//! value, and accepting it (`GPUCC_BLESS=1 cargo test --release`) shows up as a diff in review.
//!
//! A figure's key is `<owner>.<name>`: the owner is one test's group of figures and starts with
//! the platform (`ivb.fs.verify_simd8`), the name has no dot (`failed`). The owner of a line in
//! the file is thus everything before its last dot, so a test can tell which lines are its own:
//! a figure the test no longer produces fails too, and blessing removes it.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The checked-in expectations.
pub fn path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expectations/corpus.txt")
}

/// Whether this run rewrites the expectations instead of comparing (`GPUCC_BLESS=1`).
pub fn blessing() -> bool {
    std::env::var_os("GPUCC_BLESS").is_some_and(|v| v != "0" && !v.is_empty())
}

const HEADER: &str = "\
# Corpus figures measured by the tests in tests/*.rs and compared exactly (tests/common/expect.rs).
# Never edit by hand: after a change that moves a figure, run
#     GPUCC_BLESS=1 cargo test --release
# and review the diff. Keys are <platform>.<area>.<figure>; grouped by platform.
";

/// One test's figures, compared (or blessed) by [`Figures::check`].
#[must_use = "call check() to compare the figures"]
pub struct Figures {
    owner: String,
    got: BTreeMap<String, String>,
    notes: Vec<String>,
    checked: bool,
}

impl Figures {
    /// Figures of the group `owner` (`<platform>.<area>[.<what>]`, e.g. `ivb.fs.verify_simd8`).
    pub fn new(owner: &str) -> Figures {
        assert!(
            !owner.is_empty() && !owner.contains(char::is_whitespace),
            "bad owner {owner:?}"
        );
        Figures {
            owner: owner.to_string(),
            got: BTreeMap::new(),
            notes: Vec::new(),
            checked: false,
        }
    }

    fn put(&mut self, name: &str, value: String) {
        assert!(
            !name.is_empty() && !name.contains(['.', '=', ' ']),
            "figure name {name:?} must be one word without dots"
        );
        let prev = self.got.insert(name.to_string(), value);
        assert!(prev.is_none(), "{}.{name} recorded twice", self.owner);
    }

    /// A count (shaders compiled, tests passed, vectors matched, ...).
    pub fn count(&mut self, name: &str, n: usize) {
        self.put(name, n.to_string());
    }

    /// A ratio or average, with three decimals: fine enough that one shader's change in a
    /// corpus-wide ratio shows, coarse enough to print the same on every machine.
    pub fn ratio(&mut self, name: &str, x: f64) {
        assert!(x.is_finite(), "{}.{name} = {x}", self.owner);
        self.put(name, format!("{x:.3}"));
    }

    /// The count of tests per class the piglit runner could not run, one figure per class:
    /// `gaps_` and the class in one word (`missing data: constant data` ->
    /// `gaps_missing_data_constant_data`), so a test that becomes unrunnable fails by name.
    pub fn gaps(&mut self, gaps: &BTreeMap<String, usize>) {
        for (class, n) in gaps {
            let word: String = class
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            let word = word
                .split('_')
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join("_");
            self.count(&format!("gaps_{word}"), *n);
        }
    }

    /// A line shown with a failure (per-shader failures, the unsupported tally), so the
    /// message says not only which figure moved but which shaders moved it.
    pub fn note(&mut self, line: impl Into<String>) {
        self.notes.push(line.into());
    }

    /// Compares every figure with the file, or rewrites this owner's lines with `GPUCC_BLESS`.
    /// Panics naming every changed, new or vanished figure with its old and new value.
    pub fn check(mut self) {
        self.checked = true;
        let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
        if blessing() {
            let changes = bless(&self.owner, &self.got);
            let mut err = std::io::stderr().lock();
            for c in changes {
                let _ = writeln!(err, "BLESSED {c}");
            }
            return;
        }
        let diffs = diff(&read(&path()), &self.owner, &self.got);
        record_owner(&self.owner);
        if diffs.is_empty() {
            return;
        }
        let mut msg = format!(
            "{} corpus figure(s) of {} differ from {} (old -> new):\n",
            diffs.len(),
            self.owner,
            path().display()
        );
        for d in &diffs {
            let _ = writeln!(msg, "  {d}");
        }
        msg.push_str(
            "if the change is intended: GPUCC_BLESS=1 cargo test --release, review the diff\n",
        );
        for n in &self.notes {
            let _ = writeln!(msg, "  {n}");
        }
        panic!("{msg}");
    }
}

impl Drop for Figures {
    fn drop(&mut self) {
        if !self.checked && !std::thread::panicking() {
            panic!("figures of {} measured but never checked", self.owner);
        }
    }
}

/// The folder where one `cargo test` run records the owners whose figures were compared
/// (beside the skip records, [`super::skip_log_dir`]); `tests/zz_skip_count.rs` checks it
/// against the file, so a group of figures no test compares any more fails by name.
pub fn owner_log_dir(cargo_pid: u32) -> PathBuf {
    let skips = super::skip_log_dir(cargo_pid);
    let profile = skips
        .parent()
        .and_then(|p| p.parent())
        .unwrap_or(Path::new("."));
    profile.join("gpucc-figures").join(cargo_pid.to_string())
}

/// Appends `owner` to this binary's file in [`owner_log_dir`] (errors only lose the record,
/// which the final check then reports as not compared).
fn record_owner(owner: &str) {
    let dir = owner_log_dir(std::os::unix::process::parent_id());
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join(std::process::id().to_string()));
    if let Ok(mut f) = file {
        let _ = f.write_all(format!("{owner}\n").as_bytes());
    }
}

/// The owners of the lines of `file`.
pub fn owners(file: &BTreeMap<String, String>) -> std::collections::BTreeSet<String> {
    file.keys()
        .filter_map(|k| k.rsplit_once('.').map(|(o, _)| o.to_string()))
        .collect()
}

/// Serialises reading and rewriting the file between the threads of one test binary;
/// [`FileLock`] does the same between processes.
static LOCK: Mutex<()> = Mutex::new(());

/// `key -> value` of every line of the file (missing file: none).
pub fn read(p: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(p).unwrap_or_default();
    let mut out = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (k, v) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("{}:{}: not `key = value`: {line}", p.display(), n + 1));
        out.insert(k.trim().to_string(), v.trim().to_string());
    }
    out
}

/// The lines of `owner` (exactly: everything before the key's last dot), by figure name.
fn owned<'a>(file: &'a BTreeMap<String, String>, owner: &str) -> BTreeMap<&'a str, &'a str> {
    file.iter()
        .filter_map(|(k, v)| {
            let (o, name) = k.rsplit_once('.')?;
            (o == owner).then_some((name, v.as_str()))
        })
        .collect()
}

/// `key: old -> new` for every figure of `owner` that differs between the file and `got`,
/// including figures new in `got` and figures `got` no longer has.
pub fn diff(
    file: &BTreeMap<String, String>,
    owner: &str,
    got: &BTreeMap<String, String>,
) -> Vec<String> {
    let old = owned(file, owner);
    let mut diffs = Vec::new();
    for (name, new) in got {
        match old.get(name.as_str()) {
            Some(o) if o == new => {}
            Some(o) => diffs.push(format!("{owner}.{name}: {o} -> {new}")),
            None => diffs.push(format!("{owner}.{name}: (no expectation) -> {new}")),
        }
    }
    for (name, o) in &old {
        if !got.contains_key(*name) {
            diffs.push(format!("{owner}.{name}: {o} -> (not measured)"));
        }
    }
    diffs
}

/// Replaces the lines of `owner` in `file` with `got`; returns the changes, as [`diff`] does.
pub fn merge(
    file: &mut BTreeMap<String, String>,
    owner: &str,
    got: &BTreeMap<String, String>,
) -> Vec<String> {
    let changes = diff(file, owner, got);
    let old: Vec<String> = owned(file, owner)
        .keys()
        .map(|n| format!("{owner}.{n}"))
        .collect();
    for k in old {
        file.remove(&k);
    }
    for (name, n) in got {
        file.insert(format!("{owner}.{name}"), n.clone());
    }
    changes
}

/// The file's text: header, then the lines sorted, a blank line between platforms.
pub fn render(file: &BTreeMap<String, String>) -> String {
    let mut out = String::from(HEADER);
    let mut platform = None;
    for (k, v) in file {
        let p = k.split('.').next();
        if platform != Some(p) {
            out.push('\n');
            platform = Some(p);
        }
        let _ = writeln!(out, "{k} = {v}");
    }
    out
}

/// Replaces the lines of `owner` with `got`; returns the changes, `key: old -> new`.
fn bless(owner: &str, got: &BTreeMap<String, String>) -> Vec<String> {
    let p = path();
    let _lock = FileLock::take(&p);
    let mut file = read(&p);
    let changes = merge(&mut file, owner, got);
    if !changes.is_empty() {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let tmp = p.with_extension(format!("tmp.{}", std::process::id()));
        std::fs::write(&tmp, render(&file)).unwrap();
        // A rename is atomic: a concurrent reader sees the old file or the new one.
        std::fs::rename(&tmp, &p).unwrap();
    }
    changes
}

/// An exclusive lock between processes (`cargo test` may run test binaries concurrently):
/// a file created with `create_new`, holding the owner's process id so that a lock left by a
/// killed run is taken over rather than waited on forever.
struct FileLock(PathBuf);

impl FileLock {
    fn take(file: &Path) -> FileLock {
        let lock = file.with_extension("lock");
        let start = std::time::Instant::now();
        loop {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&lock)
            {
                Ok(mut f) => {
                    let _ = write!(f, "{}", std::process::id());
                    return FileLock(lock);
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let holder = std::fs::read_to_string(&lock).unwrap_or_default();
                    let alive = holder.trim().parse::<u32>().ok().is_some_and(|pid| {
                        Path::new(&format!("/proc/{pid}")).exists() && pid != std::process::id()
                    });
                    // An empty file may be one being written this instant: give it time.
                    if !alive && start.elapsed().as_millis() > 500 {
                        let _ = std::fs::remove_file(&lock);
                        continue;
                    }
                    assert!(
                        start.elapsed().as_secs() < 300,
                        "{} held for 5 minutes",
                        lock.display()
                    );
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Err(e) => panic!("{}: {e}", lock.display()),
            }
        }
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
