//! Builds SPIR-V modules with clift's front end and prints their kernels or
//! build logs: `cargo run -p clift-jit --example clift-spv -- a.spv b.spv`.
//! With `--time N` it also reports the mean time of N builds of each module.

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut reps = 0usize;
    if let Some(p) = args.iter().position(|a| a == "--time") {
        reps = args.get(p + 1).and_then(|n| n.parse().ok()).unwrap_or(1000);
        args.drain(p..(p + 2).min(args.len()));
    }
    let mut failed = false;
    for path in &args {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{path}: {e}");
                failed = true;
                continue;
            }
        };
        let options = clift_jit::BuildOptions::default();
        match clift_jit::build(&bytes, &options) {
            Ok(b) => {
                println!("{path}: ok, global variables {} bytes", b.global_variable_total_size);
                for k in &b.kernels {
                    println!(
                        "  kernel {} [{}] local {} private {}",
                        k.name, k.attributes, k.local_mem_size, k.private_mem_size
                    );
                    for a in &k.args {
                        println!("    {a:?}");
                    }
                }
            }
            Err(e) => {
                failed = true;
                print!("{path}: build failed\n{}", e.log());
            }
        }
        if reps > 0 {
            let t = std::time::Instant::now();
            for _ in 0..reps {
                let _ = std::hint::black_box(clift_jit::build(std::hint::black_box(&bytes), &options));
            }
            println!("  {:.1} us per build", t.elapsed().as_secs_f64() * 1e6 / reps as f64);
        }
    }
    std::process::exit(i32::from(failed));
}
