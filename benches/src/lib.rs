//! Benchmarks of clift through the ICD loader (see `benches/`): run them with
//! `cargo build --release -p clift-icd && cargo bench -p clift-benches`, which
//! loads `target/release/libclift.so`.
//!
//! - `compile`: SPIR-V bytes to a built program (clCreateProgramWithIL +
//!   clBuildProgram), for every clbench module at -O0 and -O2.
//! - `enqueue`: the cost of a command through the queue and scheduler:
//!   markers, asynchronously (many enqueues then one clFinish) and
//!   synchronously (clFinish after each).
