//! The `fivefoot` command line as a user sees it: the `query` contract examples from
//! `shared/examples/query/`, exit codes, and one-line errors.

use serde_json::{Value, json};
use std::process::Command;

const CORRIDOR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/reach-corridor.ron");

fn fivefoot(args: &[&str]) -> (i32, String, String) {
    run(Command::new(env!("CARGO_BIN_EXE_fivefoot")).args(args))
}

/// `fivefoot` with `DISPLAY` set to `display`, or with no display at all.
fn fivefoot_on(display: Option<&str>, args: &[&str]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fivefoot"));
    cmd.args(args).env_remove("WAYLAND_DISPLAY");
    match display {
        Some(d) => cmd.env("DISPLAY", d),
        None => cmd.env_remove("DISPLAY"),
    };
    run(&mut cmd)
}

fn run(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().expect("run fivefoot");
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    (out.status.code().unwrap_or(-1), text(out.stdout), text(out.stderr))
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
        vec!["query", CORRIDOR, "cover", "pike", "pike"],
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

/// Bad arguments get clap's whole message: what is wrong, the usage or the possible values,
/// and the `--help` hint; nothing on stdout, exit 2.
#[test]
fn argument_errors_print_clap_s_whole_message() {
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (vec!["sim"], vec!["required arguments were not provided", "<LEVEL>", "Usage: fivefoot sim", "--help"]),
        (vec!["query", CORRIDOR, "attack"], vec!["<ATTACKER>", "<TARGET>", "Usage:", "--help"]),
        (
            vec!["query", CORRIDOR, "--rules", "d30-modern", "threatened", "pike"],
            vec!["invalid value 'd30-modern'", "possible values: ap-phases, four-actions, d20-classic", "--help"],
        ),
        (vec!["sim", CORRIDOR, "--seed", "abc"], vec!["invalid value 'abc' for '--seed", "--help"]),
        (vec!["query", CORRIDOR, "path", "hero", "x", "1"], vec!["invalid value 'x'", "--help"]),
        (vec!["query", CORRIDOR, "teleport", "hero"], vec!["unrecognized subcommand 'teleport'", "--help"]),
    ];
    for (args, wants) in cases {
        let (code, out, err) = fivefoot(&args);
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert!(out.is_empty(), "{args:?}: nothing on stdout");
        for want in wants {
            assert!(err.contains(want), "{args:?}: {want:?} missing from: {err}");
        }
    }
}

/// Without a display the window cannot open: one line says so and what works instead.
#[test]
fn play_without_a_display_says_so_and_exits_2() {
    for args in [vec!["play", CORRIDOR], vec![]] {
        let (code, _, err) = fivefoot_on(None, &args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: one line: {err}");
        assert!(err.contains("needs a display") && err.contains("sim") && err.contains("query"), "{err}");
    }
}

/// `play LEVEL` checks the level before anything starts: the error comes alone, with its
/// position, and no window (so none of the renderer's log lines).
#[test]
fn play_reports_a_broken_level_before_opening_a_window() {
    let dir = std::env::temp_dir().join(format!("fivefoot-cli-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.ron");
    let text = std::fs::read_to_string(CORRIDOR).unwrap().replace("\"spearman\"", "\"spearmen\"");
    std::fs::write(&path, text).unwrap();
    let lonely = dir.join("lonely.ron");
    let one_side = "(name: \"Lonely\", rules: \"d20-classic\", map: (rows: [\"...\"]), units: [(id: \"a\", side: \"blue\", at: (0, 0), creature: \"goblin\")])";
    std::fs::write(&lonely, one_side).unwrap();
    // A display that does not exist: had a window been tried, it would fail differently.
    for (file, want) in [(&path, "spearmen"), (&lonely, "at least two sides")] {
        let (code, _, err) = fivefoot_on(Some(":4242"), &["play", file.to_str().unwrap()]);
        assert_eq!(code, 2, "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
        assert!(err.contains(file.file_name().unwrap().to_str().unwrap()) && err.contains(want), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `fivefoot edit` without `--apply` opens the editor window; bad input is reported first,
/// one line, exit 2, with no window tried (a display that does not exist).
#[test]
fn edit_reports_bad_input_before_opening_the_editor_window() {
    let missing = std::env::temp_dir().join("fivefoot-no-such-level.ron");
    let missing = missing.to_str().unwrap();
    for (args, want) in [
        (vec!["edit", missing], "fivefoot-no-such-level.ron"),
        (vec!["edit"], "give a LEVEL"),
        (vec!["edit", "--new", "99x3"], "1 to 64"),
    ] {
        let (code, _, err) = fivefoot_on(Some(":4242"), &args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: one line: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    let (code, _, err) = fivefoot_on(None, &["edit", CORRIDOR]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("needs a display"), "{err}");
}

#[test]
fn an_arena_too_small_for_its_units_is_an_error_not_a_panic() {
    let dir = std::env::temp_dir().join(format!("fivefoot-arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("a.ron");
    let out = out.to_str().unwrap();
    for (w, h) in [("16", "2"), ("2", "16"), ("3", "3"), ("0", "0"), ("50000", "50000"), ("65", "16")] {
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

/// The golden battles: `fivefoot sim --log` of one battle for every level × every variant
/// × seeds 1–3 must give the committed `tests/golden/` files byte for byte. They guard
/// every change to the engine; `scripts/golden` rewrites them, in a commit that names the
/// rule or the bug that changed the battles.
#[test]
fn every_golden_battle_is_replayed_byte_for_byte() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let variants = ["ap-phases", "four-actions", "d20-classic", "osr-segments", "hex-phases"];
    let mut levels: Vec<_> = std::fs::read_dir(root.join("levels"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    levels.sort();
    assert!(levels.len() >= 6, "the shipped levels");
    let out_dir = std::env::temp_dir().join(format!("fivefoot-golden-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut checked = 0;
    for level in &levels {
        let name = level.file_stem().unwrap().to_string_lossy().into_owned();
        for rules in variants {
            for seed in ["1", "2", "3"] {
                let file = format!("{name}.{rules}.{seed}.jsonl");
                let golden = root.join("tests/golden").join(&file);
                let want = std::fs::read_to_string(&golden)
                    .unwrap_or_else(|e| panic!("{}: {e} (run scripts/golden for a new level)", golden.display()));
                let got_path = out_dir.join(&file);
                let args =
                    ["sim", level.to_str().unwrap(), "--rules", rules, "--seed", seed, "--battles", "1", "--check"];
                let mut all: Vec<&str> = args.to_vec();
                all.extend(["--log", got_path.to_str().unwrap()]);
                let (code, _, err) = fivefoot(&all);
                assert_eq!(code, 0, "{file}: {err}");
                assert_same_log(&file, &std::fs::read_to_string(&got_path).unwrap(), &want);
                checked += 1;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&out_dir);
    let files = std::fs::read_dir(root.join("tests/golden")).unwrap().count();
    assert_eq!(files, checked, "a golden file without a level or variant to replay it");
}

/// Panics naming the first line where `got` differs from the golden log `want`.
fn assert_same_log(file: &str, got: &str, want: &str) {
    if got == want {
        return;
    }
    let line = got.lines().zip(want.lines()).position(|(a, b)| a != b);
    let at = line.map_or_else(
        || format!("the lengths differ ({} lines, golden {})", got.lines().count(), want.lines().count()),
        |n| {
            let (g, w) = (got.lines().nth(n).unwrap(), want.lines().nth(n).unwrap());
            format!("line {}:\n  got    {g}\n  golden {w}", n + 1)
        },
    );
    panic!("{file} differs from its golden log at {at}");
}

/// The house rules' golden battles (`tests/golden-house/LEVEL.VARIANT+RULE.SEED.jsonl`):
/// each house rule on two levels, replayed byte for byte with `--house-rule`; their logs
/// name the house rule in the header, as the plain goldens name none.
#[test]
fn every_house_rule_golden_battle_is_replayed_byte_for_byte() {
    use fivefoot::variants::HouseRule;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out_dir = std::env::temp_dir().join(format!("fivefoot-golden-house-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut levels_of: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for entry in std::fs::read_dir(root.join("tests/golden-house")).unwrap() {
        let file = entry.unwrap().file_name().to_string_lossy().into_owned();
        let [level, ruled, seed, _] = file.split('.').collect::<Vec<_>>()[..] else {
            panic!("{file}: LEVEL.VARIANT+RULE.SEED.jsonl")
        };
        let (rules, rule) = ruled.split_once('+').unwrap_or_else(|| panic!("{file}: no house rule"));
        let got_path = out_dir.join(&file);
        let level_path = root.join("levels").join(format!("{level}.ron"));
        let args = [
            "sim",
            level_path.to_str().unwrap(),
            "--rules",
            rules,
            "--house-rule",
            rule,
            "--seed",
            seed,
            "--battles",
            "1",
            "--check",
            "--log",
            got_path.to_str().unwrap(),
        ];
        let (code, _, err) = fivefoot(&args);
        assert_eq!(code, 0, "{file}: {err}");
        let want = std::fs::read_to_string(root.join("tests/golden-house").join(&file)).unwrap();
        assert!(want.lines().next().unwrap().contains(&format!("\"house_rules\":[\"{rule}\"]")), "{file}");
        assert_same_log(&file, &std::fs::read_to_string(&got_path).unwrap(), &want);
        levels_of.entry(rule.to_string()).or_default().push(level.to_string());
    }
    let _ = std::fs::remove_dir_all(&out_dir);
    for rule in HouseRule::ALL {
        let levels = levels_of.get(rule.id()).cloned().unwrap_or_default();
        assert!(levels.len() >= 2 && levels[0] != levels[1], "{rule}: golden battles on two levels, not {levels:?}");
    }
}

/// A house rule is refused with exit 2 where it does not apply, and an unknown one with
/// clap's list of the possible values.
#[test]
fn a_house_rule_outside_its_variants_or_unknown_is_refused() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let level = root.join("levels/skirmish.ron");
    let level = level.to_str().unwrap();
    let (code, _, err) =
        fivefoot(&["sim", level, "--rules", "hex-phases", "--house-rule", "no-flanking", "--battles", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no-flanking does not apply to hex-phases"), "{err}");
    let (code, _, err) = fivefoot(&["schedule", "--rules", "osr-segments", "--house-rule", "no-readied-attacks"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = fivefoot(&["query", level, "--house-rule", "no-dice", "attack", "archer", "boss"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("possible values") && err.contains("double-cover"), "{err}");
    // Where it applies, the listing names it and lacks the system it took out.
    let (code, out, err) = fivefoot(&["schedule", "--rules", "d20-classic", "--house-rule", "no-flanking", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"house_rules\":[\"no-flanking\"]") && !out.contains("modifiers::flanking"), "{out}");
    let (_, plain, _) = fivefoot(&["schedule", "--rules", "d20-classic", "--json"]);
    assert!(plain.contains("\"house_rules\":[]") && plain.contains("modifiers::flanking"), "{plain}");
}

/// Every log is written atomically: a `sim --log` killed half-way leaves the old log as it
/// was (and no half-written file in its place); a destination that cannot be written is an
/// error that leaves it alone.
#[test]
fn a_killed_sim_leaves_the_old_log_intact() {
    let dir = std::env::temp_dir().join(format!("fivefoot-cli-atomic-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("battles.jsonl");
    std::fs::write(&log, "the old log\n").unwrap();
    let skirmish = concat!(env!("CARGO_MANIFEST_DIR"), "/levels/great-melee.ron");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fivefoot"))
        .args(["sim", skirmish, "--battles", "100000", "--log", log.to_str().unwrap()])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once it is writing (its temporary file exists), or after a while.
    for _ in 0..100 {
        let writing =
            std::fs::read_dir(&dir).unwrap().any(|e| e.unwrap().file_name().to_string_lossy().ends_with(".tmp"));
        if writing {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "the old log\n", "the old log is intact");
    // A directory where the log should go: an error naming the problem, exit 2, nothing touched.
    let (code, _, err) = fivefoot(&["sim", skirmish, "--battles", "1", "--log", dir.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot write the log"), "{err}");
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "the old log\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bad input to any subcommand is an error with exit status 2, never a panic (101).
#[test]
fn bad_input_to_every_subcommand_exits_2_never_101() {
    let dir = std::env::temp_dir().join(format!("fivefoot-cli-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("arena.ron");
    let out = out.to_str().unwrap();
    let missing = "/nonexistent/dir/file.ron";
    let cases: Vec<Vec<&str>> = vec![
        vec!["arena", out, "--height", "2"],
        vec!["arena", out, "--width", "0", "--height", "0"],
        vec!["arena", missing],
        vec!["bindings", "--write", "--path", missing],
        vec!["check-screenshot", missing],
        vec!["sim", missing],
        vec!["sim", CORRIDOR, "--ai", "nobody=greedy"],
        vec!["sim", CORRIDOR, "--ai", "blue=genius"],
        vec!["sim", CORRIDOR, "--ai", "blue=tactical:brutal"],
        vec!["sim", CORRIDOR, "--threads", "0"],
        vec!["sim", CORRIDOR, "--battles", "-3"],
        vec!["sim", CORRIDOR, "--log", missing],
        vec!["query", missing, "threatened", "pike"],
        vec!["play", missing],
        vec!["play", CORRIDOR, "--side", "purple"],
        vec!["play", CORRIDOR, "--hover", "x,y"],
    ];
    for args in cases {
        let (code, _, err) = fivefoot_on(Some(":4242"), &args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A level with units on one side (or none) has no battle to simulate: `sim` refuses it as
/// `play` does, naming the file; the two-sided original is the control.
#[test]
fn sim_refuses_a_level_with_fewer_than_two_sides() {
    let dir = std::env::temp_dir().join(format!("fivefoot-cli-one-side-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(CORRIDOR).unwrap();
    let one_side = dir.join("one-side.ron");
    std::fs::write(&one_side, text.replace("side: \"red\"", "side: \"blue\"")).unwrap();
    let (code, out, err) = fivefoot(&["sim", one_side.to_str().unwrap(), "--battles", "1"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("one-side.ron") && err.contains("at least two sides"), "{err}");
    let (control, _, err) = fivefoot(&["sim", CORRIDOR, "--battles", "1"]);
    assert_eq!(control, 0, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_reader_that_goes_away_ends_the_sim_quietly() {
    // `fivefoot sim … | head -1`: the pipe closes after the first line.
    let mut child = Command::new(env!("CARGO_BIN_EXE_fivefoot"))
        .args(["sim", "levels/skirmish.ron", "--battles", "200", "--threads", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_ne!(out.status.code(), Some(101), "{stderr}");
    // Control: with its reader there, the same sim prints its report.
    let (code, stdout, _) = fivefoot(&["sim", "levels/skirmish.ron", "--battles", "3", "--threads", "1"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("3 battles"), "{stdout}");
}

#[path = "cli/level.rs"]
mod level;

#[test]
fn schedule_prints_the_built_stages_as_json_and_refuses_an_unknown_variant() {
    let (code, out, err) = fivefoot(&["schedule", "--rules", "hex-phases", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(v["variant"], "hex-phases");
    let sets = v["sets"].as_array().expect("sets");
    assert!(sets.len() >= 6);
    assert_eq!(sets[0]["name"], "intake");
    assert!(sets.iter().all(|s| !s["systems"].as_array().expect("systems").is_empty()));
    assert_eq!(v["house_rules"], serde_json::json!([]));
    let system = sets
        .iter()
        .flat_map(|s| s["systems"].as_array().unwrap())
        .find(|s| s["name"] == "hex_phases::next_phase_of_turn");
    let system = system.expect("the phase clock is listed");
    assert!(system["reads"].is_array() && system["writes"].is_array(), "{system}");
    let (text_code, text, _) = fivefoot(&["schedule", "--rules", "ap-phases"]);
    assert_eq!(text_code, 0);
    assert!(text.contains("3. resolve") && text.contains("ap_phases::declare_charge"), "{text}");
    assert!(text.contains("         writes "), "each system's access, indented: {text}");
    let (bad, _, err) = fivefoot(&["schedule", "--rules", "gurps"]);
    assert_eq!(bad, 2);
    assert!(err.contains("gurps"), "{err}");
}

#[path = "cli/compare.rs"]
mod compare;
