//! The clause traces (`tests/clauses/<variant>.md`): every row has a status, every test a row
//! names exists, and the README's counts are the files' counts.

use fivefoot::variants::RulesVariant;
use std::path::{Path, PathBuf};

/// One row of a clause trace.
struct Row {
    line: usize,
    tests: Vec<String>,
    status: String,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The table rows of a trace (header and separator left out), with their line numbers.
fn rows(text: &str) -> Result<Vec<Row>, String> {
    let mut out = Vec::new();
    let mut header_seen = false;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if !line.starts_with('|') {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if !header_seen {
            header_seen = true; // the header row
            continue;
        }
        if cells.iter().all(|c| c.chars().all(|ch| ch == '-' || ch == ':')) {
            continue; // the separator
        }
        if cells.len() != 3 {
            return Err(format!("line {}: {} cells, want clause | tests | status", i + 1, cells.len()));
        }
        let tests =
            if cells[1] == "-" { Vec::new() } else { cells[1].split(',').map(|t| t.trim().to_string()).collect() };
        out.push(Row { line: i + 1, tests, status: cells[2].to_string() });
    }
    Ok(out)
}

#[derive(Default, Debug, PartialEq)]
struct Counts {
    tested: usize,
    not_expressible: usize,
    settled: usize,
    untested: usize,
}

/// Checks one row; counts it by status.
fn check(row: &Row, counts: &mut Counts) -> Result<(), String> {
    let reason = |prefix: &str| row.status.strip_prefix(prefix).map(str::trim);
    if row.status == "tested" {
        if row.tests.is_empty() {
            return Err(format!("line {}: tested, but no test is named", row.line));
        }
        counts.tested += 1;
    } else if let Some(why) = reason("not expressible:") {
        if why.is_empty() {
            return Err(format!("line {}: not expressible without a reason", row.line));
        }
        counts.not_expressible += 1;
    } else if let Some(which) = reason("settled in rules-notes:") {
        if which.is_empty() {
            return Err(format!("line {}: settled in rules-notes without naming the note", row.line));
        }
        counts.settled += 1;
    } else if row.status == "untested" || reason("untested:").is_some() {
        counts.untested += 1;
    } else {
        return Err(format!("line {}: status {:?} is not one of the allowed", row.line, row.status));
    }
    for t in &row.tests {
        let (file, name) =
            t.split_once("::").ok_or_else(|| format!("line {}: {t:?} is not file::test_name", row.line))?;
        let source =
            std::fs::read_to_string(root().join(file)).map_err(|e| format!("line {}: {file}: {e}", row.line))?;
        if !source.contains(&format!("fn {name}(")) {
            return Err(format!("line {}: no fn {name} in {file}", row.line));
        }
    }
    Ok(())
}

fn counts_of(v: RulesVariant) -> Result<Counts, String> {
    let path = root().join(Path::new("tests/clauses")).join(format!("{v}.md"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let rows = rows(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut counts = Counts::default();
    for row in &rows {
        check(row, &mut counts).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(counts)
}

#[test]
fn every_clause_row_has_a_status_and_names_only_tests_that_exist() {
    for v in RulesVariant::ALL {
        let c = counts_of(v).unwrap_or_else(|e| panic!("{e}"));
        assert!(c.tested > 0, "{v}: {c:?}");
    }
}

#[test]
fn the_readme_reports_each_variants_clause_counts() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    for v in RulesVariant::ALL {
        let c = counts_of(v).unwrap();
        let line = format!("| {v} | {} | {} | {} | {} |", c.tested, c.not_expressible, c.settled, c.untested);
        assert!(readme.contains(&line), "README lacks {line:?}");
    }
}

#[test]
fn the_checker_refuses_a_missing_test_a_missing_status_and_an_unknown_one() {
    let good = "| Clause | Tests | Status |\n|---|---|---|\n| a | tests/rules/clauses.rs::the_checker_refuses_a_missing_test_a_missing_status_and_an_unknown_one | tested |\n";
    let mut c = Counts::default();
    for r in rows(good).unwrap() {
        check(&r, &mut c).unwrap(); // the positive control
    }
    assert_eq!(c.tested, 1);
    for (bad, why) in [
        ("| a | tests/rules.rs::no_such_test | tested |", "no fn no_such_test"),
        ("| a | - | tested |", "no test is named"),
        ("| a | - | |", "is not one of the allowed"),
        ("| a | - | maybe |", "is not one of the allowed"),
        ("| a | - | not expressible: |", "without a reason"),
        ("| a | tests/rules.rs | untested |", "not file::test_name"),
    ] {
        let text = format!("| Clause | Tests | Status |\n|---|---|---|\n{bad}\n");
        let e = rows(&text).unwrap().iter().try_for_each(|r| check(r, &mut Counts::default())).unwrap_err();
        assert!(e.contains(why), "{bad}: {e}");
    }
    assert!(rows("| h | h | h |\n|---|---|---|\n| only | two |\n").is_err());
}
