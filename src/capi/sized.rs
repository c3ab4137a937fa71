//! Size-prefixed out-structs: the caller sets `struct_size` to `sizeof` of the struct it was
//! compiled with and the library writes only the fields that fit, so a driver built against
//! an older header keeps working when fields are added at the end.

/// Writes the fields of `$value` that fit in the caller's `struct_size` bytes of `$out`.
macro_rules! write_sized {
    ($out:expr, $value:expr, $ty:ty, [$($field:ident),* $(,)?]) => {{
        let out: *mut $ty = $out;
        let value: $ty = $value;
        if out.is_null() {
            return Err(Error::invalid(concat!(stringify!($ty), " out-pointer is NULL")));
        }
        // SAFETY: `out` is non-NULL and points to a caller-owned struct whose first field,
        // `struct_size`, the caller has set (the header's contract); reading that u32 is in
        // bounds for any version of the struct.
        let size = unsafe { std::ptr::addr_of!((*out).struct_size).read_unaligned() } as usize;
        if size < std::mem::size_of::<u32>() * 2 {
            return Err(Error::invalid(format!(
                "{}: struct_size {size} is smaller than any version of the struct",
                stringify!($ty)
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
