//! The Gen4–Gen9 device table: which EU generation sits behind a PCI id or a Mesa short name,
//! and the handful of facts the compiler asks about it.
//!
//! The numbers come from Mesa's `intel_device_info.c` and the kernel's PCI id lists. One entry
//! stands for a whole platform (all GT variants); where GT variants differ in thread counts the
//! entry keeps the GT2 figure, which is what the compiler's scheduling heuristics want.

/// One Intel platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DevInfo {
    /// Mesa's short name (`ivb`, `bdw`, …).
    pub name: &'static str,
    /// Marketing name, for messages.
    pub full_name: &'static str,
    /// Generation ×10: 40 (brw), 45 (g4x), 50, 60, 70, 75 (hsw), 80, 90.
    pub ver: u32,
    /// PCI device ids of every SKU of the platform.
    pub pci_ids: &'static [u16],
    /// Low-power (Atom-class) variant: byt, chv, bxt, glk.
    pub is_lp: bool,
    /// PLN (plane interpolation) exists (G45 onwards).
    pub has_pln: bool,
    /// Compressed MRF writes with the COMPR4 layout (G45 and Ironlake only).
    pub has_compr4: bool,
    /// 3-source instructions may run SIMD16 (Haswell and Gen8+).
    pub supports_simd16_3src: bool,
    /// Native 64-bit float ALU operations.
    pub has_64bit_float: bool,
    /// 64-bit integer types Q/UQ exist (Gen8+).
    pub has_64bit_int: bool,
    /// `mul` of two dwords produces a full 32-bit result (false on the LP parts).
    pub has_integer_dword_mul: bool,
    /// General registers per thread.
    pub grf_count: u32,
    /// Hardware threads per EU.
    pub threads_per_eu: u32,
    /// Maximum vertex-shader threads.
    pub max_vs_threads: u32,
    /// Maximum pixel-shader (WM) threads.
    pub max_wm_threads: u32,
    /// Maximum compute threads (0 where there is no compute).
    pub max_cs_threads: u32,
}

impl DevInfo {
    /// Message registers: 16 on Gen4–5, 24 on Gen6; Gen7 replaced them with the top GRFs.
    pub fn mrf_count(&self) -> usize {
        match self.ver {
            0..=59 => 16,
            60..=69 => 24,
            _ => 0,
        }
    }

    /// Major generation number (4 … 9).
    pub fn gen(&self) -> u32 {
        self.ver / 10
    }

    /// The platform with Mesa's short name `name` (case-insensitive; `byt` and `vlv` alias).
    pub fn from_name(name: &str) -> Option<&'static DevInfo> {
        let lower = name.to_ascii_lowercase();
        let lower = match lower.as_str() {
            "vlv" => "byt",
            "i965" | "gen4" => "brw",
            other => other,
        };
        PLATFORMS.iter().find(|d| d.name == lower)
    }

    /// The platform whose PCI device id is `id`.
    pub fn from_pci_id(id: u16) -> Option<&'static DevInfo> {
        PLATFORMS.iter().find(|d| d.pci_ids.contains(&id))
    }

    /// Every known short name, oldest platform first.
    pub fn names() -> impl Iterator<Item = &'static str> {
        PLATFORMS.iter().map(|d| d.name)
    }

    /// Every platform, oldest first.
    pub fn all() -> &'static [DevInfo] {
        PLATFORMS
    }
}

const fn base(
    name: &'static str,
    full_name: &'static str,
    ver: u32,
    pci_ids: &'static [u16],
) -> DevInfo {
    DevInfo {
        name,
        full_name,
        ver,
        pci_ids,
        is_lp: false,
        has_pln: ver >= 45,
        has_compr4: ver == 45 || ver == 50,
        supports_simd16_3src: ver >= 75,
        has_64bit_float: ver >= 80,
        has_64bit_int: ver >= 80,
        has_integer_dword_mul: true,
        grf_count: 128,
        threads_per_eu: 7,
        max_vs_threads: 0,
        max_wm_threads: 0,
        max_cs_threads: 0,
    }
}

static PLATFORMS: &[DevInfo] = &[
    DevInfo {
        threads_per_eu: 4,
        max_vs_threads: 16,
        max_wm_threads: 32,
        ..base(
            "brw",
            "Intel 965 (Broadwater/Crestline)",
            40,
            &[0x29a2, 0x2992, 0x2982, 0x2972, 0x2a02, 0x2a12],
        )
    },
    DevInfo {
        threads_per_eu: 5,
        max_vs_threads: 32,
        max_wm_threads: 50,
        ..base(
            "g4x",
            "Intel G45/GM45 (Eaglelake/Cantiga)",
            45,
            &[0x2a42, 0x2e02, 0x2e12, 0x2e22, 0x2e32, 0x2e42, 0x2e92],
        )
    },
    DevInfo {
        threads_per_eu: 6,
        max_vs_threads: 72,
        max_wm_threads: 72,
        ..base("ilk", "Intel Ironlake", 50, &[0x0042, 0x0046])
    },
    DevInfo {
        threads_per_eu: 6,
        max_vs_threads: 60,
        max_wm_threads: 80,
        ..base(
            "snb",
            "Intel Sandy Bridge",
            60,
            &[0x0102, 0x0106, 0x010a, 0x0112, 0x0122, 0x0116, 0x0126],
        )
    },
    DevInfo {
        threads_per_eu: 8,
        max_vs_threads: 128,
        max_wm_threads: 172,
        max_cs_threads: 64,
        ..base(
            "ivb",
            "Intel Ivy Bridge",
            70,
            &[0x0152, 0x0156, 0x015a, 0x0162, 0x0166, 0x016a],
        )
    },
    DevInfo {
        is_lp: true,
        threads_per_eu: 8,
        max_vs_threads: 36,
        max_wm_threads: 48,
        max_cs_threads: 32,
        ..base(
            "byt",
            "Intel Bay Trail (Valleyview)",
            70,
            &[0x0f31, 0x0f32, 0x0f33, 0x0157, 0x0155],
        )
    },
    DevInfo {
        threads_per_eu: 7,
        max_vs_threads: 280,
        max_wm_threads: 204,
        max_cs_threads: 70,
        ..base(
            "hsw",
            "Intel Haswell",
            75,
            &[
                0x0402, 0x0406, 0x040a, 0x040b, 0x040e, 0x0c02, 0x0c06, 0x0c0a, 0x0c0b, 0x0c0e,
                0x0a02, 0x0a06, 0x0a0a, 0x0a0b, 0x0a0e, 0x0d02, 0x0d06, 0x0d0a, 0x0d0b, 0x0d0e,
                0x0412, 0x0416, 0x041a, 0x041b, 0x041e, 0x0c12, 0x0c16, 0x0c1a, 0x0c1b, 0x0c1e,
                0x0a12, 0x0a16, 0x0a1a, 0x0a1b, 0x0a1e, 0x0d12, 0x0d16, 0x0d1a, 0x0d1b, 0x0d1e,
                0x0422, 0x0426, 0x042a, 0x042b, 0x042e, 0x0c22, 0x0c26, 0x0c2a, 0x0c2b, 0x0c2e,
                0x0a22, 0x0a26, 0x0a2a, 0x0a2b, 0x0a2e, 0x0d22, 0x0d26, 0x0d2a, 0x0d2b, 0x0d2e,
            ],
        )
    },
    DevInfo {
        max_vs_threads: 504,
        max_wm_threads: 384,
        max_cs_threads: 56,
        ..base(
            "bdw",
            "Intel Broadwell",
            80,
            &[
                0x1602, 0x1606, 0x160a, 0x160b, 0x160d, 0x160e, 0x1612, 0x1616, 0x161a, 0x161b,
                0x161d, 0x161e, 0x1622, 0x1626, 0x162a, 0x162b, 0x162d, 0x162e,
            ],
        )
    },
    DevInfo {
        is_lp: true,
        has_integer_dword_mul: false,
        max_vs_threads: 80,
        max_wm_threads: 128,
        max_cs_threads: 42,
        ..base(
            "chv",
            "Intel Cherryview (Braswell)",
            80,
            &[0x22b0, 0x22b1, 0x22b2, 0x22b3],
        )
    },
    DevInfo {
        max_vs_threads: 336,
        max_wm_threads: 384,
        max_cs_threads: 56,
        ..base(
            "skl",
            "Intel Skylake",
            90,
            &[
                0x1902, 0x1906, 0x190a, 0x190b, 0x190e, 0x1912, 0x1913, 0x1915, 0x1916, 0x1917,
                0x191a, 0x191b, 0x191d, 0x191e, 0x1921, 0x1923, 0x1926, 0x1927, 0x192b, 0x192d,
                0x192a, 0x1932, 0x193a, 0x193b, 0x193d,
            ],
        )
    },
    DevInfo {
        is_lp: true,
        has_integer_dword_mul: false,
        threads_per_eu: 6,
        max_vs_threads: 112,
        max_wm_threads: 384,
        max_cs_threads: 36,
        ..base(
            "bxt",
            "Intel Broxton (Apollo Lake)",
            90,
            &[0x0a84, 0x1a84, 0x5a84, 0x1a85, 0x5a85],
        )
    },
    DevInfo {
        max_vs_threads: 336,
        max_wm_threads: 384,
        max_cs_threads: 56,
        ..base(
            "kbl",
            "Intel Kaby Lake",
            90,
            &[
                0x5902, 0x5906, 0x590a, 0x5908, 0x590b, 0x590e, 0x5913, 0x5915, 0x5917, 0x5912,
                0x5916, 0x591a, 0x591b, 0x591d, 0x591e, 0x5921, 0x591c, 0x87c0, 0x5923, 0x5926,
                0x5927, 0x593b,
            ],
        )
    },
    DevInfo {
        is_lp: true,
        has_integer_dword_mul: false,
        threads_per_eu: 6,
        max_vs_threads: 112,
        max_wm_threads: 384,
        max_cs_threads: 36,
        ..base("glk", "Intel Gemini Lake", 90, &[0x3184, 0x3185])
    },
    DevInfo {
        max_vs_threads: 336,
        max_wm_threads: 384,
        max_cs_threads: 56,
        ..base(
            "cfl",
            "Intel Coffee Lake",
            90,
            &[
                0x3e90, 0x3e93, 0x3e99, 0x3e9c, 0x3ea1, 0x3ea4, 0x9b21, 0x9ba0, 0x9ba2, 0x9ba4,
                0x9ba5, 0x9ba8, 0x9baa, 0x9bab, 0x9bac, 0x87ca, 0x3e91, 0x3e92, 0x3e96, 0x3e98,
                0x3e9a, 0x3e9b, 0x3e94, 0x3ea9, 0x3ea0, 0x3ea3, 0x9b41, 0x9bc0, 0x9bc2, 0x9bc4,
                0x9bc5, 0x9bc6, 0x9bc8, 0x9bca, 0x9bcb, 0x9bcc, 0x9be6, 0x9bf6, 0x3ea5, 0x3ea6,
                0x3ea7, 0x3ea8, 0x3ea2,
            ],
        )
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_to_their_generation() {
        let expect = [
            ("brw", 40),
            ("g4x", 45),
            ("ilk", 50),
            ("snb", 60),
            ("ivb", 70),
            ("hsw", 75),
            ("bdw", 80),
            ("skl", 90),
        ];
        for (name, ver) in expect {
            assert_eq!(DevInfo::from_name(name).map(|d| d.ver), Some(ver), "{name}");
        }
        assert_eq!(DevInfo::from_name("vlv").map(|d| d.name), Some("byt"));
        assert!(DevInfo::from_name("tgl").is_none());
    }

    #[test]
    fn pci_ids_are_unique_and_resolve() {
        // Known ids from the kernel's i915_pciids.h: HD 4000 desktop, HD 5500, HD 530.
        assert_eq!(DevInfo::from_pci_id(0x0162).map(|d| d.name), Some("ivb"));
        assert_eq!(DevInfo::from_pci_id(0x1616).map(|d| d.name), Some("bdw"));
        assert_eq!(DevInfo::from_pci_id(0x1912).map(|d| d.name), Some("skl"));
        assert_eq!(DevInfo::from_pci_id(0x0416).map(|d| d.name), Some("hsw"));
        let mut seen = std::collections::HashSet::new();
        for d in DevInfo::all() {
            for id in d.pci_ids {
                assert!(seen.insert(*id), "{id:#06x} listed twice");
            }
        }
    }

    #[test]
    fn feature_facts_follow_the_generations() {
        let g = |n| DevInfo::from_name(n).unwrap();
        assert!(!g("brw").has_pln && g("g4x").has_pln && g("skl").has_pln);
        assert!(
            !g("brw").has_compr4
                && g("g4x").has_compr4
                && g("ilk").has_compr4
                && !g("snb").has_compr4
        );
        assert!(
            !g("ivb").supports_simd16_3src
                && g("hsw").supports_simd16_3src
                && g("bdw").supports_simd16_3src
        );
        assert!(!g("chv").has_integer_dword_mul && g("bdw").has_integer_dword_mul);
        assert_eq!(DevInfo::names().count(), DevInfo::all().len());
    }
}
