//! Embeds every rule variant's numbers file (`assets/rules/<id>.ron`) in the binary as a
//! table of (id, text), so the engine finds a variant's numbers by its id and no code has
//! to name each file.

use std::fmt::Write;
use std::path::Path;

fn main() {
    // Read at run time: a build script's binary may be reused from another checkout.
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&root).join("assets/rules");
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut ids: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            (path.extension()? == "ron").then(|| path.file_stem()?.to_str().map(str::to_string))?
        })
        .collect();
    ids.sort();
    let mut out = String::from("/// Each rule variant's numbers file, embedded: (id, RON text).\n");
    out.push_str("static NUMBERS_FILES: &[(&str, &str)] = &[\n");
    for id in &ids {
        let path = dir.join(format!("{id}.ron"));
        println!("cargo::rerun-if-changed={}", path.display());
        let _ = writeln!(out, "    ({id:?}, include_str!({:?})),", path.display().to_string());
    }
    out.push_str("];\n");
    let target = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("variant_numbers.rs");
    std::fs::write(&target, out).unwrap_or_else(|e| panic!("{}: {e}", target.display()));
}
