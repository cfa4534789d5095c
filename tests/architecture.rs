//! The shape of the code, checked: each rule variant's differences live in its own
//! modules (`src/combat/variants/<id>`, and its words in `src/control/vocabulary/<id>`),
//! so outside them a variant is named only where the variants are listed, parsed and
//! labelled; and no source file grows past what can be read in one sitting.

use std::path::{Path, PathBuf};

const VARIANTS: [&str; 5] = ["ApPhases", "FourActions", "D20Classic", "OsrSegments", "HexPhases"];
const MODULES: [&str; 5] = ["ap_phases::", "four_actions::", "d20_classic::", "osr_segments::", "hex_phases::"];

/// Where a variant's own code lives.
const VARIANT_HOMES: [&str; 2] = ["src/combat/variants/", "src/control/vocabulary/"];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The lines of a file before its unit tests (`#[cfg(test)]`), numbered from 1.
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().map(|(i, l)| (i + 1, l)).take_while(|(_, l)| l.trim() != "#[cfg(test)]")
}

/// Every place a line names a particular variant: `RulesVariant::X` or a variant module.
fn mentions(line: &str) -> usize {
    let code = line.split("//").next().unwrap_or("");
    VARIANTS.iter().map(|v| code.matches(&format!("RulesVariant::{v}")).count()).sum::<usize>()
        + MODULES.iter().map(|m| code.matches(m).count()).sum::<usize>()
}

#[test]
fn the_counter_sees_a_variant_named() {
    assert_eq!(mentions("if b.variant == RulesVariant::HexPhases { 1 } else { 2 }"), 1);
    assert_eq!(mentions("variants::four_actions::wrestle(b, i); RulesVariant::D20Classic"), 2);
    assert_eq!(mentions("let v = b.variant; // RulesVariant::HexPhases"), 0);
    let text = "fn a() { RulesVariant::ApPhases }\n#[cfg(test)]\nmod tests { RulesVariant::ApPhases }\n";
    assert_eq!(code_lines(text).map(|(_, l)| mentions(l)).sum::<usize>(), 1);
}

#[test]
fn variants_are_named_only_where_they_are_listed_parsed_and_labelled() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![];
    sources(&root.join("src"), &mut files);
    files.sort();
    let mut places = vec![];
    for file in &files {
        let rel = file.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        if VARIANT_HOMES.iter().any(|home| rel.starts_with(home)) {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in code_lines(&text) {
            for _ in 0..mentions(line) {
                places.push(format!("{rel}:{n}: {}", line.trim()));
            }
        }
    }
    assert!(!places.is_empty(), "the variants are listed somewhere");
    assert!(places.len() <= 15, "{} places name a variant outside its modules:\n{}", places.len(), places.join("\n"));
}

#[test]
fn no_source_file_is_over_600_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![];
    sources(&root.join("src"), &mut files);
    sources(&root.join("tests"), &mut files);
    sources(&root.join("benches"), &mut files);
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let n = std::fs::read_to_string(f).unwrap().lines().count();
            (n > 600).then(|| format!("{}: {n} lines", f.display()))
        })
        .collect();
    assert!(files.len() > 50, "the sources were found");
    assert!(long.is_empty(), "files over 600 lines:\n{}", long.join("\n"));
}
