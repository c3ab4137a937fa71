//! Validator (TODO)
use super::ir::Shader;
#[derive(Debug)]
pub struct ValidationError(pub Vec<String>);
pub fn validate(_s: &Shader) -> Result<(), ValidationError> {
    Ok(())
}
