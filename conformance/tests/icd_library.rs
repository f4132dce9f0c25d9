//! cl_khr_icd: libclift.so exports only what the loader needs and does not
//! itself link the loader.

use std::process::Command;

use clift_conformance::lib_path;

fn tool(name: &str, args: &[&str]) -> String {
    let out = Command::new(name)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{name} (binutils) must be installed: {e}"));
    assert!(
        out.status.success(),
        "{name} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn exports_only_the_loader_entry_points() {
    let lib = lib_path();
    let nm = tool("nm", &["-D", "--defined-only", lib.to_str().unwrap()]);
    let mut exported: Vec<&str> = nm
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            // Text symbols only: "addr T name".
            (f.len() == 3 && f[1] == "T").then_some(f[2])
        })
        .collect();
    exported.sort();
    assert_eq!(
        exported,
        [
            "clGetExtensionFunctionAddress",
            "clGetExtensionFunctionAddressForPlatform",
            "clGetPlatformInfo",
            "clIcdGetPlatformIDsKHR"
        ]
    );
}

#[test]
fn does_not_link_the_loader() {
    let lib = lib_path();
    let dynamic = tool("readelf", &["-d", lib.to_str().unwrap()]);
    let needed: Vec<&str> = dynamic.lines().filter(|l| l.contains("(NEEDED)")).collect();
    assert!(!needed.is_empty(), "readelf lists the needed libraries");
    assert!(needed.iter().all(|l| !l.contains("libOpenCL")), "{needed:#?}");
}
