//! The level commands: `edit --apply` headless, `level check` with its errors and
//! warnings, `level generate`, and `arena`.

use super::*;

/// Under left-right symmetry a placed blue unit's mirror image is red, so the saved level
/// has two sides and checks clean.
#[test]
fn edit_apply_under_symmetry_mirrors_a_unit_onto_the_other_side() {
    let dir = std::env::temp_dir().join(format!("fivefoot-cli-mirror-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (edits, out) = (dir.join("edits.ron"), dir.join("out.ron"));
    let script =
        r#"[SetSymmetry(LeftRight), PlaceUnit(id: "b_fighter", creature: "human_fighter", side: "blue", at: (3, 5))]"#;
    std::fs::write(&edits, script).unwrap();
    let (code, _, err) =
        fivefoot(&["edit", "--new", "22x12", "--apply", edits.to_str().unwrap(), "--save", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let level = std::fs::read_to_string(&out).unwrap();
    let mirror = r#"id: "r_fighter",
            side: "red",
            at: (18, 5),"#;
    assert!(level.contains(mirror) && level.contains("symmetry: LeftRight"), "{level}");
    let (code, said, err) = fivefoot(&["level", "check", out.to_str().unwrap()]);
    assert_eq!((code, said.trim()), (0, format!("{}: ok", out.display()).as_str()), "{err}");
    // Broken by hand: a wall on one side only. Still valid, with a warning naming it.
    let broken = level.replacen("\"......................\"", "\"#.....................\"", 1);
    std::fs::write(&out, broken).unwrap();
    let (code, said, _) = fivefoot(&["level", "check", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{said}");
    assert!(
        said.contains("warning: the level's left-right symmetry does not hold: terrain at (0, 0) and (21, 0) differ"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `fivefoot edit --new WxH --apply EDITS --save OUT` applies the issue's example
/// vocabulary headless; a malformed file or an edit that cannot apply is an error naming
/// its place, and nothing is saved.
#[test]
fn edit_applies_a_ron_list_of_edits_headless_and_saves_only_when_all_apply() {
    let dir = std::env::temp_dir().join(format!("fivefoot-cli-edit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let edits = dir.join("edits.ron");
    let out = dir.join("out.ron");
    std::fs::write(
        &edits,
        r#"[
            Resize(width: 20, height: 14, anchor: TopLeft),
            Paint(terrain: Wall, area: Rect(from: (0, 0), to: (19, 0))),
            Paint(terrain: LowWall, area: Line(from: (3, 3), to: (8, 3))),
            Fill(terrain: Difficult, at: (10, 10)),
            PlaceUnit(id: "g1", creature: "goblin", side: "red", at: (12, 4)),
            MoveUnit(id: "g1", to: (12, 5)),
            PlaceUnit(id: "f1", creature: "human_fighter", side: "blue", at: (2, 6)),
            RemoveUnit(id: "g1"),
            SetSymmetry(LeftRight),
            Undo,
            Redo,
            Undo,
        ]"#,
    )
    .unwrap();
    let (code, said, err) =
        fivefoot(&["edit", "--new", "10x10", "--apply", edits.to_str().unwrap(), "--save", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(said.contains("applied 12 edits"), "{said}");
    let level = std::fs::read_to_string(&out).unwrap();
    assert!(level.contains("\"####################\""), "the top wall: {level}");
    assert!(level.contains("\"~~~======~~~~~~~~~~~\""), "the low wall and the fill: {level}");
    assert!(level.contains("f1") && !level.contains("g1"), "{level}");
    // A goblin on the wall: edit 2 of 2 is refused with its reason; nothing is written.
    std::fs::remove_file(&out).unwrap();
    std::fs::write(&edits, r#"[SetName("x"), PlaceUnit(id: "g", creature: "goblin", side: "red", at: (0, 0))]"#)
        .unwrap();
    let base = dir.join("base.ron");
    let (code, _, _) =
        fivefoot(&["edit", "--new", "4x4", "--apply", edits.to_str().unwrap(), "--save", base.to_str().unwrap()]);
    assert_eq!(code, 0);
    // The edits file applied to the base level, saved to `out`.
    let apply_to_base = || {
        fivefoot(&["edit", base.to_str().unwrap(), "--apply", edits.to_str().unwrap(), "--save", out.to_str().unwrap()])
    };
    std::fs::write(&edits, r#"[Paint(terrain: Wall, area: Cells([(1, 1)])), PlaceUnit(id: "g", creature: "goblin", side: "red", at: (1, 1))]"#).unwrap();
    let (code, _, err) = apply_to_base();
    assert_eq!(code, 2);
    assert!(err.contains("edit 2 of 2 (PlaceUnit)") && err.contains("wall"), "{err}");
    assert!(!out.exists(), "nothing saved");
    // A malformed edits file: its line and column.
    std::fs::write(&edits, "[Paint(terrain: Lava, area: Cells([]))]").unwrap();
    let (code, _, err) = apply_to_base();
    assert_eq!(code, 2);
    assert!(err.contains("edits.ron:1:"), "{err}");
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `fivefoot level check`: every shipped level passes (exit 0) and says `FILE: ok`; a broken
/// one is one line `FILE:LINE:COLUMN: message` and exit 1, never a panic.
#[test]
fn level_check_passes_the_shipped_levels_and_names_a_problem_by_line_and_column() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels");
    let mut shipped: Vec<String> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path().to_string_lossy().into_owned()).collect();
    shipped.sort();
    let mut args = vec!["level", "check"];
    args.extend(shipped.iter().map(String::as_str));
    let (code, out, err) = fivefoot(&args);
    assert_eq!(code, 0, "{out}{err}");
    let oks: Vec<String> = shipped.iter().map(|f| format!("{f}: ok")).collect();
    assert_eq!(out.lines().collect::<Vec<_>>(), oks, "one ok a file");
    let dir = std::env::temp_dir().join(format!("fivefoot-cli-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, std::fs::read_to_string(CORRIDOR).unwrap().replace("\"spearman\"", "\"spearmen\"")).unwrap();
    let (code, out, _) = fivefoot(&["level", "check", bad.to_str().unwrap(), &shipped[0]]);
    assert_eq!(code, 1);
    assert_eq!(out.lines().count(), 2, "the bad file's line, then the good one's ok: {out}");
    assert_eq!(out.lines().nth(1), Some(oks[0].as_str()));
    let line = out.lines().next().unwrap();
    let at = format!("{}:", bad.display());
    assert!(line.starts_with(&at) && line.contains("spearmen"), "{line}");
    let rest: Vec<&str> = line[at.len()..].splitn(3, ':').collect();
    assert!(rest[0].parse::<usize>().is_ok() && rest[1].parse::<usize>().is_ok(), "line and column: {line}");
    // Every problem, not just the first: the second names its unit.
    let worse = dir.join("worse.ron");
    let text = std::fs::read_to_string(&bad).unwrap().replace("\"human_fighter\"", "\"human_fighters\"");
    std::fs::write(&worse, text).unwrap();
    let (code, out, _) = fivefoot(&["level", "check", worse.to_str().unwrap()]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].contains("spearmen") && lines[1].contains("unit \"hero\"") && lines[1].contains("human_fighters"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn level_generate_prints_the_same_ron_for_a_seed_and_writes_a_valid_level() {
    let dir = std::env::temp_dir().join(format!("fivefoot-generate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for style in ["ruins", "forest", "fortress", "arena"] {
        let args = ["level", "generate", "--style", style, "--size", "20x14", "--symmetry", "point", "--units", "6"];
        let (code, ron, err) = fivefoot(&[&args[..], &["--seed", "5"]].concat());
        assert_eq!(code, 0, "{style}: {err}");
        let def: fivefoot::level::LevelDef = fivefoot::level::ron_options().from_str(&ron).unwrap();
        assert_eq!((def.map.rows.len(), def.units.len()), (14, 6), "{style}");
        assert_eq!(fivefoot(&[&args[..], &["--seed", "5"]].concat()).1, ron, "{style}: the same seed, the same RON");
        assert_ne!(fivefoot(&[&args[..], &["--seed", "6"]].concat()).1, ron, "{style}: another seed, another level");
        // Written to a file: the same level, which `level check` accepts.
        let out = dir.join(format!("{style}.ron"));
        let (code, stdout, err) = fivefoot(&[&args[..], &["--seed", "5", "--out", out.to_str().unwrap()]].concat());
        assert_eq!(code, 0, "{err}");
        assert!(stdout.contains("6 units"), "{stdout}");
        assert_eq!(std::fs::read_to_string(&out).unwrap().trim_end(), ron.trim_end());
        let (code, _, err) = fivefoot(&["level", "check", out.to_str().unwrap()]);
        assert_eq!(code, 0, "{style}: {err}");
    }
    // A hex map is played under hex-phases.
    let (code, ron, err) = fivefoot(&["level", "generate", "--hex", "--style", "forest"]);
    assert_eq!(code, 0, "{err}");
    assert!(ron.contains("rules: \"hex-phases\""), "{ron}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn level_generate_refuses_bad_values_with_a_clap_error() {
    let (code, _, err) = fivefoot(&["level", "generate", "--style", "ruins", "--size", "12x10", "--units", "4"]);
    assert_eq!(code, 0, "the control: {err}");
    for (args, want) in [
        (vec!["--style", "castle"], "invalid value 'castle' for '--style"),
        (vec!["--symmetry", "diagonal"], "invalid value 'diagonal' for '--symmetry"),
        (vec!["--size", "7x7"], "8 to 64 squares"),
        (vec!["--size", "big"], "expected WIDTHxHEIGHT"),
        (vec!["--units", "3"], "even number"),
        (vec!["--units", "200"], "at most 128"),
        (vec!["--size", "8x8", "--units", "128"], "no room for 128 units"),
    ] {
        let (code, out, err) = fivefoot(&[&["level", "generate"][..], &args[..]].concat());
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let (_, _, err) = fivefoot(&["level", "generate", "--style", "castle"]);
    assert!(err.contains("ruins") && err.contains("fortress"), "the possible values: {err}");
}

#[test]
fn fivefoot_arena_writes_the_arena_it_always_wrote() {
    let dir = std::env::temp_dir().join(format!("fivefoot-arena-same-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("a.ron");
    let args = ["arena", out.to_str().unwrap(), "--width", "16", "--height", "12", "--units", "6", "--seed", "3"];
    let (code, stdout, err) = fivefoot(&args);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("6 units"), "{stdout}");
    let golden = include_str!("../fixtures/arena-16x12-seed3.ron");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), golden);
    // The control: another seed, another arena.
    let (code, _, _) = fivefoot(&[&args[..8], &["--seed", "4"]].concat());
    assert_eq!(code, 0);
    assert_ne!(std::fs::read_to_string(&out).unwrap(), golden);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_edit_script_can_generate_a_level_and_undo_it() {
    let dir = std::env::temp_dir().join(format!("fivefoot-edit-generate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (edits, out) = (dir.join("edits.ron"), dir.join("out.ron"));
    let run = |script: &str| {
        std::fs::write(&edits, script).unwrap();
        let args = ["edit", "--new", "20x12", "--apply", edits.to_str().unwrap(), "--save", out.to_str().unwrap()];
        let (code, _, err) = fivefoot(&args);
        assert_eq!(code, 0, "{script}: {err}");
        fivefoot::level::ron_options()
            .from_str::<fivefoot::level::LevelDef>(&std::fs::read_to_string(&out).unwrap())
            .unwrap()
    };
    let generated = run("[Generate((style: Fortress, symmetry: LeftRight, units: 6, seed: 2, width: 20, height: 12))]");
    assert_eq!(generated.units.len(), 6);
    assert!(generated.map.rows.iter().any(|r| r.contains('#')), "walls were built");
    let undone = run("[Generate((style: Fortress, seed: 2)), Undo]");
    assert!(undone.units.is_empty() && undone.map.rows.iter().all(|r| r == &".".repeat(20)), "the blank map back");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `fivefoot level check` on a level that loads but plays badly: `FILE: warning: …` lines
/// naming the unit or side, and exit 0 (a level with only warnings is valid).
#[test]
fn level_check_prints_warnings_but_passes_the_level() {
    let dir = std::env::temp_dir().join(format!("fivefoot-cli-warn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("walled.ron");
    let text = [
        "(",
        "    version: 1,",
        "    name: \"Walled\",",
        "    map: (rows: [\"#######\", \"#..#..#\", \"#######\"]),",
        "    units: [",
        "        (id: \"b\", side: \"blue\", at: (1, 1), creature: \"goblin\"),",
        "        (id: \"r\", side: \"red\", at: (4, 1), creature: \"goblin\"),",
        "    ],",
        ")",
    ]
    .join("\n");
    std::fs::write(&file, text).unwrap();
    let (code, out, err) = fivefoot(&["level", "check", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    let at = format!("{}: warning: ", file.display());
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[..2].iter().all(|l| l.starts_with(&at)), "{out}");
    assert!(lines[0].contains("side \"blue\"") && lines[1].contains("side \"red\""), "{out}");
    assert_eq!(lines[2], format!("{}: ok, 2 warnings", file.display()));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A level names the AI of a side (`sides: [(name: "red", ai: "tactical:hard")]`); a name
/// that is no AI is reported with its file, line and column, and `play --ai` refuses a side
/// the level does not have before any window opens.
#[test]
fn a_level_names_each_sides_ai_and_bad_names_are_errors() {
    let dir = std::env::temp_dir().join(format!("fivefoot-level-ai-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let duel = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/mage-duel.ron")).unwrap();
    let with = |ai: &str| {
        let text =
            duel.replacen("    units: [", &format!("    sides: [(name: \"red\", ai: \"{ai}\")],\n    units: ["), 1);
        assert_ne!(text, duel);
        text
    };
    let good = dir.join("good.ron");
    std::fs::write(&good, with("tactical:hard")).unwrap();
    let (code, out, err) = fivefoot(&["level", "check", good.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    let cat = fivefoot::level::Catalogue::builtin();
    let level = fivefoot::level::Level::load(&good, &cat).unwrap();
    let hard = fivefoot::combat::AiKind::Tactical(fivefoot::combat::ai::Difficulty::Hard);
    assert_eq!(level.def.sides[0].ai, Some(hard));
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, with("tactical:brutal")).unwrap();
    let (code, out, err) = fivefoot(&["level", "check", bad.to_str().unwrap()]);
    assert_ne!(code, 0);
    let said = format!("{out}{err}");
    assert!(said.contains("bad.ron:") && said.contains("unknown difficulty \"brutal\""), "{said}");
    let (code, _, err) = fivefoot_on(Some(":4242"), &["play", good.to_str().unwrap(), "--ai", "green=tactical"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--ai names no side \"green\""), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
