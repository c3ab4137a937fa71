//! The C ABI: opaque handles, status codes, last-error text. No panic crosses it.
