//! Size-prefixed out-structs: the caller sets `struct_size` to `sizeof` of the struct it was
//! compiled with and the library writes only the fields that fit, so a driver built against
//! an older header keeps working when fields are added at the end.

/// Writes the fields of `$value` that fit in the caller's `struct_size` bytes of `$out`.
macro_rules! write_sized {
    ($out:expr, $value:expr, $ty:ty, [$($field:ident),* $(,)?]) => {{
        let out: *mut $ty = $out;
        let value: $ty = $value;
        if out.is_null() {
            return Err(Error::invalid(format!(
                "{} out-pointer is NULL",
                $crate::capi::sized::c_struct_name(stringify!($ty))
            )));
        }
        // SAFETY: `out` is non-NULL and points to a caller-owned struct whose first field,
        // `struct_size`, the caller has set (the header's contract); reading that u32 is in
        // bounds for any version of the struct.
        let size = unsafe { std::ptr::addr_of!((*out).struct_size).read_unaligned() } as usize;
        if size < std::mem::size_of::<u32>() * 2 {
            return Err(Error::invalid(format!(
                "{}: struct_size {size} is smaller than any version of the struct",
                $crate::capi::sized::c_struct_name(stringify!($ty))
            )));
        }
        $(
            let end = std::mem::offset_of!($ty, $field) + std::mem::size_of_val(&value.$field);
            if end <= size {
                // SAFETY: the field ends within the `size` bytes the caller owns.
                unsafe { std::ptr::addr_of_mut!((*out).$field).write_unaligned(value.$field) };
            }
        )*
        Ok(())
    }};
}

pub(crate) use write_sized;

/// The C name of a size-prefixed struct, for messages a C caller reads: cbindgen.toml's
/// renames are the Rust name in snake case, without the `C` suffix some carry to keep them
/// apart from the crate's own types, behind the `gpucc_` prefix (`PushParamC` is
/// `gpucc_push_param`).
pub(crate) fn c_struct_name(rust: &str) -> String {
    let rust = rust.rsplit("::").next().unwrap_or(rust).trim();
    let base = rust.strip_suffix('C').unwrap_or(rust);
    let mut out = String::from("gpucc_");
    for (i, ch) in base.chars().enumerate() {
        if ch.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::c_struct_name;

    /// Each name as cbindgen.toml renames it (prefix `gpucc_`).
    #[test]
    fn c_names_follow_the_header() {
        for (rust, c) in [
            ("ProgramInfo", "gpucc_program_info"),
            ("PushParamC", "gpucc_push_param"),
            ("EtnaIoC", "gpucc_etna_io"),
            ("EtnaUniformC", "gpucc_etna_uniform"),
            ("CsInfo", "gpucc_cs_info"),
            ("FsInput", "gpucc_fs_input"),
            ("BindingC", "gpucc_binding"),
        ] {
            assert_eq!(c_struct_name(rust), c);
        }
    }
}
