//! `-cl-no-subgroup-ifp` ("the kernel does not require independent forward
//! progress of sub-groups"): a loop that reads memory through an atomic
//! gets a yield point (and so no 4-lane body) only without the option
//! (`CLIFT_DUMP`'s `<kernel>.scalar.txt` says why), and the kernel's
//! results are right either way. Its own test binary, since `CLIFT_DUMP` is
//! process-wide.

use clift_conformance::exec::{Arg, Kernel};

/// Each work-item takes `n` tickets from a counter and counts the odd ones.
const TICKETS: &str = "kernel void tickets(volatile global int *next, global int *out, int n) {\n\
    int s = 0;\n\
    for (int k = 0; k < n; k++) s += atomic_add(next, 1) & 1;\n\
    out[get_global_id(0)] = s; }\n";

/// Why `tickets` got no 4-lane body in the dumps under `dir` (None: it got
/// one).
fn why_scalar(dir: &std::path::Path) -> Option<String> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .find_map(|e| std::fs::read_to_string(e.path().join("tickets.scalar.txt")).ok())
}

#[test]
fn the_option_drops_the_yield_points() {
    const N: usize = 256;
    const PER: i32 = 10;
    for (options, yields) in [("", true), ("-cl-no-subgroup-ifp", false)] {
        let dir = std::env::temp_dir().join(format!("clift-ifp-option-{}-{yields}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::env::set_var("CLIFT_DUMP", &dir);
        let mut next = vec![0i32; 1];
        let mut out = vec![-1i32; N];
        Kernel::with_source(TICKETS, "tickets", options)
            .unwrap_or_else(|log| panic!("{options:?}: {log}"))
            .modes_may_differ("the tickets each work-item takes depend on the order the work-items run in")
            .arg(Arg::output(&mut next))
            .arg(Arg::output(&mut out))
            .arg(Arg::value(PER))
            .run(&[N], Some(&[64]));
        std::env::remove_var("CLIFT_DUMP");
        assert_eq!(next[0], N as i32 * PER, "{options:?}: tickets taken");
        assert_eq!(out.iter().sum::<i32>(), N as i32 * PER / 2, "{options:?}: odd tickets");
        let why = why_scalar(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        let mentions_yield = why.as_deref().is_some_and(|w| w.contains("yield point"));
        assert_eq!(mentions_yield, yields, "{options:?}: {why:?}");
    }
}
