//! Builder (TODO)
pub struct Builder;
