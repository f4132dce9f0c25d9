//! Benchmarks of clift through the ICD loader (see `benches/`): run them with
//! `cargo build --release -p clift-icd && cargo bench -p clift-benches`, which
//! loads `target/release/libclift.so` (`CLIFT_LIB` names another build).
//! Criterion options go after `--benches --`, e.g. `cargo bench -p
//! clift-benches --benches -- --measurement-time 2 'to_kernel'` (without
//! `--benches` the library's test harness would get them too).
//!
//! - `compile`: SPIR-V bytes to a built program (clCreateProgramWithIL +
//!   clBuildProgram, code generation included), for every clbench module at
//!   -O0 and -O2; and to runnable kernels (plus clCreateKernelsInProgram)
//!   at -O2.
//! - `enqueue`: the cost of a command through the queue and scheduler:
//!   markers and launches of an empty kernel, asynchronously (many enqueues
//!   then one clFinish) and synchronously (clFinish after each).
//! - `math`: the throughput of the common math built-ins (sin, cos, exp,
//!   log, pow, sqrt, erf, rsqrt) in a kernel, elements per second.
//!
//! Kernel throughput is measured with `shared/clbench` against the peer
//! runtimes (README, "Performance").
