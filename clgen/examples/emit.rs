//! Prints the program of each seed given (`cargo run -p clift-clgen
//! --example emit -- 1 2 3`); `--fp16` before the seeds uses half arithmetic.
fn main() {
    let mut fp16 = false;
    for a in std::env::args().skip(1) {
        if a == "--fp16" {
            fp16 = true;
            continue;
        }
        let seed: u64 = a.parse().expect("a seed (a decimal number)");
        print!("{}", clift_clgen::generate(seed, fp16).source());
    }
}
