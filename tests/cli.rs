//! The `fivefoot` command line as a user sees it: the `query` contract examples from
//! `shared/examples/query/`, exit codes, and one-line errors.

use serde_json::{Value, json};
use std::process::Command;

const CORRIDOR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/reach-corridor.ron");

fn fivefoot(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fivefoot")).args(args).output().expect("run fivefoot");
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn query(args: &[&str]) -> Value {
    let mut all = vec!["query", CORRIDOR];
    all.extend_from_slice(args);
    let (code, out, err) = fivefoot(&all);
    assert_eq!(code, 0, "stderr: {err}");
    assert_eq!(out.lines().count(), 1, "one JSON object on one line: {out}");
    serde_json::from_str(&out).expect("valid JSON")
}

/// Square lists compare in any order.
fn normalised(mut v: Value) -> Value {
    if let Some(obj) = v.as_object_mut()
        && let Some(Value::Array(squares)) = obj.get_mut("squares")
    {
        squares.sort_by_key(|s| s.to_string());
    }
    v
}

#[test]
fn threatened_matches_the_contract_example() {
    let got = query(&["threatened", "pike"]);
    let want = json!({"unit": "pike", "squares": [[3,2],[4,2],[5,2],[6,2],[7,2],[3,3],[7,3],[3,4],[7,4],[3,5],[7,5],[3,6],[4,6],[5,6],[6,6],[7,6]]});
    assert_eq!(normalised(got), normalised(want));
}

#[test]
fn path_matches_the_contract_examples() {
    assert_eq!(
        query(&["path", "hero", "5", "5"]),
        json!({"unit": "hero", "legal": true, "squares": [[5,6],[5,5]], "cost_ft": 10, "provokes": [{"by": "pike", "from": [5,6]}], "reason": null})
    );
    assert_eq!(
        query(&["path", "hero", "5", "6", "--step"]),
        json!({"unit": "hero", "legal": true, "squares": [[5,6]], "cost_ft": 5, "provokes": [], "reason": null})
    );
}

#[test]
fn flanking_and_cover_match_the_contract_examples() {
    assert_eq!(
        query(&["flanking", "hero", "pike"]),
        json!({"attacker": "hero", "target": "pike", "flanking": false, "partners": []})
    );
    assert_eq!(
        query(&["cover", "hero", "pike"]),
        json!({"attacker": "hero", "target": "pike", "cover": "none", "ac_bonus": 0, "can_target": true})
    );
}

#[test]
fn an_illegal_path_is_an_answer_with_a_reason() {
    let got = query(&["path", "hero", "5", "1"]);
    assert_eq!(got["legal"], json!(false));
    assert_eq!(got["squares"], json!([]));
    assert!(got["reason"].as_str().unwrap().contains("needs"), "{got}");
    let got = query(&["path", "hero", "0", "0"]);
    assert_eq!(got["legal"], json!(false));
    assert!(got["reason"].as_str().unwrap().contains("wall"), "{got}");
}

#[test]
fn the_rules_flag_switches_variant() {
    // Under osr-segments ranges are straight lines: the ring is the same 16 squares here,
    // and on hexes the spearman's ring is 12 hexes.
    let osr = query(&["--rules", "osr-segments", "threatened", "pike"]);
    assert_eq!(osr["squares"].as_array().unwrap().len(), 16);
    let hex = query(&["threatened", "pike", "--rules", "hex-phases"]);
    assert_eq!(hex["squares"].as_array().unwrap().len(), 12);
}

#[test]
fn bad_input_exits_2_with_one_line_on_stderr() {
    let cases: Vec<Vec<&str>> = vec![
        vec!["query", CORRIDOR, "threatened", "nobody"],
        vec!["query", "/no/such/level.ron", "threatened", "pike"],
        vec!["query", CORRIDOR, "--rules", "d30-modern", "threatened", "pike"],
        vec!["query", CORRIDOR, "cover", "pike", "pike"],
        vec!["query", CORRIDOR, "path", "hero", "x", "1"],
        vec!["query", CORRIDOR, "teleport", "hero"],
    ];
    for args in cases {
        let (code, out, err) = fivefoot(&args);
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert!(out.is_empty(), "{args:?}: nothing on stdout");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: one line: {err}");
    }
    let (_, _, err) = fivefoot(&["query", CORRIDOR, "threatened", "nobody"]);
    assert!(err.contains("nobody") && err.contains("hero") && err.contains("pike"), "{err}");
}

#[test]
fn an_arena_too_small_for_its_units_is_an_error_not_a_panic() {
    let dir = std::env::temp_dir().join(format!("fivefoot-arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("a.ron");
    let out = out.to_str().unwrap();
    for (w, h) in [("16", "2"), ("2", "16"), ("3", "3"), ("0", "0")] {
        let (code, stdout, err) = fivefoot(&["arena", out, "--width", w, "--height", h, "--units", "4"]);
        assert_eq!(code, 2, "{w}x{h}: {stdout} {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{w}x{h}: one line: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // The control: a roomy arena is written.
    let (code, stdout, err) = fivefoot(&["arena", out, "--width", "16", "--height", "12", "--units", "4"]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("4 units"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_broken_level_is_reported_with_its_position() {
    let dir = std::env::temp_dir().join(format!("fivefoot-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.ron");
    let text = std::fs::read_to_string(CORRIDOR).unwrap().replace("\"spearman\"", "\"spearmen\"");
    std::fs::write(&path, text).unwrap();
    let (code, _, err) = fivefoot(&["query", path.to_str().unwrap(), "threatened", "pike"]);
    assert_eq!(code, 2);
    assert!(err.contains("broken.ron:18:") && err.contains("unknown creature \"spearmen\""), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
