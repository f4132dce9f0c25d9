//! `CLIFT_DIFFTEST_PEER`: another implementation's vendor `.icd` file in
//! PoCL's place as the differential harness's second opinion
//! (`clift_conformance::difftest::peer`). In CI the only other
//! implementation is PoCL, so this names PoCL's own `.icd` file through
//! the variable: the harness then takes the platform that is not clift's
//! and labels its mode by the file's name, and the programs agree as they
//! do with the default. (Its own process: the variable is read once.)

use clift_conformance::difftest::{
    describe_modes, modes_matching, peer, Harness, ALL_MODES, CLIFT_MODES, POCL, POCL_ICD,
};

#[test]
fn a_peer_named_by_its_icd_file_takes_pocls_place() {
    std::env::set_var("CLIFT_DIFFTEST_PEER", POCL_ICD);
    let p = peer();
    assert_eq!(p.label, "pocl", "the label is the file's name");
    assert_eq!(p.platform, None, "found as the platform that is not clift's");
    let h = Harness::new();
    let seeds: Vec<u64> = (0..8).collect();
    let t = h.check(&seeds, 8);
    for f in &t.failures {
        eprintln!("{}", f.report);
    }
    assert!(t.failures.is_empty(), "the programs disagree (reports above)");
    assert_eq!(t.clean_in(ALL_MODES) + t.clean_in(CLIFT_MODES), seeds.len() as u64);
    assert!(t.clean_in(ALL_MODES) > 0, "the peer ran: {}", t.summary());
    assert!(
        describe_modes(ALL_MODES).contains("pocl"),
        "{}",
        describe_modes(ALL_MODES)
    );
    assert_eq!(modes_matching("pocl"), POCL, "--only finds the peer by its label");
}
