//! The Debian `clinfo` tool, run against clift through the ICD loader, makes
//! every query it knows of: each must succeed, or be one clinfo skips because
//! clift does not list the extension or version it belongs to.

use std::process::Command;

use clift_conformance::*;

/// What clinfo prints for a query that failed: "<... error -30>",
/// "... : error -30", "<error: ...>", the name of an error code, or an
/// "Invalid ..." complaint about the answer it got.
fn failure_in(line: &str) -> bool {
    let error_code = line
        .match_indices("error ")
        .any(|(i, m)| line[i + m.len()..].starts_with(|c: char| c == '-' || c.is_ascii_digit()));
    error_code
        || line.contains("<error")
        || line.contains("Invalid")
        || line.contains("CL_INVALID_")
        || line.contains("CL_OUT_OF_")
        || line.contains("CL_DEVICE_NOT_AVAILABLE")
}

/// Runs clinfo with `args` (the loader finds only clift: `setup` points
/// OCL_ICD_VENDORS at it, and the child inherits the environment). `None` if
/// clinfo is not installed.
fn clinfo(args: &[&str]) -> Option<String> {
    setup();
    let out = match Command::new("clinfo").args(args).output() {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!("SKIPPED: clinfo is not installed (Debian package `clinfo`)");
            return None;
        }
        Err(e) => panic!("running clinfo: {e}"),
    };
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "clinfo {args:?} exited with {}\n{stdout}\n{stderr}",
        out.status
    );
    let bad: Vec<&str> = stdout.lines().chain(stderr.lines()).filter(|l| failure_in(l)).collect();
    assert!(
        bad.is_empty(),
        "clinfo {args:?} reported failures:\n{}\n\nfull output:\n{stdout}",
        bad.join("\n")
    );
    Some(stdout)
}

fn field<'a>(out: &'a str, name: &str) -> Vec<&'a str> {
    out.lines()
        .filter_map(|l| l.trim_start().strip_prefix(name))
        .map(str::trim)
        .collect()
}

#[test]
fn clinfo_lists_clift_and_its_device_without_errors() {
    let Some(out) = clinfo(&[]) else { return };
    assert!(field(&out, "Platform Name").contains(&"clift"), "{out}");
    let name = device_string(device(), CL_DEVICE_NAME);
    assert!(field(&out, "Device Name").contains(&name.as_str()), "{out}");
    assert_eq!(field(&out, "Number of devices"), ["1"], "{out}");
    let version = device_string(device(), CL_DEVICE_VERSION);
    assert!(field(&out, "Device Version").contains(&version.as_str()), "{out}");
    let units = device_value::<cl_uint>(device(), CL_DEVICE_MAX_COMPUTE_UNITS).to_string();
    assert_eq!(field(&out, "Max compute units"), [units.as_str()], "{out}");
    // Images are supported, with their limits (images.rs and device.rs
    // check the values).
    assert_eq!(field(&out, "Image support"), ["Yes"], "{out}");
    let samplers = device_value::<cl_uint>(device(), CL_DEVICE_MAX_SAMPLERS).to_string();
    assert_eq!(
        field(&out, "Max number of samplers per kernel"),
        [samplers.as_str()],
        "{out}"
    );
    assert_eq!(field(&out, "Max 2D image size"), ["16384x16384 pixels"], "{out}");
}

#[test]
fn clinfo_all_properties_and_raw_output_without_errors() {
    // Every property clinfo knows, even those it would hide, by name and value.
    let Some(out) = clinfo(&["--all-props", "--raw"]) else {
        return;
    };
    assert!(out.contains("CL_PLATFORM_NAME") && out.contains("clift"), "{out}");
    assert!(
        out.contains("CL_DEVICE_TYPE") && out.contains("CL_DEVICE_TYPE_CPU"),
        "{out}"
    );
    // On-device queues, filled (device_queue.rs checks the values).
    let on_device = field(&out, "[clift/0]    CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES");
    assert_eq!(
        on_device,
        ["CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE"],
        "{out}"
    );
    for (name, param) in [
        (
            "CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE",
            CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE,
        ),
        ("CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE", CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE),
        ("CL_DEVICE_MAX_ON_DEVICE_QUEUES", CL_DEVICE_MAX_ON_DEVICE_QUEUES),
        ("CL_DEVICE_MAX_ON_DEVICE_EVENTS", CL_DEVICE_MAX_ON_DEVICE_EVENTS),
    ] {
        let v = device_value::<cl_uint>(device(), param);
        assert!(v > 0, "{name}");
        assert_eq!(
            field(&out, &format!("[clift/0]    {name}")),
            [v.to_string().as_str()],
            "{out}"
        );
    }
    assert_eq!(
        field(&out, "[clift/0]    CL_DEVICE_IMAGE_SUPPORT"),
        ["CL_TRUE"],
        "{out}"
    );
    let Some(list) = clinfo(&["--list"]) else { return };
    assert!(list.contains("Platform #0: clift"), "{list}");
    assert!(list.contains("Device #0: clift"), "{list}");
}

#[test]
fn failure_lines_are_recognised() {
    assert!(failure_in(
        "  Device Name    <getInfo:123: get CL_DEVICE_NAME : error -30>"
    ));
    assert!(failure_in("<error: platform 0x1 not found>"));
    assert!(failure_in("  Max clock frequency   Invalid device"));
    assert!(failure_in("  clCreateContext(NULL, ...)  CL_INVALID_VALUE"));
    assert!(!failure_in("  Error Correction support                        No"));
    assert!(!failure_in("[clift/0]    CL_DEVICE_ERROR_CORRECTION_SUPPORT  CL_FALSE"));
}
