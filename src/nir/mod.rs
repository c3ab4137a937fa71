//! The input IR: a NIR-like SSA form with Mesa's nir_print text syntax, validator, builder, reference interpreter and the target-neutral passes.
