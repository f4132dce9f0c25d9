//! Benchmarks of clift through the ICD loader; see benches/.
