//! Mesa 23.3's own vec4 pass tests (`src/intel/compiler/test_vec4_*.cpp`), restated in
//! gpucc's vec4 IR and run against gpucc's pass doing the same job. Each Mesa `TEST_F` is one
//! test of the same name; its doc line states Mesa's case (input and expected outcome).
//!
//! Where gpucc's pass deliberately does otherwise, or the IR cannot say Mesa's input exactly,
//! the test asserts what gpucc does and a comment starting `Difference:` says what differs
//! and why. Counts (tests / passing / differences):
//!
//! | Mesa file                          | tests | pass | differences |
//! |------------------------------------|-------|------|-------------|
//! | `test_vec4_cmod_propagation`       | 23    | 23   | 9           |
//! | `test_vec4_copy_propagation`       | 2     | 2    | 0           |
//! | `test_vec4_dead_code_eliminate`    | 1     | 1    | 1           |
//! | `test_vec4_register_coalesce`      | 5     | 5    | 1           |

mod cmod_propagation;
mod copy_propagation;
mod dead_code_eliminate;
mod register_coalesce;
