//! Render node discovery: which /dev/dri/renderD* nodes exist and what gpucc makes of each.

use std::fmt::Write;
use std::path::{Path, PathBuf};

pub use super::device::render_node_paths;
use super::device::Device;
use super::error::Error;
use super::ioctl::{FdIoctl, Ioctl};

/// One render node as `gpucc device` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeInfo {
    pub path: PathBuf,
    /// The kernel driver's name and version ("i915 1.6.0"), when the node could be asked.
    pub driver: Option<String>,
    /// The compiler target gpucc would use.
    pub target: Option<&'static str>,
    /// Why there is no target (open failed, other driver, unknown GPU).
    pub problem: Option<String>,
}

/// Every render node under /dev/dri with its driver and target.
pub fn list_render_nodes() -> Vec<NodeInfo> {
    list_render_nodes_in(Path::new("/dev/dri"))
}

/// As [`list_render_nodes`], for another directory.
pub fn list_render_nodes_in(dir: &Path) -> Vec<NodeInfo> {
    render_node_paths(dir)
        .into_iter()
        .map(|p| describe(&p))
        .collect()
}

fn describe(path: &Path) -> NodeInfo {
    let mut info = NodeInfo {
        path: path.to_path_buf(),
        driver: None,
        target: None,
        problem: None,
    };
    let file = match std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
    {
        Ok(f) => f,
        Err(e) => {
            let errno = e.raw_os_error().unwrap_or(libc::EIO);
            info.problem = Some(
                Error::Open {
                    path: path.to_path_buf(),
                    errno,
                }
                .to_string(),
            );
            return info;
        }
    };
    let io = FdIoctl::new(file);
    if let Ok(v) = io.version() {
        info.driver = Some(format!(
            "{} {}.{}.{}",
            v.name, v.major, v.minor, v.patchlevel
        ));
    }
    match Device::from_ioctl(Box::new(io), path) {
        Ok(d) => info.target = Some(d.target()),
        Err(e) => info.problem = Some(e.to_string()),
    }
    info
}

/// The listing `gpucc device` prints: one line per node, or "no render nodes".
pub fn format_nodes(nodes: &[NodeInfo]) -> String {
    if nodes.is_empty() {
        return "no render nodes\n".to_string();
    }
    let mut out = String::new();
    for n in nodes {
        let driver = n.driver.as_deref().unwrap_or("?");
        match (n.target, &n.problem) {
            (Some(t), _) => writeln!(out, "{}: {driver}, target {t}", n.path.display()),
            (None, Some(p)) => writeln!(out, "{}: {driver}, no target ({p})", n.path.display()),
            (None, None) => writeln!(out, "{}: {driver}, no target", n.path.display()),
        }
        .expect("writing to a String cannot fail");
    }
    out
}
